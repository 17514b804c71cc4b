"""`carc explain GAME --turn N`: a turn's parts event by event, with the rule behind each step."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from carc.cli import app
from domain import events as ev
from domain.aggregate import Game
from domain.expansions import bazaars as bz, builders as bd
from domain.expansions.bazaars import ORDER_VARIANTS, ORDERS, Order
from domain.store import open_store
from projections.explain import explain_turn
from tests.test_properties_tb import builder_bot_game

runner = CliRunner()


def game_with(order: Order, kind: type[ev.Event]) -> Game:
    """The first game of the builder-seeking bot that records a `kind` event (rare: a bazaar
    arising inside a round turns up within the first 60 seeds under every ordering)."""
    for seed in range(100):
        game = builder_bot_game(3, seed, order)
        if any(isinstance(e, kind) for e in game.pending):
            return game
    raise AssertionError(f"no bot game records {kind.__name__}")


def _turn_of(events: list[ev.Event], kind: type[ev.Event]) -> int:
    turn = 0
    for i, event in enumerate(events):
        if isinstance(event, ev.TileDrawn) and not (i and isinstance(events[i - 1], ev.TileDiscarded)):
            turn += 1
        if isinstance(event, kind):
            return turn
    raise AssertionError(f"no {kind.__name__} in the game")


@pytest.mark.parametrize("order", ORDERS)
def test_the_turn_with_a_deferred_or_dropped_bazaar_names_its_ordering(order: Order) -> None:
    kind = bz.BazaarDropped if order == "jcz" else bz.BazaarDeferred
    events = list(game_with(order, kind).pending)
    explanation = explain_turn(events, _turn_of(events, kind))
    assert explanation.readings == (ORDER_VARIANTS[order],)
    steps = explanation.steps
    assert steps[0].event == "TileDrawn" and steps[0].part == "normal"
    disputed = [s.rule for s in steps if s.event == kind.__name__]
    assert disputed and set(disputed) == {ORDER_VARIANTS[order]}
    assert {s.part for s in steps} >= {"normal", "bazaar auction", "bazaar tile"}
    # Every event of the turn is listed once, in order, and nothing of the next turn.
    versions = [s.version for s in steps]
    assert versions == list(range(versions[0], versions[-1] + 1))
    following = events[versions[-1]] if versions[-1] < len(events) else None
    assert following is None or isinstance(following, ev.TileDrawn | ev.GameEnded)


def test_explain_command_prints_the_parts_and_refuses_a_turn_past_the_end(tmp_path: Path) -> None:
    game = game_with("hig", bd.BuilderTurnTaken)
    turn = _turn_of(list(game.pending), bd.BuilderTurnTaken)
    db = str(tmp_path / "g.sqlite")
    open_store(db).save_game(game)
    result = runner.invoke(app, ["explain", str(game.id)[:8], "--turn", str(turn), "--db", db, "--json"])
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["readings"] == ["V-ORDER-HIG"]
    assert any(s["event"] == "BuilderTurnTaken" and s["rule"] == "R-TB-3" for s in document["steps"])
    text = runner.invoke(app, ["explain", str(game.id), "--turn", str(turn), "--db", db])
    assert text.exit_code == 0 and "BuilderTurnTaken" in text.stdout and "V-ORDER-HIG" in text.stdout
    past = runner.invoke(app, ["explain", str(game.id), "--turn", "999", "--db", db])
    assert past.exit_code == 1 and "there is no turn 999" in past.stderr
