"""A random bot: seeded, so the same seed always gives the same game."""

from __future__ import annotations

import random
from collections.abc import Sequence
from uuid import UUID

from mypy_extensions import mypyc_attr

from domain.aggregate import Game
from domain.commands import Command, Deploy, Pass
from domain.defaults import DEFAULT_NAMES
from domain.expansions import arrange_pile, start_tile_of
from domain.expansions.bazaars import Bid, ChooseBazaarTile
from domain.moves import expected_step, legal_commands, place_command, placement_options
from domain.rules import RuleSet
from domain.state import GameState
from domain.tiles import draw_pile


@mypyc_attr(allow_interpreted_subclasses=True)  # tests subclass it
class RandomBot:
    """Random legal decisions: deploys with probability `deploy_rate`, bids a little, sometimes.

    Every decision the rules offer (bridges, castles, bids, buy or sell, builders, pigs) is taken
    now and then, so random games exercise the whole engine.
    """

    def __init__(self, rng: random.Random, deploy_rate: float = 0.5) -> None:
        self.rng = rng
        self.deploy_rate = deploy_rate

    def choose(self, state: GameState) -> tuple[int, Command]:
        """(player, command) for the decision the game waits for."""
        decision = expected_step(state)
        assert decision is not None, "no decision is due"
        rng = self.rng
        step = decision.step
        if step == "place":
            return decision.player, place_command(rng.choice(placement_options(state)))
        options = legal_commands(state)
        if step == "action":
            # A part's own action (a bridge, a tower piece, a ransom…) now and then.
            actions = [c for c in options if not isinstance(c, Deploy | Pass)]
            if actions and rng.random() < 0.2:
                return decision.player, rng.choice(actions)
            deploys = [c for c in options if isinstance(c, Deploy)]
            if deploys and rng.random() < self.deploy_rate:
                return decision.player, rng.choice(deploys)
            return decision.player, Pass()
        if step == "choose":
            picks = [c for c in options if isinstance(c, ChooseBazaarTile) and c.bid <= 3]
            return decision.player, rng.choice(picks)
        if step == "bid":
            raises = [c for c in options if isinstance(c, Bid) and c.amount <= 6]
            if raises and rng.random() < 0.4:
                return decision.player, rng.choice(raises)
            return decision.player, Pass()
        return decision.player, rng.choice(options)


def shuffled_pile(expansions: Sequence[str], rng: random.Random) -> list[str]:
    """The pile in a random order, as the sets' rules arrange it (R-BASE-2)."""
    chosen = tuple(expansions)
    pile = draw_pile(chosen, start_tile_of(chosen))
    rng.shuffle(pile)
    arrange_pile(chosen, pile)
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
        game.execute(*bot.choose(state))
    return game
