"""The Ferries, one or more scenarios per rule id (docs/RULES.md 17, R-FERRY-1..9), its switch
both ways (JCZ-FERRY-PER-PART), the saves' ferries and the views.

The start tile BA/RCr lies at (0,0): city N, road E+W, field S. Most scenarios lay the lake
`FR/RRR` east of it at (1,0), unturned: its roads W (on the start road), S and E each end at the
lake. `BA/LR` turned 270 west of the start tile closes the start road at its cloister; `BA/RFr`
(a straight road E+W) extends a road.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
import pytest

from domain.aggregate import Game
from domain.board import Board
from domain.bots import play_bot_game
from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.expansions import builders as bd, ferries as fr, tunnel as tn
from domain.features import Feature, FeatureGraph
from domain.moves import Decision, expected_step, legal_commands
from domain.readings import audit_variants, rule_set, switch
from domain.replay import replay
from domain.rules import RuleSet
from domain.state import GameState
from domain.tiles import TILES, Kind
from projections.svg import render_svg
from projections.text import render_board
from replays.jcz import JCZ_READING, jcz_rules, read_jcz
from replays.jcz_export import export_jcz
from replays.sources import import_jcz
from tests.reference import JCZ, require

ANN, BOB = 0, 1
SETS = ("base", "ferries")
LAKE = "FR/RRR"
CROSSING = "BA/RRR"  # roads E, S, W ending at a crossing
CLOISTER_ROAD = "BA/LR"  # a road from its south edge ending at a cloister
STRAIGHT = "BA/RFr"  # a road E+W


def start(pile: Sequence[str], rules: RuleSet | None = None, sets: Sequence[str] = SETS) -> Game:
    return Game.start(("Ann", "Bob"), list(pile), expansions=tuple(sets), rules=rules)


def ferry(x: int, y: int, location: str) -> fr.PlaceFerry:
    return fr.PlaceFerry(x=x, y=y, location=location)


def turn(game: Game, x: int, y: int, rotation: int, *then: Command) -> None:
    """The current player places the tile drawn, gives `then` (a follower, the new lake's ferry,
    a move), and passes what is left of the action and of the moves."""
    player = game.state.current
    game.execute(player, PlaceTile(x=x, y=y, rotation=rotation))
    for command in then:
        if expected_step(game.state) == Decision("action", player) and isinstance(command, fr.PlaceFerry):
            game.execute(player, Pass())
        game.execute(player, command)
    while (step := expected_step(game.state)) is not None and step in (
        Decision("action", player),
        Decision(fr.MOVE_STEP, player),
    ):
        game.execute(player, Pass())


def road(state: GameState, x: int, y: int, location: str) -> Feature:
    return state.board.graph.feature(state.board.at[(x, y)].segment(location))


def offered(state: GameState) -> list[fr.PlaceFerry]:
    return [c for c in legal_commands(state) if isinstance(c, fr.PlaceFerry)]


def scored(game: Game) -> list[tuple[int, int, str]]:
    return [(a.player, a.points, a.category) for a in game.state.awards]


def placed(game: Game, x: int, y: int, rotation: int) -> None:
    """Place the tile drawn and decline the follower: the step that follows is left open."""
    player = game.state.current
    game.execute(player, PlaceTile(x=x, y=y, rotation=rotation))
    if expected_step(game.state) == Decision("action", player):
        game.execute(player, Pass())


# ----------------------------------------------------------------- the tiles


def test_R_FERRY_1_eight_lake_tiles_with_25_road_ends_at_their_lakes() -> None:
    lakes = {tile_id: t for tile_id, t in TILES.items() if t.expansion == "ferries"}
    assert {tile_id: t.count for tile_id, t in lakes.items()} == {"FR/CRRR": 3, "FR/RRR": 4, "FR/RRRR": 1}
    ends = 0
    for t in lakes.values():
        assert "ferry" in t.tags
        roads = [s for s in t.segments if s.kind == Kind.ROAD]
        assert all(fr.LAKE in s.flags and len(s.edges) == 1 for s in roads)
        ends += t.count * len(roads)
    assert ends == 25


def test_R_FERRY_1_a_lake_tile_placed_holds_its_road_ends() -> None:
    game = start([LAKE, "BA/C"])
    placed(game, 1, 0, 0)
    lake = game.state.board.at[(1, 0)]
    ends = fr.ferries(game.state).lakes[lake.index]
    assert [lake.location(sid) for sid in ends] == ["W", "S", "E"]


# ----------------------------------------------------------------- the lake's roads


def test_R_FERRY_2_the_lakes_roads_are_separate_and_a_follower_takes_one() -> None:
    game = start([LAKE, "BA/C"])
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=0))
    deploys = [c.location for c in legal_commands(game.state) if isinstance(c, Deploy)]
    assert {"W", "S", "E"} <= set(deploys)
    state = game.state
    assert road(state, 1, 0, "W") is road(state, 0, 0, "E+W")  # the start road ends at the lake
    assert len({road(state, 1, 0, loc).id for loc in ("W", "S", "E")}) == 3
    assert road(state, 1, 0, "S").open == 1  # its edge only: the lake closes the other end


def test_R_FERRY_2_a_road_ending_at_the_lake_is_closed_there() -> None:
    game = start([CLOISTER_ROAD, LAKE, "BA/C"])
    turn(game, -1, 0, 270, Deploy(location="E"))
    turn(game, 1, 0, 0, ferry(1, 0, "E+S"))  # the start road's lake end stays unferried
    assert road(game.state, 0, 0, "E+W").open == 0
    assert scored(game) == [(ANN, 3, "road")]  # (-1,0), (0,0), (1,0)


# ----------------------------------------------------------------- the new lake's ferry


def test_R_FERRY_3_the_ferry_must_join_two_ends_of_the_new_lake() -> None:
    game = start([LAKE, "BA/C"])
    placed(game, 1, 0, 0)
    state = game.state
    assert expected_step(state) == Decision(fr.PLACE_STEP, ANN)
    assert legal_commands(state) == [ferry(1, 0, "S+W"), ferry(1, 0, "E+W"), ferry(1, 0, "E+S")]
    for wrong in (Pass(), ferry(0, 0, "E+W"), ferry(1, 0, "W+W"), ferry(1, 0, "N+E")):
        with pytest.raises(RuleViolation):
            game.execute(ANN, wrong)
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, ferry(1, 0, "N+E"))
    assert refused.value.rule == "R-FERRY-3"
    game.execute(ANN, ferry(1, 0, "W+E"))  # either order names the same two ends
    state = game.state
    assert road(state, 1, 0, "W") is road(state, 1, 0, "E")
    assert road(state, 1, 0, "S") is not road(state, 1, 0, "E")
    assert road(state, 0, 0, "E+W").open == 2  # the start road's west end and the lake's east edge
    assert expected_step(state) == Decision("place", BOB)


def test_R_FERRY_3_the_ferry_comes_after_the_follower() -> None:
    game = start([LAKE, "BA/C"])
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=0))
    assert expected_step(game.state) == Decision("action", ANN)
    assert offered(game.state) == []
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, ferry(1, 0, "E+W"))
    assert refused.value.rule == "R-FERRY-3"
    game.execute(ANN, Deploy(location="S"))
    assert expected_step(game.state) == Decision(fr.PLACE_STEP, ANN)


# ----------------------------------------------------------------- what the ferry completes


def test_R_FERRY_4_the_lakes_completions_score_with_its_ferry_in_place() -> None:
    """The same lake as R-FERRY-2, its ferry on the start road's end: the road goes on east."""
    game = start([CLOISTER_ROAD, LAKE, "BA/C"])
    turn(game, -1, 0, 270, Deploy(location="E"))
    turn(game, 1, 0, 0, ferry(1, 0, "E+W"))
    assert road(game.state, 0, 0, "E+W").open == 1
    assert scored(game) == []


def test_R_FERRY_4_a_ferry_joining_two_occupied_roads_makes_one_shared_road() -> None:
    game = start([CLOISTER_ROAD, LAKE, "BA/C"])
    turn(game, -1, 0, 270, Deploy(location="E"))
    turn(game, 1, 0, 0, Deploy(location="E"), ferry(1, 0, "E+W"))
    owners = sorted(p for p, _, _ in road(game.state, 1, 0, "E").figures)
    assert owners == [ANN, BOB]
    assert game.state.majority(road(game.state, 0, 0, "E+W")) == [ANN, BOB]


# ----------------------------------------------------------------- moving a ferry


def _lake_then(extra: Sequence[str], ferried: str = "E+W") -> Game:
    """Ann's lake at (1,0) with its ferry on `ferried`; the rest of the pile is `extra`."""
    game = start([LAKE, *extra])
    turn(game, 1, 0, 0, ferry(1, 0, ferried))
    return game


def test_R_FERRY_5_a_tile_extending_a_ferry_road_may_move_the_ferry() -> None:
    game = _lake_then([STRAIGHT, "BA/C"])
    placed(game, 2, 0, 0)  # Bob's road on the lake's east end, which the ferry joins
    state = game.state
    assert expected_step(state) == Decision(fr.MOVE_STEP, BOB)
    assert legal_commands(state) == [ferry(1, 0, "S+W"), ferry(1, 0, "E+S"), Pass()]
    with pytest.raises(RuleViolation) as refused:
        game.execute(BOB, ferry(1, 0, "E+W"))  # where it is: not a move
    assert refused.value.rule == "R-FERRY-5"
    game.execute(BOB, ferry(1, 0, "E+S"))
    state = game.state
    assert road(state, 2, 0, "E+W") is road(state, 1, 0, "S")
    assert road(state, 1, 0, "W") is not road(state, 1, 0, "E")
    assert expected_step(state) == Decision("place", ANN)  # the lake was moved once this turn


def test_R_FERRY_5_a_road_reaching_the_lake_at_an_unferried_end_moves_nothing() -> None:
    game = _lake_then([STRAIGHT, "BA/C"])
    placed(game, 1, 1, 90)  # a road N+S on the lake's south end, which no ferry joins
    assert expected_step(game.state) == Decision("place", ANN)


def test_R_FERRY_5_only_the_first_ferry_along_the_road() -> None:
    game = _lake_then([LAKE, STRAIGHT, "BA/C"])
    placed(game, 2, 0, 0)  # Bob's lake east of Ann's: its west road on her lake's east end
    game.execute(BOB, ferry(2, 0, "E+W"))
    assert expected_step(game.state) == Decision(fr.MOVE_STEP, BOB)  # his own lake brings hers in reach
    assert {c.x for c in offered(game.state)} == {1}
    game.execute(BOB, Pass())
    placed(game, 3, 0, 0)  # Ann's road on Bob's lake's east end: his ferry is the first this way
    assert {(c.x, c.y) for c in offered(game.state)} == {(2, 0)}
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, ferry(1, 0, "S+W"))
    assert refused.value.rule == "R-FERRY-5"


def test_R_FERRY_5_one_lake_at_a_time_the_reach_looked_at_again_after_each_move() -> None:
    """Ann's lake at (1,0) joins E+S, Bob's at (0,1) below the start tile joins E+W: Ann's
    crossing at (1,1) reaches her lake's south end and his lake's east end, both ferried."""
    game = _lake_then([LAKE, CROSSING, "BA/C"], ferried="E+S")
    turn(game, 0, 1, 0, ferry(0, 1, "E+W"))
    placed(game, 1, 1, 180)
    assert {(c.x, c.y) for c in offered(game.state)} == {(1, 0), (0, 1)}
    game.execute(ANN, ferry(1, 0, "S+W"))
    assert expected_step(game.state) == Decision(fr.MOVE_STEP, ANN)
    assert {(c.x, c.y) for c in offered(game.state)} == {(0, 1)}  # hers moved once: his only
    game.execute(ANN, ferry(0, 1, "E+S"))
    assert expected_step(game.state) == Decision("place", BOB)
    tiles = game.state.board.tiles
    assert [tiles[tile].pos for tile, *_ in fr.ferries(game.state).changes] == [(1, 0), (0, 1)]


def test_R_FERRY_5_the_new_lakes_own_ferry_is_not_moved_in_its_turn() -> None:
    game = _lake_then([LAKE, "BA/C"])
    placed(game, 2, 0, 0)
    game.execute(BOB, ferry(2, 0, "E+W"))
    assert {(c.x, c.y) for c in offered(game.state)} == {(1, 0)}


def test_R_FERRY_5_a_pass_ends_the_moves() -> None:
    game = _lake_then([STRAIGHT, "BA/C"])
    placed(game, 2, 0, 0)
    game.execute(BOB, Pass())
    assert expected_step(game.state) == Decision("place", ANN)
    assert fr.ferries(game.state).changes == []


# ----------------------------------------------------------------- roads split and merge


def test_R_FERRY_6_a_move_splits_a_road_and_its_followers_stay_on_their_sides() -> None:
    game = start([LAKE, STRAIGHT, STRAIGHT, "BA/C"])
    turn(game, 1, 0, 0, Deploy(location="E"), ferry(1, 0, "E+W"))  # Ann on the lake's east road
    turn(game, -1, 0, 0)  # Bob extends the start road, leaves the ferry
    state = game.state
    assert road(state, -1, 0, "E+W") is road(state, 1, 0, "E")
    placed(game, -2, 0, 0)  # Ann extends it again, and moves the ferry off the start road
    game.execute(ANN, ferry(1, 0, "S+W"))
    state = game.state
    east, west = road(state, 1, 0, "E"), road(state, 1, 0, "W")
    assert east is not west
    assert [(p, k) for p, _, k in east.figures] == [(ANN, "follower")]
    assert west.figures == []
    assert west is road(state, 1, 0, "S") and west is road(state, -2, 0, "E+W")
    assert (east.open, west.open) == (1, 2)
    assert state.supply == [6, 7]
    assert state.board.graph.figured() == [east]


def test_R_FERRY_6_a_move_may_join_two_players_followers_on_one_road() -> None:
    game = start([LAKE, STRAIGHT, STRAIGHT, STRAIGHT, "BA/C"])
    turn(game, 1, 0, 0, Deploy(location="E"), ferry(1, 0, "S+W"))
    turn(game, -1, 0, 0, Deploy(location="E+W"))  # Bob on the start road, which reaches the ferry
    placed(game, 2, 0, 0)  # Ann on her east road: its lake end holds no ferry
    assert expected_step(game.state) == Decision("place", BOB)
    placed(game, -2, 0, 0)
    game.execute(BOB, ferry(1, 0, "E+W"))
    owners = sorted(p for p, _, _ in road(game.state, -2, 0, "E+W").figures)
    assert owners == [ANN, BOB]


# ----------------------------------------------------------------- what a move completes


def test_R_FERRY_7_a_move_completes_and_scores_the_road_it_lets_go() -> None:
    game = start([CLOISTER_ROAD, LAKE, "BA/C", STRAIGHT, "BA/L"])
    turn(game, -1, 0, 270, Deploy(location="E"))  # Ann's road from the cloister along the start road
    turn(game, 1, 0, 0, ferry(1, 0, "E+W"))  # Bob's lake goes on east: open
    turn(game, 0, -1, 180)
    assert scored(game) == []
    placed(game, 2, 0, 0)  # Bob extends the east road and moves the ferry off Ann's road
    game.execute(BOB, ferry(1, 0, "E+S"))
    assert scored(game) == [(ANN, 3, "road")]
    assert road(game.state, 0, 0, "E+W").figures == []


def test_R_FERRY_7_a_move_completes_and_scores_the_road_it_joins() -> None:
    """Ann's road from the cloister at (-1,0) runs into the lake, ferried S+W; the lake's east road
    ends at a cloister at (2,0). Bob extends the south road and joins W to E: closed both ways."""
    game = start([CLOISTER_ROAD, LAKE, CLOISTER_ROAD, STRAIGHT, "BA/L"])
    turn(game, -1, 0, 270, Deploy(location="E"))
    turn(game, 1, 0, 0, ferry(1, 0, "S+W"))
    turn(game, 2, 0, 90)
    assert scored(game) == []
    placed(game, 1, 1, 90)
    assert expected_step(game.state) == Decision(fr.MOVE_STEP, BOB)
    game.execute(BOB, ferry(1, 0, "E+W"))
    assert scored(game) == [(ANN, 4, "road")]  # (-1,0), (0,0), (1,0), (2,0)


# ----------------------------------------------------------------- ferries stay


def test_R_FERRY_8_the_ferry_stays_and_the_lake_counts_once_at_the_end() -> None:
    game = start([LAKE, "BA/C"])
    turn(game, 1, 0, 0, Deploy(location="W"), ferry(1, 0, "E+W"))
    turn(game, 0, -1, 180)
    state = game.state
    assert state.over
    assert scored(game) == [(ANN, 2, "road")]  # the start tile and the lake, once
    assert fr.ferries(state).ferry == {1: fr._pair(*fr.ferries(state).lakes[1][::2])}


def test_R_FERRY_8_a_scored_road_keeps_its_ferry() -> None:
    game = start([CLOISTER_ROAD, LAKE, CLOISTER_ROAD, "BA/C"])
    turn(game, -1, 0, 270, Deploy(location="E"))
    turn(game, 1, 0, 0, ferry(1, 0, "E+W"))
    turn(game, 2, 0, 90)
    assert scored(game) == [(ANN, 4, "road")]
    assert ends_joined(game.state, 1, 0) == "E+W"


def ends_joined(state: GameState, x: int, y: int) -> str:
    tile = state.board.at[(x, y)].index
    return fr.ends_name(state, tile, fr.ferries(state).ferry[tile])


# ----------------------------------------------------------------- with Traders & Builders

_TB = ("base", "tb", "ferries")


def test_R_FERRY_9_a_builder_left_without_its_owners_follower_goes_home() -> None:
    game = start([LAKE, STRAIGHT, STRAIGHT, "BA/C", STRAIGHT, STRAIGHT, "BA/L"], sets=_TB)
    turn(game, 1, 0, 0, ferry(1, 0, "E+W"))
    turn(game, 2, 0, 0)
    turn(game, -1, 0, 0, Deploy(location="E+W"))  # Ann's follower on the road through the lake
    turn(game, 0, -1, 180)
    turn(game, 3, 0, 0, Deploy(location="E+W", figure="builder"))  # and her builder beside it
    assert game.state.ext["figures"][bd.FIGURE][ANN] == 0
    placed(game, -2, 0, 0)  # Bob reaches the ferry from the west and lets Ann's builder's side go
    game.execute(BOB, ferry(1, 0, "S+W"))
    state = game.state
    assert state.ext["figures"][bd.FIGURE][ANN] == 1
    assert road(state, 3, 0, "E+W").figures == []
    assert [p for p, _, _ in road(state, -1, 0, "E+W").figures] == [ANN]


def test_R_FERRY_9_a_builder_on_the_road_the_ferry_keeps_stays() -> None:
    """JCloisterZone looks only at the roads a move lets go: moved E+S, the ferry keeps the
    builder's east road (now joined to the south one), and the builder stays there alone."""
    game = start([LAKE, STRAIGHT, STRAIGHT, "BA/C", STRAIGHT, STRAIGHT, "BA/L"], sets=_TB)
    turn(game, 1, 0, 0, ferry(1, 0, "E+W"))
    turn(game, 2, 0, 0)
    turn(game, -1, 0, 0, Deploy(location="E+W"))
    turn(game, 0, -1, 180)
    turn(game, 3, 0, 0, Deploy(location="E+W", figure="builder"))
    placed(game, -2, 0, 0)
    game.execute(BOB, ferry(1, 0, "E+S"))
    assert [k for _, _, k in road(game.state, 3, 0, "E+W").figures] == [bd.FIGURE]


def _builders_second_part(rules: RuleSet | None = None) -> Game:
    """Ann's builder on her lake's east road; her tile at (3,0) extends it: she moves the ferry
    E+W to E+S and earns a second tile, which extends the road again at (4,0)."""
    pile = [LAKE, "BA/C", STRAIGHT, "BA/L", STRAIGHT, STRAIGHT, "BA/L"]
    game = start(pile, rules, _TB)
    turn(game, 1, 0, 0, Deploy(location="E"), ferry(1, 0, "E+W"))
    turn(game, 0, -1, 180)
    turn(game, 2, 0, 0, Deploy(location="E+W", figure="builder"))
    turn(game, 1, -1, 0)
    placed(game, 3, 0, 0)
    game.execute(ANN, ferry(1, 0, "E+S"))
    assert expected_step(game.state) == Decision("place", ANN)  # the builder's tile
    placed(game, 4, 0, 0)
    return game


def test_JCZ_FERRY_PER_PART_off_each_lake_once_in_a_builders_whole_turn() -> None:
    game = _builders_second_part()
    assert expected_step(game.state) == Decision("place", BOB)


def test_JCZ_FERRY_PER_PART_on_each_lake_once_in_each_turn_part() -> None:
    game = _builders_second_part(rule_set(ferry_per_part=True))
    assert expected_step(game.state) == Decision(fr.MOVE_STEP, ANN)
    game.execute(ANN, ferry(1, 0, "S+W"))
    assert ends_joined(game.state, 1, 0) == "S+W"
    replay(game.pending)


def test_JCZ_FERRY_PER_PART_is_jcloisterzones_reading_and_the_audit_flips_it() -> None:
    assert JCZ_READING["ferry_per_part"] is True
    assert switch(RuleSet(), "ferry_per_part") is False
    assert "JCZ-FERRY-PER-PART=on" in audit_variants(RuleSet(), ("ferries",))


# ----------------------------------------------------------------- play, replays, JCloisterZone


def test_bots_play_the_ferries_and_their_games_replay() -> None:
    moved = 0
    for seed in range(4):
        game = play_bot_game(2 + seed % 2, seed, expansions=("base", "tb", "tunnel", "ferries"))
        events = game.collect_events()
        assert replay(events).state.scores == game.state.scores
        assert any(isinstance(e, fr.FerryPlaced) for e in events)
        moved += sum(isinstance(e, fr.FerryMoved) for e in events)
    assert moved


def test_a_jcz_save_of_the_ferries_imports_its_ferries_and_exports_them_back() -> None:
    path = require(JCZ / "oracle-wave2" / "basic_ferries-p2-s510017.jcz")
    assert jcz_rules(read_jcz(path)).options.get("ferries") == {"ferry_per_part": True}
    _, events = import_jcz(path)
    put = [e for e in events if isinstance(e, fr.FerryPlaced)]
    moves = [e for e in events if isinstance(e, fr.FerryMoved)]
    assert (len(put), len(put) + len(moves)) == (8, 12)
    assert (put[0].player, put[0].x, put[0].y, put[0].location) == (0, -1, 0, "N+E")
    assert (moves[0].x, moves[0].y, moves[0].origin, moves[0].location) == (-1, 0, "N+E", "E+W")
    exported = msgspec.json.decode(export_jcz(events))
    tokens = [m["payload"] for m in exported["replay"] if m["type"] == "PLACE_TOKEN"]
    first = {"position": [-1, 0], "location": "NE", "feature": "Road"}
    assert tokens[0] == {"token": "FERRY", "pointer": first}
    assert tokens[1]["pointer"]["location"] == "NE"
    assert tokens[2]["pointer"] == {"position": [-1, 0], "location": "WE", "feature": "Road"}
    assert exported["setup"]["sets"] == {"basic:1": 1, "ferries": 1}
    assert exported["setup"]["elements"]["ferry"] == 1


def test_the_board_shows_each_ferry_across_its_lake() -> None:
    game = _lake_then(["BA/C"])
    text = render_board(game.state)
    assert "~" in text
    svg = render_svg(game.state)
    assert 'class="ferry"' in svg or "ferry" in svg


def _features(graph: FeatureGraph) -> set[tuple[frozenset[int], int, frozenset[int]]]:
    """Every feature of a graph: its segments, its open ends, its tiles."""
    groups: dict[int, set[int]] = {}
    for sid in range(len(graph.parent)):
        groups.setdefault(graph.find(sid), set()).add(sid)
    return {
        (frozenset(sids), graph.feature(root).open, frozenset(graph.feature(root).tiles))
        for root, sids in groups.items()
    }


def test_moved_ferries_leave_the_features_a_fresh_build_would_make() -> None:
    """The graph undoes a move's old join (`FeatureGraph.unlink`): after games of many moves, the
    board's features equal those of the same tiles placed afresh with the ferries as they lie."""
    moved = 0
    for seed in range(6):
        game = play_bot_game(2 + seed % 2, seed, expansions=SETS)
        state = game.state
        moved += len(fr.ferries(state).changes)
        fresh = Board()
        for tile in state.board.tiles:
            fresh.place(tile.tile, tile.pos, 90 * tile.tile.orientations.index(tile.orientation))
        for pair in fr.ferries(state).ferry.values():
            fresh.graph.link(*pair, closes=False)
        assert _features(state.board.graph) == _features(fresh.graph)
    assert moved


def test_R_FERRY_5_the_road_is_followed_through_a_tunnel() -> None:
    """Ann's tunnel tile at (1,0) (roads W and S into mouths) links the start road to its south
    road; Bob's lake at (-1,0) joins the start road E+W. Bob's road at (1,1) runs into the south
    mouth: through the tunnel and along the start road it reaches his ferry."""
    game = start(["TU/RR", LAKE, "BA/C", STRAIGHT, "BA/L"], sets=("base", "tunnel", "ferries"))
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=90))
    game.execute(ANN, tn.PlaceTunnelToken(token="A", x=1, y=0, location="W"))
    game.execute(ANN, Pass())
    placed(game, -1, 0, 0)
    game.execute(BOB, Pass())  # no tunnel token
    game.execute(BOB, ferry(-1, 0, "E+W"))
    assert expected_step(game.state) == Decision("place", ANN)
    game.execute(ANN, PlaceTile(x=0, y=-1, rotation=180))
    game.execute(ANN, tn.PlaceTunnelToken(token="A", x=1, y=0, location="S"))
    game.execute(ANN, Pass())
    placed(game, 1, 1, 90)  # no mouth left open: no tunnel step
    assert expected_step(game.state) == Decision(fr.MOVE_STEP, BOB)
    assert {(c.x, c.y) for c in offered(game.state)} == {(-1, 0)}
