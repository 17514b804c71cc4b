"""The Flying Machines: one or more scenarios per rule id (docs/RULES.md 19, R-FLIER-1..11), its
switch both ways (JCZ-FLIER-NO-TOWER), the die as a draw of chance, and the flights in
JCloisterZone's saves (the die from the message's `random`, both ways).

The start tile BA/RCr lies at (0,0): city N, road E+W, field S. Most scenarios put a flying
machine east of it, at (1,0) or (2,0), turned 0 so its wings point west, back along the road: one
tile reaches (1,0), two the start tile, three the empty (-1,0). Each flight's die is set by the
test (`fly`), as an import sets it from the save.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

import msgspec
import pytest

from domain.aggregate import Game
from domain.bots import play_bot_game
from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.events import Event, TurnEnded
from domain.expansions import flier as fl, tower as tw
from domain.moves import expected_step, legal_commands
from domain.readings import rule_set
from domain.replay import ReplayError, replay
from domain.rules import RuleSet
from domain.state import GameState, Phase
from domain.tiles import TILES
from domain.turns import Chance
from projections.svg import render_svg
from projections.text import render_board
from replays.jcz import JCZ_READING, JczError, jcz_rules, replay_jcz
from replays.jcz_draws import random_giving
from replays.jcz_export import export_jcz, jcz_document
from replays.jcz_sets.flier import SIDES, distance
from replays.sources import import_jcz
from tests.jcz_saves import commit, decode, deploy, place, save, write
from tests.reference import jcz_files, require

ANN, BOB, CAT = 0, 1, 2
FLIER = ("base", "flier")
NS = "{http://www.w3.org/2000/svg}"
# One turn: the tile, where and how it goes, and what its player does then (a location to deploy
# a follower on, a command, or nothing: a pass).
Step = tuple[str, int, int, int, str | Command | None]


def played(
    steps: Sequence[Step],
    *,
    extra: Sequence[str] = ("BA/C",),
    expansions: Sequence[str] = FLIER,
    rules: RuleSet | None = None,
    players: Sequence[str] = ("Ann", "Bob"),
) -> Game:
    """A game whose pile is the steps' tiles and then `extra`, played step by step."""
    pile = [step[0] for step in steps] + list(extra)
    game = Game.start(tuple(players), pile, expansions=tuple(expansions), rules=rules)
    for step in steps:
        turn(game, *step[1:])
    return game


def turn(game: Game, x: int, y: int, rotation: int, then: str | Command | None = None) -> None:
    """The current player places the tile they hold and acts (a pass if nothing is given)."""
    state = game.state
    player = state.current
    game.execute(player, PlaceTile(x=x, y=y, rotation=rotation))
    if isinstance(then, str):
        game.execute(player, Deploy(location=then))
    elif then is not None:
        game.execute(player, then)
    elif state.phase == Phase.ACTION:
        game.execute(player, Pass())


def fly(game: Game, rolled: int, figure: str = "follower") -> None:
    """The current player sends a follower of `figure`'s kind flying; the die shows `rolled`."""
    game.roll = lambda state, chance: _face(chance, rolled)
    game.execute(game.state.current, fl.Fly(figure=figure))


def _face(chance: Chance, rolled: int) -> Event:
    return next(e for e in chance.outcomes if isinstance(e, fl.FlierRolled) and e.distance == rolled)


def landings(game: Game) -> list[tuple[int, int, str]]:
    """Where the flier may land now, as the legal commands offer it."""
    return sorted((c.x, c.y, c.location) for c in legal_commands(game.state) if isinstance(c, fl.Land))


def figures_at(game: Game, x: int, y: int, location: str) -> list[tuple[int, str]]:
    board = game.state.board
    feature = board.graph.feature(board.at[(x, y)].segment(location))
    return sorted((player, kind) for player, _, kind in feature.figures)


def scored(game: Game) -> list[tuple[int, int, str]]:
    return [(a.player, a.points, a.category) for a in game.state.awards]


def in_supply(state: GameState, figure: str = "follower") -> list[int]:
    return list(state.supply) if figure == "follower" else list(state.ext["figures"][figure])


# Ann's road east of the start, her follower on it; Bob's flying machine beyond it.
ANNS_ROAD: Step = ("BA/RFr", 1, 0, 0, "E+W")
BOBS_MACHINE: Step = ("FL/RFr.WE.o", 2, 0, 0, None)


def bob_about_to_fly(**kwargs: object) -> Game:
    """Ann holds the road of (1,0) and the start tile; Bob has placed his machine at (2,0)."""
    game = played([ANNS_ROAD], extra=("FL/RFr.WE.o", "BA/C"), **kwargs)  # type: ignore[arg-type]
    game.execute(BOB, PlaceTile(x=2, y=0, rotation=0))
    return game


# ----------------------------------------------------------------- R-FLIER-1: the tiles, the die


def test_R_FLIER_1_eight_tiles_each_with_a_flying_machine_pointing_straight_or_across() -> None:
    flier = {t.id: t for t in TILES.values() if t.expansion == "flier"}
    assert sorted(flier) == sorted(
        ["FL/F.d", "FL/F.o", "FL/RFr.d", "FL/RFr.NS.o", "FL/RFr.WE.o", "FL/Rr.d", "FL/Rr.NW.o", "FL/Rr.SW.o"]
    )
    assert all(t.count == 1 for t in flier.values())
    assert {i: fl.direction(t, 0) for i, t in flier.items()} == {
        i: "NW" if i.endswith(".d") else "W" for i in flier
    }
    assert fl.direction(TILES["BA/RFr"], 0) is None


def test_R_FLIER_1_the_arrow_turns_with_the_tile() -> None:
    straight, across = TILES["FL/F.o"], TILES["FL/F.d"]
    assert [fl.direction(straight, r) for r in (0, 90, 180, 270)] == ["W", "N", "E", "S"]
    assert [fl.direction(across, r) for r in (0, 90, 180, 270)] == ["NW", "NE", "SE", "SW"]


def test_R_FLIER_1_the_die_draws_one_two_or_three_each_as_likely() -> None:
    game = bob_about_to_fly()
    seen: list[tuple[int, ...]] = []

    def look(state: GameState, chance: Chance) -> Event:
        seen.append(tuple(e.distance for e in chance.outcomes if isinstance(e, fl.FlierRolled)))
        assert expected_step(state) is None  # nobody decides while the die rolls
        return chance.outcomes[0]

    game.roll = look
    game.execute(BOB, fl.Fly())
    assert seen == [(1, 2, 3)]


def test_R_FLIER_1_without_the_part_the_tiles_are_plain() -> None:
    game = bob_about_to_fly(rules=rule_set(without=("flier",)))
    assert not any(isinstance(c, fl.Fly) for c in legal_commands(game.state))
    with pytest.raises(RuleViolation, match="R-FLIER-1"):
        game.execute(BOB, fl.Fly())
    sets = {"basic:1": 1, "flier:1": 1}
    base = {"small-follower": 7, "farmers": True}
    assert "flier" in jcz_rules(decode(save([], sets=sets, elements=base))).without
    assert "flier" not in jcz_rules(decode(save([], sets=sets, elements={**base, "flier": True}))).without


# ----------------------------------------------------------------- R-FLIER-2: flying instead of deploying


def test_R_FLIER_2_the_machine_is_offered_beside_the_deployments_and_is_the_deployment() -> None:
    game = bob_about_to_fly()
    options = legal_commands(game.state)
    assert fl.Fly(figure="follower") in options
    assert Deploy(location="Nw+Ne+En+Wn") in options  # the usual deployments too (the road is Ann's)
    assert Deploy(location="E+W") not in options
    fly(game, 3)  # to the empty (-1,0)
    assert game.state.phase == Phase.PLACE and game.state.current == ANN  # nothing else that turn
    assert in_supply(game.state) == [6, 7]


def test_R_FLIER_2_only_the_tile_just_placed_flies_and_only_with_a_machine() -> None:
    game = played([("FL/RFr.WE.o", 1, 0, 0, "E+W")], extra=("BA/RFr", "BA/C"))  # Ann's machine, a deployment
    game.execute(BOB, PlaceTile(x=-1, y=0, rotation=0))  # no machine on Bob's tile
    assert not any(isinstance(c, fl.Fly) for c in legal_commands(game.state))
    with pytest.raises(RuleViolation, match="R-FLIER-2"):
        game.execute(BOB, fl.Fly())


def test_R_FLIER_2_the_flier_stays_in_the_supply_while_it_flies() -> None:
    game = bob_about_to_fly()
    supplies: list[int] = []

    def roll(state: GameState, chance: Chance) -> Event:
        supplies.append(state.supply[BOB])
        return _face(chance, 1)

    game.roll = roll
    game.execute(BOB, fl.Fly())
    assert supplies == [7]  # in the air, it is still in the supply
    assert expected_step(game.state) == (fl.STEP, BOB)


# ----------------------------------------------------------------- R-FLIER-3: how far, which way


@pytest.mark.parametrize(
    ("heading", "steps", "square"),
    [
        ("W", 1, (1, 0)),
        ("W", 3, (-1, 0)),
        ("N", 2, (2, -2)),
        ("E", 1, (3, 0)),
        ("S", 3, (2, 3)),
        ("NW", 1, (1, -1)),
        ("NE", 2, (4, -2)),
        ("SE", 3, (5, 3)),
        ("SW", 1, (1, 1)),
    ],
)
def test_R_FLIER_3_the_flier_flies_as_many_squares_as_the_die_says_the_way_the_wings_point(
    heading: str, steps: int, square: tuple[int, int]
) -> None:
    assert fl.target((2, 0), heading, steps) == square


@pytest.mark.parametrize(("rolled", "where"), [(1, [(1, 0, "E+W")]), (2, [(0, 0, "E+W"), (0, 0, "N")])])
def test_R_FLIER_3_the_die_decides_which_tile_it_reaches(
    rolled: int, where: list[tuple[int, int, str]]
) -> None:
    game = bob_about_to_fly()
    fly(game, rolled)
    assert landings(game) == where


def test_R_FLIER_3_a_machine_across_a_corner_flies_diagonally() -> None:
    """FL/F.d turned 90 below the start tile points north-east: one square reaches (1,0)."""
    game = played([ANNS_ROAD], extra=("FL/F.d", "BA/C"))
    game.execute(BOB, PlaceTile(x=0, y=1, rotation=90))
    fly(game, 1)
    assert landings(game) == [(1, 0, "E+W")]  # Ann's road; not its fields


# ----------------------------------------------------------------- R-FLIER-4: the landing


def test_R_FLIER_4_it_lands_where_the_player_chooses_on_an_occupied_feature_too() -> None:
    game = bob_about_to_fly()
    fly(game, 2)
    assert landings(game) == [(0, 0, "E+W"), (0, 0, "N")]
    game.execute(BOB, fl.Land(x=0, y=0, location="E+W"))
    assert figures_at(game, 1, 0, "E+W") == [(ANN, "follower"), (BOB, "follower")]
    assert in_supply(game.state) == [6, 6]


def test_R_FLIER_4_on_ones_own_feature_too() -> None:
    """Ann's machine at (2,0) flies her second follower onto her own road."""
    game = played([ANNS_ROAD, ("BA/L", 0, 1, 0, None)], extra=("FL/RFr.WE.o", "BA/C"))
    game.execute(ANN, PlaceTile(x=2, y=0, rotation=0))
    fly(game, 1)
    game.execute(ANN, fl.Land(x=1, y=0, location="E+W"))
    assert figures_at(game, 1, 0, "E+W") == [(ANN, "follower"), (ANN, "follower")]


def test_R_FLIER_4_the_landing_cannot_be_passed_nor_made_elsewhere() -> None:
    game = bob_about_to_fly()
    fly(game, 2)
    assert Pass() not in legal_commands(game.state)
    with pytest.raises(RuleViolation, match="R-FLIER-4"):
        game.execute(BOB, Pass())
    with pytest.raises(RuleViolation, match="R-FLIER-4"):
        game.execute(BOB, fl.Land(x=1, y=0, location="E+W"))  # one square, not two
    with pytest.raises(RuleViolation, match="R-FLIER-4"):
        game.execute(BOB, Deploy(location="Nw+Ne+En+Wn"))  # no deployment either


def test_R_FLIER_4_no_ransom_while_the_flier_lands() -> None:
    """JCloisterZone's reading lets a ransom be paid at any step (JCZ-RANSOM-ANY-STEP), but not
    while a flier lands: that decision takes nothing else."""
    rules = rule_set(ransom_any_step=True)
    steps: list[Step] = [
        ("TO/F", 0, 1, 0, None),  # Ann's tower
        ("BA/RFr", 1, 1, 90, "N+S"),  # Bob's follower beside it
        ("BA/RFr", -1, 0, 0, tw.PlaceTowerPiece(x=0, y=1)),  # Ann raises it ...
    ]
    game = played(steps, extra=("FL/F.o", "BA/C"), expansions=("base", "tower", "flier"), rules=rules)
    game.execute(ANN, tw.CaptureFollower(x=1, y=1, location="N+S", owner=BOB))  # ... and takes it
    ransom = tw.PayRansom(jailer=ANN)
    assert ransom in legal_commands(game.state)  # Bob may pay it when asked to place his tile
    game.execute(BOB, PlaceTile(x=-1, y=1, rotation=90))  # wings north, to Ann's road at (-1,0)
    fly(game, 1)
    assert landings(game) == [(-1, 0, "E+W")]
    assert ransom not in legal_commands(game.state)
    with pytest.raises(RuleViolation, match="R-FLIER-4"):
        game.execute(BOB, ransom)


# ----------------------------------------------------------------- R-FLIER-5, R-FLIER-6: where not


def test_R_FLIER_5_never_on_a_field() -> None:
    """Bob's machine at (1,1) points west at (0,1), fields only: nowhere to land."""
    game = played([("FL/F.o", 0, 1, 0, None)], extra=("FL/RFr.NS.o", "BA/C"))
    game.execute(BOB, PlaceTile(x=1, y=1, rotation=0))
    assert Deploy(location="Nw+Sw+Ws+Wn") in legal_commands(game.state)  # a field: a deployment, yes
    fly(game, 1)
    assert landings(game) == [] and in_supply(game.state) == [7, 7]


def _ring(last: bool) -> Game:
    """A cloister at (0,1), Ann's; its ring filled but (1,1), where Bob puts his machine, wings
    west at the cloister, (1,2) left empty unless `last`."""
    steps: list[Step] = [
        ("BA/L", 0, 1, 0, "cloister"),
        ("BA/RFr", -1, 0, 0, None),
        ("BA/RFr", 1, 0, 0, None),
        ("BA/L", -1, 1, 0, None),
        ("BA/L", -1, 2, 0, None),
        ("BA/L", 0, 2, 0, None),
    ]
    if last:
        steps.append(("BA/L", 1, 2, 0, None))
    game = played(steps, extra=("FL/F.o", "BA/C"), players=("Ann", "Bob", "Cat"))
    game.execute(game.state.current, PlaceTile(x=1, y=1, rotation=0))
    fly(game, 1)
    return game


def test_R_FLIER_6_a_feature_the_tile_just_placed_completes_is_no_landing_place() -> None:
    assert landings(_ring(last=False)) == [(0, 1, "cloister")]  # one square of its ring still empty
    finished = _ring(last=True)  # the machine's tile closes the ring: the cloister is finished
    assert landings(finished) == []
    assert (ANN, 9, "cloister") in scored(finished)


# ----------------------------------------------------------------- R-FLIER-7: back to the supply


def test_R_FLIER_7_with_no_tile_there_the_flier_goes_back_and_nothing_else_is_deployed() -> None:
    game = bob_about_to_fly()
    fly(game, 3)  # (-1,0) is empty
    events = game.collect_events()
    assert [type(e).__name__ for e in events[-4:]] == [
        "FlierLaunched",
        "FlierRolled",
        "TurnEnded",
        "TileDrawn",
    ]
    assert isinstance(events[-2], TurnEnded)
    assert in_supply(game.state) == [6, 7] and game.state.current == ANN


# ----------------------------------------------------------------- R-FLIER-8: which figures fly, where


MAYOR = ("base", "am", "flier")
NO_ABBEY = rule_set(without=("abbey",))


@pytest.mark.parametrize(("closed", "where"), [(False, [(0, 0, "N")]), (True, [])])
def test_R_FLIER_8_a_mayor_lands_only_in_an_unfinished_city(
    closed: bool, where: list[tuple[int, int, str]]
) -> None:
    first: Step = ("BA/C", 0, -1, 180, None) if closed else ("BA/RFr", -1, 0, 0, None)
    game = played([first], extra=("FL/RFr.WE.o", "BA/C"), expansions=MAYOR, rules=NO_ABBEY)
    game.execute(BOB, PlaceTile(x=1, y=0, rotation=0))
    assert fl.Fly(figure="mayor") in legal_commands(game.state)  # offered, wherever it may land
    fly(game, 1, "mayor")
    assert landings(game) == where
    if where:
        game.execute(BOB, fl.Land(x=0, y=0, location="N"))
        assert figures_at(game, 0, 0, "N") == [(BOB, "mayor")]
    else:
        assert in_supply(game.state, "mayor") == [1, 1]


def test_R_FLIER_8_a_wagon_flies_to_a_road() -> None:
    game = bob_about_to_fly(expansions=MAYOR, rules=NO_ABBEY)
    fly(game, 1, "wagon")
    game.execute(BOB, fl.Land(x=1, y=0, location="E+W"))
    assert figures_at(game, 1, 0, "E+W") == [(ANN, "follower"), (BOB, "wagon")]


def test_R_FLIER_8_the_large_follower_lands_and_counts_two() -> None:
    game = bob_about_to_fly(expansions=("base", "ic", "flier"))
    fly(game, 1, "big")
    game.execute(BOB, fl.Land(x=1, y=0, location="E+W"))
    assert game.state.majority(
        game.state.board.graph.feature(game.state.board.at[(1, 0)].segment("E+W"))
    ) == [BOB]


def test_R_FLIER_8_figures_that_are_no_followers_never_fly() -> None:
    game = bob_about_to_fly(expansions=("base", "tb", "am", "flier"), rules=NO_ABBEY)
    flying = sorted(c.figure for c in legal_commands(game.state) if isinstance(c, fl.Fly))
    assert flying == ["follower", "mayor", "wagon"]  # no builder, pig or barn
    with pytest.raises(RuleViolation, match="R-FLIER-8"):
        game.execute(BOB, fl.Fly(figure="builder"))


# ----------------------------------------------------------------- R-FLIER-9: once per machine


def test_R_FLIER_9_a_machine_flies_one_follower() -> None:
    game = bob_about_to_fly()
    fly(game, 2)
    assert not any(isinstance(c, fl.Fly) for c in legal_commands(game.state))
    with pytest.raises(RuleViolation, match="R-FLIER-9"):
        game.execute(BOB, fl.Fly())


# ----------------------------------------------------------------- R-FLIER-10: an ordinary follower


def test_R_FLIER_10_a_landed_follower_shares_the_city_and_scores_with_it() -> None:
    steps: list[Step] = [("BA/CFc.1", 0, -1, 90, "N+S")]  # Ann's knight in the start's city
    game = played(steps, extra=("FL/RFr.WE.o", "BA/C", "BA/C"))
    game.execute(BOB, PlaceTile(x=1, y=0, rotation=0))
    fly(game, 1)  # the start tile is one square west of (1,0)
    game.execute(BOB, fl.Land(x=0, y=0, location="N"))
    turn(game, 0, -2, 180)  # Ann closes the city: three tiles, a tie
    assert sorted(scored(game)) == [(ANN, 6, "city"), (BOB, 6, "city")]
    assert in_supply(game.state) == [7, 7]


# ----------------------------------------------------------------- R-FLIER-11: not to the dragon


@pytest.mark.parametrize(("rolled", "where"), [(1, []), (2, [(0, 0, "E+W"), (0, 0, "N")])])
def test_R_FLIER_11_never_onto_the_dragons_tile(rolled: int, where: list[tuple[int, int, str]]) -> None:
    """Ann's volcano at (1,0) brings the dragon there, its road open."""
    rules = rule_set(without=("fairy", "princess", "portal"))
    game = played(
        [("DG/RFr.v", 1, 0, 0, None)],
        extra=("FL/RFr.WE.o", "BA/C"),
        expansions=("base", "pd", "flier"),
        rules=rules,
    )
    game.execute(BOB, PlaceTile(x=2, y=0, rotation=0))
    fly(game, rolled)
    assert landings(game) == where


# ----------------------------------------------------------------- JCZ-FLIER-NO-TOWER


@pytest.mark.parametrize("no_tower", [False, True])
def test_JCZ_FLIER_NO_TOWER_the_top_of_an_open_tower(no_tower: bool) -> None:
    """Ann's tower at (0,1), one piece high; Bob's machine at (1,1) points west at it."""
    steps: list[Step] = [("TO/F", 0, 1, 0, tw.PlaceTowerPiece(x=0, y=1))]
    expansions = ("base", "tower", "flier")
    rules = rule_set(no_tower=no_tower)
    game = played(steps, extra=("FL/RFr.NS.o", "BA/C"), expansions=expansions, rules=rules)
    game.execute(BOB, PlaceTile(x=1, y=1, rotation=0))
    fly(game, 1)
    if no_tower:
        assert landings(game) == [] and game.state.supply[BOB] == 7
        return
    assert landings(game) == [(0, 1, tw.ON_TOWER)]
    game.execute(BOB, fl.Land(x=0, y=1, location=tw.ON_TOWER))
    assert tw.towers(game.state).guards == {(0, 1): (BOB, "follower")}  # the tower is closed
    assert game.state.supply[BOB] == 6
    assert replay(game.collect_events()).state.supply == game.state.supply


def test_JCZ_FLIER_NO_TOWER_is_jcloisterzones_reading() -> None:
    assert JCZ_READING["no_tower"] is True
    assert not fl.FlierOptions().no_tower


# ----------------------------------------------------------------- the log: events, replay


def test_a_flight_is_three_events_and_replays() -> None:
    game = bob_about_to_fly()
    fly(game, 2)
    game.execute(BOB, fl.Land(x=0, y=0, location="N"))
    events = game.collect_events()
    kinds = [type(e).__name__ for e in events]
    at = kinds.index("FlierLaunched")
    assert kinds[at : at + 3] == ["FlierLaunched", "FlierRolled", "FlierLanded"]
    again = replay(events)
    assert figures_at(again, 0, 0, "N") == [(BOB, "follower")]
    rolled = events[at + 1]
    assert isinstance(rolled, fl.FlierRolled) and rolled.distance == 2
    other = msgspec.structs.replace(rolled, distance=1)  # another face is as legal ...
    replay([*events[: at + 1], other])
    cheat = msgspec.structs.replace(rolled, distance=4)  # ... a face the die has not is refused
    with pytest.raises(ReplayError, match="R-FLIER-3"):
        replay([*events[: at + 1], cheat])


def test_the_board_shows_each_flying_machine_and_its_direction() -> None:
    game = played([("FL/F.d", 0, 1, 90, None)])
    svg = ET.fromstring(render_svg(game.state))
    discs = svg.findall(f".//{NS}g[@class='structures']/{NS}circle[@class='flier']")
    assert len(discs) == 1
    assert "NE" in [t.text for t in svg.iter(f"{NS}text")]
    assert render_board(game.state).splitlines()[4][1] == "/"  # the middle of (0,1): north-east


# ----------------------------------------------------------------- JCloisterZone's saves


def test_jcz_the_die_is_the_flight_messages_random_in_thirds() -> None:
    assert [distance(r) for r in (0.0, 0.21681822742043355, 0.34, 0.5834937453350209, 0.9, 0.999)] == [
        1,
        1,
        2,
        2,
        3,
        3,
    ]
    assert [distance(random_giving([(d - 1, SIDES)])) for d in (1, 2, 3)] == [1, 2, 3]


def test_jcz_the_reference_flight_rolls_one_and_finds_no_tile() -> None:
    """basic_flier-p2, message 64: FL/RFr.WE.o turned 270 at (-6,1), wings south, random 0.2168:
    one square, to the empty (-6,2)."""
    path = next(p for p in jcz_files("oracle-wave2", "basic_flier-p2-*.jcz"))
    _, events = import_jcz(require(path))
    flown = [e for e in events if isinstance(e, fl.FlierLaunched | fl.FlierRolled | fl.FlierLanded)]
    assert [(type(e).__name__, getattr(e, "distance", None)) for e in flown] == [
        ("FlierLaunched", None),
        ("FlierRolled", 1),
    ]


FLIGHT = [
    place(0, "BA/RFr", 1, 0),
    deploy(0, 1, 0, "WE", "Road"),
    commit(0),
    place(1, "FL/RFr.WE.o", 2, 0),
]


def _flight_save(messages: list[dict[str, object]]) -> dict[str, object]:
    elements = {"small-follower": 7, "farmers": True, "flier": True}
    return save(messages, PILE, sets={"basic:1": 1, "flier:1": 1}, elements=elements)


PILE = ["BA/RFr", "FL/RFr.WE.o", "BA/C"]


def _flight(random: float | None) -> dict[str, object]:
    message = deploy(1, 2, 0, "I", "FlyingMachine")
    if random is not None:
        message["payload"]["random"] = random
    return message


def test_jcz_a_flight_and_its_landing_import() -> None:
    """The notes' engine run: random 0.5, two squares to the start tile, onto Ann's road."""
    messages = [*FLIGHT, _flight(0.5), deploy(1, 0, 0, "WE", "Road"), commit(1)]
    document = _flight_save(messages)
    jcz = decode(document)
    game = replay_jcz(jcz, PILE)
    events = game.collect_events()
    assert [e.distance for e in events if isinstance(e, fl.FlierRolled)] == [2]
    landed = [e for e in events if isinstance(e, fl.FlierLanded)]
    assert [(e.player, e.x, e.y, e.location) for e in landed] == [(BOB, 0, 0, "E+W")]
    again = jcz_document(events)["replay"]
    written = [m for m in again if m["type"] == "DEPLOY_MEEPLE"]
    assert written[1]["payload"]["pointer"] == {
        "position": [2, 0],
        "location": "I",
        "feature": "FlyingMachine",
    }
    assert distance(written[1]["payload"]["random"]) == 2
    assert "random" not in written[2]["payload"]  # the landing is a plain deployment
    assert written[2]["payload"]["pointer"]["feature"] == "Road"


def test_jcz_a_flight_without_its_random_is_refused() -> None:
    messages = [*FLIGHT, _flight(None), commit(1)]
    document = _flight_save(messages)
    with pytest.raises(JczError, match="random"):
        replay_jcz(decode(document), PILE)


def test_jcz_an_exported_flight_carries_a_random_that_rolls_the_same(tmp_path: Path) -> None:
    """A bot game by JCloisterZone's reading whose machines fly three times, one landing."""
    events = play_bot_game(3, 26, expansions=FLIER, rules=rule_set(**JCZ_READING)).collect_events()
    rolled = [e.distance for e in events if isinstance(e, fl.FlierRolled)]
    assert rolled == [2, 2, 2] and any(isinstance(e, fl.FlierLanded) for e in events)
    data = export_jcz(events)  # imported again to the same events, or it raises
    flights = [m for m in msgspec.json.decode(data)["replay"] if "FlyingMachine" in str(m)]
    assert [distance(m["payload"]["random"]) for m in flights] == rolled
    path = write(tmp_path, msgspec.json.decode(data))
    _, again = import_jcz(path)
    assert [e.distance for e in again if isinstance(e, fl.FlierRolled)] == rolled
