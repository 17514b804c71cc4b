"""`carc export-analytics`: every table has the rows the stored games imply, in both formats.

The DuckDB query shown in the README runs here on the exported Parquet files.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from carc.cli import app
from domain.bots import play_bot_game
from domain.expansions import bazaars as bz
from domain.readings import switch
from domain.store import open_store
from projections.analytics import SCHEMAS

GAMES = [
    *(play_bot_game(players, seed) for players, seed in ((2, 1), (3, 2), (2, 3))),
    play_bot_game(3, 4, expansions=("base", "bcb", "tb")),
]
BIDS = [e for g in GAMES for e in g.pending if isinstance(e, bz.BazaarTileChosen | bz.BidRaised)]

README_QUERY = """
SELECT s.player, count(DISTINCT s.game) AS games, sum(s.points) AS points
FROM 'OUT/scores.parquet' s JOIN 'OUT/games.parquet' g USING (game)
WHERE g.over
GROUP BY s.player ORDER BY points DESC, s.player
"""


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("analytics") / "games.sqlite")
    store = open_store(path)
    for game in GAMES:
        store.save_game(game)
    return path


def export(db: str, out: Path, *args: str) -> dict[str, int]:
    result = CliRunner().invoke(app, ["export-analytics", "--db", db, "-o", str(out), "--json", *args])
    assert result.exit_code == 0, result.stderr
    rows: dict[str, int] = json.loads(result.stdout)["rows"]
    return rows


def test_parquet_tables_have_the_expected_rows(db: str, tmp_path: Path) -> None:
    rows = export(db, tmp_path)
    tables = {name: pq.read_table(tmp_path / f"{name}.parquet") for name in SCHEMAS}
    assert {name: t.num_rows for name, t in tables.items()} == rows
    assert all(tables[name].schema.names == SCHEMAS[name].names for name in SCHEMAS)
    assert rows["games"] == len(GAMES)
    assert rows["events"] == sum(g.version for g in GAMES)
    assert rows["scores"] == sum(len(g.state.awards) for g in GAMES)
    assert rows["bids"] == len(BIDS) > 0
    bids = tables["bids"].to_pylist()
    assert [(b["version"], b["amount"], b["opening"]) for b in bids] == [
        (e.originator_version, e.bid, isinstance(e, bz.BazaarTileChosen)) for e in BIDS
    ]
    assert all(b["tile"] for b in bids)
    games = {r["game"]: r for r in tables["games"].to_pylist()}
    for game in GAMES:
        row = games[str(game.id)]
        assert (row["events"], row["turns"], row["over"]) == (game.version, game.state.turn, True)
        assert row["players"] == list(game.state.players)
        assert row["expansions"] == list(game.state.expansions)
        assert row["rules"]["order"] == switch(game.state.rules, "order") and row["rules"]["without"] == []
        assert dict(row["final"]) == dict(zip(game.state.players, game.state.scores, strict=True))
        best = max(game.state.scores)
        assert row["winners"] == [
            n for n, p in zip(game.state.players, game.state.scores, strict=True) if p == best
        ]
    # Every in-play award is for a completed feature; unoccupied completed features have no scorers.
    features = tables["features"].to_pylist()
    in_play = {
        (a.version, a.category)
        for g in GAMES
        for a in g.state.awards
        if not a.final and a.category in ("road", "city", "cloister")
    }
    assert in_play <= {(f["version"], f["kind"]) for f in features if f["players"]}
    assert all(f["size"] >= 1 and f["points"] >= 1 for f in features)


def test_csv_tables_match_the_parquet_ones(db: str, tmp_path: Path) -> None:
    parquet_rows = export(db, tmp_path / "p")
    assert export(db, tmp_path / "c", "--format", "csv") == parquet_rows
    with (tmp_path / "c" / "bids.csv").open() as f:
        assert next(csv.reader(f)) == SCHEMAS["bids"].names
    with (tmp_path / "c" / "scores.csv").open() as f:
        assert sum(int(r["points"]) for r in csv.DictReader(f)) == sum(sum(g.state.scores) for g in GAMES)


def test_only_the_games_asked_for(db: str, tmp_path: Path) -> None:
    assert export(db, tmp_path, str(GAMES[1].id)[:8])["games"] == 1


def test_the_readme_duckdb_query_gives_the_final_points(db: str, tmp_path: Path) -> None:
    export(db, tmp_path)
    result = duckdb.execute(README_QUERY.replace("OUT", str(tmp_path))).fetchall()
    totals: dict[str, int] = {}
    for game in GAMES:
        for name, points in zip(game.state.players, game.state.scores, strict=True):
            totals[name] = totals.get(name, 0) + points
    assert {name: points for name, _, points in result} == totals
    assert all(games >= 1 for _, games, _ in result)


def test_tables_are_what_duckdb_and_pandas_users_expect(db: str, tmp_path: Path) -> None:
    """Lists as lists, the rule set as a struct, points as a map, players by name everywhere."""
    export(db, tmp_path)
    games = pq.read_table(tmp_path / "games.parquet").schema
    assert (
        pa.types.is_list(games.field("players").type)
        and games.field("players").type.value_type == pa.string()
    )
    final = games.field("final").type
    assert pa.types.is_map(final) and (final.key_type, final.item_type) == (pa.string(), pa.int64())
    assert games.field("rules").type.get_field_index("order") >= 0
    out = str(tmp_path)
    orders = duckdb.execute(f"SELECT DISTINCT g.rules.order FROM '{out}/games.parquet' g").fetchall()
    assert orders == [("hig",)]
    wins = duckdb.execute(
        f"SELECT w, count(*) FROM '{out}/games.parquet', unnest(winners) t(w) GROUP BY w"
    ).fetchall()
    assert sum(n for _, n in wins) >= len(GAMES)
    for table in ("events", "scores", "bids"):
        names = duckdb.execute(
            f"SELECT DISTINCT player FROM '{out}/{table}.parquet' WHERE player IS NOT NULL"
        ).fetchall()
        assert {n for (n,) in names} <= {n for g in GAMES for n in g.state.players}
    seats = duckdb.execute(
        f"SELECT count(*) FROM '{out}/events.parquet' e JOIN '{out}/games.parquet' g USING (game) "
        "WHERE e.seat IS NOT NULL AND g.players[e.seat + 1] <> e.player"
    ).fetchone()
    assert seats == (0,)


def test_csv_writes_nested_cells_as_json(db: str, tmp_path: Path) -> None:
    export(db, tmp_path, "--format", "csv")
    with (tmp_path / "games.csv").open() as f:
        rows = {r["game"]: r for r in csv.DictReader(f)}
    for game in GAMES:
        row = rows[str(game.id)]
        assert json.loads(row["players"]) == list(game.state.players)
        assert json.loads(row["final"]) == dict(zip(game.state.players, game.state.scores, strict=True))
        assert json.loads(row["rules"])["order"] == "hig"


def test_csv_cells_a_spreadsheet_would_run_are_inert_and_parquet_is_exact(tmp_path: Path) -> None:
    names = ("=HYPERLINK(1)", "+1", "-x", "@SUM(A1)")
    path = str(tmp_path / "g.sqlite")
    game = play_bot_game(names, 2)
    open_store(path).save_game(game)
    export(path, tmp_path / "c", "--format", "csv")
    export(path, tmp_path / "p")
    with (tmp_path / "c" / "scores.csv").open() as f:
        shown = {r["player"] for r in csv.DictReader(f)}
    assert shown == {"'" + name for name in names}
    exact = set(pq.read_table(tmp_path / "p" / "scores.parquet").column("player").to_pylist())
    assert exact == set(names)
