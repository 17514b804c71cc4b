"""A random bot: seeded, so the same seed always gives the same game."""

from __future__ import annotations

import random
from collections.abc import Sequence
from uuid import UUID

from domain.aggregate import Game
from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.moves import legal_deployments, legal_placements
from domain.rules import RuleSet
from domain.state import GameState, Phase
from domain.tiles import draw_pile


class RandomBot:
    """Uniform over legal placements; deploys with probability `deploy_rate`."""

    def __init__(self, rng: random.Random, deploy_rate: float = 0.5) -> None:
        self.rng = rng
        self.deploy_rate = deploy_rate

    def choose(self, state: GameState) -> Command:
        if state.phase == Phase.PLACE:
            x, y, rotation = self.rng.choice(legal_placements(state))
            return PlaceTile(x=x, y=y, rotation=rotation)
        options = legal_deployments(state)
        if options and self.rng.random() < self.deploy_rate:
            return Deploy(location=self.rng.choice(options))
        return Pass()


DEFAULT_NAMES = ("Alice", "Bob", "Carol", "Dave", "Eve", "Frank")


def shuffled_pile(expansions: Sequence[str], rng: random.Random) -> list[str]:
    pile = draw_pile(tuple(expansions))
    rng.shuffle(pile)
    return pile


def play_bot_game(
    players: int | Sequence[str],
    seed: int,
    *,
    expansions: Sequence[str] = ("base",),
    rules: RuleSet | None = None,
    game_id: UUID | None = None,
) -> Game:
    """A complete game between random bots; the seed fixes the pile and every choice."""
    names = DEFAULT_NAMES[:players] if isinstance(players, int) else tuple(players)
    rng = random.Random(seed)
    pile = shuffled_pile(expansions, rng)
    game = Game.start(names, pile, expansions=expansions, rules=rules, seed=seed, game_id=game_id)
    bot = RandomBot(rng)
    state = game.state
    while not state.over:
        game.execute(state.current, bot.choose(state))
    return game
