"""Base-game scenarios, one group per rule id (RULES.md section 1, R-BASE-1 .. R-BASE-9).

Every scenario builds its board around the start tile, BA/RCr at (0,0): city N, road E+W, the
field En+Wn north of the road (touching the city) and the field Es+Se+Sw+Ws south of it.
Coordinates: x east, y south; rotations clockwise.
"""

from __future__ import annotations

from collections import Counter

import pytest

from domain import events as ev
from domain.aggregate import Game
from domain.catalogue import START_TILE
from domain.commands import Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.moves import legal_deployments, legal_placements
from domain.rules import RuleSet
from domain.state import Phase
from domain.tiles import draw_pile, tiles_of
from projections.board import TileView, board_view
from tests.helpers import ANN, BOB, Move, awards, meeples, play, run, scenario

# ---------------------------------------------------------------- R-BASE-1 players and supply


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_R_BASE_1_each_player_starts_with_seven_followers_and_zero_points(n: int) -> None:
    names = [f"P{i}" for i in range(n)]
    game = scenario(["BA/RFr"], players=names)
    assert game.state.players == tuple(names)
    assert game.state.supply == [7] * n
    assert game.state.scores == [0] * n
    assert game.state.awards == []


@pytest.mark.parametrize("n", [0, 1, 7])
def test_R_BASE_1_player_count_outside_two_to_six_is_refused(n: int) -> None:
    with pytest.raises(RuleViolation) as info:
        scenario(["BA/RFr"], players=[f"P{i}" for i in range(n)])
    assert info.value.rule == "R-BASE-1"
    assert str(n) in info.value.message


def test_R_BASE_1_player_names_must_differ() -> None:
    with pytest.raises(RuleViolation) as info:
        scenario(["BA/RFr"], players=["Ann", "Ann"])
    assert info.value.rule == "R-BASE-1"


# ---------------------------------------------------------------- R-BASE-2 start tile, pile


def test_R_BASE_2_start_tile_lies_at_origin_before_the_first_turn() -> None:
    game = scenario(["BA/RFr", "BA/C"])
    view = board_view(game.state)
    assert view.tiles == (TileView(x=0, y=0, tile=START_TILE, rotation=0),)
    assert START_TILE == "BA/RCr"
    # The first player already holds the first tile of the pile.
    assert (view.current, view.holding, view.pile_left) == (ANN, "BA/RFr", 1)


def test_R_BASE_2_full_draw_order_is_in_the_first_event_and_drawn_in_order() -> None:
    order = ["BA/RFr", "BA/Rr", "BA/C"]
    game = run(order, Move(1, 0, 0), Move(-1, 0, 180))
    events = game.collect_events()
    first = events[0]
    assert isinstance(first, ev.GameStarted)
    assert first.draw_order == tuple(order)
    assert first.start_tile == START_TILE
    drawn = [(e.player, e.tile) for e in events if isinstance(e, ev.TileDrawn)]
    assert drawn == [(ANN, "BA/RFr"), (BOB, "BA/Rr"), (ANN, "BA/C")]


def test_R_BASE_2_base_pile_is_every_tile_but_one_start_tile() -> None:
    pile = draw_pile(("base",))
    assert len(pile) == 71
    expected = Counter(tiles_of(("base",)))
    expected[START_TILE] -= 1
    assert Counter(pile) == expected
    assert Counter(pile)[START_TILE] == 3


# ---------------------------------------------------------------- R-BASE-3 placement, discard


def test_R_BASE_3_edge_mismatch_is_refused() -> None:
    game = scenario(["BA/RFr"])
    # Turned 90 degrees, the straight road runs N-S: its W edge (field) meets the start's E road.
    with pytest.raises(RuleViolation) as info:
        game.execute(ANN, PlaceTile(x=1, y=0, rotation=90))
    assert info.value.rule == "R-BASE-3"
    assert "W edge is field" in info.value.message
    assert "road" in info.value.message
    # Above the start tile the same orientation puts a road edge on the start's city.
    with pytest.raises(RuleViolation):
        game.execute(ANN, PlaceTile(x=0, y=-1, rotation=90))
    assert game.version == 2  # GameStarted, TileDrawn: nothing recorded
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=0))
    assert board_view(game.state).tiles[1] == TileView(x=1, y=0, tile="BA/RFr", rotation=0)


def test_R_BASE_3_placement_must_touch_a_placed_tile() -> None:
    game = scenario(["BA/L"])
    for x, y in [(1, 1), (-1, -1), (2, 0), (0, 2)]:  # diagonal or two steps away
        with pytest.raises(RuleViolation) as info:
            game.execute(ANN, PlaceTile(x=x, y=y, rotation=0))
        assert info.value.rule == "R-BASE-3"
        assert "touches no placed tile" in info.value.message
    # The all-field cloister fits only below the start tile (the only field edge).
    assert sorted(legal_placements(game.state)) == [(0, 1, r) for r in (0, 90, 180, 270)]


def test_R_BASE_3_every_shared_edge_must_match_not_just_one() -> None:
    # (1,1) has a field above it (south edge of the straight road at (1,0)) and a road to its
    # west (east end of the T-junction at (0,1)).
    game = run(["BA/RFr", "BA/RRR", "BA/Rr"], Move(1, 0, 0), Move(0, 1, 0))
    assert game.state.tile is not None and game.state.tile.id == "BA/Rr"
    at_1_1 = sorted(r for x, y, r in legal_placements(game.state) if (x, y) == (1, 1))
    assert at_1_1 == [0]  # N field, W road
    # 90: W road matches but N is road; 270: N field matches but W is field.
    for rotation, edge in [(90, "N"), (270, "W")]:
        with pytest.raises(RuleViolation) as info:
            game.execute(ANN, PlaceTile(x=1, y=1, rotation=rotation))
        assert info.value.rule == "R-BASE-3"
        assert f"its {edge} edge" in info.value.message
    game.execute(ANN, PlaceTile(x=1, y=1, rotation=0))
    assert game.state.board.at[(1, 1)].tile.id == "BA/Rr"


def test_R_BASE_3_tile_fitting_nowhere_is_discarded_and_player_draws_again() -> None:
    # The T-junction below the start tile leaves no open position whose neighbours are all
    # fields, so the plain cloister (four field edges) fits nowhere.
    game = run(["BA/RRR", "BA/L", "BA/RFr"], Move(0, 1, 0))
    events = game.collect_events()
    tail = [(type(e).__name__, getattr(e, "player", None), getattr(e, "tile", None)) for e in events[-3:]]
    assert tail == [
        ("TileDrawn", BOB, "BA/L"),
        ("TileDiscarded", BOB, "BA/L"),
        ("TileDrawn", BOB, "BA/RFr"),
    ]
    state = game.state
    assert state.discarded == ["BA/L"]
    assert (state.current, state.phase, state.pile_left) == (BOB, Phase.PLACE, 0)
    assert state.turn == 2  # the redraw is part of Bob's turn
    assert len(state.board.tiles) == 2  # the cloister never reached the board


def test_R_BASE_3_city_tile_discarded_when_no_open_edge_is_city() -> None:
    # Closing the start city with a cap leaves only field and road edges open: the all-city
    # tile cannot go anywhere. Bob's drawn tile is then the last one: the game ends (R-BASE-8).
    game = run(["BA/C", "BA/Cccc+"], Move(0, -1, 180))
    assert game.state.discarded == ["BA/Cccc+"]
    assert game.state.phase == Phase.OVER
    assert [t.tile for t in board_view(game.state).tiles] == ["BA/RCr", "BA/C"]
    assert game.state.scores == [0, 0]


# ---------------------------------------------------------------- R-BASE-4 deployment


def test_R_BASE_4_feature_joined_to_an_occupied_one_cannot_take_a_follower() -> None:
    game = run(["BA/RFr", "BA/RFr", "BA/C"], Move(1, 0, 0, deploy="E+W"))
    assert game.state.supply == [6, 7]
    # Bob's straight road at (-1,0) continues the start road that Ann's thief holds.
    game.execute(BOB, PlaceTile(x=-1, y=0, rotation=0))
    assert game.state.phase == Phase.ACTION
    # The north field joins the start's north field (free); the south one is free too.
    assert sorted(legal_deployments(game.state)) == ["Es+Se+Sw+Ws", "Nw+Ne+En+Wn"]
    with pytest.raises(RuleViolation) as info:
        game.execute(BOB, Deploy(location="E+W"))
    assert info.value.rule == "R-BASE-4"
    assert "already holds a follower" in info.value.message
    assert game.state.supply == [6, 7]
    game.execute(BOB, Deploy(location="Es+Se+Sw+Ws"))
    assert meeples(game) == [(ANN, 1, 0, "E+W"), (BOB, -1, 0, "Es+Se+Sw+Ws")]
    assert game.state.supply == [6, 6]


def test_R_BASE_4_city_joined_by_the_placement_to_an_occupied_city_is_refused() -> None:
    # Ann's knight on the city above the start tile; Bob's straight city tile extends it.
    game = run(["BA/CFc.1", "BA/CFc.1"], Move(0, -1, 90, deploy="N+S"))
    game.execute(BOB, PlaceTile(x=0, y=-2, rotation=90))
    assert "N+S" not in legal_deployments(game.state)
    with pytest.raises(RuleViolation) as info:
        game.execute(BOB, Deploy(location="N+S"))
    assert info.value.rule == "R-BASE-4"
    assert sorted(legal_deployments(game.state)) == ["En+Es", "Ws+Wn"]


def test_R_BASE_4_one_follower_per_turn_on_the_tile_just_placed() -> None:
    game = run(["BA/RFr", "BA/RFr", "BA/RFr"], Move(1, 0, 0, deploy="E+W"))
    # Ann's turn is over after one deployment: the next command of hers is out of turn.
    with pytest.raises(RuleViolation) as info:
        game.execute(ANN, Deploy(location="Nw+Ne+En+Wn"))
    assert info.value.rule == "R-BASE-3"
    assert game.state.supply == [6, 7]


def test_R_BASE_4_no_deployment_without_a_follower_in_supply() -> None:
    game = scenario(["BA/RFr"] * 4, rules=RuleSet(followers=1))
    play(game, Move(1, 0, 0, deploy="Nw+Ne+En+Wn"), Move(-1, 0, 0, deploy="Es+Se+Sw+Ws"))
    assert game.state.supply == [0, 0]
    game.collect_events()
    # Ann's next tile has free segments (the road), but she has nobody left: the turn ends
    # by itself and Bob draws.
    game.execute(ANN, PlaceTile(x=2, y=0, rotation=0))
    names = [type(e).__name__ for e in game.collect_events()]
    assert names == ["TilePlaced", "TurnEnded", "TileDrawn"]
    assert (game.state.current, game.state.phase) == (BOB, Phase.PLACE)
    with pytest.raises(RuleViolation) as info:
        game.execute(ANN, Deploy(location="E+W"))
    assert info.value.rule == "R-BASE-3"


# ---------------------------------------------------------------- R-BASE-5 completed features


def test_R_BASE_5_road_scores_one_point_per_tile() -> None:
    # Junctions at both ends of the start road: 3 tiles.
    game = run(["BA/RRR", "BA/RRR", "BA/RFr"], Move(1, 0, 0, deploy="W"), Move(-1, 0, 0))
    assert awards(game) == [(ANN, 3, "road", "R-BASE-5", (("tiles", 3),))]
    assert game.state.scores == [3, 0]
    assert game.state.supply == [7, 7]


def test_R_BASE_5_road_loop_through_one_tile_twice_counts_it_once() -> None:
    # The T-junction at (0,1) sends a road east and one south; three curves join them into a
    # loop around (0..1, 1..2). The junction tile carries two segments of that road: 4 tiles.
    game = run(
        ["BA/RRR", "BA/Rr", "BA/Rr", "BA/Rr", "BA/RFr"],
        Move(0, 1, 0, deploy="E"),
        Move(1, 1, 0),
        Move(1, 2, 90),
        Move(0, 2, 180),
    )
    assert awards(game) == [(ANN, 4, "road", "R-BASE-5", (("tiles", 4),))]
    assert game.state.scores == [4, 0]
    assert game.state.supply == [7, 7]


def test_R_BASE_5_city_scores_two_per_tile_and_two_per_pennant() -> None:
    # Start cap + straight city with a pennant + cap: 3 tiles, 1 pennant.
    game = run(["BA/CFc+", "BA/C", "BA/RFr"], Move(0, -1, 90, deploy="N+S"), Move(0, -2, 180))
    assert awards(game) == [(ANN, 8, "city", "R-BASE-5", (("tiles", 3), ("pennants", 1)))]
    assert game.state.scores == [8, 0]


def test_R_BASE_5_city_touching_one_tile_twice_counts_it_once() -> None:
    # Two caps on one tile (E and S after turning 180), joined by three diagonal city tiles:
    # 4 tiles, 5 city segments.
    game = run(
        ["BA/CC.2", "BA/Cc.1", "BA/Cc.1", "BA/Cc.1", "BA/RFr"],
        Move(0, 1, 180, deploy="E"),
        Move(1, 1, 270),
        Move(1, 2, 0),
        Move(0, 2, 90),
    )
    assert awards(game) == [(ANN, 8, "city", "R-BASE-5", (("tiles", 4), ("pennants", 0)))]
    assert game.state.scores == [8, 0]


def test_R_BASE_5_cloister_scores_nine_when_surrounded() -> None:
    game = run(
        ["BA/L", "BA/RFr", "BA/RFr", "BA/C", "BA/C", "BA/C", "BA/C", "BA/C", "BA/Rr"],
        Move(0, 1, 0, deploy="cloister"),
        Move(1, 0, 0),
        Move(-1, 0, 0),
        Move(1, 1, 90),
        Move(-1, 1, 270),
        Move(0, 2, 180),
        Move(1, 2, 90),
    )
    assert game.state.awards == []  # seven of eight neighbours
    play(game, Move(-1, 2, 270))
    assert awards(game) == [(ANN, 9, "cloister", "R-BASE-5", (("tiles", 9),))]
    assert game.state.supply == [7, 7]


def test_R_BASE_5_follower_on_the_completing_tile_scores_in_the_same_turn() -> None:
    game = run(["BA/C", "BA/RFr"], Move(0, -1, 180, deploy="S"))
    assert awards(game) == [(ANN, 4, "city", "R-BASE-5", (("tiles", 2), ("pennants", 0)))]
    assert game.state.supply == [7, 7]
    assert (game.state.current, game.state.phase) == (BOB, Phase.PLACE)


def test_R_BASE_5_completed_feature_without_followers_scores_for_nobody() -> None:
    game = run(["BA/C", "BA/RFr"], Move(0, -1, 180))
    assert game.state.awards == []
    assert game.state.scores == [0, 0]
    city = game.state.board.graph.feature(game.state.board.at[(0, 0)].segment("N"))
    assert city.open == 0 and len(city.tiles) == 2


# ---------------------------------------------------------------- R-BASE-6 majority


def test_R_BASE_6_tied_majority_both_score_full_value() -> None:
    # Ann's knight on the start city (extended north-west), Bob's on a separate cap west of
    # the start; a curved city tile joins both into one closed city of 4 tiles.
    game = run(
        ["BA/Cc.1", "BA/CRr", "BA/Cc.1", "BA/RFr"],
        Move(0, -1, 270, deploy="S+W"),
        Move(-1, 0, 0, deploy="N"),
        Move(-1, -1, 180),
    )
    city = (("tiles", 4), ("pennants", 0))
    assert awards(game) == [(ANN, 8, "city", "R-BASE-5", city), (BOB, 8, "city", "R-BASE-5", city)]
    assert game.state.scores == [8, 8]
    assert game.state.supply == [7, 7]


def test_R_BASE_6_minority_scores_nothing() -> None:
    # Caps W (Ann), E (Bob) and N (Ann) of (0,-1), plus the start cap S; the four-sided
    # city with a pennant closes all of them: 5 tiles, 1 pennant, Ann 2 knights to Bob's 1.
    game = run(
        ["BA/RFr", "BA/RFr", "BA/C", "BA/C", "BA/L", "BA/RFr", "BA/C", "BA/Cccc+", "BA/Rr"],
        Move(1, 0, 0),
        Move(-1, 0, 0),
        Move(1, -1, 270, deploy="W"),
        Move(-1, -1, 90, deploy="E"),
        Move(1, -2, 0),
        Move(2, 0, 0),
        Move(0, -2, 180, deploy="S"),
    )
    assert game.state.supply == [5, 6]
    play(game, Move(0, -1, 0))
    assert awards(game) == [(ANN, 12, "city", "R-BASE-5", (("tiles", 5), ("pennants", 1)))]
    assert game.state.scores == [12, 0]
    assert game.state.supply == [7, 7]  # the minority knight returns too (R-BASE-7)


# ---------------------------------------------------------------- R-BASE-7 returns


def test_R_BASE_7_scored_followers_return_but_farmers_stay() -> None:
    game = run(
        ["BA/RFr", "BA/Rr", "BA/C", "BA/RFr"],
        Move(1, 0, 0, deploy="Nw+Ne+En+Wn"),  # farmer north of the road
        Move(0, 1, 0),
        Move(0, -1, 180, deploy="S"),  # knight, city closes at once
    )
    assert awards(game) == [(ANN, 4, "city", "R-BASE-5", (("tiles", 2), ("pennants", 0)))]
    assert game.state.supply == [6, 7]
    assert meeples(game) == [(ANN, 1, 0, "Nw+Ne+En+Wn")]
    assert not game.state.over


def test_R_BASE_7_thief_back_in_supply_can_be_deployed_again() -> None:
    game = scenario(["BA/RRR", "BA/RRR", "BA/RFr", "BA/RFr"], rules=RuleSet(followers=1))
    play(game, Move(1, 0, 0, deploy="W"))
    assert game.state.supply == [0, 1]
    play(game, Move(-1, 0, 0))
    assert game.state.supply == [1, 1]
    play(game, Move(2, 0, 180, deploy="E+W"))
    assert meeples(game) == [(ANN, 2, 0, "E+W")]
    assert game.state.supply == [0, 1]


# ---------------------------------------------------------------- R-BASE-8 game end, final


def test_R_BASE_8_game_ends_when_the_pile_is_empty() -> None:
    game = run(["BA/RFr", "BA/RFr"], Move(1, 0, 0))
    assert (game.state.phase, game.state.pile_left, game.state.current) == (Phase.PLACE, 0, BOB)
    assert not game.state.over
    play(game, Move(-1, 0, 0))
    assert game.state.over
    assert game.state.pile_left == 0
    last = game.collect_events()[-1]
    assert isinstance(last, ev.GameEnded)
    with pytest.raises(RuleViolation) as info:
        game.execute(ANN, Pass())
    assert info.value.rule == "R-BASE-8"


def test_R_BASE_8_incomplete_road_city_and_cloister_at_the_end() -> None:
    game = run(
        ["BA/CFc+", "BA/RFr", "BA/L"],
        Move(0, -1, 90, deploy="N+S"),  # city: start cap + straight piece with pennant
        Move(1, 0, 0, deploy="E+W"),  # road: start + (1,0), both ends open
        Move(0, 1, 0, deploy="cloister"),  # neighbours: start and (1,0)
    )
    assert game.state.over
    assert sorted(awards(game)) == [
        (ANN, 3, "city", "R-BASE-8", (("tiles", 2), ("pennants", 1))),
        (ANN, 3, "cloister", "R-BASE-8", (("tiles", 3),)),
        (BOB, 2, "road", "R-BASE-8", (("tiles", 2),)),
    ]
    assert game.state.scores == [6, 2]
    assert all(a.final for a in game.state.awards)


def test_R_BASE_8_farm_scores_three_per_completed_city_each_city_once_per_field() -> None:
    game = run(
        ["BA/C", "BA/RFr", "BA/RCr", "BA/C", "BA/C"],
        Move(0, -1, 180, deploy="S"),  # Ann closes the start city: 4
        Move(1, 0, 0, deploy="Nw+Ne+En+Wn"),  # Bob's farmer: field F north of the road
        Move(-1, 0, 0, deploy="N"),  # Ann: a new, never closed city; its field joins F
        Move(1, -1, 0),  # cap whose field links F with the field around (0,-1)
        Move(1, -2, 180, deploy="Nw+Ne+En+Es+Ws+Wn"),  # closes that cap; Ann farms field G
    )
    assert game.state.over
    final = sorted(a for a in awards(game) if a[3] == "R-BASE-8")
    # F touches the start city through two tiles (counted once), the (1,-1) city, and the
    # unfinished (-1,0) city: 2 completed cities. G touches the (1,-1) city only.
    assert final == [
        (ANN, 1, "city", "R-BASE-8", (("tiles", 1), ("pennants", 0))),
        (ANN, 3, "farm", "R-BASE-8", (("cities", 1),)),
        (BOB, 6, "farm", "R-BASE-8", (("cities", 2),)),
    ]
    assert game.state.scores == [4 + 1 + 3, 6]


def test_R_BASE_8_last_tile_discarded_still_ends_the_game_with_final_scoring() -> None:
    game = run(["BA/RFr", "BA/C", "BA/Cccc+"], Move(1, 0, 0, deploy="E+W"), Move(0, -1, 180))
    assert game.state.discarded == ["BA/Cccc+"]
    assert game.state.over
    assert awards(game) == [(ANN, 2, "road", "R-BASE-8", (("tiles", 2),))]


# ---------------------------------------------------------------- R-BASE-9 field borders


def test_R_BASE_9_road_separates_fields() -> None:
    game = run(["BA/RFr", "BA/RFr"], Move(1, 0, 0, deploy="Nw+Ne+En+Wn"))
    game.execute(BOB, PlaceTile(x=-1, y=0, rotation=0))
    # North of the road is Ann's field (through the start tile); south is another field.
    assert sorted(legal_deployments(game.state)) == ["E+W", "Es+Se+Sw+Ws"]
    game.execute(BOB, Deploy(location="Es+Se+Sw+Ws"))
    game2 = run(
        ["BA/RFr", "BA/RFr", "BA/C"],
        Move(1, 0, 0, deploy="Nw+Ne+En+Wn"),
        Move(-1, 0, 0, deploy="Es+Se+Sw+Ws"),
        Move(0, -1, 180),
    )
    # Only the northern field touches the (completed) start city.
    assert game2.state.scores == [3, 0]
    farms = {a.player: a.points for a in game2.state.awards if a.category == "farm"}
    assert farms[ANN] == 3
    assert farms.get(BOB, 0) == 0


def test_R_BASE_9_city_separates_fields() -> None:
    # A straight city N-S above the start tile splits its fields into east and west.
    game = run(["BA/CFc.1", "BA/L", "BA/C"], Move(0, -1, 90, deploy="En+Es"))
    game.execute(BOB, PlaceTile(x=-1, y=-1, rotation=0))
    assert legal_deployments(game.state) == ["cloister", "Nw+Ne+En+Es+Se+Sw+Ws+Wn"]
    game.execute(BOB, Deploy(location="Nw+Ne+En+Es+Se+Sw+Ws+Wn"))
    play(game, Move(0, -2, 180))  # closes the city: 3 tiles, nobody on it
    assert game.state.over
    # Both fields touch the same completed city; each field scores it.
    farm = sorted((a.player, a.points, a.parts) for a in game.state.awards if a.category == "farm")
    assert farm == [(ANN, 3, (("cities", 1),)), (BOB, 3, (("cities", 1),))]
    cloister = [(a.player, a.points) for a in game.state.awards if a.category == "cloister"]
    assert cloister == []
    assert game.state.scores == [3, 3]


def test_R_BASE_9_field_continues_across_a_shared_field_edge() -> None:
    # Control case for the two tests above: without a road or city in between, Bob's field
    # west of the straight city joins Ann's field there and he cannot farm it.
    game = run(["BA/CFc.1", "BA/L"], Move(0, -1, 90, deploy="Ws+Wn"))
    game.execute(BOB, PlaceTile(x=-1, y=-1, rotation=0))
    assert legal_deployments(game.state) == ["cloister"]


def test_R_BASE_9_the_start_tile_has_two_fields() -> None:
    board = Game.start(("Ann", "Bob"), ["BA/RFr"]).state.board
    start, graph = board.at[(0, 0)], board.graph
    assert sorted(start.orientation.names) == ["E+W", "En+Wn", "Es+Se+Sw+Ws", "N"]
    assert graph.find(start.segment("En+Wn")) != graph.find(start.segment("Es+Se+Sw+Ws"))
