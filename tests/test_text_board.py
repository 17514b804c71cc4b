"""The text board shows what lies on the table: castles, bridges and every kind of figure."""

from __future__ import annotations

import random

from domain.aggregate import Game
from domain.bots import RandomBot, shuffled_pile
from domain.expansions import bridges as br
from domain.state import GameState
from projections.text import render_board
from tests.helpers import figures
from tests.test_rules_bcb import castle_at_start


def _first_state(expansions: tuple[str, ...], wanted: str) -> GameState:
    """A bot game's state (3 players) as soon as its board shows `wanted` somewhere."""
    for seed in range(30):
        rng = random.Random(seed)
        game = Game.start(("A", "B", "C"), shuffled_pile(expansions, rng), expansions=expansions)
        bot = RandomBot(rng, deploy_rate=0.9)
        while not game.over:
            game.execute(*bot.choose(game.state))
            if wanted in render_board(game.state):
                return game.state
    raise AssertionError(f"no game shows {wanted!r}")


def test_a_castle_shows_as_k_with_its_knight() -> None:
    game = castle_at_start(["BA/L"])
    board = render_board(game.state)
    assert "K" in board and "1" in board  # Ann's knight sits on her castle


def test_bridges_and_builders_and_pigs_show() -> None:
    state = _first_state(("base", "bcb"), "=")
    assert "EW" in br.bridges(state).axis.values()
    state = _first_state(("base", "tb"), "a")
    assert any(p == 0 for f in state.board.graph.roots() for p, _ in figures(f, "builder"))
    state = _first_state(("base", "tb"), "A")
    assert any(p == 0 for f in state.board.graph.roots() for p, _ in figures(f, "pig"))
