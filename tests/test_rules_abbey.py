"""The abbey of Abbey & Mayor, one or more scenarios per rule id (docs/RULES.md 4, R-AM-1..3).

The start tile BA/RCr lies at (0,0), its city N. Five cloisters and a road tile ring the square
(0,-1) above it, leaving a hole there: tiles on all four sides.
"""

from __future__ import annotations

import pytest

from domain import events as ev
from domain.aggregate import Game
from domain.commands import Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.expansions import abbey as ab, castles as cs, wagon as wg
from domain.moves import Decision, expected_step, legal_commands, legal_deployments, legal_placements
from domain.readings import rule_set
from domain.replay import replay
from domain.rules import RuleSet
from domain.state import Phase
from domain.tiles import TILES

ANN, BOB = 0, 1
# (x, y, rotation) of each tile that rings the hole at (0,-1), in the order they are placed.
RING = [(1, 0, 0), (1, -1, 0), (1, -2, 0), (0, -2, 0), (-1, -2, 0), (-1, -1, 0)]


def ringed(extra: int = 2, rules: RuleSet | None = None) -> Game:
    pile = ["BA/RFr", "BA/L", "BA/L", "BA/L", "BA/L", "BA/L", *["BA/L"] * extra]
    game = Game.start(("Ann", "Bob"), pile, expansions=("base", "am"), rules=rules)
    for x, y, rotation in RING:
        player = game.state.current
        if expected_step(game.state) == Decision("abbey", player):
            game.execute(player, Pass())
        game.execute(player, PlaceTile(x=x, y=y, rotation=rotation))
        if game.state.phase == Phase.ACTION:
            game.execute(player, Pass())
    return game


def test_R_AM_1_twelve_tiles_and_an_abbey_in_each_hand_not_in_the_pile() -> None:
    am = [t for t in TILES.values() if t.expansion == "am"]
    assert sum(t.count for t in am) == 12  # the abbey has no copy in the pile
    assert TILES[ab.TILE].edges == "****" and TILES[ab.TILE].cloister
    game = Game.start(("Ann", "Bob", "Cy"), ["BA/L"], expansions=("base", "am"))
    assert ab.abbeys(game.state).held == [True, True, True]


def test_R_AM_2_the_abbey_is_offered_before_the_draw_once_a_hole_exists() -> None:
    game = ringed()
    assert expected_step(game.state) == Decision("abbey", ANN)
    assert game.state.tile is None  # nothing drawn yet
    offered = {(c.x, c.y) for c in legal_commands(game.state) if isinstance(c, ab.PlaceAbbey)}
    assert offered == {(0, -1)}
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, ab.PlaceAbbey(x=2, y=0))
    assert refused.value.rule == "R-AM-2"


def test_R_AM_2_placing_the_abbey_is_the_turn_and_closes_what_meets_it() -> None:
    game = ringed()
    city = game.state.board.graph.feature(game.state.board.at[(0, 0)].segment("N"))
    assert city.open == 1
    drawn = game.state.next_draw
    game.execute(ANN, ab.PlaceAbbey(x=0, y=-1))
    assert game.state.board.at[(0, -1)].tile.id == ab.TILE
    assert game.state.next_draw == drawn  # no tile was drawn
    assert game.state.board.graph.feature(game.state.board.at[(0, 0)].segment("N")).open == 0
    assert not ab.abbeys(game.state).held[ANN]
    assert "cloister" in legal_deployments(game.state)  # R-AM-3: a monk may go on it
    game.execute(ANN, Deploy(location="cloister"))
    assert game.state.current == BOB
    replay(game.pending)


def test_R_AM_2_a_pass_draws_as_usual_and_is_asked_once_a_turn() -> None:
    game = ringed()
    game.execute(ANN, Pass())
    assert game.state.tile is not None and game.state.tile.id == "BA/L"
    assert game.state.phase == Phase.PLACE and legal_placements(game.state)


def test_R_AM_2_at_the_end_those_holding_their_abbey_may_place_it() -> None:
    game = ringed(extra=0)
    assert game.state.pile_left == 0 and not game.state.over
    # The last turn was Bob's: Ann is asked first, then Bob.
    assert expected_step(game.state) == Decision("abbey", ANN)
    game.execute(ANN, Pass())
    assert expected_step(game.state) == Decision("abbey", BOB)
    game.execute(BOB, ab.PlaceAbbey(x=0, y=-1, rotation=90))
    game.execute(BOB, Pass())
    assert game.state.over
    assert any(isinstance(e, ev.TilePlaced) and e.tile == ab.TILE for e in game.pending)
    replay(game.pending)


def test_R_AM_2_at_the_end_each_holder_is_asked_once() -> None:
    game = ringed(extra=0)
    game.execute(ANN, Pass())
    game.execute(BOB, Pass())
    assert game.state.over


def test_JCZ_ABBEY_END_ROUNDS_holders_are_asked_again_while_the_last_turns_player_holds_one() -> None:
    game = ringed(extra=0, rules=rule_set(abbey_end_rounds=True))
    game.execute(ANN, Pass())
    game.execute(BOB, Pass())  # Bob played the last turn and still holds his abbey: round again
    assert expected_step(game.state) == Decision("abbey", ANN)
    game.execute(ANN, Pass())
    assert expected_step(game.state) == Decision("abbey", BOB)
    game.execute(BOB, ab.PlaceAbbey(x=0, y=-1))
    game.execute(BOB, Pass())
    assert game.state.over  # the only hole is filled: nobody can be asked
    replay(game.pending)


def test_JCZ_ABBEY_END_ROUNDS_the_asking_stops_at_the_last_turns_player_without_an_abbey() -> None:
    game = ringed(extra=1, rules=rule_set(abbey_end_rounds=True))  # Ann plays the last turn
    assert expected_step(game.state) == Decision("abbey", ANN)
    game.execute(ANN, ab.PlaceAbbey(x=0, y=-1))  # her turn's tile: the BA/L stays on the pile
    game.execute(ANN, Pass())
    game.execute(BOB, PlaceTile(x=0, y=1, rotation=0))
    game.execute(BOB, Pass())
    assert game.state.pile_left == 0 and game.state.over  # no hole left for Bob's abbey


def test_R_AM_3_the_abbey_is_a_cloister_surrounded_by_its_hole() -> None:
    game = ringed()
    game.execute(ANN, ab.PlaceAbbey(x=0, y=-1))
    assert game.state.board.cloister_ring[(0, -1)] == 7  # (-1,0) is the only empty square around it


# ----------------------------------------------------------------- the mayor (R-AM-4)


def _mayor_on_start_city(tile: str, city: str) -> Game:
    """Ann turns `tile` so its city meets the start tile's from the north, where her mayor may go."""
    game = Game.start(("Ann", "Bob"), [tile, "BA/L", "BA/L"], expansions=("base", "am"))
    game.execute(ANN, PlaceTile(x=0, y=-1, rotation=180))
    assert legal_deployments(game.state, "mayor") == [city]  # the city, not the fields
    return game


def test_R_AM_4_a_mayors_castle_scores_nothing_at_the_end_and_says_so() -> None:
    """The mayor makes a castle of its two-tile city (R-CASTLE-1): a castle is no city, so the
    mayor has no strength there, and the castle's end scores `castle.empty` (JCloisterZone's name)."""
    game = Game.start(("Ann", "Bob"), ["BA/C", "BA/L"], expansions=("base", "bcb", "am"))
    game.execute(ANN, PlaceTile(x=0, y=-1, rotation=180))
    game.execute(ANN, Deploy(location="S", figure="mayor"))
    game.execute(ANN, cs.ChooseCastle(x=0, y=-1, location="S"))
    game.execute(BOB, PlaceTile(x=0, y=1, rotation=0))
    game.execute(BOB, Pass())
    assert game.state.over
    final = [(a.player, a.points, a.category, a.rule) for a in game.state.awards if a.final]
    assert final == [(ANN, 0, "castle.empty", "R-CASTLE-10")]
    assert game.state.ext["figures"]["mayor"] == [1, 1]  # home again
    replay(game.pending)


def test_R_AM_4_a_mayor_without_pennants_scores_nothing_and_says_so() -> None:
    game = _mayor_on_start_city("BA/C", "S")  # two city caps: completed at once, no pennant
    game.execute(ANN, Deploy(location="S", figure="mayor"))
    assert [(a.player, a.points, a.category) for a in game.state.awards] == [(ANN, 0, "city.empty")]
    assert game.state.ext["figures"]["mayor"] == [1, 1]  # home again


def test_R_AM_4_a_mayors_strength_is_its_citys_pennants() -> None:
    game = _mayor_on_start_city("BA/Cc+", "E+S")  # one pennant; the city stays open to the east
    game.execute(ANN, Deploy(location="E+S", figure="mayor"))
    game.execute(BOB, PlaceTile(x=0, y=1, rotation=0))
    game.execute(BOB, Pass())
    game.execute(ANN, PlaceTile(x=0, y=2, rotation=0))
    game.execute(ANN, Pass())
    assert game.state.over
    assert (ANN, 3, "city") in [(a.player, a.points, a.category) for a in game.state.awards]


def test_R_AM_4_strength_against_followers() -> None:
    from domain.expansions import PARTS
    from domain.features import Feature
    from domain.part import part_tables
    from domain.scoring import majority
    from domain.tiles import Kind

    strength = part_tables(PARTS).strength
    city = Feature(0, Kind.CITY, 0, 0, 2)
    city.figures = [(ANN, 0, "mayor"), (BOB, 1, "follower"), (BOB, 2, "follower")]
    assert majority(city, strength) == [ANN, BOB]  # two pennants against two knights
    city.pennants = 3
    assert majority(city, strength) == [ANN]
    city.pennants = 0
    assert majority(city, strength) == [BOB]


def test_R_AM_4_a_mayor_goes_on_cities_only() -> None:
    game = Game.start(("Ann", "Bob"), ["BA/RFr", "BA/L"], expansions=("base", "am"))
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=0))
    assert legal_deployments(game.state, "mayor") == []
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, Deploy(location="E+W", figure="mayor"))
    assert refused.value.rule == "R-AM-4"


# ----------------------------------------------------------------- the wagon (R-AM-5)


def _wagon_road_completed(rules: RuleSet | None = None) -> Game:
    """Ann's wagon on the road of (1,0) and the start tile; two cloisters' roads close it, at
    (2,0) and at (-1,0)."""
    game = Game.start(
        ("Ann", "Bob"), ["BA/RFr", "BA/LR", "BA/LR", "BA/L"], expansions=("base", "am"), rules=rules
    )
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=0))
    game.execute(ANN, Deploy(location="E+W", figure="wagon"))
    game.execute(BOB, PlaceTile(x=2, y=0, rotation=90))
    game.execute(BOB, Pass())
    game.execute(ANN, PlaceTile(x=-1, y=0, rotation=270))
    game.execute(ANN, Pass())
    return game


def test_R_AM_5_a_scored_wagon_may_roll_on_to_an_open_feature_nearby() -> None:
    game = _wagon_road_completed()
    assert (ANN, 4, "road") in [(a.player, a.points, a.category) for a in game.state.awards]
    assert expected_step(game.state) == Decision("wagon", ANN)
    options = {(c.x, c.y, c.location) for c in legal_commands(game.state) if isinstance(c, wg.MoveWagon)}
    assert (2, 0, "cloister") in options and (0, 0, "N") in options
    assert (-1, 0, "cloister") not in options  # two squares away
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, wg.MoveWagon(x=-1, y=0, location="cloister"))
    assert refused.value.rule == "R-AM-5"
    game.execute(ANN, wg.MoveWagon(x=2, y=0, location="cloister"))
    cloister = game.state.board.graph.feature(game.state.board.at[(2, 0)].segment("cloister"))
    assert cloister.figures == [(ANN, cloister.figures[0][1], "wagon")]
    assert game.state.ext["figures"]["wagon"] == [0, 1]
    assert game.state.current == BOB  # the move came before Bob's turn
    replay(game.pending)


def test_R_AM_5_a_wagon_may_also_go_home() -> None:
    game = _wagon_road_completed()
    game.execute(ANN, Pass())
    assert game.state.ext["figures"]["wagon"] == [1, 1]


def test_R_AM_5_a_wagon_goes_on_roads_cities_and_cloisters_not_fields() -> None:
    game = Game.start(("Ann", "Bob"), ["BA/LR", "BA/L"], expansions=("base", "am"))
    game.execute(ANN, PlaceTile(x=0, y=1, rotation=0))
    assert sorted(legal_deployments(game.state, "wagon")) == ["S", "cloister"]  # not its field


# ----------------------------------------------------------------- the barn (R-AM-6)


def _barn_crossing() -> Game:
    """Ann's farmer south of the road at (1,0); cloisters at (0,1) and (1,1) close a crossing of
    four fields at (1,1)'s north-west corner."""
    game = Game.start(("Ann", "Bob"), ["BA/RFr", "BA/L", "BA/L", "BA/L"], expansions=("base", "am"))
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=0))
    assert legal_deployments(game.state, "barn") == []  # no crossing of four fields yet
    game.execute(ANN, Deploy(location="Es+Se+Sw+Ws"))
    game.execute(BOB, PlaceTile(x=0, y=1, rotation=0))
    game.execute(BOB, Pass())
    game.execute(ANN, PlaceTile(x=1, y=1, rotation=0))
    return game


def test_R_AM_6_a_barn_goes_on_a_crossing_of_four_fields_and_sends_its_farmers_home() -> None:
    game = _barn_crossing()
    assert legal_deployments(game.state, "barn") == ["Nw+Ne+En+Es+Se+Sw+Ws+Wn"]
    game.execute(ANN, Deploy(location="Nw+Ne+En+Es+Se+Sw+Ws+Wn", figure="barn"))
    barn_placed = [(a.player, a.points, a.category, a.rule) for a in game.state.awards]
    assert barn_placed == [(ANN, 0, "farm.barn-placed", "R-AM-6")]  # no completed city borders it
    assert game.state.supply[ANN] == 7  # the farmer is home
    field = game.state.board.graph.feature(game.state.board.at[(1, 1)].segment("Nw+Ne+En+Es+Se+Sw+Ws+Wn"))
    assert [k for _, _, k in field.figures] == ["barn"]
    assert game.state.occupied(field)  # no farmer may join it now
    replay(game.pending)


def test_R_AM_6_the_barn_scores_for_its_owner_at_the_end() -> None:
    game = _barn_crossing()
    game.execute(ANN, Deploy(location="Nw+Ne+En+Es+Se+Sw+Ws+Wn", figure="barn"))
    game.execute(BOB, PlaceTile(x=2, y=1, rotation=0))
    game.execute(BOB, Pass())
    assert game.state.over
    final = [(a.player, a.category, a.rule) for a in game.state.awards if a.final]
    assert (ANN, "farm", "R-AM-6") in final
    assert game.state.ext["figures"]["barn"] == [1, 1]


def test_R_AM_5_the_placers_wagon_moves_first_then_round_the_table() -> None:
    """Three wagons whose features scored in one part, Ann's first: in Bob's turn part Bob's
    wagon waits first, then Carl's, then Ann's (JCloisterZone's order), whatever order they
    scored in."""
    game = Game.start(("Ann", "Bob", "Carl"), ["BA/L", "BA/L"], expansions=("base", "am"))
    state = game.state
    state.current = 1  # Bob's turn part
    graph = state.board.graph
    part = wg.PART
    for player, sid in ((0, 1), (2, 2), (1, 0)):  # scored in this order: Ann's, Carl's, Bob's
        feature = graph.feature(sid)
        feature.figures = [(player, sid, "wagon")]
        part.feature_scored(state, feature)
    assert [player for player, _ in wg.wagons(state).waiting] == [1, 2, 0]
