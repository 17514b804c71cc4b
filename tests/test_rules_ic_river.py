"""Inns & Cathedrals and The River, one or more scenarios per rule id (docs/RULES.md 1 and 2).

Board conventions as in tests/helpers.py: the start tile BA/RCr lies at (0,0) with its city N,
road E+W and field S; the River's spring RI/s lies there instead, its river running east.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from domain.aggregate import Game
from domain.bots import play_bot_game, shuffled_pile
from domain.commands import Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.expansions import PARTS
from domain.features import Feature
from domain.moves import legal_deployments, legal_placements
from domain.part import part_tables
from domain.scoring import majority
from domain.state import Phase
from domain.tiles import TILES, Kind
from tests.helpers import awards, in_supply

ANN, BOB = 0, 1


def start(draw_order: Sequence[str], expansions: tuple[str, ...]) -> Game:
    return Game.start(("Ann", "Bob"), list(draw_order), expansions=expansions)


def turn(
    game: Game, x: int, y: int, rotation: int = 0, deploy: str | None = None, figure: str = "follower"
) -> None:
    player = game.state.current
    game.execute(player, PlaceTile(x=x, y=y, rotation=rotation))
    if deploy is not None:
        game.execute(player, Deploy(location=deploy, figure=figure))
    elif game.state.phase == Phase.ACTION:
        game.execute(player, Pass())


# ----------------------------------------------------------------- Inns & Cathedrals


def test_R_IC_1_eighteen_tiles_two_cathedrals_six_inns() -> None:
    ic = [t for t in TILES.values() if t.expansion == "ic"]
    assert sum(t.count for t in ic) == 18
    assert sum(t.count for t in ic if any("cathedral" in s.flags for s in t.segments)) == 2
    assert sum(t.count for t in ic if any("inn" in s.flags and s.kind == Kind.ROAD for s in t.segments)) == 6


def _inn_road(closed_both_ends: bool, figure: str = "follower") -> Game:
    """Ann's follower on a road with an inn (IC/RFr.i east of the start tile), closed by two
    cloisters' roads, or only by one."""
    order = ["IC/RFr.i", "BA/LR", "BA/LR" if closed_both_ends else "BA/L", "BA/L"]
    game = start(order, ("base", "ic"))
    turn(game, 1, 0, 0, deploy="E+W", figure=figure)
    turn(game, 2, 0, 90)  # its road runs west into the inn's road
    if closed_both_ends:
        turn(game, -1, 0, 270)
    else:
        turn(game, 0, 1)
    return game


def test_R_IC_2_a_completed_road_with_an_inn_scores_two_a_tile() -> None:
    game = _inn_road(closed_both_ends=True)
    assert (ANN, 8, "road", "R-BASE-5", (("tiles", 4), ("inn", 4))) in awards(game)


def test_R_IC_2_without_the_inns_part_the_road_scores_one_a_tile() -> None:
    from domain.rules import RuleSet

    order = ["IC/RFr.i", "BA/LR", "BA/LR", "BA/L"]
    game = Game.start(("Ann", "Bob"), order, expansions=("base", "ic"), rules=RuleSet(without=("inns",)))
    turn(game, 1, 0, 0, deploy="E+W")
    turn(game, 2, 0, 90)
    turn(game, -1, 0, 270)
    assert (ANN, 4, "road", "R-BASE-5", (("tiles", 4),)) in awards(game)


def test_R_IC_3_an_unfinished_road_with_an_inn_scores_nothing_at_the_end() -> None:
    game = _inn_road(closed_both_ends=False)
    turn(game, 0, 2)
    assert game.state.over
    assert (ANN, 0, "road", "R-BASE-8", (("inn", 0),)) in awards(game)


def _cathedral(complete: bool) -> Game:
    """Ann's knight in a city of the start tile, a cathedral (IC/Cccc.c north of it) and caps."""
    caps = ["BA/C", "BA/C", "BA/C"] if complete else ["BA/L", "BA/L", "BA/L"]
    game = start(["IC/Cccc.c", *caps, "BA/L"], ("base", "ic"))
    turn(game, 0, -1, 0, deploy="N+E+S+W")
    if complete:
        turn(game, 0, -2, 180)
        turn(game, 1, -1, 270)
        turn(game, -1, -1, 90)
    else:
        turn(game, 0, 1)
        turn(game, 0, 2)
        turn(game, 0, 3)
    return game


def test_R_IC_4_a_completed_city_with_a_cathedral_scores_three_a_tile() -> None:
    game = _cathedral(complete=True)
    assert (ANN, 15, "city", "R-BASE-5", (("tiles", 5), ("pennants", 0), ("cathedral", 5))) in awards(game)


def test_R_IC_4_an_unfinished_city_with_a_cathedral_scores_nothing_at_the_end() -> None:
    game = _cathedral(complete=False)
    turn(game, 0, 4)
    assert game.state.over
    assert (ANN, 0, "city", "R-BASE-8", (("cathedral", 0),)) in awards(game)


def test_R_IC_5_the_large_follower_is_deployed_scored_and_returned_like_a_follower() -> None:
    game = _inn_road(closed_both_ends=False, figure="big")
    assert in_supply(game.state, "big") == [0, 1] and game.state.supply[ANN] == 7
    game = _inn_road(closed_both_ends=True, figure="big")
    assert (ANN, 8, "road", "R-BASE-5", (("tiles", 4), ("inn", 4))) in awards(game)
    assert in_supply(game.state, "big") == [1, 1]


def test_R_IC_5_the_large_follower_counts_as_two_in_a_majority() -> None:
    feature = Feature(0, Kind.CITY, 0, 0, 0)
    feature.figures = [(ANN, 0, "big"), (BOB, 1, "follower")]
    assert majority(feature, part_tables(PARTS).strength) == [ANN]
    feature.figures.append((BOB, 2, "follower"))
    assert majority(feature, part_tables(PARTS).strength) == [ANN, BOB]  # two against two: both score


def test_R_IC_5_no_large_follower_without_the_set() -> None:
    game = start(["BA/RFr", "BA/L"], ("base",))
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=0))
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, Deploy(location="E+W", figure="big"))
    assert refused.value.rule == "R-IC-5"


# ----------------------------------------------------------------- The River


def test_R_RIVER_1_the_spring_starts_the_game_and_the_base_start_tile_is_in_the_pile() -> None:
    pile = shuffled_pile(("base", "river"), random.Random(3))
    game = Game.start(("Ann", "Bob"), pile, expansions=("base", "river"))
    assert game.state.board.at[(0, 0)].tile.id == "RI/s"
    assert pile.count("BA/RCr") == 4 and "RI/s" not in pile
    assert len(pile) == 72 + 11


def test_R_RIVER_2_river_tiles_come_first_and_the_lake_last_of_them() -> None:
    for seed in range(5):
        pile = shuffled_pile(("base", "river"), random.Random(seed))
        assert all(any(s.name == "river" for s in TILES[t].segments) for t in pile[:11])
        assert pile[10] == "RI.1/I.e"
        assert not any(any(s.name == "river" for s in TILES[t].segments) for t in pile[11:])


def test_R_RIVER_3_a_river_tile_must_continue_the_river() -> None:
    game = start(["RI.1/IFI", "BA/L"], ("base", "river"))
    assert all(x >= 1 for x, _, _ in legal_placements(game.state))  # only east of the spring
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, PlaceTile(x=0, y=-1, rotation=0))  # edges fit, but no river meets it
    assert refused.value.rule == "R-RIVER-3"


def test_R_RIVER_4_the_river_may_not_turn_back_on_itself() -> None:
    game = start(["RI.1/II", "RI.1/II", "BA/L"], ("base", "river"))
    turn(game, 1, 0, 0)  # the spring's river turns south at (1,0)
    placements = legal_placements(game.state)
    assert (1, 1, 180) in placements  # turning east again leaves room
    assert (1, 1, 90) not in placements  # turning west would run back along the spring
    with pytest.raises(RuleViolation) as refused:
        game.execute(BOB, PlaceTile(x=1, y=1, rotation=90))
    assert refused.value.rule == "R-RIVER-4"


def test_R_RIVER_5_no_follower_goes_on_the_river_and_it_parts_fields() -> None:
    game = start(["RI.1/IFI", "BA/L"], ("base", "river"))
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=0))
    spots = legal_deployments(game.state)
    assert "E+W" not in spots  # the river
    assert "Nw+Ne+En+Wn" in spots and "Es+Se+Sw+Ws" in spots  # a field on each bank


def test_river_games_play_out_with_every_set() -> None:
    for seed in range(3):
        game = play_bot_game(3, seed, expansions=("base", "river", "ic", "tower", "bcb", "tb"))
        assert game.state.over
