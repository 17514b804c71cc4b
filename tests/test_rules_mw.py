"""Mage & Witch: one or more scenarios per rule id (docs/RULES.md section 11, R-MW-*), the two
JCloisterZone readings both ways, and the set's JCloisterZone messages.

The start tile BA/RCr lies at (0,0): city N, road E+W, field S. A few positions put a figure by
hand where no short run of tiles gets it (the dragon's tests do the same), and say so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from domain import events as ev
from domain.aggregate import Game
from domain.commands import Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.expansions import castles as cs, magic as mg
from domain.expansions.abbey import PlaceAbbey
from domain.expansions.magic import MoveMagicFigure as Move, RemoveMagicFigure as Remove
from domain.moves import Decision, expected_step, legal_commands
from domain.readings import VARIANTS, rule_set
from domain.replay import replay
from domain.rules import RuleSet
from domain.sets import SETS
from domain.state import feature_value
from domain.tiles import TILES
from replays.jcz import JCZ_READING, JczMessage, SaveReader, jcz_rules, read_jcz
from replays.jcz_sets import MAPPINGS, in_play
from replays.jcz_sets.mw import MAPPING
from tests.reference import JCZ, require

ANN, BOB = 0, 1
GAMES = [JCZ / "oracle-wave2" / name for name in ("basic_mw-p2-s510005.jcz", "basic_mw-p3-s510006.jcz")]


def mw_game(pile: Sequence[str], rules: RuleSet | None = None, sets: tuple[str, ...] = ()) -> Game:
    return Game.start(("Ann", "Bob"), list(pile), expansions=("base", *sets, "mw"), rules=rules)


def place(game: Game, x: int, y: int, rotation: int = 0) -> None:
    game.execute(game.state.current, PlaceTile(x=x, y=y, rotation=rotation))


def turn(game: Game, x: int, y: int, rotation: int = 0, deploy: str | None = None) -> None:
    """A plain tile placed, then a deployment or a pass."""
    player = game.state.current
    place(game, x, y, rotation)
    game.execute(player, Deploy(location=deploy) if deploy else Pass())


def magic_turn(game: Game, x: int, y: int, rotation: int, move: Move, deploy: str | None = None) -> None:
    """A magic tile placed, a figure moved, then a deployment or a pass (if the step is open)."""
    player = game.state.current
    place(game, x, y, rotation)
    assert expected_step(game.state) == Decision(mg.MOVE, player)
    game.execute(player, move)
    if deploy:
        game.execute(player, Deploy(location=deploy))
    elif expected_step(game.state) == Decision("action", player):
        game.execute(player, Pass())


def on(game: Game) -> dict[str, tuple[int, int, str]]:
    return mg.spots(game.state)


def scored(game: Game) -> list[tuple[int, int, str, tuple[tuple[str, int], ...]]]:
    return [(a.player, a.points, a.category, a.parts) for a in game.state.awards]


def put(game: Game, figure: mg.Figure, x: int, y: int, location: str) -> None:
    """A figure set down by hand (no event): a position no short run of tiles reaches."""
    state = game.state
    mg.magic(state).at[figure] = state.board.at[(x, y)].segment(location)
    state.forget()


# ----------------------------------------------------------------- R-MW-1


def test_R_MW_1_eight_tiles_each_with_the_magic_symbol_and_two_figures_off_the_board() -> None:
    mw = [t for t in TILES.values() if t.expansion == "mw"]
    assert len(mw) == 8 and all(t.count == 1 and mg.TAG in t.tags for t in mw)
    assert next(s for s in SETS if s.code == "mw").modules == ("magic",)
    game = mw_game(["MW/CFC", "BA/L"])
    assert on(game) == {}


def test_R_MW_1_without_the_part_a_magic_tile_is_a_plain_tile() -> None:
    game = mw_game(["MW/CRRR.3", "BA/L"], rules=rule_set(without=("magic",)))
    place(game, 1, 0)
    assert expected_step(game.state) == Decision("action", ANN)


# ----------------------------------------------------------------- R-MW-2


def test_R_MW_2_a_magic_tile_asks_first_for_a_figure_onto_any_unfinished_road_or_city() -> None:
    game = mw_game(["MW/CRRR.3", "BA/L"])
    place(game, 1, 0)  # city N, three roads ending at a crossing; its W road meets the start's
    state = game.state
    assert expected_step(state) == Decision(mg.MOVE, ANN)
    spots = [(0, 0, "N"), (0, 0, "E+W"), (1, 0, "N"), (1, 0, "E"), (1, 0, "S"), (1, 0, "W")]
    assert sorted(mg.targets(state)) == sorted(spots)
    assert sorted(map(repr, legal_commands(state))) == sorted(
        repr(Move(figure=f, x=x, y=y, location=loc)) for f in ("mage", "witch") for x, y, loc in spots
    )
    for command in (Pass(), Deploy(location="S")):  # no pass, nothing before the move
        with pytest.raises(RuleViolation) as refused:
            game.execute(ANN, command)
        assert refused.value.rule == "R-MW-2"
    game.execute(ANN, Move(figure="witch", x=1, y=0, location="S"))  # onto the tile just placed
    assert on(game) == {"witch": (1, 0, "S")}
    assert expected_step(game.state) == Decision("action", ANN)
    game.execute(ANN, Pass())
    replay(game.pending)


def test_R_MW_2_a_completed_road_or_city_is_no_target() -> None:
    game = mw_game(["BA/CRRR", "BA/CRRR", "BA/C", "MW/CFC", "BA/L"])
    turn(game, 1, 0)  # the start road ends at two crossings: completed
    turn(game, -1, 0)
    turn(game, 0, -1, 180)  # the start city completed
    place(game, 0, 1, 90)  # MW/CFC below the start tile, its cities E and W
    state = game.state
    assert expected_step(state) == Decision(mg.MOVE, BOB)
    targets = mg.targets(state)
    assert (0, 0, "E+W") not in targets and (0, 0, "N") not in targets
    with pytest.raises(RuleViolation) as refused:
        game.execute(BOB, Move(figure="mage", x=0, y=0, location="E+W"))
    assert refused.value.rule == "R-MW-2"


def test_R_MW_2_neither_figure_goes_onto_the_feature_of_one_on_the_board() -> None:
    game = mw_game(["MW/CRRR.3", "MW/CFC", "BA/L"])
    magic_turn(game, 1, 0, 0, Move(figure="mage", x=0, y=0, location="E+W"))
    place(game, 0, -1)  # MW/CFC: its S city joins the start city
    state = game.state
    assert expected_step(state) == Decision(mg.MOVE, BOB)
    road = {(0, 0, "E+W"), (1, 0, "W")}  # the mage's road
    assert not road & set(mg.targets(state))
    for figure in ("mage", "witch"):  # not within its own feature, not onto the other's
        with pytest.raises(RuleViolation) as refused:
            game.execute(BOB, Move(figure=figure, x=1, y=0, location="W"))
        assert refused.value.rule == "R-MW-2"
    game.execute(BOB, Move(figure="mage", x=0, y=-1, location="N"))  # the mage moves on
    assert on(game) == {"mage": (0, -1, "N")}


def test_R_MW_2_a_placement_needing_a_bridge_asks_once_the_bridge_lies() -> None:
    game = mw_game(["MW/CFC", "BA/L"], sets=("bcb",))
    bridged = [c for c in legal_commands(game.state) if isinstance(c, PlaceTile) and c.bridge is not None]
    game.execute(ANN, next(c for c in bridged if (c.x, c.y, c.rotation) == (1, 0, 0)))  # fields E, W
    assert expected_step(game.state) == Decision(mg.MOVE, ANN)
    assert (1, 0, "E+W") in mg.targets(game.state)  # the bridge's road, joined to the start's
    game.execute(ANN, Move(figure="mage", x=1, y=0, location="E+W"))
    assert on(game) == {"mage": (1, 0, "E+W")}


# ----------------------------------------------------------------- R-MW-3


def _figures_on_two_cities(pile_rest: Sequence[str], late: bool = False) -> Game:
    """The mage on the start city, the witch on a city at (1,-1) whose W edge faces (0,-1);
    Bob's follower on the witch's city."""
    pile = ["BA/RFr", "BA/C", "MW/CRRR.3", "MW/CFC", *pile_rest]
    game = mw_game(pile, rules=rule_set(magic_late_join=late))
    turn(game, 1, 0)
    turn(game, 1, -1, 270, deploy="W")  # Bob: a city W, his follower on it
    magic_turn(game, -1, 0, 0, Move(figure="mage", x=0, y=0, location="N"))
    magic_turn(game, 2, -1, 0, Move(figure="witch", x=1, y=-1, location="W"))
    assert on(game) == {"mage": (0, 0, "N"), "witch": (1, -1, "W")}
    return game


@pytest.mark.parametrize("late", [False, True], ids=["printed", "JCZ-MW-LATE-JOIN"])
def test_R_MW_3_a_plain_tile_joining_their_features_makes_its_player_move_one(late: bool) -> None:
    """Under either reading: the tile's own join is seen at once."""
    game = _figures_on_two_cities(["BA/Ccc", "BA/L"], late)
    place(game, 0, -1, 180)  # Ann: a city S+W+E joins both cities, still open to the west
    state = game.state
    assert mg.joined(state) and expected_step(state) == Decision(mg.MOVE, ANN)
    assert not {(0, -1, "E+S+W"), (0, 0, "N"), (1, -1, "W")} & set(mg.targets(state))
    game.execute(ANN, Move(figure="witch", x=2, y=-1, location="N"))
    assert expected_step(game.state) == Decision("action", ANN)
    replay(game.pending)


def test_R_MW_3_the_figure_moved_away_before_scoring_leaves_the_other_to_score() -> None:
    game = _figures_on_two_cities(["BA/Cc.1", "BA/L"])
    place(game, 0, -1, 180)  # Ann: a city S+E closes the joined city of three tiles
    game.execute(ANN, Move(figure="mage", x=2, y=-1, location="N"))
    game.execute(ANN, Pass())
    assert scored(game) == [(BOB, 3, "city", (("tiles", 3), ("pennants", 0), ("witch", -3)))]
    assert on(game) == {"mage": (2, -1, "N")}  # the witch left with her city (R-MW-8)


def test_R_MW_3_with_the_symbol_one_move_does_for_both() -> None:
    game = _figures_on_two_cities(["MW/CccR.1", "BA/L"])
    place(game, 0, -1, 180)  # Ann: a magic tile whose city S+W+E joins both
    assert expected_step(game.state) == Decision(mg.MOVE, ANN)
    game.execute(ANN, Move(figure="mage", x=0, y=-1, location="N"))
    assert expected_step(game.state) == Decision("action", ANN)


# ----------------------------------------------------------------- R-MW-4


def _closed_board() -> Game:
    """Every road and city closed but Bob's magic city at (1,0) (N+E+S), where the mage goes, and
    the one-tile city at (1,2) whose N edge faces (1,1)."""
    pile = ["BA/C", "BA/LR", "BA/L", "BA/L", "BA/C", "MW/CccR.1", "MW/CFC", "MW/CRRR.3", "BA/L"]
    game = mw_game(pile)
    turn(game, 0, -1, 180)  # the start city completed
    turn(game, -1, 0, 270)  # the start road ends at a cloister to the west
    turn(game, 0, 1)
    turn(game, 0, 2)
    turn(game, 1, 2)  # a city N facing (1,1)
    magic_turn(game, 1, 0, 90, Move(figure="mage", x=1, y=0, location="N+E+S"))  # the road completed
    return game


def test_R_MW_4_one_figure_and_nowhere_to_go_it_leaves_by_itself() -> None:
    game = _closed_board()
    place(game, 1, 1)  # MW/CFC: its N city joins the mage's, its S city closes the one at (1,2)
    removed = game.pending[-1]
    assert isinstance(removed, mg.MagicFigureRemoved) and (removed.player, removed.figure) == (ANN, "mage")
    assert on(game) == {} and expected_step(game.state) == Decision("action", ANN)
    replay(game.pending)  # the engine's own event, replayed as such


def test_R_MW_4_both_figures_and_nowhere_to_go_the_player_takes_one_off() -> None:
    game = _closed_board()
    put(game, "witch", 1, 2, "N")  # the witch by hand on the city at (1,2)
    place(game, 1, 1)
    state = game.state
    assert expected_step(state) == Decision(mg.REMOVE, ANN)
    assert legal_commands(state) == [Remove(figure="mage"), Remove(figure="witch")]
    game.execute(ANN, Remove(figure="witch"))
    assert on(game) == {"mage": (1, 0, "N+E+S")}
    game.execute(ANN, Pass())
    # Off the board, she comes back at the next magic tile.
    place(game, 2, 0, 270)  # MW/CRRR.3: its city W joins the mage's, its three roads are open
    assert expected_step(game.state) == Decision(mg.MOVE, BOB)


def test_R_MW_4_no_figure_and_nowhere_to_go_nothing_happens() -> None:
    game = mw_game(["BA/LR", "BA/L", "BA/L", "BA/C", "BA/LR", "MW/CFC", "BA/L"])
    turn(game, 1, 0, 90)  # the start road ends at cloisters east and west
    turn(game, 1, -1)
    turn(game, 1, -2)
    turn(game, 0, -2, 180)  # a city S facing (0,-1)
    turn(game, -1, 0, 270)
    place(game, 0, -1)  # MW/CFC closes the start city and that one: nothing open is left
    assert mg.targets(game.state) == [] and expected_step(game.state) == Decision("action", BOB)
    assert not any(isinstance(e, mg.MagicFigureRemoved) for e in game.pending)


# ----------------------------------------------------------------- R-MW-5, R-MW-6, R-MW-8


def _road_of_five(figure: mg.Figure) -> Game:
    """Ann's thief on (1,0); Bob puts the figure on the start road; Bob's crossing at (3,0)
    completes the five-tile road (-1,0)..(3,0)."""
    game = mw_game(["BA/RFr", "MW/CRRR.3", "BA/RCr", "BA/RRRR", "BA/L"])
    turn(game, 1, 0, deploy="E+W")
    magic_turn(game, -1, 0, 0, Move(figure=figure, x=0, y=0, location="E+W"))
    turn(game, 2, 0)
    turn(game, 3, 0)
    return game


def test_R_MW_5_the_mage_adds_a_point_a_tile() -> None:
    game = _road_of_five("mage")
    assert scored(game) == [(ANN, 10, "road", (("tiles", 5), ("mage", 5)))]


def test_R_MW_6_the_witch_halves_rounding_up() -> None:
    game = _road_of_five("witch")
    assert scored(game) == [(ANN, 3, "road", (("tiles", 5), ("witch", -2)))]


def test_R_MW_8_the_figure_leaves_with_its_completed_feature() -> None:
    game = _road_of_five("mage")
    assert on(game) == {}
    replay(game.pending)


def test_R_MW_5_an_unfinished_inn_road_is_worth_the_mages_tiles_at_the_end() -> None:
    game = mw_game(["IC/RFr.i", "MW/CFC"], sets=("ic",))
    turn(game, 1, 0, deploy="E+W")
    magic_turn(game, 0, -1, 0, Move(figure="mage", x=1, y=0, location="E+W"))
    assert game.state.over
    final = [(a.player, a.points, a.category, a.parts) for a in game.state.awards if a.final]
    assert final == [(ANN, 2, "road", (("inn", 0), ("mage", 2)))]
    assert on(game) == {"mage": (1, 0, "E+W")}  # at the end the figures stay (R-MW-8)


def test_R_MW_6_an_unfinished_cathedral_city_with_the_witch_is_worth_nothing() -> None:
    game = mw_game(["MW/CRRR.3", "IC/Cccc.c", "MW/CFC"], sets=("ic",))
    magic_turn(game, 1, 0, 0, Move(figure="witch", x=1, y=0, location="S"), deploy="S")
    turn(game, 0, -1, 0, deploy="N+E+S+W")  # Bob's knight in a cathedral city
    magic_turn(game, -1, -1, 90, Move(figure="witch", x=0, y=-1, location="N+E+S+W"))
    # The witch left Ann's one-tile road (worth 1) for Bob's cathedral city (worth 0, halved: 0).
    final = sorted((a.player, a.points, a.parts) for a in game.state.awards if a.final)
    assert final == [(ANN, 1, (("tiles", 1),)), (BOB, 0, (("cathedral", 0), ("witch", 0)))]


def test_R_MW_6_a_value_of_one_with_the_witch_stays_one() -> None:
    game = mw_game(["MW/CRRR.3"])
    magic_turn(game, 1, 0, 0, Move(figure="witch", x=1, y=0, location="S"), deploy="S")
    final = [(a.player, a.points, a.parts) for a in game.state.awards if a.final]
    assert final == [(ANN, 1, (("tiles", 1), ("witch", 0)))]


# ----------------------------------------------------------------- R-MW-7, R-MW-8


def test_R_MW_7_a_follower_may_go_onto_the_figures_feature_in_the_same_turn() -> None:
    game = mw_game(["MW/CRRR.3", "BA/L"])
    place(game, 1, 0)
    game.execute(ANN, Move(figure="mage", x=1, y=0, location="S"))
    assert Deploy(location="S") in legal_commands(game.state)  # the mage occupies nothing
    game.execute(ANN, Deploy(location="S"))
    replay(game.pending)


def test_R_MW_7_each_player_of_the_majority_scores_the_changed_value() -> None:
    game = mw_game(["BA/RFr", "BA/L", "MW/CFC", "BA/Rr", "BA/Rr"])
    turn(game, 1, 0, deploy="E+W")  # Ann's thief on the start road
    turn(game, 1, 1)
    magic_turn(game, 0, -1, 0, Move(figure="witch", x=0, y=0, location="E+W"))
    turn(game, 2, 1, 180, deploy="N+E")  # Bob's thief on a road of its own
    turn(game, 2, 0)  # Ann's curve joins the two roads: four tiles, two thieves, the witch
    final = sorted((a.player, a.points, a.category, a.parts) for a in game.state.awards if a.final)
    both = (("tiles", 4), ("witch", -2))
    assert final == [(ANN, 2, "road", both), (BOB, 2, "road", both)]


def test_R_MW_8_an_empty_completed_feature_sends_its_figure_off_the_board() -> None:
    game = mw_game(["MW/CRRR.3", "BA/CRRR", "MW/CFC", "BA/L"])
    magic_turn(game, 1, 0, 0, Move(figure="mage", x=0, y=0, location="E+W"))
    turn(game, -1, 0)  # Bob's crossing ends the start road: completed, nobody on it
    assert scored(game) == [] and on(game) == {}
    magic_turn(game, 0, -1, 0, Move(figure="mage", x=1, y=0, location="E"))  # back anywhere
    assert on(game) == {"mage": (1, 0, "E")}


def test_R_MW_8_a_city_made_a_castle_sends_its_figure_off_the_board() -> None:
    """JCloisterZone leaves it drawn on the castle, on no feature, where it plays as one off
    the board does: the next magic tile may put it anywhere."""
    game = mw_game(["MW/CRRR.3", "BA/C", "MW/CFC", "BA/L"], sets=("bcb",))
    magic_turn(game, 1, 0, 0, Move(figure="mage", x=0, y=0, location="N"))
    place(game, 0, -1, 180)
    game.execute(BOB, Deploy(location="S"))
    game.execute(BOB, cs.ChooseCastle(x=0, y=-1, location="S"))  # the mage's city becomes a castle
    assert game.state.awards == [] and on(game) == {}
    place(game, 1, -1, 0)
    game.execute(ANN, Move(figure="mage", x=1, y=-1, location="N"))
    assert on(game) == {"mage": (1, -1, "N")}
    replay(game.pending)


# ----------------------------------------------------------------- R-MW-9


def test_R_MW_9_a_castle_scores_the_completed_road_with_the_mage() -> None:
    game = mw_game(["BA/C", "MW/CRRR.3", "BA/RFr", "BA/CRRR", "BA/L"], sets=("bcb",))
    place(game, 0, -1, 180)
    game.execute(ANN, Deploy(location="S"))
    game.execute(ANN, cs.ChooseCastle(x=0, y=-1, location="S"))  # Ann's castle north of the road
    magic_turn(game, -1, 0, 0, Move(figure="mage", x=0, y=0, location="E+W"))
    turn(game, 1, 0)
    turn(game, 2, 0)  # the four-tile road (-1,0)..(2,0) completed in the castle's fief
    assert [(a.player, a.points, a.category) for a in game.state.awards] == [(ANN, 8, "castle")]
    assert on(game) == {}


# ----------------------------------------------------------------- JCZ-MW-LATE-JOIN


def _joined_late(late: bool) -> Game:
    """Bob's magic tile, the mage moved onto the start road; then the witch joins her there by
    hand, as a piece laid later in the part would (a tunnel, a ferry)."""
    game = mw_game(["BA/RFr", "MW/CRRR.3", "BA/L", "BA/L"], rules=rule_set(magic_late_join=late))
    turn(game, 1, 0, deploy="E+W")
    place(game, -1, 0)
    game.execute(BOB, Move(figure="mage", x=0, y=0, location="E+W"))
    put(game, "witch", 1, 0, "E+W")
    return game


def test_JCZ_MW_LATE_JOIN_off_whoever_joins_them_moves_one_at_once() -> None:
    game = _joined_late(False)
    assert expected_step(game.state) == Decision(mg.MOVE, BOB)


def test_JCZ_MW_LATE_JOIN_on_the_next_tile_placed_sees_the_join() -> None:
    game = _joined_late(True)
    state = game.state
    assert expected_step(state) == Decision("action", BOB)
    road = state.board.graph.feature(state.board.at[(0, 0)].segment("E+W"))
    # Meanwhile the road is worth its tiles, the mage's as many, then half of all that.
    assert feature_value(state, road, completed=True) == (3, (("tiles", 3), ("mage", 3), ("witch", -3)))
    game.execute(BOB, Pass())
    place(game, 0, 1)  # Ann's plain tile: she must move one
    assert expected_step(game.state) == Decision(mg.MOVE, ANN)


def test_JCZ_MW_LATE_JOIN_an_abbey_placement_does_not_look() -> None:
    """A hole below the start tile; Ann's magic tile north of it, the mage on the start road and
    the witch joined to it by hand; Bob fills the hole with his abbey, and Ann's next tile sees
    the join."""
    pile = ["BA/RFr", "BA/RFr", "BA/L", "BA/L", "BA/L", "BA/L", "MW/CFC", "BA/L", "BA/L"]
    game = mw_game(pile, rules=rule_set(magic_late_join=True), sets=("am",))

    def placing(x: int, y: int, rotation: int = 0) -> None:
        if expected_step(game.state) == Decision("abbey", game.state.current):
            game.execute(game.state.current, Pass())
        turn(game, x, y, rotation)

    for x, y in ((1, 0), (-1, 0), (1, 1), (-1, 1), (1, 2), (0, 2)):
        placing(x, y)
    game.execute(ANN, Pass())  # no abbey yet
    place(game, 0, -1)
    game.execute(ANN, Move(figure="mage", x=0, y=0, location="E+W"))
    put(game, "witch", 1, 0, "E+W")
    game.execute(ANN, Pass())
    assert expected_step(game.state) == Decision("abbey", BOB)
    game.execute(BOB, PlaceAbbey(x=0, y=1))
    assert mg.joined(game.state) and expected_step(game.state) == Decision("action", BOB)
    game.execute(BOB, Pass())
    place(game, -1, -1)  # Ann's plain tile (no hole is left for her abbey)
    assert expected_step(game.state) == Decision(mg.MOVE, ANN)


# ----------------------------------------------------------------- the switches, JCloisterZone


def test_the_switch_is_a_reading_of_the_part_and_jcloisterzones_reading_sets_it() -> None:
    assert mg.PART.switches == {"JCZ-MW-LATE-JOIN": "magic_late_join"}
    assert VARIANTS["JCZ-MW-LATE-JOIN"] == "magic_late_join"
    assert JCZ_READING["magic_late_join"] is True
    assert MAPPINGS["mw"] is MAPPING and MAPPING.tile_set == "mage-and-witch"


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_the_reference_games_are_read_under_jcloisterzones_reading(path: Any) -> None:
    """(That they agree turn by turn: tests/test_reference_games.py.)"""
    rules = jcz_rules(read_jcz(require(path)))
    assert rules.options["magic"] == {"magic_late_join": True}


def _message(payload: dict[str, Any]) -> JczMessage:
    return JczMessage(type="MOVE_NEUTRAL_FIGURE", payload=payload, player=0)


def test_a_move_of_the_mage_or_witch_and_no_other_neutral_figure_is_this_sets() -> None:
    game = mw_game(["MW/CccR.1"])
    reader = SaveReader(game, in_play(game.state.expansions))
    to = {"position": [1, 0], "location": "_S", "feature": "City"}
    assert MAPPING.command(reader, 0, _message({"figureId": "witch.1", "to": to})) == Move(
        figure="witch", x=1, y=0, location="N+E+W"
    )
    assert MAPPING.command(reader, 0, _message({"figureId": "mage.1", "to": None})) == Remove(figure="mage")
    assert MAPPING.command(reader, 0, _message({"figureId": "dragon.1", "to": [1, 0]})) is None
    fairy = {"featurePointer": to, "meepleId": "0.small.1"}
    assert MAPPING.command(reader, 0, _message({"figureId": "fairy.1", "to": fairy})) is None


def test_a_removal_is_written_as_a_move_to_nowhere() -> None:
    sent: list[tuple[str, int, dict[str, Any]]] = []

    class Writer:
        @staticmethod
        def send(kind: str, player: int, payload: dict[str, Any]) -> None:
            sent.append((kind, player, payload))

    game = mw_game(["MW/CFC"])
    event = mg.MagicFigureRemoved(originator_id=game.id, originator_version=9, player=BOB, figure="witch")
    writer: Any = Writer()
    assert MAPPING.messages(writer, game.state, BOB, Remove(figure="witch"), event)
    assert sent == [("MOVE_NEUTRAL_FIGURE", BOB, {"figureId": "witch.1", "to": None})]
    assert not MAPPING.messages(
        writer,
        game.state,
        BOB,
        Pass(),
        ev.Passed(originator_id=game.id, originator_version=9, player=BOB, step="deploy"),
    )
