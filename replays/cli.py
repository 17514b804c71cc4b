"""`carc`: play, store, inspect and score Carcassonne games from the command line.

Every command that prints results takes `--json` and then prints exactly one JSON document
on stdout. Errors go to stderr with a non-zero exit code and nothing half-written.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any, NoReturn, TypeVar
from uuid import UUID

import msgspec
import typer
from rich.console import Console
from rich.table import Table

from domain.aggregate import Game
from domain.bots import DEFAULT_NAMES, play_bot_game
from domain.errors import RuleViolation
from domain.rules import RuleSet
from domain.store import DEFAULT_DB, GameStore, StoreError, open_store
from domain.tiles import EXPANSIONS
from projections.board import board_view
from projections.projector import run_projection
from projections.scores import score_report, standings
from projections.text import render_board

app = typer.Typer(
    help="Event-sourced Carcassonne: play bot games, store them, replay and score them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
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

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str, code: int = 1) -> NoReturn:
    err.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the errors users can cause into a message and exit code 1."""
    try:
        yield
    except (StoreError, RuleViolation) as e:
        fail(str(e))


def print_json(data: Any) -> None:
    sys.stdout.write(msgspec.json.encode(data).decode() + "\n")


def resolve_game(store: GameStore, text: str) -> UUID:
    """A game id from its full form or a unique prefix."""
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
    unknown = [x for x in chosen if x not in EXPANSIONS]
    if unknown:
        fail(f"unknown expansion(s) {', '.join(unknown)}; choose from {', '.join(EXPANSIONS)}")
    if "base" not in chosen:
        chosen = ("base", *chosen)
    return chosen


def print_standings(game: Game, title: str) -> None:
    out.print(title, highlight=False, soft_wrap=True)
    table = Table()
    table.add_column("rank", justify="right")
    table.add_column("player")
    table.add_column("points", justify="right")
    for s in standings(game.state):
        table.add_row(str(s.rank), s.name, str(s.points))
    out.print(table)


@app.command()
def play(
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=6, help="Number of bots.")] = 2,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed for the pile and every bot choice.")] = 1,
    expansions: Annotated[
        str, typer.Option("--expansions", "-e", help="Comma-separated sets: base, bcb, tb.")
    ] = "base",
    names: Annotated[
        str | None, typer.Option("--names", help="Comma-separated player names (default Alice, Bob…).")
    ] = None,
    db: DbOption = DEFAULT_DB,
    json: JsonOption = False,
) -> None:
    """Play a complete game between seeded random bots, store it, reload it and print the standings."""
    sets = parse_expansions(expansions)
    seats = tuple(n.strip() for n in names.split(",")) if names else DEFAULT_NAMES[:players]
    if len(seats) != players:
        fail(f"--names gives {len(seats)} names for {players} players")
    with user_errors():
        game = play_bot_game(seats, seed, expansions=sets, rules=RuleSet())
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
                "final": report.final,
                "standings": report.standings,
                "events": reloaded.version,
            }
        )
        return
    print_standings(reloaded, f"Game {reloaded.id} (seed {seed}, {', '.join(sets)})")
    out.print(f"stored in {db} as [bold]{reloaded.id}[/] ({reloaded.version} events)", highlight=False)


@app.command()
def games(db: DbOption = DEFAULT_DB, json: JsonOption = False) -> None:
    """List the games in the store."""
    with user_errors():
        started = list(open_store(db).started_games())
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
    table = Table(title=f"{len(started)} game(s) in {db}")
    for column in ("game", "players", "expansions", "seed"):
        table.add_column(column)
    for s in started:
        table.add_row(str(s.originator_id), ", ".join(s.players), ", ".join(s.expansions), str(s.seed))
    out.print(table)


@app.command()
def scores(
    game: GameArgument,
    db: DbOption = DEFAULT_DB,
    until: Annotated[int | None, typer.Option("--until", help="Score as of this event number.")] = None,
    json: JsonOption = False,
) -> None:
    """Standings and every points award of a stored game."""
    with user_errors():
        store = open_store(db)
        loaded = store.load(resolve_game(store, game), version=until)
    report = score_report(loaded.state)
    if json:
        print_json(report)
        return
    table = Table(title=f"Score timeline of {report.game}")
    for column in ("event", "turn", "player", "points", "for", "rule"):
        table.add_column(column)
    names = loaded.state.players
    for a in report.timeline:
        parts = ", ".join(f"{n} {k}" for k, n in a.parts)
        what = f"{a.category}{' (end)' if a.final else ''}: {parts}"
        table.add_row(str(a.version), str(a.turn), names[a.player], str(a.points), what, a.rule)
    out.print(table)
    print_standings(loaded, "Final standings" if report.over else f"Standings at event {report.version}")


@app.command()
def show(
    game: GameArgument,
    db: DbOption = DEFAULT_DB,
    until: Annotated[
        int | None, typer.Option("--until", help="Show the board as of this event number.")
    ] = None,
    json: JsonOption = False,
) -> None:
    """The board of a stored game (at its end or at an event), with followers and scores."""
    with user_errors():
        store = open_store(db)
        loaded = store.load(resolve_game(store, game), version=until)
    if json:
        print_json(board_view(loaded.state))
        return
    out.print(render_board(loaded.state), highlight=False, markup=False)
    print_standings(loaded, f"Event {loaded.version}, turn {loaded.state.turn}, {loaded.state.phase}")


@app.command()
def serve(
    db: DbOption = DEFAULT_DB,
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="TCP port to listen on.")] = 8000,
) -> None:
    """Run the game service over HTTP until interrupted (API description at /schema)."""
    # Imported here: the web stack costs every other command start-up time it does not need.
    from service.api import serve as serve_http

    with user_errors():
        try:
            serve_http(db, host, port)
        except OSError as e:
            fail(f"cannot listen on {host}:{port}: {e.strerror or e}")


@app.command()
def project(
    db: DbOption = DEFAULT_DB,
    once: Annotated[bool, typer.Option("--once", help="Catch up with the store, then exit.")] = False,
    json: JsonOption = False,
) -> None:
    """Keep the game summary and score tables up to date with the store, until interrupted."""
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    with user_errors():
        try:
            events = run_projection(db, once=once, stop=stop)
        except ValueError as e:
            fail(str(e))
    if json:
        print_json({"events": events})
    else:
        out.print(f"projected {events} event(s) from {db}", highlight=False)


def main() -> None:
    app()
