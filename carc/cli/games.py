"""The commands that play and keep games: `play`, `games` and `export`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer
from rich.text import Text

from carc.cli.common import (
    DbOption,
    GameArgument,
    JsonOption,
    StoredOption,
    err,
    fail,
    out,
    parse_expansions,
    parse_rules,
    print_json,
    print_standings,
    user_errors,
)
from carc.cli.tables import Column, printable, show_table
from domain.defaults import DEFAULT_DB, DEFAULT_NAMES
from domain.names import name_problem
from domain.sets import SET_CODES


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


def games(db: StoredOption = DEFAULT_DB, json: JsonOption = False) -> None:
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
    columns = (
        Column("game"),
        Column("players", folds=True),
        Column("expansions", folds=True),
        Column("seed", justify="right"),
    )
    rows = [
        (str(s.originator_id), ", ".join(s.players), ",".join(s.expansions), _seed(s.seed)) for s in started
    ]
    show_table(out, f"{len(started)} game(s) in {db}", columns, rows)


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
    db: StoredOption = DEFAULT_DB,
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
    from replays.sources import stored_events

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


def _seed(seed: int | None) -> str:
    """A game's seed as a table shows it: none for an imported save, whose draws it records."""
    return "—" if seed is None else str(seed)
