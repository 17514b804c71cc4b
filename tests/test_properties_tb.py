"""Property tests over random bot games with Traders & Builders and Bridges, Castles and Bazaars,
under each of the four builder-versus-bazaar orderings (RULES.md 6, R-TB-*, R-BAZAAR-*).

Each example is a whole seeded game; the checks step through its events.
"""

from __future__ import annotations

import random
from uuid import UUID

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from domain import events as ev
from domain.aggregate import Game
from domain.bots import RandomBot, play_bot_game, shuffled_pile
from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.expansions import bazaars as bz, builders as bd, goods as gd
from domain.expansions.bazaars import ORDERS, Order
from domain.moves import expected_step, legal_commands
from domain.readings import VARIANTS, rule_set
from domain.replay import replay
from domain.state import GameState
from projections.board import board_view
from tests.helpers import figures, in_supply, saved_and_reloaded

EXPANSIONS = ("base", "bcb", "tb")

seeds = st.integers(min_value=0, max_value=2**32 - 1)
player_counts = st.integers(min_value=2, max_value=4)
orders = st.sampled_from(ORDERS)


def bot_game(players: int, seed: int, order: Order) -> Game:
    return play_bot_game(
        players, seed, expansions=EXPANSIONS, rules=rule_set(order=order), game_id=UUID(int=seed)
    )


def tiles_taken_from_pile(events: list[ev.Event]) -> list[str]:
    """Every tile leaving the pile, in order: draws, builder tiles, bazaar tiles."""
    taken: list[str] = []
    for event in events:
        if isinstance(event, ev.TileDrawn | bd.BuilderTurnTaken):
            taken.append(event.tile)
        elif isinstance(event, bz.BazaarOpened | bz.BazaarResumed | bz.BazaarTilesTakenFaceDown):
            taken.extend(event.tiles)
    return taken


def figures_on_board(state: GameState, player: int) -> tuple[int, int, int]:
    roots = state.board.graph.roots()
    return (
        sum(1 for f in roots for p, _ in figures(f) if p == player),
        sum(1 for f in roots for p, _ in figures(f, "builder") if p == player),
        sum(1 for f in roots for p, _ in figures(f, "pig") if p == player),
    )


@settings(max_examples=40, deadline=None)
@given(seed=seeds, players=player_counts, order=orders)
def test_every_tile_leaves_the_pile_once_in_order(seed: int, players: int, order: Order) -> None:
    game = bot_game(players, seed, order)
    assert game.over
    events = list(game.pending)
    started = events[0]
    assert isinstance(started, ev.GameStarted)
    assert tiles_taken_from_pile(events) == list(started.draw_order)
    # Every tile won at a bazaar is played, and nothing is left pending.
    won = [e.tile for e in events if isinstance(e, bz.BazaarTileTaken)]
    bazaar_tiles = sum(
        len(e.tiles) for e in events if isinstance(e, bz.BazaarOpened | bz.BazaarResumed)
    ) + sum(len(e.tiles) for e in events if isinstance(e, bz.BazaarTilesTakenFaceDown))
    assert len(won) == bazaar_tiles
    assert not bz.bazaars(game.state).won and bz.bazaars(game.state).auction is None
    # Every tile drawn is either placed or discarded.
    placed = sum(1 for e in events if isinstance(e, ev.TilePlaced))
    discarded = sum(1 for e in events if isinstance(e, ev.TileDiscarded))
    assert placed + discarded == len(started.draw_order)


@settings(max_examples=30, deadline=None)
@given(seed=seeds, players=player_counts, order=orders)
def test_followers_builders_and_pigs_are_conserved(seed: int, players: int, order: Order) -> None:
    events = list(bot_game(players, seed, order).pending)
    game = Game(events[0].originator_id)
    for event in events:
        game.replay(event)
        state = game.state
        for player in range(players):
            followers, builders, pigs = figures_on_board(state, player)
            assert followers + state.supply[player] == 7, event
            assert builders + in_supply(state, "builder")[player] == 1, event  # R-TB-1
            assert pigs + in_supply(state, "pig")[player] == 1, event
            assert builders <= 1 and pigs <= 1
    for player in range(players):  # all home at the end
        assert figures_on_board(game.state, player) == (0, 0, 0)


@settings(max_examples=30, deadline=None)
@given(seed=seeds, players=player_counts, order=orders)
def test_builders_stand_only_beside_their_owners_followers(seed: int, players: int, order: Order) -> None:
    """R-TB-2 when deployed and R-TB-4 afterwards: a builder never stands alone."""
    events = list(bot_game(players, seed, order).pending)
    game = Game(events[0].originator_id)
    for event in events:
        game.replay(event)
        for feature in game.state.board.graph.roots():
            owners = {p for p, _ in figures(feature)}
            assert all(p in owners for p, _ in figures(feature, "builder")), event
            farmers = owners
            assert all(p in farmers for p, _ in figures(feature, "pig")), event


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(seed=seeds, players=player_counts, order=orders)
def test_games_replay_identically_from_sqlite(
    tmp_path_factory: pytest.TempPathFactory, seed: int, players: int, order: Order
) -> None:
    live = bot_game(players, seed, order)
    events = list(live.pending)
    stored, loaded = saved_and_reloaded(live, tmp_path_factory.mktemp("store") / "games.sqlite")
    assert stored == events
    assert loaded.over
    assert board_view(loaded.state) == board_view(live.state)
    assert loaded.state.scores == live.state.scores
    assert loaded.state.awards == live.state.awards
    assert gd.goods(loaded.state) == gd.goods(live.state)
    assert loaded.version == live.version


@pytest.mark.parametrize("order", ORDERS)
def test_bot_games_exercise_the_disputed_case(order: Order) -> None:
    """Over a few seeds the bots do meet builder turns, bazaars and (for jcz) drops, so the
    properties above are not vacuous."""
    kinds: set[type[ev.Event]] = set()
    for seed in range(40):
        kinds |= {type(e) for e in bot_game(3, seed, order).pending}
    assert {bd.BuilderTurnTaken, bz.BazaarTileTaken} <= kinds
    if order == "facedown":
        # Tiles go face down only when the host's bazaar tile also earned a builder tile: rare
        # among random games, so look among the builder-seeking bot's.
        assert any(
            isinstance(e, bz.BazaarTilesTakenFaceDown)
            for seed in range(100)
            for e in builder_bot_game(3, seed, order).pending
        )


class BuilderBot(RandomBot):
    """A random bot that always deploys a builder or pig when it may and mostly places tiles
    beside its builder's feature, so that double turns meet bazaars far more often than with
    `RandomBot` (whose games almost never defer or drop a bazaar)."""

    def choose(self, state: GameState) -> tuple[int, Command]:
        decision = expected_step(state)
        assert decision is not None
        me, rng = decision.player, self.rng
        if decision.step == "action":
            deploys = [c for c in legal_commands(state) if isinstance(c, Deploy)]
            special = [c for c in deploys if c.figure != "follower"]
            if special:
                return me, rng.choice(special)
            if deploys and rng.random() < 0.7:
                return me, rng.choice(deploys)
            return me, Pass()
        if decision.step == "place" and rng.random() < 0.9:
            assert state.tile is not None
            graph, board = state.board.graph, state.board
            mine = {graph.find(sid) for f in graph.roots() for p, sid in figures(f, "builder") if p == me}
            near = [
                (x, y, r)
                for x, y, r in board.placements(state.tile)
                if any(
                    graph.find(n.base + i) in mine
                    for n in (board.at.get((x + dx, y + dy)) for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)))
                    if n is not None
                    for i in range(len(n.tile.segments))
                )
            ]
            if near:
                x, y, r = rng.choice(near)
                return me, PlaceTile(x=x, y=y, rotation=r)
        return super().choose(state)


def builder_bot_game(players: int, seed: int, order: Order) -> Game:
    rng = random.Random(seed)
    names = ("Alice", "Bob", "Carol", "Dave")[:players]
    pile = shuffled_pile(EXPANSIONS, rng)
    game = Game.start(names, pile, expansions=EXPANSIONS, rules=rule_set(order=order), seed=seed)
    bot = BuilderBot(rng)
    for _ in range(5000):
        if game.over:
            return game
        game.execute(*bot.choose(game.state))
    raise AssertionError("the game did not end")


@settings(max_examples=25, deadline=None)
@given(seed=seeds, players=player_counts, order=orders)
def test_builder_heavy_games_keep_the_pile_and_the_figures(seed: int, players: int, order: Order) -> None:
    events = list(builder_bot_game(players, seed, order).pending)
    started = events[0]
    assert isinstance(started, ev.GameStarted)
    assert tiles_taken_from_pile(events) == list(started.draw_order)
    kinds = {type(e) for e in events}
    # Only V-ORDER-JCZ drops; only V-ORDER-FACEDOWN takes tiles face down.
    assert (bz.BazaarDropped in kinds) <= (order == "jcz")
    assert (bz.BazaarDeferred in kinds) <= (order != "jcz")
    assert (bz.BazaarTilesTakenFaceDown in kinds) == (order == "facedown" and bz.BazaarRevealed in kinds)
    # Every builder tile was granted first, to the same player.
    granted: list[int] = []
    for event in events:
        if isinstance(event, bd.BuilderTurnGranted):
            granted.append(event.player)
        elif isinstance(event, bd.BuilderTurnTaken):
            assert event.player in granted
            granted.remove(event.player)
    game = Game(started.originator_id)
    for event in events:
        game.replay(event)
        for player in range(players):
            followers, builders, pigs = figures_on_board(game.state, player)
            assert followers + game.state.supply[player] == 7, event
            assert builders + in_supply(game.state, "builder")[player] == 1, event
            assert pigs + in_supply(game.state, "pig")[player] == 1, event


@pytest.mark.parametrize("order", ORDERS)
def test_builder_heavy_games_meet_deferrals_or_drops(order: Order) -> None:
    """Guards the property above against being vacuous: over a few seeds the disputed case
    arises and a bazaar is deferred (or, under V-ORDER-JCZ, dropped) and later resumed."""
    wanted = bz.BazaarDropped if order == "jcz" else bz.BazaarDeferred
    kinds: set[type[ev.Event]] = set()
    # The case is rare among random games: look through seeds until it arises (it does by 30).
    for seed in range(100):
        kinds |= {type(e) for e in builder_bot_game(3, seed, order).pending}
        if wanted in kinds:
            break
    if order == "jcz":
        assert bz.BazaarDropped in kinds and bz.BazaarDeferred not in kinds
    else:
        assert {bz.BazaarDeferred, bz.BazaarResumed} <= kinds and bz.BazaarDropped not in kinds


variant_switches = st.fixed_dictionaries(
    {field: st.booleans() for field in (*VARIANTS.values(), "farmers")},
)


@settings(max_examples=15, deadline=None)
@given(seed=seeds, players=player_counts, order=orders, switches=variant_switches)
def test_every_random_game_passes_the_strict_replay_of_an_import(
    seed: int, players: int, order: Order, switches: dict[str, bool]
) -> None:
    """What live play records, the import accepts event by event, under any reading of the rules."""
    rules = rule_set(order=order, **switches)
    live = play_bot_game(players, seed, expansions=EXPANSIONS, rules=rules)
    rebuilt = replay(live.pending)
    assert board_view(rebuilt.state) == board_view(live.state)
    assert rebuilt.state.awards == live.state.awards
