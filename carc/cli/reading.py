"""The commands that read one game: `scores`, `replay`, `render` and `explain`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from carc.cli.common import (
    GameArgument,
    JsonOption,
    SourceArgument,
    StoredOption,
    TurnOption,
    UntilOption,
    err,
    fail,
    out,
    print_json,
    print_standings,
    replayed,
    user_errors,
)
from carc.cli.tables import Column, printable, show_table
from domain.defaults import DEFAULT_DB


def scores(
    source: SourceArgument,
    db: StoredOption = DEFAULT_DB,
    until: UntilOption = None,
    turn: TurnOption = None,
    json: JsonOption = False,
) -> None:
    """Standings and every points award of a stored or recorded game."""
    from projections.scores import score_report
    from replays.sources import load_events

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


def replay_(
    source: SourceArgument,
    db: StoredOption = DEFAULT_DB,
    until: UntilOption = None,
    turn: TurnOption = None,
    json: JsonOption = False,
) -> None:
    """The board and the scores of a stored or recorded game, at its end, an event or a turn."""
    from projections.board import board_view
    from projections.scores import score_report
    from projections.text import LEGEND, render_board
    from replays.sources import load_events

    with user_errors():
        game = replayed(load_events(source, db), until, turn)
    if json:
        print_json({"board": board_view(game.state), "scores": score_report(game.state)})
        return
    out.print(render_board(game.state), highlight=False, markup=False)
    out.print(LEGEND, style="dim", highlight=False, markup=False)
    state = game.state
    print_standings(game, f"Event {state.version}, turn {state.turn}, {state.phase}")


def render(
    source: SourceArgument,
    output: Annotated[
        Path, typer.Option("--output", "-o", help="The SVG file to write; - writes to standard output.")
    ],
    db: StoredOption = DEFAULT_DB,
    until: UntilOption = None,
    turn: TurnOption = None,
    json: JsonOption = False,
) -> None:
    """Draw the board of a stored or recorded game as SVG: at its end, an event or a turn."""
    from projections.svg import render_svg
    from replays.files import STDOUT, write_whole

    if json and output == STDOUT:
        fail("--json prints a summary on standard output; write the board to a file with -o FILE")
    from replays.sources import load_events

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


def explain(
    game_id: GameArgument,
    turn: Annotated[int, typer.Option("--turn", "-t", min=1, help="The turn to explain (1 = the first).")],
    db: StoredOption = DEFAULT_DB,
    json: JsonOption = False,
) -> None:
    """The turn parts of one turn, event by event, with the rule id behind each step."""
    from domain.store import open_store
    from projections.explain import explain_turn, turns_in
    from replays.sources import resolve_game

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
        Column("details", folds=True),
    )
    rows = [
        (str(s.version), s.part, s.event, s.rule, ", ".join(f"{k}={v}" for k, v in s.details.items()))
        for s in explanation.steps
    ]
    under = f", played under {', '.join(explanation.readings)}" if explanation.readings else ""
    show_table(out, f"Turn {turn}{under}", columns, rows)
