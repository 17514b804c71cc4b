"""RULES.md section 9: how JCloisterZone 5.x plays, fact by fact (JCZ-1 … JCZ-5).

Each fact is checked where it shows: in our reproduction of JCZ's draws (passes today), and in
the reference games that exhibit it, replayed through our engine by `check_file`. Those need
Bridges, Castles & Bazaars or Traders & Builders; while the engine (or the importer's
`SUPPORTED`) lacks them they are expected failures, and they must agree once it has them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain import events as ev
from domain.aggregate import Game
from domain.bots import RandomBot, shuffled_pile
from domain.defaults import DEFAULT_NAMES
from domain.expansions import bazaars as bz
from domain.expansions.bridges import spots as bridge_spots
from domain.moves import legal_deployments
from domain.readings import switch, with_switches
from domain.rules import RuleSet
from domain.state import GameState, Phase
from replays.check import check_file
from replays.jcz import jcz_rules, read_jcz, replay_jcz
from replays.jcz_draws import plan_draws
from tests.jcz_saves import commit, decode, pass_, place, save
from tests.reference import jcz_files, require

Counts = dict[str, Any]


def exhibiting(predicate: Callable[[Counts], bool], folder: str = "oracle") -> list[Path]:
    """Reference games whose `oracle.counts` show the fact."""
    found = []
    for path in jcz_files(folder, "*_bcb*.jcz"):
        counts = msgspec.json.decode(require(path).read_bytes())["oracle"]["counts"]
        if predicate(counts):
            found.append(path)
    assert found, "no reference game exhibits this fact"
    return found


def agree(paths: list[Path]) -> None:
    for path in paths:
        result = check_file(path)
        assert result.verdict == "agrees", f"{path.name}: {result.reason or result.disagreement}"


# ---------------------------------------------------------------- JCZ-1 ordering


def test_JCZ_1_imports_use_the_jcz_ordering() -> None:
    rules = jcz_rules(decode(save([])))
    assert switch(rules, "order") == "jcz"
    assert switch(RuleSet(), "order") == "hig"  # our default stays the publisher's reading


def test_JCZ_1_bazaar_tile_placed_during_a_round_holds_no_bazaar_in_the_draws() -> None:
    # Natural saves: only the auctions JCZ really held draw a supply, so the draws agree only
    # if the bazaar tiles placed while a round ran were dropped, not deferred.
    for path in exhibiting(lambda c: c["driver"]["bazaar_tile_placed_during_round"] > 0, "oracle-natural"):
        saved = read_jcz(path)
        assert saved.oracle is not None
        assert plan_draws(saved).draws == saved.oracle.draws


def test_JCZ_1_bazaar_tile_placed_during_a_round_holds_no_bazaar_in_our_engine() -> None:
    agree(exhibiting(lambda c: c["driver"]["bazaar_tile_placed_during_round"] > 0))


# ---------------------------------------------------------------- JCZ-2 auction tiles, payments


def test_JCZ_2_auction_tiles_are_the_next_draws_when_the_auction_starts() -> None:
    for path in exhibiting(lambda c: c["bazaar_auctions"] > 0, "oracle-natural"):
        saved = read_jcz(path)
        assert saved.oracle is not None and saved.oracle.draws is not None
        draws = plan_draws(saved).draws
        assert draws == saved.oracle.draws
        supplies: dict[int, int] = {}
        for d in draws:
            if d.kind == "bazaar":
                supplies[d.after] = supplies.get(d.after, 0) + 1
        # One tile per player, all drawn while the host's (last) COMMIT is processed.
        assert set(supplies.values()) == {len(saved.players)}
        assert {saved.replay[after].type for after in supplies} == {"COMMIT"}


def test_JCZ_2_bazaar_payments_count_in_final_points_not_as_scores() -> None:
    agree(exhibiting(lambda c: c["bazaar_paid_transfers"] > 0))


# ---------------------------------------------------------------- JCZ-3 castles


def test_JCZ_3_castles_convert_and_score_as_jcz_does() -> None:
    agree(exhibiting(lambda c: c["castle_conversions"] > 0))


# ---------------------------------------------------------------- JCZ-4 bridges


def test_JCZ_4_bridges_leave_legal_placements_as_jcz_offers_them() -> None:
    agree(exhibiting(lambda c: c["bridges"] > 0))


# ---------------------------------------------------------------- JCZ-5 discards


def test_JCZ_5_a_discarded_tile_is_followed_by_a_fresh_draw() -> None:
    # Below the T-junction no open position has field on every side: Bob's cloister fits
    # nowhere. The save shows only Bob placing the next tile.
    document = save(
        [place(0, "BA/RRR", 0, 1), pass_(0), commit(0), place(1, "BA/RFr", 1, 0), pass_(1), commit(1)],
        ["BA/RRR", "BA/L", "BA/RFr"],
        end_turn=3,
    )
    saved = decode(document)
    plan = plan_draws(saved)
    assert [d.kind for d in plan.draws] == ["turn", "turn", "redraw"]
    events = replay_jcz(saved, plan.order).collect_events()
    tail = [(type(e).__name__, getattr(e, "player", None), getattr(e, "tile", None)) for e in events[5:8]]
    assert tail == [("TileDrawn", 1, "BA/L"), ("TileDiscarded", 1, "BA/L"), ("TileDrawn", 1, "BA/RFr")]
    assert isinstance(events[-1], ev.GameEnded)


def test_JCZ_5_a_bought_tile_that_fits_nowhere_is_replaced_from_the_pile() -> None:
    # Ann places a bazaar tile; Bob chooses the supply's first tile and nobody outbids him, the
    # other goes to Ann. Bob's bought cloister is not what he places: JCZ discarded it and Bob
    # drew from the pile, not from the supply (whose next tile is Ann's). Ann then takes her
    # supply tile without a draw.
    document = save(
        [
            place(0, "BB/F.b", 0, 1),
            pass_(0),
            commit(0, 0.1),
            {"type": "BAZAAR_BID", "payload": {"supplyIndex": 0, "price": 0}, "player": 1},
            pass_(0),
            place(1, "BA/C", 0, -1, 180),
            pass_(1),
            commit(1, 0.2),
        ],
        ["BB/F.b", "BA/L", "BA/Cccc+", "BA/C", "BA/Rr"],
        sets={"basic:1": 1, "bridges-castles-and-bazaars:1": 1},
        elements={"small-follower": 7, "farmers": True, "bazaar": True},
    )
    plan = plan_draws(decode(document))
    assert [(d.tile, d.kind) for d in plan.draws] == [
        ("BB/F.b", "turn"),
        ("BA/L", "bazaar"),
        ("BA/Cccc+", "bazaar"),
        ("BA/C", "redraw"),
    ]


# ---------------------------------------------------------------- JCZ readings as switches
# Where JCloisterZone plays differently from our default reading, the difference is a named
# switch of the rule set (domain.rules.VARIANTS, JCZ-*), set by `jcz_rules` and tested both ways.


def test_JCZ_readings_are_switched_on_for_imports_only() -> None:
    imported, ours = jcz_rules(decode(save([]))), RuleSet()
    chooser = "bazaar_choice_moves_on"
    assert (switch(imported, chooser), switch(ours, chooser)) == (True, False)
    assert (switch(imported, "bridge_on_neighbours"), switch(ours, "bridge_on_neighbours")) == (False, True)
    assert (switch(imported, "builder_on_completed"), switch(ours, "builder_on_completed")) == (False, True)


@pytest.mark.parametrize(("moves_on", "next_chooser"), [(False, 1), (True, 0)])
def test_JCZ_bazaar_choice_after_a_sale(moves_on: bool, next_chooser: int) -> None:
    # Host 0: seat 1 chooses first, seat 2 outbids, seat 1 sells. R-BAZAAR-6: seat 1 chooses
    # again; JCloisterZone passes the choice on to the next seat without a tile, seat 0.
    auction = bz.Auction(0, ("BA/L", "BA/C", "BA/Rr"), 3, free=False, hidden=False, moves_on=moves_on)
    assert auction.chooser == 1
    auction.open_sale(1, 0, 1)
    auction.raise_bid(2, 2)
    auction.skip_bidder()  # seat 0 passes
    auction.give(2, 0)
    assert auction.chooser == next_chooser


def _first_state(expansions: tuple[str, ...], found: Callable[[GameState], bool]) -> GameState:
    """A state of some seeded bot game where `found` holds (the game stops there)."""
    for seed in range(50):
        game = Game.start(
            DEFAULT_NAMES[:3], shuffled_pile(expansions, random.Random(seed)), expansions=expansions
        )
        bot = RandomBot(random.Random(seed), deploy_rate=0.9)
        while not game.over:
            if found(game.state):
                return game.state
            game.execute(*bot.choose(game.state))
    raise AssertionError("no bot game reached the state looked for")


def test_JCZ_4_voluntary_bridges_on_neighbours_only_in_our_reading() -> None:
    def neighbour_spot(state: GameState) -> bool:
        placed = state.placed
        return (
            state.phase == Phase.ACTION
            and placed is not None
            and any((x, y) != placed.pos for x, y, _ in bridge_spots(state))
        )

    state = _first_state(("base", "bcb"), neighbour_spot)
    placed = state.placed
    assert placed is not None
    ours = bridge_spots(state)
    state.read_under(with_switches(state.rules, bridge_on_neighbours=False))
    jczs = bridge_spots(state)
    assert jczs == [s for s in ours if (s[0], s[1]) == placed.pos] and len(jczs) < len(ours)


def test_JCZ_builder_on_a_feature_just_completed_only_in_our_reading() -> None:
    def builder_on_completed(state: GameState) -> bool:
        placed = state.placed
        if state.phase != Phase.ACTION or placed is None:
            return False
        graph = state.board.graph
        return any(
            graph.feature(placed.segment(name)).open == 0 for name in legal_deployments(state, "builder")
        )

    state = _first_state(("base", "tb"), builder_on_completed)
    ours = legal_deployments(state, "builder")
    state.read_under(with_switches(state.rules, builder_on_completed=False))
    placed = state.placed
    assert placed is not None
    graph = state.board.graph
    assert legal_deployments(state, "builder") == [
        name for name in ours if graph.feature(placed.segment(name)).open > 0
    ]
