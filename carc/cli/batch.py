"""The commands that work on many games at once, here or on Dask workers: `import`, `audit`,
`export-analytics` and `check`."""

from __future__ import annotations

import functools
import os
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

from carc.cli.common import (
    DbOption,
    JsonOption,
    SchedulerOption,
    StoredOption,
    WideOption,
    WorkersOption,
    batch_of,
    fail,
    out,
    print_json,
    print_standings,
    progress_bar,
    say_error,
    user_errors,
)
from carc.cli.tables import Cell, Column, Row, show_table
from domain.defaults import DEFAULT_DB
from domain.errors import UserError

if TYPE_CHECKING:
    from domain import events as ev
    from domain.store import GameStore
    from replays.batch import Batch, Source
    from replays.check import CheckResult


def import_(
    files: Annotated[
        list[str],
        typer.Argument(
            help="Recorded-game files (our JSON Lines, see README, or JCloisterZone .jcz saves), "
            "or folders of them (searched recursively).",
        ),
    ],
    workers: WorkersOption = None,
    scheduler: SchedulerOption = None,
    db: DbOption = DEFAULT_DB,
    json: JsonOption = False,
) -> None:
    """Check every event of recorded games against their rules, then store each valid game.

    A JCloisterZone save is read under JCloisterZone's reading of the rules (V-ORDER-JCZ and the
    JCZ-* switches). Nothing of a refused file is stored; with many files, each refused one is
    reported and the rest go on (read and checked in parallel, stored here).
    """
    paths = named_paths(files)
    if len(paths) == 1 and not paths[0].is_dir():
        import_one(paths[0], db=db, json=json)
        return
    import_many(paths, batch=batch_of(workers, scheduler), db=db, json=json)


def store_checked(store: GameStore, events: list[ev.Event]) -> bool:
    """Store a checked game's events; False if the very same game is stored already, a
    StoreError if another game has its id."""
    from domain.store import StoreError, storage_errors

    game_id = events[0].originator_id
    stored = store.game_events(game_id)
    if stored and stored != events:
        raise StoreError(f"another game with the id {game_id} is already in this store")
    if not stored:
        with storage_errors("cannot save"):
            store.save_events(events)
    return not stored


def import_one(file: Path, *, db: str, json: bool) -> None:
    from domain.store import open_store
    from projections.scores import score_report
    from replays.sources import read_source

    with user_errors():
        game, events = read_source(file)
        stored = not store_checked(open_store(db), events)
    if json:
        print_json(
            {
                "game": str(game.id),
                "events": len(events),
                "already_stored": stored,
                "final": score_report(game.state).final,
            }
        )
        return
    done = "Already stored: game" if stored else "Imported game"
    print_standings(game, f"{done} {game.id} ({len(events)} events) in {db}")


def import_many(paths: list[Path], *, batch: Batch, db: str, json: bool) -> None:

    from domain.store import StoreError, open_store
    from replays.batch import Refused, game_files, read_task, run

    files = game_files(paths)
    missing = [p for p in paths if not p.exists()]
    if missing:
        fail(f"file not found: {missing[0]}")
    if not files:
        fail(f"no .jsonl or .jcz files in {', '.join(map(str, paths))}")
    with user_errors():
        store = open_store(db)
    outcomes: list[dict[str, Any]] = []

    def done(_: int, part: list[tuple[Path, list[ev.Event]] | Refused]) -> None:
        for found in part:
            if isinstance(found, Refused):
                outcomes.append({"file": found.item, "status": "refused", "reason": found.reason})
                continue
            path, events = found
            try:
                status = "imported" if store_checked(store, events) else "already stored"
                outcomes.append({"file": str(path), "status": status, "game": str(events[0].originator_id)})
            except StoreError as e:
                outcomes.append({"file": str(path), "status": "refused", "reason": str(e)})
        progress.advance(task, len(part))

    with progress_bar() as progress:
        task = progress.add_task("importing", total=len(files))
        with user_errors():
            run(read_task, files, batch, done)
    store.close()
    outcomes.sort(key=lambda o: str(o["file"]))
    counts = Counter[str](str(o["status"]) for o in outcomes)
    for o in outcomes:
        if o["status"] == "refused":
            reason = str(o["reason"])
            say_error(reason if reason.startswith(str(o["file"])) else f"{o['file']}: {reason}")
    if json:
        print_json({"files": outcomes, "counts": counts})
    else:
        columns = (Column("file"), Column("status"), Column("game"))
        rows = [(Path(str(o["file"])).name, str(o["status"]), str(o.get("game", ""))) for o in outcomes]
        summary = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
        show_table(out, f"{len(outcomes)} file(s) into {db}: {summary}", columns, rows)
    if counts["refused"]:
        raise typer.Exit(1)


def audit_(
    sources: Annotated[
        list[str] | None,
        typer.Argument(help="Recorded-game files or folders of them, or ids of stored games."),
    ] = None,
    every: Annotated[bool, typer.Option("--all", help="Every game of the store.")] = False,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Write one row per game and reading here (a Parquet folder)."),
    ] = None,
    workers: WorkersOption = None,
    scheduler: SchedulerOption = None,
    db: StoredOption = DEFAULT_DB,
    wide: WideOption = False,
    json: JsonOption = False,
) -> None:
    """Re-check games under their own rule set and every other variant and ordering.

    One game: its readings side by side. Many (several files, folders, --all, or -o): every game
    under every reading, in parallel, written as a Parquet table with a summary per reading:
    how many games it finds illegal, and how many it gives another winner.
    """
    from replays.sources import NO_NAME

    names = sources or []
    if any(not name.strip() for name in names):  # not the current folder: an empty name names nothing
        fail(NO_NAME)
    if every or output is not None or len(names) != 1 or Path(names[0]).is_dir():
        audit_many(names, every=every, output=output, batch=batch_of(workers, scheduler), db=db, json=json)
        return
    audit_one(names[0], db=db, wide=wide, json=json)


def audit_one(source: str, *, db: str, wide: bool, json: bool) -> None:
    from domain.replay import audit
    from projections.audit import audit_reading
    from replays.sources import load_events

    with user_errors():
        events = load_events(source, db, check=False)
        readings = {name: audit_reading(v) for name, v in audit(events).items()}
    game_id = str(events[0].originator_id)
    if json:
        print_json({"game": game_id, "readings": readings})
        return
    columns = (
        Column("reading"),
        Column("verdict"),
        Column("event", justify="right"),
        Column("refused", wide=True, folds=True),
        Column("rule"),
        Column("why", wide=True, folds=True),
        Column("points", folds=True),
    )
    rows: list[Row] = []
    players = next(iter(readings.values())).final if readings else {}
    for name, r in readings.items():
        points = " ".join(str(n) for n in r.final.values())  # the players are in the title
        if r.legal:
            rows.append(
                (name, Cell("legal", "green"), "", "", "", "", f"{points}{'' if r.over else ' (unfinished)'}")
            )
        else:
            rows.append(
                (
                    name,
                    Cell("illegal", "red"),
                    str(r.event),
                    r.refused or "",
                    r.rule or "",
                    r.message or "",
                    f"{points} (at {r.reached})",
                )
            )
    title = f"Audit of game {game_id}; points of {', '.join(players)}"
    show_table(out, title, columns, rows, wide=wide)


def audit_many(
    names: list[str], *, every: bool, output: Path | None, batch: Batch, db: str, json: bool
) -> None:
    """The batch audit: every source under every reading, rows to `output`, a summary shown."""
    import shutil
    import tempfile

    from replays.batch import (
        AuditPart,
        ReadingSummary,
        audit_task,
        run,
        summarise,
        write_partition,
    )

    with user_errors():
        found = _audit_sources(names, every, db)
    if not found:
        fail("no games to audit: name files, folders or game ids, or --all")
    if output is not None and output.exists() and not output.is_dir():
        fail(f"{output} is a file; -o names a folder of Parquet files")
    partial = Path(tempfile.mkdtemp(prefix=f".{output.name}.", dir=output.parent)) if output else None
    summaries: dict[str, ReadingSummary] = {}
    refused: list[tuple[str, str]] = []
    games = rows = 0

    def done(index: int, part: AuditPart) -> None:
        nonlocal games, rows
        summarise(part.rows, summaries)
        refused.extend((r.item, r.reason) for r in part.refused)
        games += len({r.game for r in part.rows})
        rows += len(part.rows)
        if partial is not None:
            write_partition(partial, index, part.rows)
        progress.advance(task, batch.chunk)

    try:
        with progress_bar() as progress:
            task = progress.add_task("auditing", total=len(found))
            with user_errors():
                run(functools.partial(audit_task, db=db), found, batch, done)
        if partial is not None and output is not None:
            if output.exists():
                shutil.rmtree(output)
            partial.rename(output)
    finally:
        if partial is not None and partial.exists():
            shutil.rmtree(partial)
    for item, reason in refused:
        say_error(reason if reason.startswith(item) else f"{item}: {reason}")
    if json:
        print_json(
            {
                "games": games,
                "rows": rows,
                "output": str(output) if output else None,
                "readings": summaries,
                "refused": [{"item": i, "reason": r} for i, r in refused],
            }
        )
    else:
        columns = (
            Column("reading"),
            Column("games", justify="right"),
            Column("illegal", justify="right"),
            Column("another winner", justify="right"),
        )
        lines = [(name, str(r.games), str(r.illegal), str(r.other_winner)) for name, r in summaries.items()]
        where = f", rows in {output}" if output else ""
        show_table(out, f"Audit of {games} game(s){where}", columns, lines)
    if refused:
        raise typer.Exit(1)


def _audit_sources(names: list[str], every: bool, db: str) -> list[Source]:
    from replays.batch import Source, game_files
    from replays.sources import resolve_game

    found: list[Source] = []
    files = [Path(n) for n in names if Path(n).exists()]
    found += [Source("file", str(p)) for p in game_files(files)]
    ids = [n for n in names if not Path(n).exists()]
    if ids or every:
        from domain.store import open_store

        store = open_store(db, create=False)
        try:
            if every:
                found += [Source("game", str(s.originator_id)) for s in store.started_games()]
            for name in ids:
                if any(c in name for c in "./\\"):
                    raise UserError(f"file not found: {name}")
                found.append(Source("game", str(resolve_game(store, name))))
        finally:
            store.close()
    return found


def export_analytics_(
    games: Annotated[
        list[str] | None, typer.Argument(help="Game ids or prefixes (default: every game).")
    ] = None,
    fmt: Annotated[Literal["parquet", "csv"], typer.Option("--format", help="parquet or csv.")] = "parquet",
    output: Annotated[Path, typer.Option("--output", "-o", help="Folder for the table files.")] = Path(
        "analytics"
    ),
    workers: WorkersOption = None,
    scheduler: SchedulerOption = None,
    db: StoredOption = DEFAULT_DB,
    json: JsonOption = False,
) -> None:
    """Write the analytics tables (games, events, scores, features, bids) of stored games.

    Games are read a chunk at a time, in this process or on Dask workers (--workers,
    --scheduler), and their rows written as each chunk arrives, so memory stays flat.
    """

    from domain.store import open_store
    from projections.analytics import TableFiles
    from replays.batch import analytics_task, run
    from replays.sources import resolve_game

    with user_errors():
        store = open_store(db, create=False)
        ids = (
            [resolve_game(store, g) for g in games]
            if games
            else [s.originator_id for s in store.started_games()]
        )
        store.close()
        try:
            with progress_bar() as progress, written_whole(output) as partial:
                task = progress.add_task("exporting games", total=len(ids))
                files = TableFiles(partial, fmt)
                try:

                    def done(_: int, rows: dict[str, list[dict[str, Any]]]) -> None:
                        files.write(rows)
                        progress.advance(task, len({r["game"] for r in rows["games"]}))

                    run(
                        functools.partial(analytics_task, db=db),
                        [str(g) for g in ids],
                        batch_of(workers, scheduler),
                        done,
                    )
                finally:
                    files.close()
        except OSError as e:
            fail(f"cannot write to {output}: {e}")
        written = files.written
    if json:
        print_json({"games": len(ids), "folder": str(output), "rows": written})
        return
    columns = (Column("table"), Column("rows", justify="right"))
    lines = [(f"{name}.{fmt}", str(n)) for name, n in written.items()]
    show_table(out, f"{len(ids)} game(s) written to {output} as {fmt}", columns, lines)


def check(
    paths: Annotated[list[str], typer.Argument(help="JCloisterZone .jcz files, or folders holding them.")],
    workers: WorkersOption = None,
    scheduler: SchedulerOption = None,
    wide: WideOption = False,
    json: JsonOption = False,
) -> None:
    """Replay recorded games through our engine and compare with what each file expects.

    Exits with 1 when a game disagrees or a file cannot be read.
    """

    from replays.batch import check_task, run
    from replays.check import FAILING, jcz_paths

    files = jcz_paths(named_paths(paths))
    if not files:
        fail(f"no .jcz files in {', '.join(map(str, paths))}")
    parts: dict[int, list[CheckResult]] = {}
    # Progress goes to stderr, so that --json keeps stdout to its one document.
    with progress_bar(disable=len(files) < 2) as progress:
        task = progress.add_task("checking", total=len(files))

        def done(index: int, part: list[CheckResult]) -> None:
            parts[index] = part
            progress.advance(task, len(part))

        run(check_task, files, batch_of(workers, scheduler), done)
    results = [result for index in sorted(parts) for result in parts[index]]
    verdicts = Counter[str](r.verdict for r in results)
    if json:
        print_json({"results": results, "verdicts": verdicts})
    else:
        print_check_table(results, verdicts, wide)
    for r in results:  # a file that cannot be read or replayed: its own line, whatever the width
        if r.verdict == "error":
            reason = r.reason or "cannot be replayed"
            say_error(reason if reason.startswith(r.game) else f"{r.game}: {reason}")
    if any(r.verdict in FAILING for r in results):
        raise typer.Exit(1)


def print_check_table(results: list[CheckResult], verdicts: Counter[str], wide: bool) -> None:
    summary = ", ".join(f"{n} {verdict}" for verdict, n in sorted(verdicts.items())) or "no files"
    columns: tuple[Column, ...] = (
        Column("game"),
        Column("folder", wide=True),
        Column("sets", folds=True),
        Column("players", justify="right"),
        Column("verdict", folds=True),
        Column("turn", justify="right"),
        Column("decision", wide=True, justify="right"),
        Column("we computed", wide=True, folds=True),
        Column("the file says", wide=True, folds=True),
    )
    colours = {"agrees": "green", "disagrees": "red", "error": "red", "unsupported": "yellow"}
    rows: list[Row] = []
    for r in results:
        d = r.disagreement
        rows.append(
            (
                Path(r.game).name,
                str(Path(r.game).parent),
                "+".join(r.sets),
                str(len(r.players)),
                Cell(r.verdict + (f" ({d.what})" if d else ""), colours.get(r.verdict, "default")),
                "" if d is None or d.turn is None else str(d.turn),
                "" if d is None or d.decision is None else str(d.decision),
                d.ours if d else (r.reason or ""),  # unsupported: what we lack; error: why
                d.theirs if d else "",
            )
        )
    title = f"{len(results)} game(s): {summary}"
    folders = {str(Path(r.game).parent) for r in results}
    if wide and folders:  # the folder they share is named once, in the title; each row its rest
        common = os.path.commonpath(folders)
        title = f"{len(results)} game(s) in {common}: {summary}"
        if len(folders) == 1:
            columns = (columns[0], *columns[2:])
            rows = [(row[0], *row[2:]) for row in rows]
        else:
            rows = [(row[0], os.path.relpath(str(row[1]), common), *row[2:]) for row in rows]
    show_table(out, title, columns, rows, wide=wide)


@contextmanager
def written_whole(output: Path) -> Iterator[Path]:
    """A folder beside `output` to write a command's files into. When the block ends well they
    replace the files of the same names in `output` (made if missing); when it fails or is
    interrupted (Ctrl-C) they are removed: nothing partial is left."""
    import shutil
    import tempfile

    output.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f".{output.name}.", dir=output.parent))
    try:
        yield partial
        output.mkdir(exist_ok=True)
        for path in sorted(partial.iterdir()):
            os.replace(path, output / path.name)
    finally:
        shutil.rmtree(partial, ignore_errors=True)


def named_paths(names: list[str]) -> list[Path]:
    """The files and folders a command is given; an empty name is refused, where a path made of
    it would be the current folder."""
    if any(not name.strip() for name in names):
        fail("an empty name names no file or folder")
    return [Path(name) for name in names]
