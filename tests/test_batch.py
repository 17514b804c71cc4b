"""Whole collections of games (issue 13): batch import and audit, in this process and on a real
Dask LocalCluster, with the same results either way; bad files reported, the rest go on."""

from __future__ import annotations

import functools
import json
import shutil
from collections import Counter
from pathlib import Path

import duckdb
import pytest

from domain.bots import play_bot_game
from domain.expansions import parts_for
from domain.expansions.bazaars import ORDERS
from domain.readings import audit_variants, rule_set
from domain.store import open_store
from replays import records
from replays.batch import AuditPart, Batch, Source, audit_task, run
from replays.jcz import read_jcz, unsupported as save_unsupported
from tests.reference import JCZ, require
from tests.test_cli import carc

SET_MIXES = [
    ("base",),
    ("base", "bcb"),
    ("base", "bcb", "tb"),
    ("base", "ic"),
    ("base", "river"),
    ("base", "am"),
]
SET_MIXES += [
    ("base", "pd"),
    ("base", "tower"),
    ("base", "river", "ic", "am", "pd", "tower", "bcb", "tb", "cult", "flier", "corn", "bigtop"),
]
SET_MIXES += [("base", "festival")]
SET_MIXES += [("base", "tunnel")]
SET_MIXES += [("base", "gold")]
SET_MIXES += [("base", "kr")]
SET_MIXES += [("base", "mw")]
SET_MIXES += [("base", "hs")]
SET_MIXES += [("base", "ferries")]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Forty games: every set, every ordering, 2 to 4 players."""
    db = str(tmp_path_factory.mktemp("batch") / "games.sqlite")
    games = open_store(db)
    for n, sets in enumerate(SET_MIXES):
        for m, order in enumerate(ORDERS):
            games.save_game(
                play_bot_game(2 + (n + m) % 3, 100 * n + m, expansions=sets, rules=rule_set(order=order))
            )
    games.close()
    return db


def audit_all(db: str, batch: Batch) -> AuditPart:
    sources = [Source("game", str(s.originator_id)) for s in open_store(db, create=False).started_games()]
    parts: dict[int, AuditPart] = {}
    run(functools.partial(audit_task, db=db), sources, batch, parts.__setitem__)
    return AuditPart(
        [row for i in sorted(parts) for row in parts[i].rows],
        [r for i in sorted(parts) for r in parts[i].refused],
    )


def test_a_local_cluster_gives_exactly_the_rows_of_the_sequential_path(store: str) -> None:
    alone = audit_all(store, Batch(workers=1, chunk=4))
    spread = audit_all(store, Batch(workers=2, chunk=4))  # a real LocalCluster: two worker processes
    per_game = Counter(r.game for r in alone.rows)
    # Recorded + every other reading of the rules of the parts in that game.
    readings = {
        str(s.originator_id): 1 + len(audit_variants(s.rules, {p.name for p in parts_for(s.expansions, ())}))
        for s in open_store(store, create=False).started_games()
    }
    assert len(per_game) == len(SET_MIXES) * len(ORDERS) and per_game == readings
    assert spread == alone
    assert {r.reading for r in alone.rows if not r.legal}  # some readings refuse some games


def test_carc_audit_writes_one_partition_per_chunk_that_duckdb_reads(store: str, tmp_path: Path) -> None:
    out = tmp_path / "audit.parquet"
    code, stdout, err = carc("audit", "--all", "--db", store, "-o", str(out), "--workers", "1", "--json")
    assert code == 0, err
    summary = json.loads(stdout)
    assert summary["games"] == len(SET_MIXES) * len(ORDERS)
    assert len(list(out.glob("part-*.parquet"))) == -(-summary["games"] // 25)
    rows = duckdb.execute(
        f"SELECT reading, count(*), sum(CAST(NOT legal AS INT)) FROM '{out}/*.parquet' GROUP BY 1"
    ).fetchall()
    assert {reading: (games, illegal) for reading, games, illegal in rows} == {
        name: (r["games"], r["illegal"]) for name, r in summary["readings"].items()
    }
    recorded = duckdb.execute(
        f"SELECT bool_and(legal) FROM '{out}/*.parquet' WHERE reading = 'recorded'"
    ).fetchall()
    assert recorded == [(True,)]


def test_a_folder_with_bad_files_imports_the_good_ones_and_names_each_bad_one(tmp_path: Path) -> None:
    folder = tmp_path / "saves"
    (folder / "deeper").mkdir(parents=True)
    records.write(play_bot_game(2, 1).collect_events(), folder / "good.jsonl")
    records.write(play_bot_game(3, 2).collect_events(), folder / "deeper" / "good2.jsonl")
    shutil.copy(require(JCZ / "oracle" / "basic-p2-s200001.jcz"), folder / "good3.jcz")
    (folder / "corrupt.jsonl").write_bytes(b'{"format": "carc-record", "version": 1, \xff}\n')
    (folder / "truncated.jcz").write_bytes(
        require(JCZ / "oracle" / "basic-p2-s200005.jcz").read_bytes()[:2000]
    )
    # A game of sets the engine does not play yet (issue 27's: the wave-3 folder's).
    unsupported = next(
        p for p in sorted(require(JCZ / "oracle-wave3").glob("*.jcz")) if save_unsupported(read_jcz(p))
    )
    shutil.copy(unsupported, folder / "unsupported.jcz")
    (folder / "notes.txt").write_text("not a game")
    db = str(tmp_path / "s.sqlite")
    code, out, err = carc("import", str(folder), "--db", db, "--json")
    assert code == 1
    outcome = {Path(f["file"]).name: f["status"] for f in json.loads(out)["files"]}
    assert outcome == {
        "good.jsonl": "imported",
        "good2.jsonl": "imported",
        "good3.jcz": "imported",
        "corrupt.jsonl": "refused",
        "truncated.jcz": "refused",
        "unsupported.jcz": "refused",
    }
    errors = err.strip().splitlines()
    assert len(errors) == 3 and all(line.startswith(f"error: {folder}") for line in errors)
    assert len(list(open_store(db, create=False).started_games())) == 3
    code, out, _ = carc("import", str(folder), "--db", db, "--json")
    assert json.loads(out)["counts"]["already stored"] == 3


def test_export_analytics_on_a_cluster_writes_the_rows_of_one_process(store: str, tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    def tables(workers: str) -> dict[str, list[str]]:
        out = tmp_path / f"w{workers}"
        code, _, err = carc("export-analytics", "--db", store, "-o", str(out), "--workers", workers, "--json")
        assert code == 0, err
        return {
            path.stem: sorted(
                json.dumps(row, sort_keys=True, default=str) for row in pq.read_table(path).to_pylist()
            )
            for path in out.glob("*.parquet")
        }

    alone = tables("1")
    assert alone["games"] and alone == tables("2")
