"""King & Robber: one or more scenarios per rule id (docs/RULES.md 10, R-KR-*), each reading
(V-KR-*) both ways, and the set as JCloisterZone's saves name it.

Board conventions as in tests/helpers.py: the start tile BA/RCr lies at (0,0) with its city N,
road E+W and field S; x grows east, y grows south, rotations are clockwise. Tiles used most:

* BA/C, a city cap: rotation 180 at (0,-1) closes the start city, two tiles; rotation 90 faces E,
  270 faces W.
* BA/LR, a cloister whose road ends in it: rotation 90 turns the road W, 270 turns it E, 180 N.
* BA/CFc.1, a city E+W (rotation 90: N+S); BA/CFC.2, two cities N and S (rotation 90: E and W).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

import msgspec
import pytest

from carc.cli.common import parse_rules
from domain.aggregate import Game
from domain.bots import play_bot_game, shuffled_pile
from domain.commands import Deploy, Pass, PlaceTile
from domain.events import GameStarted
from domain.expansions import abbey as ab
from domain.expansions.king_robber import KING, ROBBER, card, holder
from domain.moves import Decision, expected_step
from domain.readings import CHOICES, audit_variants, played_under, rule_set, switch
from domain.replay import audit, replay
from domain.rules import RuleSet
from domain.sets import SET_CODES
from domain.state import Phase
from domain.tiles import TILES
from replays.check import check_file
from replays.jcz import JCZ_READING, JczSave, jcz_rules, read_jcz, unsupported
from replays.jcz_export import export_jcz, jcz_setup
from tests.helpers import Move
from tests.jcz_saves import commit, pass_, place, save
from tests.test_rules_abbey import RING
from tests.test_rules_bcb import turn as bcb_turn

ANN, BOB = 0, 1
KR = ("base", "kr")
C, L, LR = "BA/C", "BA/L", "BA/LR"


def start(draw_order: Sequence[str], rules: RuleSet | None = None, sets: Sequence[str] = KR) -> Game:
    return Game.start(("Ann", "Bob"), list(draw_order), expansions=tuple(sets), rules=rules)


def play(game: Game, *moves: Move) -> Game:
    """Each move is the current player's whole turn part: place, then deploy or pass."""
    for move in moves:
        player = game.state.current
        game.execute(player, PlaceTile(x=move.x, y=move.y, rotation=move.rotation))
        if move.deploy is not None:
            game.execute(player, Deploy(location=move.deploy))
        elif game.state.phase == Phase.ACTION:
            game.execute(player, Pass())
    return game


def cards(game: Game) -> tuple[int | None, int | None]:
    return holder(game.state, KING), holder(game.state, ROBBER)


def record(game: Game, name: str) -> int:
    """The size of the largest city (KING) or road (ROBBER) completed so far."""
    own = card(game.state, name)
    assert own is not None
    return own.record


def awards(game: Game, *categories: str) -> list[tuple[int, int, str, str, tuple[tuple[str, int], ...]]]:
    """(player, points, category, rule, parts) of the awards of these categories, in order."""
    return [
        (a.player, a.points, a.category, a.rule, a.parts)
        for a in game.state.awards
        if a.category in categories
    ]


CARDS = ("king", "robber", "king+robber")

# ----------------------------------------------------------------- scenarios
#
# CITIES: Ann closes the start city (2 tiles: the King); she puts a knight in a cap south of the
# start tile and Bob closes it (2 tiles, a tie: nothing moves, Ann scores it); Ann takes a city
# north east with a knight and Bob closes it (3 tiles: the King to Bob, not to its owner). A
# last cap leaves an unfinished city. Three completed cities in all.
CITIES_PILE = [C, C, C, C, "BA/CFc.1", C, C]
CITIES = (
    Move(0, -1, 180),  # Ann: start city, 2 tiles
    Move(1, -1, 90),  # Bob: a cap facing E
    Move(0, 1, 180, "S"),  # Ann: her knight in a cap
    Move(0, 2, 0),  # Bob: closes Ann's city, 2 tiles (a tie)
    Move(2, -1, 0, "E+W"),  # Ann: her knight
    Move(3, -1, 270),  # Bob: closes Ann's city, 3 tiles
    Move(0, 3, 180),  # Ann: an unfinished city
)

# BOTH: Ann and Bob lay two cloisters west; Ann's BA/CRRR (a city, three road ends) at (0,-1)
# closes the start city and the road from the cloister at (-1,-1) in one part.
BOTH_PILE = [LR, LR, "BA/CRRR"]
BOTH = (Move(-1, 0, 270), Move(-1, -1, 270), Move(0, -1, 180))

# TWO_CITIES: Ann closes the start city (the King, record 2); a row of tiles east builds a city
# of one tile and one of two on either side of (2,-1); Bob's BA/CFC.2 there closes both (2 and 3
# tiles) in one part, and takes the King.
TWO_CITIES_PILE = [C, C, "BA/RFr", "BA/RFr", "BA/RFr", "BA/CFc.1", C, "BA/CFC.2"]
TWO_CITIES = (
    Move(0, -1, 180),  # Ann: the start city
    Move(1, -1, 90),  # Bob: a cap facing E
    Move(1, 0),  # Ann: the start road goes on east
    Move(2, 0),  # Bob
    Move(3, 0),  # Ann
    Move(3, -1),  # Bob: a city E+W
    Move(4, -1, 270),  # Ann: its cap facing W
    Move(2, -1, 90),  # Bob: two cities closed at once, 2 and 3 tiles
)

# ROADS: Bob closes the start road between two cloisters (3 tiles: the Robber, record 3); a
# road of four tiles runs east along y=1 and ends at Ann's T-junction at (1,1), which also ends
# the two-tile road from the cloister at (2,1): two roads in one part, one longer than 3.
ROADS_PILE = [LR, LR, "BA/RFr", "BA/RFr", LR, L, LR, L, "BA/RRR"]
ROADS = (
    Move(1, 0, 90),  # Ann
    Move(-1, 0, 270),  # Bob: the start road, 3 tiles
    Move(0, 1),  # Ann
    Move(-1, 1),  # Bob
    Move(-2, 1, 270),  # Ann: the road's west end, a cloister
    Move(2, 0),  # Bob
    Move(2, 1, 90),  # Ann: a cloister whose road points W
    Move(3, 0),  # Bob
    Move(1, 1),  # Ann: the T-junction closes a road of 4 and one of 2
)


# ----------------------------------------------------------------- R-KR-1


def test_R_KR_1_five_tiles_in_the_pile_played_like_any_other() -> None:
    kr = [t for t in TILES.values() if t.expansion == "kr"]
    assert sorted(t.id for t in kr) == ["KR/CCcc", "KR/CRrR", "KR/CcRR!", "KR/LC", "KR/RC"]
    assert sum(t.count for t in kr) == 5
    pile = shuffled_pile(KR, random.Random(1))
    assert len(pile) == 76 and sum(t.startswith("KR/") for t in pile) == 5
    assert not any(t.startswith("KR/") for t in shuffled_pile(("base",), random.Random(1)))


def test_R_KR_1_the_crossing_cities_are_two_until_the_board_joins_them() -> None:
    """KR/CCcc at (0,-1) joins the start city with its N+S city only; capping both ends of its
    E+W city completes a city of three tiles, and the King goes to its placer."""
    game = play(start(["KR/CCcc", C, C, C, L]), Move(0, -1))
    graph, at = game.state.board.graph, game.state.board.at
    assert graph.find(at[(0, -1)].segment("N+S")) != graph.find(at[(0, -1)].segment("E+W"))
    assert graph.feature(at[(0, 0)].segment("N")).tiles == {0, 1}
    play(game, Move(1, -1, 270), Move(-1, -1, 90))  # Bob caps E, Ann caps W
    assert cards(game) == (ANN, None) and record(game, KING) == 3


# ----------------------------------------------------------------- R-KR-2, R-KR-3


def test_R_KR_2_the_first_completed_city_gives_its_placer_the_king_unoccupied_or_not() -> None:
    game = play(start(CITIES_PILE), *CITIES[:1])
    assert cards(game) == (ANN, None)
    assert awards(game, "city") == []  # nobody was on it
    assert awards(game, *CARDS) == []  # nothing scored for the card itself


def test_R_KR_2_a_city_only_as_large_as_the_largest_moves_nothing() -> None:
    game = play(start(CITIES_PILE), *CITIES[:4])
    assert [(a[0], a[1], a[2]) for a in awards(game, "city")] == [(ANN, 4, "city")]
    assert cards(game) == (ANN, None)  # Bob closed a 2-tile city: the King stays Ann's


def test_R_KR_2_a_larger_city_moves_the_king_to_its_placer_not_its_owner() -> None:
    game = play(start(CITIES_PILE), *CITIES[:6])
    assert [(a[0], a[1]) for a in awards(game, "city")] == [(ANN, 4), (ANN, 6)]  # Ann owns it
    assert cards(game) == (BOB, None)  # Bob closed it


def test_R_KR_3_the_robber_baron_goes_with_the_largest_completed_road() -> None:
    game = play(start(ROADS_PILE), *ROADS[:2])
    assert cards(game) == (None, BOB)
    assert record(game, ROBBER) == 3
    play(game, *ROADS[2:])
    assert cards(game) == (None, ANN)  # roads of 4 and 2 in one part: 4 beats 3
    assert record(game, ROBBER) == 4


def test_R_KR_3_a_shorter_road_moves_nothing() -> None:
    """Ann's T-junction, placed before the row is long enough, closes only the road of two."""
    game = play(start([LR, LR, L, LR, "BA/RRR", L]), *ROADS[:2], Move(2, 0), Move(2, 1, 90))
    assert cards(game) == (None, BOB)
    play(game, Move(1, 1))  # Ann: closes the 2-tile road (1,1)-(2,1); its W and S ends stay open
    assert cards(game) == (None, BOB)


# ----------------------------------------------------------------- R-KR-4


def test_R_KR_4_a_road_entering_a_tile_twice_counts_it_once() -> None:
    """A loop from the crossroads at (1,0), out N and back in E: five road pieces on four tiles."""
    game = play(
        start(["BA/RRRR", "BA/Rr", "BA/Rr", "BA/Rr", L]),
        Move(1, 0),  # Ann: the crossroads, its W end on the start road
        Move(1, -1, 270),  # Bob: S+E
        Move(2, -1),  # Ann: W+S
        Move(2, 0, 90),  # Bob: N+W, closes the loop
    )
    loop = game.state.board.graph.feature(game.state.board.at[(2, 0)].segment("N+W"))
    assert loop.open == 0 and len(loop.tiles) == 4
    assert cards(game) == (None, BOB) and record(game, ROBBER) == 4
    play(game, Move(0, 1, 0))  # the pile ends: one completed road on the board
    assert awards(game, *CARDS) == [(BOB, 1, "robber", "R-KR-5", (("roads", 1),))]


# ----------------------------------------------------------------- R-KR-5


def test_R_KR_5_at_the_end_the_holder_scores_each_completed_city_on_the_board() -> None:
    game = play(start(CITIES_PILE), *CITIES)
    assert game.state.over
    # Three completed cities, two of Ann's and nobody's; the open one counts nothing.
    assert awards(game, *CARDS) == [(BOB, 3, "king", "R-KR-5", (("cities", 3),))]
    assert all(a.final for a in game.state.awards if a.category in CARDS)


def test_R_KR_5_nobody_holding_a_card_it_scores_nothing() -> None:
    game = play(start(CITIES_PILE), *CITIES)
    assert holder(game.state, ROBBER) is None
    assert not awards(game, "robber")


def test_R_KR_5_the_robbers_holder_scores_each_completed_road() -> None:
    game = play(start([*ROADS_PILE, L]), *ROADS, Move(4, 0))
    assert game.state.over
    # The start road (3), the row (4), the cloister's road (2); the junction's S end is open.
    assert awards(game, *CARDS) == [(ANN, 3, "robber", "R-KR-5", (("roads", 3),))]


# ----------------------------------------------------------------- R-KR-6


def test_R_KR_6_a_castle_is_no_city_for_the_king() -> None:
    """Ann's knight makes the start city her castle: no King. Bob then closes a 2-tile city,
    which the castle's two tiles do not match: the King is his. At the end the castle is not
    counted."""
    game = start([C, C, C, L], sets=("base", "bcb", "kr"))
    bcb_turn(game, 0, -1, 180, deploy="S", castle=True)
    assert cards(game) == (None, None)
    assert record(game, KING) == 0
    bcb_turn(game, 0, 1, 180)  # Bob
    bcb_turn(game, 0, 2, 0)  # Ann closes a city of 2
    assert cards(game) == (ANN, None)
    bcb_turn(game, 0, 3, 0)
    assert game.state.over
    assert awards(game, *CARDS) == [(ANN, 1, "king", "R-KR-5", (("cities", 1),))]


# ----------------------------------------------------------------- R-KR-7


def _ringed(extra: int, rules: RuleSet | None = None) -> Game:
    """The abbey's hole at (0,-1) above the start city (tests/test_rules_abbey.py), with K&R."""
    pile = ["BA/RFr", L, L, L, L, L, *[L] * extra]
    game = start(pile, rules=rules, sets=("base", "am", "kr"))
    for x, y, rotation in RING:
        player = game.state.current
        if expected_step(game.state) == Decision("abbey", player):
            game.execute(player, Pass())
        play(game, Move(x, y, rotation))
    return game


def test_R_KR_7_a_city_closed_by_an_abbey_gives_its_placer_the_king() -> None:
    game = _ringed(extra=2)
    assert cards(game) == (None, None)
    game.execute(ANN, ab.PlaceAbbey(x=0, y=-1))
    game.execute(ANN, Pass())
    assert cards(game) == (ANN, None)  # the start city, one tile, closed by the abbey


def test_R_KR_7_an_abbey_at_the_games_end_moves_the_king_before_the_final_scoring() -> None:
    """The last turn was Bob's; Ann, asked first at the end, places her abbey: the King is hers,
    though the turn was Bob's."""
    game = _ringed(extra=0)
    game.execute(ANN, ab.PlaceAbbey(x=0, y=-1))
    game.execute(ANN, Pass())
    assert game.state.over  # the only hole is filled: Bob is not asked
    assert cards(game) == (ANN, None)
    assert awards(game, *CARDS) == [(ANN, 1, "king", "R-KR-5", (("cities", 1),))]


def test_R_KR_7_a_builders_second_tile_is_a_part_of_its_own() -> None:
    """Ann's builder on her road east of the start tile; her tile extending it earns a second,
    with which she closes the start city: the King is hers, taken in that second part."""
    game = Game.start(
        ("Ann", "Bob"),
        ["BA/RFr", L, "BA/RFr", L, "BA/RFr", C, L, L],
        expansions=("base", "tb", "kr"),
    )
    play(game, Move(1, 0, 0, "E+W"), Move(0, 1))
    game.execute(ANN, PlaceTile(x=2, y=0, rotation=0))
    game.execute(ANN, Deploy(location="E+W", figure="builder"))
    play(game, Move(0, 2), Move(3, 0))  # Bob; Ann extends the builder's road
    first = game.state.part_count
    assert game.state.current == ANN and cards(game) == (None, None)
    play(game, Move(0, -1, 180))  # her second tile closes the start city
    assert game.state.part_count == first + 1
    assert cards(game) == (ANN, None)


# ----------------------------------------------------------------- R-KR-8


def test_R_KR_8_both_cards_may_change_hands_in_one_part() -> None:
    game = play(start(BOTH_PILE), *BOTH)
    assert cards(game) == (ANN, ANN)
    assert awards(game, *CARDS) == [
        (ANN, 1, "king", "R-KR-5", (("cities", 1),)),
        (ANN, 1, "robber", "R-KR-5", (("roads", 1),)),
    ]


def test_R_KR_8_the_part_scores_its_features_before_the_king_moves() -> None:
    """Under V-KR-CONTINUOUS the King's holder as the part scores (Ann) is paid, after the city
    the part completed scored for its owner, then the King passes (to Bob)."""
    pile = [C, C, "BA/CFc.1", C, L]
    moves = (Move(0, -1, 180), Move(0, 1, 180), Move(0, 2, 90, "N+S"), Move(0, 3, 0))
    game = play(start(pile, rules=rule_set(king_robber_scoring="continuous")), *moves)
    # Bob's cap closes Ann's 3-tile city: her 6 first, her point for holding the King next.
    assert [(a.player, a.points, a.category) for a in game.state.awards] == [
        (ANN, 6, "city"),
        (ANN, 1, "king"),
    ]
    assert cards(game) == (BOB, None)


# ----------------------------------------------------------------- R-KR-9


def test_R_KR_9_the_king_without_the_robber() -> None:
    game = play(start(BOTH_PILE, rules=RuleSet(without=(ROBBER,))), *BOTH)
    assert cards(game) == (ANN, None)
    assert awards(game, *CARDS) == [(ANN, 1, "king", "R-KR-5", (("cities", 1),))]
    assert not game.state.has(ROBBER)


def test_R_KR_9_the_robber_without_the_king() -> None:
    game = play(start(BOTH_PILE, rules=RuleSet(without=(KING,))), *BOTH)
    assert cards(game) == (None, ANN)
    assert awards(game, *CARDS) == [(ANN, 1, "robber", "R-KR-5", (("roads", 1),))]


def test_R_KR_9_a_save_naming_one_element_plays_that_card_alone() -> None:
    for elements, left_out in (({"king": True}, (ROBBER,)), ({"robber": True}, (KING,))):
        document = save(
            [],
            sets={"basic:1": 1, "king-and-robber:1": 1},
            elements={"small-follower": 7, "farmers": True, **elements},
        )
        rules = jcz_rules(msgspec_save(document))
        assert rules.without == left_out


# ----------------------------------------------------------------- the readings


def test_V_KR_10_20_each_card_scores_ten_whatever_the_board_holds() -> None:
    on = play(start(CITIES_PILE, rules=rule_set(king_robber_scoring="10-20")), *CITIES)
    assert awards(on, *CARDS) == [(BOB, 10, "king", "V-KR-10-20", (("king", 1),))]
    off = play(start(CITIES_PILE), *CITIES)
    assert awards(off, *CARDS) == [(BOB, 3, "king", "R-KR-5", (("cities", 3),))]


def test_V_KR_10_20_both_cards_score_ten_each() -> None:
    game = play(start(BOTH_PILE, rules=rule_set(king_robber_scoring="10-20")), *BOTH)
    assert awards(game, *CARDS) == [
        (ANN, 10, "king", "V-KR-10-20", (("king", 1),)),
        (ANN, 10, "robber", "V-KR-10-20", (("robber", 1),)),
    ]
    assert game.state.scores == [20, 0]


def test_V_KR_15_40_one_card_fifteen_both_forty_in_one_award() -> None:
    rules = rule_set(king_robber_scoring="15-40")
    one = play(start(CITIES_PILE, rules=rules), *CITIES)
    assert awards(one, *CARDS) == [(BOB, 15, "king", "V-KR-15-40", (("king", 1),))]
    both = play(start(BOTH_PILE, rules=rules), *BOTH)
    assert awards(both, *CARDS) == [(ANN, 40, "king+robber", "V-KR-15-40", (("king", 1), ("robber", 1)))]
    assert both.state.scores == [40, 0]
    off = play(start(BOTH_PILE), *BOTH)
    assert off.state.scores == [2, 0]


def test_V_KR_15_40_the_robber_alone_scores_fifteen_when_the_king_is_out_of_play() -> None:
    rules = rule_set(king_robber_scoring="15-40", without=(KING,))
    game = play(start(BOTH_PILE, rules=rules), *BOTH)
    assert awards(game, *CARDS) == [(ANN, 15, "robber", "V-KR-15-40", (("robber", 1),))]


def test_V_KR_CONTINUOUS_the_holder_scores_each_city_a_part_completes_before_the_king_moves() -> None:
    rules = rule_set(king_robber_scoring="continuous")
    game = play(start(TWO_CITIES_PILE, rules=rules), *TWO_CITIES[:1])
    assert cards(game) == (ANN, None) and awards(game, *CARDS) == []  # nobody held it: nobody scores
    play(game, *TWO_CITIES[1:])
    assert game.state.over
    # Bob's part closed two cities: Ann, holding the King as it scored, 2; then the King is Bob's.
    assert awards(game, *CARDS) == [(ANN, 2, "king", "V-KR-CONTINUOUS", (("cities", 2),))]
    assert not any(a.final for a in game.state.awards if a.category in CARDS)  # nothing at the end
    assert cards(game) == (BOB, None)


def test_V_KR_CONTINUOUS_off_the_same_game_scores_at_the_end_only() -> None:
    game = play(start(TWO_CITIES_PILE), *TWO_CITIES)
    assert awards(game, *CARDS) == [(BOB, 3, "king", "R-KR-5", (("cities", 3),))]


def test_V_KR_CONTINUOUS_the_robber_too() -> None:
    game = play(start([*ROADS_PILE, L], rules=rule_set(king_robber_scoring="continuous")), *ROADS)
    # Bob's start road makes him the Robber (nobody paid); Ann's two roads pay Bob 2, then move it.
    assert awards(game, *CARDS) == [(BOB, 2, "robber", "V-KR-CONTINUOUS", (("roads", 2),))]
    assert cards(game) == (None, ANN)


def test_the_readings_are_one_switch_the_audit_and_the_cli_name_by_id() -> None:
    assert switch(RuleSet(), "king_robber_scoring") == "per-feature"
    assert {name for name in CHOICES if name.startswith("V-KR")} == {
        "V-KR-10-20",
        "V-KR-15-40",
        "V-KR-CONTINUOUS",
    }
    assert parse_rules("hig", ["V-KR-15-40"]) == rule_set(king_robber_scoring="15-40")
    assert parse_rules("hig", ["v-kr-continuous=on"]) == rule_set(king_robber_scoring="continuous")
    assert parse_rules("hig", ["V-KR-10-20=off"]) == RuleSet()
    readings = audit_variants(RuleSet(), {KING, ROBBER})
    assert readings["V-KR-10-20"] == rule_set(king_robber_scoring="10-20")
    assert "R-KR-5" not in readings
    assert audit_variants(rule_set(king_robber_scoring="15-40"), {KING})["R-KR-5"] == RuleSet()
    assert "V-KR-10-20" not in audit_variants(RuleSet(), set())  # no K&R in the game
    parts = Game.start(("Ann", "Bob"), [L], expansions=KR).state.parts
    assert played_under(RuleSet(), parts) == ()
    assert played_under(rule_set(king_robber_scoring="10-20"), parts) == ("V-KR-10-20",)


def test_the_audit_rescores_a_game_under_each_reading() -> None:
    game = play(start(BOTH_PILE), *BOTH)
    verdicts = audit(list(game.pending))
    points = {name: v.state.scores for name, v in verdicts.items() if name.startswith(("V-KR", "recorded"))}
    assert points == {
        "recorded": [2, 0],
        "V-KR-10-20": [20, 0],
        "V-KR-15-40": [40, 0],
        "V-KR-CONTINUOUS": [0, 0],
    }
    assert all(v.legal for v in verdicts.values())


# ----------------------------------------------------------------- JCloisterZone's saves


def msgspec_save(document: dict[str, object]) -> JczSave:
    return msgspec.json.decode(json.dumps(document).encode(), type=JczSave)


@pytest.mark.parametrize(
    ("value", "ours"),
    [
        (None, "per-feature"),
        ("default", "per-feature"),
        ("10/20", "10-20"),
        ("15/40", "15-40"),
        ("continuously", "continuous"),
    ],
)
def test_a_saves_king_and_robber_scoring_sets_the_reading_and_an_export_writes_it_back(
    value: str | None, ours: str
) -> None:
    document = save(
        [],
        sets={"basic:1": 1, "king-and-robber:1": 1},
        elements={"small-follower": 7, "farmers": True, "king": True, "robber": True},
        rules={} if value is None else {"king-and-robber-scoring": value},
    )
    parsed = msgspec_save(document)
    assert unsupported(parsed) is None
    rules = jcz_rules(parsed)
    assert switch(rules, "king_robber_scoring") == ours
    assert rules.without == ()
    game = Game.start(("Ann", "Bob"), [L], expansions=KR, rules=rules)
    started = game.pending[0]
    assert isinstance(started, GameStarted)
    setup = jcz_setup(started)
    written = {} if ours == "per-feature" else {"king-and-robber-scoring": value}
    assert setup["rules"] == written
    assert setup["elements"]["king"] is True and setup["elements"]["robber"] is True
    assert setup["sets"] == {"basic:1": 1, "king-and-robber:1": 1}


def _both_cards_save(rule: str | None, assertions: Sequence[str]) -> dict[str, object]:
    """BOTH as JCloisterZone's client would record it, forced draws, the pack ending there."""
    replay = []
    for player, (tile, move) in enumerate(zip(BOTH_PILE, BOTH, strict=True)):
        seat = player % 2
        replay += [place(seat, tile, move.x, move.y, move.rotation), pass_(seat), commit(seat)]
    return save(
        replay,
        BOTH_PILE,
        end_turn=len(BOTH_PILE),
        assertions=assertions,
        sets={"basic:1": 1, "king-and-robber:1": 1},
        elements={"small-follower": 7, "farmers": True, "king": True, "robber": True},
        rules={} if rule is None else {"king-and-robber-scoring": rule},
    )


@pytest.mark.parametrize(
    ("rule", "assertions"),
    [
        (None, ["Ann has 2 points", "Ann scored king for 1 points", "Ann scored robber for 1 points"]),
        ("10/20", ["Ann has 20 points", "Bob has 0 points"]),
        ("15/40", ["Ann has 40 points", "Ann scored king+robber for 40 points"]),
        ("continuously", ["Ann has 0 points", "Bob has 0 points"]),
    ],
)
def test_carc_check_holds_a_save_to_its_assertions_under_each_rule(
    rule: str | None, assertions: list[str], tmp_path: Path
) -> None:
    path = tmp_path / "both.jcz"
    path.write_text(json.dumps(_both_cards_save(rule, assertions)))
    result = check_file(path)
    assert result.verdict == "agrees", result
    wrong = tmp_path / "wrong.jcz"
    wrong.write_text(json.dumps(_both_cards_save(rule, ["Ann has 7 points"])))
    assert check_file(wrong).verdict == "disagrees"


@pytest.mark.parametrize("how", ["per-feature", "10-20", "15-40", "continuous"])
def test_a_bot_game_by_jcloisterzones_reading_exports_and_imports_as_the_same_game(
    how: str, tmp_path: Path
) -> None:
    rules = rule_set(**JCZ_READING, king_robber_scoring=how)
    events = play_bot_game(3, 7, expansions=KR, rules=rules).collect_events()
    path = tmp_path / "game.jcz"
    path.write_bytes(export_jcz(events))
    saved = read_jcz(path)
    assert unsupported(saved) is None and jcz_rules(saved) == rules
    assert replay(events).state.scores == play_bot_game(3, 7, expansions=KR, rules=rules).state.scores


def _ferried_game(on_board: bool) -> Game:
    """A bot game (3 players, seed 17, base and the eleven later sets) in which a ferry move
    reopens the road that took the Robber Baron with 4 tiles; later a part completes a 4-tile road."""
    sets = ("base", *SET_CODES[8:])
    return play_bot_game(3, 17, expansions=sets, rules=rule_set(**{**JCZ_READING, "kr_on_board": on_board}))


def test_JCZ_KR_ON_BOARD_a_road_a_ferry_reopened_no_longer_holds_the_record() -> None:
    # JCloisterZone compares with the roads complete now: the reopened 4-tile road counts no
    # more, so the later 4-tile road is the largest and takes the card.
    assert holder(_ferried_game(True).state, ROBBER) == 2


def test_JCZ_KR_ON_BOARD_off_the_largest_completed_so_far_holds_the_record() -> None:
    # R-KR-3: a road only as large as the largest completed so far moves nothing.
    assert holder(_ferried_game(False).state, ROBBER) == 1


def test_JCZ_KR_ON_BOARD_is_jcloisterzones_reading_and_the_audit_flips_it() -> None:
    assert JCZ_READING["kr_on_board"] is True
    assert switch(RuleSet(), "kr_on_board") is False
    assert "JCZ-KR-ON-BOARD=on" in audit_variants(RuleSet(), {KING, ROBBER})
