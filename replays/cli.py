"""`carc`: play, store, inspect and score Carcassonne games from the command line.

Every command that prints results takes `--json` and then prints exactly one JSON document
on stdout. Errors go to stderr with a non-zero exit code and nothing half-written.
"""

from __future__ import annotations

import functools
import signal
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, NoReturn
from uuid import UUID

import msgspec
import typer
from rich.console import Console
from rich.text import Text

from domain.defaults import DEFAULT_DB, DEFAULT_NAMES
from domain.errors import RuleViolation, UserError
from domain.names import name_problem
from domain.rules import RuleSet
from domain.sets import SET_CODES
from replays.tables import Cell, Column, Row, printable, show_table

# Each command imports what only it needs (the store's engine, the PostgreSQL driver, Parquet,
# JCloisterZone saves, the web stack) when it runs: `carc --help` and a file's scores start at once.
if TYPE_CHECKING:
    from domain import events as ev
    from domain.aggregate import Game
    from domain.store import GameStore
    from replays.batch import Batch, Source
    from replays.check import CheckResult

app = typer.Typer(
    help="Event-sourced Carcassonne: play bot games, store them, replay and score them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",  # a docstring's lines join into paragraphs wrapped to the terminal
)
out = Console()
err = Console(stderr=True)

DbOption = Annotated[
    str,
    typer.Option(
        "--db",
        envvar="CARC_DB",
        help="Game store: an SQLite file path (created if missing), postgresql://… or 'memory'.",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout.")]
GameArgument = Annotated[str, typer.Argument(help="Game id (a unique prefix is enough).")]
SourceArgument = Annotated[
    str, typer.Argument(help="A recorded-game file, or the id (or a unique prefix) of a stored game.")
]
UntilOption = Annotated[int | None, typer.Option("--until", min=1, help="As of this event number.")]
TurnOption = Annotated[int | None, typer.Option("--turn", min=0, help="As of the end of this turn.")]


def _print_version(asked: bool) -> None:
    if asked:
        from importlib.metadata import version

        out.print(f"carc {version('carcassonne-replay')}", highlight=False, markup=False)
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """Event-sourced Carcassonne: play bot games, store them, replay and score them."""


def say_error(message: str) -> None:
    # The message is text, never markup: it may quote a file name or a player's name.
    err.print(Text.assemble(("error:", "bold red"), " ", printable(message)), highlight=False, soft_wrap=True)


def fail(message: str, code: int = 1) -> NoReturn:
    say_error(message)
    raise typer.Exit(code)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the errors users can cause into a message and exit code 1."""
    try:
        yield
    except (UserError, RuleViolation) as e:
        fail(str(e))


def print_json(data: Any) -> None:
    sys.stdout.write(msgspec.json.encode(data).decode() + "\n")


def resolve_game(store: GameStore, text: str) -> UUID:
    """A game id from its full form or a unique prefix."""
    from domain.store import StoreError

    try:
        return UUID(text)
    except ValueError:
        pass
    matches = [s.originator_id for s in store.started_games() if str(s.originator_id).startswith(text)]
    if not matches:
        raise StoreError(f"no game with id {text!r} in this store")
    if len(matches) > 1:
        raise StoreError(f"{text!r} matches {len(matches)} games; give more of the id")
    return matches[0]


def parse_expansions(text: str) -> tuple[str, ...]:
    chosen = tuple(dict.fromkeys(x.strip() for x in text.split(",") if x.strip()))
    unknown = [x for x in chosen if x not in SET_CODES]
    if unknown:
        fail(f"unknown expansion(s) {', '.join(unknown)}; choose from {', '.join(SET_CODES)}")
    if "base" not in chosen:
        chosen = ("base", *chosen)
    return chosen


def parse_rules(order: str, variants: list[str], *, jcz: bool = False) -> RuleSet:
    """A rule set from `--order` and `--variant NAME[=on|off]` options, on top of JCloisterZone's
    reading with `--jcz`."""
    from domain.expansions.bazaars import ORDERS
    from domain.readings import CHOICES, OWNERS, VARIANTS, defaults, rule_set, with_switches

    if jcz:
        from replays.jcz import JCZ_READING

        reading = dict(JCZ_READING)
        order = reading.pop("order")
        base = rule_set(**reading)
    else:
        base = RuleSet()
    if order not in ORDERS:
        fail(f"unknown ordering {order!r}; choose from {', '.join(ORDERS)}")
    switches: dict[str, object] = {}
    for text in variants:
        name, _, value = text.partition("=")
        wanted = name.strip().upper()
        field = VARIANTS.get(wanted)
        if field is None and wanted not in CHOICES:
            fail(f"unknown variant {name!r}; choose from {', '.join([*VARIANTS, *CHOICES])}")
        if value.strip().lower() not in ("", "on", "off"):
            fail(f"variant {name} takes =on or =off, not ={value}")
        on = value.strip().lower() != "off"
        if field is not None:
            switches[field] = on
        else:  # one value of a switch of several; off: back to its default
            field, chosen = CHOICES[wanted]
            switches[field] = chosen if on else getattr(defaults(OWNERS[field]), field)
    return with_switches(base, order=order, **switches)


def print_standings(game: Game, title: str) -> None:
    from projections.scores import standings

    columns = (Column("rank", justify="right"), Column("player"), Column("points", justify="right"))
    rows = [(str(s.rank), s.name, str(s.points)) for s in standings(game.state)]
    show_table(out, title, columns, rows)


@app.command()
def play(
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=6, help="Number of bots.")] = 2,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed for the pile and every bot choice.")] = 1,
    expansions: Annotated[
        str, typer.Option("--expansions", "-e", help=f"Comma-separated sets: {', '.join(SET_CODES)}.")
    ] = "base",
    names: Annotated[
        str | None, typer.Option("--names", help="Comma-separated player names (default Alice, Bob…).")
    ] = None,
    order: Annotated[
        str,
        typer.Option(
            "--order", help="Builder-versus-bazaar ordering: hig, builder-first, facedown or jcz (V-ORDER-*)."
        ),
    ] = "hig",
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            help="A rule variant by its RULES.md id, e.g. V-CASTLE-ENDS or V-CASTLE-SAME-TURN=off "
            "(repeatable).",
        ),
    ] = None,
    jcz: Annotated[
        bool,
        typer.Option(
            "--jcz",
            help="Play by JCloisterZone's reading (V-ORDER-JCZ and every JCZ-* switch), as its saves "
            "are imported; such a game can be exported as a .jcz save.",
        ),
    ] = False,
    db: DbOption = DEFAULT_DB,
    json: JsonOption = False,
) -> None:
    """Play a complete game between seeded random bots, store it, reload it and print the standings."""
    from domain.bots import play_bot_game
    from domain.store import open_store
    from projections.board import board_view
    from projections.scores import score_report

    sets = parse_expansions(expansions)
    seats = tuple(n.strip() for n in names.split(",")) if names else DEFAULT_NAMES[:players]
    if len(seats) != players:
        fail(f"--names gives {len(seats)} names for {players} players")
    problem = next(filter(None, map(name_problem, seats)), None)
    if problem:
        fail(problem)
    rules = parse_rules("jcz" if jcz and order == "hig" else order, variant or [], jcz=jcz)
    with user_errors():
        game = play_bot_game(seats, seed, expansions=sets, rules=rules)
        store = open_store(db)
        store.save_game(game)
        reloaded = store.load(game.id)
    if board_view(reloaded.state) != board_view(game.state):
        fail("the game reloaded from the store differs from the game played (please report this)")
    if json:
        report = score_report(reloaded.state)
        print_json(
            {
                "game": report.game,
                "seed": seed,
                "expansions": sets,
                "rules": rules,
                "final": report.final,
                "standings": report.standings,
                "events": reloaded.version,
            }
        )
        return
    print_standings(reloaded, f"Game {reloaded.id} (seed {seed}, {', '.join(sets)})")
    stored = Text.assemble(
        f"stored in {printable(db)} as ", (str(reloaded.id), "bold"), f" ({reloaded.version} events)"
    )
    out.print(stored, highlight=False)


@app.command()
def games(db: DbOption = DEFAULT_DB, json: JsonOption = False) -> None:
    """List the games in the store."""
    from domain.store import open_store

    with user_errors():
        started = list(open_store(db, create=False).started_games())
    if json:
        print_json(
            [
                {
                    "game": str(s.originator_id),
                    "players": s.players,
                    "expansions": s.expansions,
                    "seed": s.seed,
                }
                for s in started
            ]
        )
        return
    columns = (Column("game"), Column("players"), Column("expansions"), Column("seed", justify="right"))
    rows = [
        (str(s.originator_id), ", ".join(s.players), ",".join(s.expansions), str(s.seed)) for s in started
    ]
    show_table(out, f"{len(started)} game(s) in {db}", columns, rows)


def load_events(source: str, db: str, *, check: bool = True) -> list[ev.Event]:
    """The events of a recorded-game file or of a stored game.

    A file's lines are checked for form, and against its rules when `check` (errors then name
    the line); the audit checks rules itself, under each rule set, so it passes False.
    """
    path = Path(source)
    if path.is_file():
        from replays.sources import is_jcz, read_source

        if is_jcz(path) or check:
            return read_source(path)[1]
        from replays import records

        return records.read_events(path)
    if path.is_dir():
        raise UserError(f"{source} is a folder, not a recorded-game file")
    if any(c in source for c in "./\\"):  # a game id (or prefix) is hex digits and dashes only
        raise UserError(f"file not found: {source}")
    from domain.store import open_store

    return stored_events(open_store(db, create=False), source)


def stored_events(store: GameStore, game: str) -> list[ev.Event]:
    from domain.store import StoreError

    game_id = resolve_game(store, game)
    events = store.game_events(game_id)
    if not events:
        raise StoreError(f"no game {game_id} in this store")
    return events


def replayed(events: list[ev.Event], until: int | None, turn: int | None) -> Game:
    """The game as it was at event `until`, or at the end of turn `turn`, or at its end."""
    from domain.replay import events_through_turn, replay

    if until is not None and turn is not None:
        fail("give --until or --turn, not both")
    if turn is not None:
        until = events_through_turn(events, turn)
    return replay(events[:until] if until is not None else events)


@app.command()
def scores(
    source: SourceArgument,
    db: DbOption = DEFAULT_DB,
    until: UntilOption = None,
    turn: TurnOption = None,
    json: JsonOption = False,
) -> None:
    """Standings and every points award of a stored or recorded game."""
    from projections.scores import score_report

    with user_errors():
        game = replayed(load_events(source, db), until, turn)
    report = score_report(game.state)
    if json:
        print_json(report)
        return
    columns = (
        Column("event", justify="right"),
        Column("turn", justify="right"),
        Column("player"),
        Column("points", justify="right"),
        Column("rule"),
        Column("for", folds=True),
    )
    names = game.state.players
    rows = [
        (
            str(a.version),
            str(a.turn),
            names[a.player],
            str(a.points),
            a.rule,
            f"{a.category}{' (end)' if a.final else ''}: {', '.join(f'{n} {k}' for k, n in a.parts)}",
        )
        for a in report.timeline
    ]
    show_table(out, f"Score timeline of {report.game}", columns, rows)
    print_standings(game, "Final standings" if report.over else f"Standings at event {report.version}")


@app.command("replay")
def replay_(
    source: SourceArgument,
    db: DbOption = DEFAULT_DB,
    until: UntilOption = None,
    turn: TurnOption = None,
    json: JsonOption = False,
) -> None:
    """The board and the scores of a stored or recorded game, at its end, an event or a turn."""
    from projections.board import board_view
    from projections.scores import score_report
    from projections.text import render_board

    with user_errors():
        game = replayed(load_events(source, db), until, turn)
    if json:
        print_json({"board": board_view(game.state), "scores": score_report(game.state)})
        return
    out.print(render_board(game.state), highlight=False, markup=False)
    state = game.state
    print_standings(game, f"Event {state.version}, turn {state.turn}, {state.phase}")


@app.command()
def render(
    source: SourceArgument,
    output: Annotated[
        Path, typer.Option("--output", "-o", help="The SVG file to write; - writes to standard output.")
    ],
    db: DbOption = DEFAULT_DB,
    until: UntilOption = None,
    turn: TurnOption = None,
    json: JsonOption = False,
) -> None:
    """Draw the board of a stored or recorded game as SVG: at its end, an event or a turn."""
    from projections.svg import render_svg
    from replays.files import STDOUT, write_whole

    if json and output == STDOUT:
        fail("--json prints a summary on standard output; write the board to a file with -o FILE")
    with user_errors():
        game = replayed(load_events(source, db), until, turn)
    state = game.state
    try:
        write_whole(output, render_svg(state, title=f"Game {game.id}").encode())
    except OSError as e:
        fail(f"cannot write {output}: {e.strerror or e}")
    if json:
        print_json({"game": str(game.id), "file": str(output), "version": state.version, "turn": state.turn})
    elif output != STDOUT:
        err.print(
            printable(f"wrote {output}: the board at event {state.version}, turn {state.turn}"), markup=False
        )


@app.command("export")
def export(
    game: GameArgument,
    output: Annotated[
        Path, typer.Option("--output", "-o", help="The file to write; - writes to standard output.")
    ],
    fmt: Annotated[
        Literal["auto", "jsonl", "jcz"],
        typer.Option(
            "--format",
            help="jsonl (our recorded-game file), jcz (a JCloisterZone 5.x save) or auto: "
            "jcz for a FILE ending in .jcz, else jsonl.",
        ),
    ] = "auto",
    db: DbOption = DEFAULT_DB,
    json: JsonOption = False,
) -> None:
    """Write a stored game to a file: our JSON Lines record (see README) or a JCloisterZone save.

    A JCloisterZone save carries the draw order, so its client replays the same tiles; it is
    checked before it is written, by importing it again: a game JCloisterZone would have played
    otherwise (another reading of the rules, a set it does not share) is refused, saying why.
    The file is written whole or not at all.
    """
    from domain.store import open_store
    from replays import records
    from replays.files import STDOUT, write_whole

    if json and output == STDOUT:
        fail("--json prints a summary on standard output; write the game to a file with -o FILE")
    kind = fmt if fmt != "auto" else "jcz" if output.suffix.lower() == ".jcz" else "jsonl"
    with user_errors():
        events = stored_events(open_store(db, create=False), game)
        if kind == "jcz":
            from replays.jcz_export import export_jcz

            data = export_jcz(events)
        else:
            data = records.encode(events)
    try:
        write_whole(output, data)
    except OSError as e:
        fail(f"cannot write {output}: {e.strerror or e}")
    game_id = events[0].originator_id
    if json:
        print_json({"game": str(game_id), "file": str(output), "format": kind, "events": len(events)})
    elif output != STDOUT:
        err.print(
            printable(f"wrote {output} ({kind}): {len(events)} events of game {game_id}"),
            highlight=False,
            markup=False,
            soft_wrap=True,
        )


WorkersOption = Annotated[
    int | None,
    typer.Option(
        "--workers",
        min=1,
        help="Worker processes of a local Dask cluster (default: one per core for big batches, "
        "else this process; 1: always this process).",
    ),
]
SchedulerOption = Annotated[
    str | None,
    typer.Option("--scheduler", help="A running Dask scheduler to use instead, e.g. tcp://host:8786."),
]


def batch_of(workers: int | None, scheduler: str | None) -> Batch:
    from replays.batch import Batch

    return Batch(workers=workers, scheduler=scheduler)


@app.command("import")
def import_(
    files: Annotated[
        list[Path],
        typer.Argument(
            help="Recorded-game files (our JSON Lines, see README, or JCloisterZone .jcz saves), "
            "or folders of them (searched recursively)."
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
    if len(files) == 1 and not files[0].is_dir():
        import_one(files[0], db=db, json=json)
        return
    import_many(files, batch=batch_of(workers, scheduler), db=db, json=json)


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
    from rich.progress import Progress

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

    with Progress(console=err, transient=True) as progress:
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


WideOption = Annotated[
    bool, typer.Option("--wide", help="Show every column, long ones too (--json has everything).")
]


@app.command("audit")
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
    db: DbOption = DEFAULT_DB,
    wide: WideOption = False,
    json: JsonOption = False,
) -> None:
    """Re-check games under their own rule set and every other variant and ordering.

    One game: its readings side by side. Many (several files, folders, --all, or -o): every game
    under every reading, in parallel, written as a Parquet table with a summary per reading:
    how many games it finds illegal, and how many it gives another winner.
    """
    names = sources or []
    if every or output is not None or len(names) != 1 or Path(names[0]).is_dir():
        audit_many(names, every=every, output=output, batch=batch_of(workers, scheduler), db=db, json=json)
        return
    audit_one(names[0], db=db, wide=wide, json=json)


def audit_one(source: str, *, db: str, wide: bool, json: bool) -> None:
    from domain.replay import audit
    from projections.audit import audit_reading

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
        Column("refused", wide=True),
        Column("rule"),
        Column("why", wide=True, folds=True),
        Column("points"),
    )
    rows: list[Row] = []
    for name, r in readings.items():
        points = ", ".join(f"{player} {n}" for player, n in r.final.items())
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
    show_table(out, f"Audit of game {game_id}", columns, rows, wide=wide)


def audit_many(
    names: list[str], *, every: bool, output: Path | None, batch: Batch, db: str, json: bool
) -> None:
    """The batch audit: every source under every reading, rows to `output`, a summary shown."""
    import shutil
    import tempfile

    from rich.progress import Progress

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
        with Progress(console=err, transient=True) as progress:
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


@app.command("export-analytics")
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
    db: DbOption = DEFAULT_DB,
    json: JsonOption = False,
) -> None:
    """Write the analytics tables (games, events, scores, features, bids) of stored games.

    Games are read a chunk at a time, in this process or on Dask workers (--workers,
    --scheduler), and their rows written as each chunk arrives, so memory stays flat.
    """
    from rich.progress import Progress

    from domain.store import open_store
    from projections.analytics import TableFiles
    from replays.batch import analytics_task, run

    with user_errors():
        store = open_store(db, create=False)
        ids = (
            [resolve_game(store, g) for g in games]
            if games
            else [s.originator_id for s in store.started_games()]
        )
        store.close()
        with Progress(console=err, transient=True) as progress:
            task = progress.add_task("exporting games", total=len(ids))
            try:
                files = TableFiles(output, fmt)
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


@app.command()
def explain(
    game_id: GameArgument,
    turn: Annotated[int, typer.Option("--turn", "-t", min=1, help="The turn to explain (1 = the first).")],
    db: DbOption = DEFAULT_DB,
    json: JsonOption = False,
) -> None:
    """The turn parts of one turn, event by event, with the rule id behind each step."""
    from domain.store import open_store
    from projections.explain import explain_turn, turns_in

    with user_errors():
        store = open_store(db, create=False)
        events = store.game_events(resolve_game(store, game_id))
    total = turns_in(events)
    if turn > total:
        fail(f"the game has {total} turns; there is no turn {turn}")
    explanation = explain_turn(events, turn)
    if json:
        print_json(explanation)
        return
    columns = (
        Column("event", justify="right"),
        Column("part"),
        Column("step"),
        Column("rule"),
        Column("details"),
    )
    rows = [
        (str(s.version), s.part, s.event, s.rule, ", ".join(f"{k}={v}" for k, v in s.details.items()))
        for s in explanation.steps
    ]
    under = f", played under {', '.join(explanation.readings)}" if explanation.readings else ""
    show_table(out, f"Turn {turn}{under}", columns, rows)


@app.command()
def check(
    paths: Annotated[list[Path], typer.Argument(help="JCloisterZone .jcz files, or folders holding them.")],
    workers: WorkersOption = None,
    scheduler: SchedulerOption = None,
    wide: WideOption = False,
    json: JsonOption = False,
) -> None:
    """Replay recorded games through our engine and compare with what each file expects.

    Exits with 1 when a game disagrees or a file cannot be read.
    """
    from rich.progress import Progress

    from replays.batch import check_task, run
    from replays.check import FAILING, jcz_paths

    files = jcz_paths(paths)
    if not files:
        fail(f"no .jcz files in {', '.join(map(str, paths))}")
    parts: dict[int, list[CheckResult]] = {}
    # Progress goes to stderr, so that --json keeps stdout to its one document.
    with Progress(console=err, transient=True, disable=len(files) < 2) as progress:
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
    columns = (
        Column("game"),
        Column("folder", wide=True),
        Column("sets"),
        Column("players", justify="right"),
        Column("verdict"),
        Column("turn", justify="right"),
        Column("decision", wide=True, justify="right"),
        Column("we computed", wide=True),
        Column("the file says", wide=True),
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
    show_table(out, f"{len(results)} game(s): {summary}", columns, rows, wide=wide)


@app.command()
def serve(
    db: DbOption = DEFAULT_DB,
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", min=0, max=65535, help="TCP port to listen on (0: any free port).")
    ] = 8000,
    access_log: Annotated[
        bool, typer.Option("--access-log/--no-access-log", help="Log each request on stderr.")
    ] = True,
    request_timeout: Annotated[
        float,
        typer.Option("--request-timeout", min=0.1, help="Seconds a client has to send a whole request."),
    ] = 10.0,
    keep_alive: Annotated[
        float, typer.Option("--keep-alive", min=1, help="Seconds an idle connection stays open.")
    ] = 5.0,
    max_connections: Annotated[
        int, typer.Option("--max-connections", min=1, help="Connections at once; beyond, 503.")
    ] = 1000,
    shutdown_timeout: Annotated[
        float,
        typer.Option("--shutdown-timeout", min=1, help="On SIGTERM, seconds for requests under way."),
    ] = 10.0,
    cache_games: Annotated[
        int, typer.Option("--cache-games", min=1, help="Games kept in memory (least recently used out).")
    ] = 2_000,
    streams_per_client: Annotated[
        int, typer.Option("--streams-per-client", min=1, help="Event streams one address may hold open.")
    ] = 20,
    streams_per_game: Annotated[
        int, typer.Option("--streams-per-game", min=1, help="Event streams open on one game.")
    ] = 500,
) -> None:
    """Run the game service over HTTP until SIGTERM or Ctrl-C (API description at /schema).

    Says on stderr where it listens, then logs one line per request. GET /health answers
    whether the service and its store are up; GET /games lists the stored games.
    """
    # Imported here: the web stack costs every other command start-up time it does not need.
    from service.limits import Limits
    from service.server import serve as serve_http

    limits = Limits(
        request_seconds=request_timeout,
        keep_alive_seconds=keep_alive,
        connections=max_connections,
        shutdown_seconds=shutdown_timeout,
        cached_games=cache_games,
        streams_per_client=streams_per_client,
        streams_per_game=streams_per_game,
    )
    with user_errors():
        try:
            serve_http(db, host, port, access_log=access_log, limits=limits)
        except OSError as e:
            fail(f"cannot listen on {host}:{port}: {e.strerror or e}")


@app.command()
def project(
    db: DbOption = DEFAULT_DB,
    once: Annotated[bool, typer.Option("--once", help="Catch up with the store, then exit.")] = False,
    json: JsonOption = False,
) -> None:
    """Keep the game summary and score tables up to date with the store, until interrupted."""
    from rich.progress import Progress

    from projections.projector import run_projection
    from projections.worker_lock import ProjectionLock

    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    lock = ProjectionLock(db)
    with user_errors():
        held = lock.try_acquire()
    if not held:
        if once:
            err.print(
                printable(f"another carc project worker is keeping {db} up to date: nothing to do"),
                markup=False,
                soft_wrap=True,
            )
            if json:
                print_json({"events": 0, "another_worker": True})
            raise typer.Exit(0)
        err.print(
            printable(f"another carc project worker holds {db}: standing by to take over"),
            markup=False,
            soft_wrap=True,
        )
        while not lock.try_acquire():
            if stop.wait(1.0):
                raise typer.Exit(0)
    if not once:
        err.print(
            printable(f"projecting {db} as events arrive (Ctrl-C or SIGTERM to stop)"),
            highlight=False,
            markup=False,
        )
    # Progress goes to stderr, so that --json keeps stdout to its one document.
    with user_errors(), Progress(console=err, transient=True) as progress:
        task = progress.add_task("projecting", total=None)

        def advance(position: int, start: int, end: int) -> None:
            progress.update(task, completed=position - start, total=max(end - start, 1))

        try:
            events = run_projection(db, once=once, stop=stop, on_progress=advance)
        except ValueError as e:
            fail(str(e))
        finally:
            lock.release()
    if json:
        print_json({"events": events})
    else:
        out.print(f"projected {events} event(s) from {printable(db)}", highlight=False, markup=False)


db_app = typer.Typer(help="Set up a store.", no_args_is_help=True)
app.add_typer(db_app, name="db")


@db_app.command("init")
def db_init(db: DbOption = DEFAULT_DB, json: JsonOption = False) -> None:
    """Create every table a store needs, if missing.

    The games, the service's records and the projected views. Servers and workers create them
    too as they start, taking turns on PostgreSQL; run this once to have them find all ready.
    """
    from domain.store import store_env
    from projections.views import open_views
    from service.store import open_service_store

    with user_errors():
        open_service_store(db).close()
        if store_env(db)["PERSISTENCE_MODULE"] != "eventsourcing.popo":  # memory: nothing to keep
            open_views(db)
    if json:
        print_json({"db": db, "ready": True})
    else:
        out.print(printable(f"store {db} is ready"), highlight=False, markup=False)


# What a missing module of an optional part tells the user to install.
_EXTRAS = {
    "litestar": "server",
    "uvicorn": "server",
    "aiohttp": "server",
    "psycopg": "postgres",
    "pyarrow": "analytics",
    "dask": "batch",
    "distributed": "batch",
}


def main() -> None:
    try:
        app()
    except ModuleNotFoundError as e:
        extra = _EXTRAS.get((e.name or "").split(".")[0])
        if extra is None:
            raise
        install = f"pip install 'carcassonne-replay[{extra}]'"
        err.print(
            f"error: this needs the {extra} extra (no module {e.name}): {install}",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )
        sys.exit(1)
