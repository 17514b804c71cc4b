"""Corn Circles: one or more scenarios per rule id (docs/RULES.md 15, R-CORN-1..10), and its two
switches both ways (JCZ-CORN-ASK, V-CORN-DEPLOY-MUST).

The start tile BA/RCr lies at (0,0): city N, road E+W, field S. Most scenarios open the same way:
Ann's knight in the city of BA/Cc.1 at (0,-1) (turned 180, its city open to the east), Bob's thief
on the road of BA/RFr at (1,0); then Ann places a crop-circle tile: the city circle CC.1/CC.2 at
(0,1) (turned 180), the road circle CC.1/RRR or the field circle CC.1/CR elsewhere.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from domain import events as ev
from domain.aggregate import Game
from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.expansions import corn as cn, fairy as fy
from domain.expansions.castles import ChooseCastle
from domain.moves import Decision, expected_step, legal_commands
from domain.readings import rule_set
from domain.replay import replay
from domain.rules import RuleSet
from domain.state import Phase
from domain.tiles import TILES, Kind
from domain.view import Mark, MarkKind
from projections.svg import render_svg
from projections.text import render_board
from replays.check import check_file
from replays.jcz import JCZ_READING, JczSave, read_jcz, replay_jcz
from replays.jcz_draws import plan_draws
from tests.jcz_saves import Message, commit, decode, deploy, pass_, place, save
from tests.reference import JCZ, require

ANN, BOB, CID = 0, 1, 2
CORN = ("base", "corn")
# One turn: the tile, where and how it goes, and what its player does then (a location to deploy
# a follower on, a (location, figure) pair, a command, or nothing: a pass).
Step = tuple[str, int, int, int, str | tuple[str, str] | Command | None]

OPENING: list[Step] = [
    ("BA/Cc.1", 0, -1, 180, "E+S"),  # Ann's knight, its city open to the east
    ("BA/RFr", 1, 0, 0, "E+W"),  # Bob's thief on the start's road
]
CITY_CIRCLE: Step = ("CC.1/CC.2", 0, 1, 180, None)  # Ann: cities S and W, open
ANN_KNIGHT = cn.CornReturn(x=0, y=-1, location="E+S")


def turn(game: Game, step: Step) -> None:
    """The current player places the tile they hold and acts."""
    _, x, y, rotation, then = step
    state = game.state
    player = state.current
    game.execute(player, PlaceTile(x=x, y=y, rotation=rotation))
    if isinstance(then, str):
        game.execute(player, Deploy(location=then))
    elif isinstance(then, tuple):
        game.execute(player, Deploy(location=then[0], figure=then[1]))
    elif then is not None:
        game.execute(player, then)
    elif state.phase == Phase.ACTION:
        game.execute(player, Pass())


def played(
    steps: Sequence[Step],
    *,
    extra: Sequence[str] = ("BA/C", "BA/C"),
    expansions: Sequence[str] = CORN,
    rules: RuleSet | None = None,
    players: Sequence[str] = ("Ann", "Bob"),
) -> Game:
    """A game whose pile is the steps' tiles and then `extra`, played step by step."""
    pile = [step[0] for step in steps] + list(extra)
    game = Game.start(tuple(players), pile, expansions=tuple(expansions), rules=rules)
    for step in steps:
        turn(game, step)
    return game


def asked(game: Game) -> Decision | None:
    return expected_step(game.state)


def answer(game: Game, command: Command) -> None:
    decision = expected_step(game.state)
    assert decision is not None
    game.execute(decision.player, command)


def refused(game: Game, player: int, command: Command) -> str:
    with pytest.raises(RuleViolation) as error:
        game.execute(player, command)
    return error.value.rule


def figures_at(game: Game, x: int, y: int, location: str) -> list[tuple[int, str]]:
    board = game.state.board
    feature = board.graph.feature(board.at[(x, y)].segment(location))
    return sorted((player, kind) for player, _, kind in feature.figures)


def recorded(game: Game, kind: type[ev.Event]) -> list[ev.Event]:
    return [e for e in game.pending if isinstance(e, kind)]


# ----------------------------------------------------------------- R-CORN-1: the tiles


def test_R_CORN_1_six_tiles_each_with_a_circle_of_a_kind() -> None:
    corn = {t.id: cn.circle_of(t.tags) for t in TILES.values() if t.expansion == "corn"}
    assert corn == {
        "CC.1/Cc.1": "city",
        "CC.1/CC.2": "city",
        "CC.1/CR": "field",
        "CC.1/Rr": "road",
        "CC.1/RrC": "field",
        "CC.1/RRR": "road",
    }
    assert all(TILES[t].count == 1 for t in corn)
    assert not any(cn.circle_of(t.tags) for t in TILES.values() if t.expansion != "corn")


def test_R_CORN_1_roads_end_at_the_circle() -> None:
    """CC.1/RRR: three roads, each ending at the circle, as a crossing ends them."""
    roads = [s for s in TILES["CC.1/RRR"].segments if s.kind == Kind.ROAD]
    assert len(roads) == 3 and all(len(s.edges) == 1 for s in roads)


# ----------------------------------------------------------------- R-CORN-2, R-CORN-3: when, who


def test_R_CORN_2_the_placer_chooses_once_the_turn_part_has_scored() -> None:
    """Ann's crop-circle tile completes her city, which scores first; then she is asked, and the
    choice is hers alone, deploy or remove, never a pass."""
    game = played([*OPENING, ("CC.1/CC.2", 1, -1, 270, None)])  # closes Ann's city of 3 tiles
    state = game.state
    assert asked(game) == Decision(cn.CHOOSE, ANN)
    assert [(a.player, a.points, a.category) for a in state.awards] == [(ANN, 6, "city")]
    assert state.phase == Phase.PART_OVER  # scored, and no tile drawn yet
    assert legal_commands(state) == [cn.ChooseCorn(value="deploy"), cn.ChooseCorn(value="remove")]
    assert refused(game, BOB, cn.ChooseCorn(value="remove")) == "R-CORN-2"
    assert refused(game, ANN, Pass()) == "R-CORN-2"
    assert refused(game, ANN, cn.ChooseCorn(value="both")) == "R-CORN-2"  # type: ignore[arg-type]


def test_R_CORN_3_from_the_placers_left_round_to_the_placer() -> None:
    """Three knights in three cities; Ann places the city circle: Bob, then Cid, then Ann."""
    steps: list[Step] = [
        ("BA/Cc.1", 0, -1, 180, "E+S"),  # Ann
        ("BA/C", -1, -1, 0, "N"),  # Bob
        ("BA/C", 0, 1, 180, "S"),  # Cid
        ("CC.1/CC.2", 1, 1, 0, None),  # Ann: the city circle
    ]
    game = played(steps, players=("Ann", "Bob", "Cid"))
    answer(game, cn.ChooseCorn(value="remove"))
    order = []
    while (decision := asked(game)) is not None and decision.step == cn.REMOVE:
        order.append(decision.player)
        answer(game, legal_commands(game.state)[0])
    assert order == [BOB, CID, ANN]
    assert game.state.phase == Phase.PLACE and game.state.current == BOB  # the next turn


def test_R_CORN_3_before_a_builders_second_tile() -> None:
    """Ann's builder stands in her city; the city circle extends it, so a second tile is due:
    the crop circle's round comes first, then her builder's tile."""
    steps: list[Step] = [
        *OPENING,
        ("BA/CFc.1", 1, -1, 0, ("E+W", "builder")),  # Ann extends her city, her builder in it
        ("BA/RFr", 2, 0, 0, None),  # Bob
        ("CC.1/Cc.1", 2, -1, 0, None),  # Ann: a city circle extending her city again
    ]
    game = played(steps, expansions=("base", "tb", "corn"))
    assert asked(game) == Decision(cn.CHOOSE, ANN)
    answer(game, cn.ChooseCorn(value="deploy"))
    assert legal_commands(game.state) == [cn.CornDeploy(x=0, y=-1, location="E+S"), Pass()]
    answer(game, cn.CornDeploy(x=0, y=-1, location="E+S"))
    state = game.state
    assert state.phase == Phase.PLACE and state.current == ANN and state.part == "builder"


# ----------------------------------------------------------------- R-CORN-4: followers only

AM = rule_set(without=("abbey", "barn"))  # Abbey & Mayor's followers, no abbey asked each turn
ROAD_CIRCLE: Step = ("CC.1/RRR", 2, 0, 0, None)  # Ann: it ends Bob's road at (2,0)
FARMS: list[Step] = [
    ("BA/Cc.1", 0, -1, 180, "Nw+Ne+Ws+Wn"),  # Ann's farmer north of the start's road
    ("BA/RFr", 1, 0, 0, "Es+Se+Sw+Ws"),  # Bob's farmer south of it
]
FIELD_CIRCLE: Step = ("CC.1/CR", -1, 0, 0, None)  # Ann: it ends the start's road at (-1,0)


def test_R_CORN_4_only_followers_on_a_feature_of_the_circles_kind() -> None:
    """A city circle: Bob's thief is on a road, so only Ann, with her knight, is asked."""
    game = played([*OPENING, CITY_CIRCLE])
    answer(game, cn.ChooseCorn(value="remove"))
    assert asked(game) == Decision(cn.REMOVE, ANN)
    assert legal_commands(game.state) == [ANN_KNIGHT]


def test_R_CORN_4_a_knight_in_a_castle_is_in_no_city() -> None:
    """JCloisterZone's fixture in our terms: Ann's knight became a castle; Bob's city circle asks
    nobody to remove it, and the game goes on."""
    game = Game.start(("Ann", "Bob"), ["BA/C", "CC.1/Cc.1", "BA/C"], expansions=("base", "bcb", "corn"))
    game.execute(ANN, PlaceTile(x=0, y=-1, rotation=180))  # closes the start's city
    game.execute(ANN, Deploy(location="S"))
    game.execute(ANN, ChooseCastle(x=0, y=-1, location="S"))
    game.execute(BOB, PlaceTile(x=1, y=-1, rotation=90))
    game.execute(BOB, Pass())
    answer(game, cn.ChooseCorn(value="remove"))
    assert asked(game) == Decision("place", ANN)
    assert figures_at(game, 0, -1, "S") == [(ANN, "follower")]


def test_R_CORN_4_builders_and_pigs_are_no_followers() -> None:
    """Ann's knight and builder in her city, Bob's farmer and pig in his field: a city circle
    offers Ann her knight alone, a field circle Bob his farmer alone."""
    steps: list[Step] = [
        ("BA/Cc.1", 0, -1, 180, "E+S"),  # Ann's knight
        ("BA/RFr", 1, 0, 0, "Es+Se+Sw+Ws"),  # Bob's farmer
        ("BA/CFc.1", 1, -1, 0, ("E+W", "builder")),  # Ann's builder
        ("BA/RFr", 2, 0, 0, ("Es+Se+Sw+Ws", "pig")),  # Bob's pig
    ]
    game = played([*steps, CITY_CIRCLE], expansions=("base", "tb", "corn"))
    answer(game, cn.ChooseCorn(value="remove"))
    assert asked(game) == Decision(cn.REMOVE, ANN) and legal_commands(game.state) == [ANN_KNIGHT]
    game = played([*steps, ("CC.1/CR", -1, 0, 0, None)], expansions=("base", "tb", "corn"))
    answer(game, cn.ChooseCorn(value="remove"))
    assert asked(game) == Decision(cn.REMOVE, BOB)
    assert legal_commands(game.state) == [cn.CornReturn(x=1, y=0, location="Es+Se+Sw+Ws")]


def test_R_CORN_4_a_large_follower_goes_home_as_one_figure() -> None:
    game = played(
        [("BA/Cc.1", 0, -1, 180, ("E+S", "big")), OPENING[1], CITY_CIRCLE], expansions=("base", "ic", "corn")
    )
    answer(game, cn.ChooseCorn(value="remove"))
    assert legal_commands(game.state) == [cn.CornReturn(x=0, y=-1, location="E+S", figure="big")]
    answer(game, cn.CornReturn(x=0, y=-1, location="E+S", figure="big"))
    assert game.state.ext["figures"]["big"][ANN] == 1 and game.state.supply[ANN] == 7


def test_R_CORN_4_a_mayor_and_a_wagon_are_followers() -> None:
    steps: list[Step] = [("BA/Cc.1", 0, -1, 180, ("E+S", "mayor")), ("BA/RFr", 1, 0, 0, ("E+W", "wagon"))]
    game = played([*steps, CITY_CIRCLE], expansions=("base", "am", "corn"), rules=AM)
    answer(game, cn.ChooseCorn(value="remove"))
    assert legal_commands(game.state) == [cn.CornReturn(x=0, y=-1, location="E+S", figure="mayor")]
    game = played([*steps, ROAD_CIRCLE], expansions=("base", "am", "corn"), rules=AM)
    answer(game, cn.ChooseCorn(value="remove"))
    assert asked(game) == Decision(cn.REMOVE, BOB)
    assert legal_commands(game.state) == [cn.CornReturn(x=1, y=0, location="E+W", figure="wagon")]


# ----------------------------------------------------------------- R-CORN-5, R-CORN-6: deploy, remove


def test_R_CORN_5_deploy_where_ones_own_follower_stands_or_pass() -> None:
    game = played([*OPENING, CITY_CIRCLE])
    answer(game, cn.ChooseCorn(value="deploy"))
    assert asked(game) == Decision(cn.DEPLOY, ANN)
    assert legal_commands(game.state) == [cn.CornDeploy(x=0, y=-1, location="E+S"), Pass()]
    assert refused(game, ANN, cn.CornDeploy(x=1, y=0, location="E+W")) == "R-CORN-5"  # Bob's thief's
    assert refused(game, ANN, cn.CornDeploy(x=0, y=1, location="S")) == "R-CORN-5"  # no knight there
    answer(game, cn.CornDeploy(x=0, y=-1, location="E+S"))
    assert figures_at(game, 0, -1, "E+S") == [(ANN, "follower"), (ANN, "follower")]
    assert game.state.supply[ANN] == 5
    assert game.state.phase == Phase.PLACE and game.state.current == BOB
    game = played([*OPENING, CITY_CIRCLE])
    answer(game, cn.ChooseCorn(value="deploy"))
    answer(game, Pass())
    assert game.state.supply[ANN] == 6 and game.state.phase == Phase.PLACE


def test_R_CORN_5_a_mayor_only_in_a_city_a_wagon_not_in_a_field() -> None:
    am = ("base", "ic", "am", "corn")
    game = played([*OPENING, CITY_CIRCLE], expansions=am, rules=AM)
    answer(game, cn.ChooseCorn(value="deploy"))
    assert {c.figure for c in legal_commands(game.state) if isinstance(c, cn.CornDeploy)} == {
        "follower",
        "big",
        "mayor",
        "wagon",
    }
    game = played([*OPENING, ROAD_CIRCLE], expansions=am, rules=AM)
    answer(game, cn.ChooseCorn(value="deploy"))
    assert {c.figure for c in legal_commands(game.state) if isinstance(c, cn.CornDeploy)} == {
        "follower",
        "big",
        "wagon",
    }
    assert refused(game, BOB, cn.CornDeploy(x=1, y=0, location="E+W", figure="mayor")) == "R-CORN-5"
    game = played([*FARMS, FIELD_CIRCLE], expansions=am, rules=AM)
    answer(game, cn.ChooseCorn(value="deploy"))
    assert {c.figure for c in legal_commands(game.state) if isinstance(c, cn.CornDeploy)} == {
        "follower",
        "big",
    }
    assert refused(game, BOB, cn.CornDeploy(x=1, y=0, location="Es+Se+Sw+Ws", figure="wagon")) == "R-CORN-5"


def test_R_CORN_6_remove_one_of_ones_followers_of_that_kind_no_pass() -> None:
    """Ann's knights at (0,-1) and on the circle's own city: she takes one home, her choice."""
    game = played([*OPENING, ("CC.1/CC.2", 0, 1, 180, "S")])
    answer(game, cn.ChooseCorn(value="remove"))
    assert legal_commands(game.state) == [ANN_KNIGHT, cn.CornReturn(x=0, y=1, location="S")]
    assert refused(game, ANN, Pass()) == "R-CORN-6"
    assert refused(game, ANN, cn.CornReturn(x=1, y=0, location="E+W")) == "R-CORN-6"  # Bob's thief
    answer(game, cn.CornReturn(x=0, y=1, location="S"))
    assert figures_at(game, 0, 1, "S") == [] and figures_at(game, 0, -1, "E+S") == [(ANN, "follower")]
    assert game.state.supply[ANN] == 6


# ----------------------------------------------------------------- R-CORN-7: who is skipped


def test_R_CORN_7_a_player_without_such_a_follower_is_skipped() -> None:
    """A road circle: Bob's thief acts, Ann, with no thief, is not asked."""
    game = played([*OPENING, ROAD_CIRCLE])
    answer(game, cn.ChooseCorn(value="remove"))
    assert asked(game) == Decision(cn.REMOVE, BOB)
    answer(game, cn.CornReturn(x=1, y=0, location="E+W"))
    assert game.state.phase == Phase.PLACE and game.state.current == BOB
    assert [type(e).__name__ for e in game.pending[-3:]] == ["CornChosen", "CornReturned", "TileDrawn"]


def test_R_CORN_7_under_deploy_a_player_with_an_empty_supply_is_skipped() -> None:
    """One follower each: Ann's stands in her city, so under deploy she is not asked."""
    game = played([*OPENING, CITY_CIRCLE], rules=rule_set(followers=1))
    answer(game, cn.ChooseCorn(value="deploy"))
    assert game.state.phase == Phase.PLACE and game.state.current == BOB
    game = played([*OPENING, CITY_CIRCLE], rules=rule_set(followers=1))
    answer(game, cn.ChooseCorn(value="remove"))  # removing needs no supply
    assert asked(game) == Decision(cn.REMOVE, ANN)


def test_R_CORN_7_nobody_acts_twice() -> None:
    """Under deploy Ann deploys beside her knight: she has a second knight now, yet the round is
    over."""
    game = played([*OPENING, CITY_CIRCLE])
    answer(game, cn.ChooseCorn(value="deploy"))
    answer(game, cn.CornDeploy(x=0, y=-1, location="E+S"))
    assert asked(game) == Decision("place", BOB)


# ----------------------------------------------------------------- R-CORN-8, R-CORN-9: what follows


def test_R_CORN_8_a_builder_goes_home_with_its_owners_last_follower() -> None:
    steps: list[Step] = [*OPENING, ("BA/CFc.1", 1, -1, 0, ("E+W", "builder")), ("BA/RFr", 2, 0, 0, None)]
    game = played([*steps, CITY_CIRCLE], expansions=("base", "tb", "corn"))
    answer(game, cn.ChooseCorn(value="remove"))
    answer(game, ANN_KNIGHT)
    assert figures_at(game, 0, -1, "E+S") == []  # the builder too
    assert game.state.ext["figures"]["builder"][ANN] == 1 and game.state.supply[ANN] == 7


def test_R_CORN_8_the_fairy_stays_beside_nobody() -> None:
    steps: list[Step] = [*OPENING, ("BA/CFc.1", 1, -1, 0, fy.MoveFairy(x=0, y=-1, location="E+S"))]
    game = played([*steps, ("BA/RFr", 2, 0, 0, None), CITY_CIRCLE], expansions=("base", "pd", "corn"))
    assert fy.fairy(game.state).by == (0, -1, "E+S", ANN, "follower")
    answer(game, cn.ChooseCorn(value="remove"))
    answer(game, ANN_KNIGHT)
    assert fy.fairy(game.state).by is None and fy.fairy(game.state).at == (0, -1)


CLOSE_ANNS_CITY: Step = ("BA/C", 1, -1, 270, None)  # the start's city, (0,-1) and this: 3 tiles


def test_R_CORN_8_a_follower_taken_home_scores_nothing() -> None:
    """Ann's knight goes home; then Bob closes the city: nobody scores it."""
    game = played([*OPENING, CITY_CIRCLE])
    answer(game, cn.ChooseCorn(value="remove"))
    answer(game, ANN_KNIGHT)
    turn(game, CLOSE_ANNS_CITY)
    assert [a for a in game.state.awards if a.category == "city"] == []


def test_R_CORN_9_the_circle_scores_nothing_a_follower_it_deployed_scores_as_any() -> None:
    """Ann's second knight beside her first: the circle scores nothing; when Bob closes the city,
    Ann scores it once and both knights go home."""
    game = played([*OPENING, CITY_CIRCLE])
    answer(game, cn.ChooseCorn(value="deploy"))
    answer(game, cn.CornDeploy(x=0, y=-1, location="E+S"))
    assert game.state.awards == [] and game.state.supply[ANN] == 5
    turn(game, CLOSE_ANNS_CITY)
    assert [(a.player, a.points, a.category) for a in game.state.awards] == [(ANN, 6, "city")]
    assert game.state.supply[ANN] == 7


def test_R_CORN_9_a_deployed_farmer_counts_in_the_majority() -> None:
    game = played([*FARMS, FIELD_CIRCLE])
    answer(game, cn.ChooseCorn(value="deploy"))
    answer(game, cn.CornDeploy(x=1, y=0, location="Es+Se+Sw+Ws"))  # Bob: a second farmer
    state = game.state
    south = state.board.graph.feature(state.board.at[(1, 0)].segment("Es+Se+Sw+Ws"))
    assert [p for p, _, _ in state.followers(south)] == [BOB, BOB]


def test_R_CORN_10_a_field_circle_does_nothing_without_farmers() -> None:
    steps: list[Step] = [*OPENING, FIELD_CIRCLE]
    game = played(steps, rules=RuleSet(farmers=False))
    assert asked(game) == Decision("place", BOB)
    assert recorded(game, cn.CornChosen) == []
    game = played(steps)
    assert asked(game) == Decision(cn.CHOOSE, ANN)  # with farmers, asked (nobody acts)


# ----------------------------------------------------------------- the switches


def test_JCZ_CORN_ASK_on_no_choice_while_no_figure_is_on_the_board() -> None:
    bare: list[Step] = [("BA/Cc.1", 0, -1, 180, None), ("BA/RFr", 1, 0, 0, None), CITY_CIRCLE]
    game = played(bare, rules=rule_set(corn_ask_when_figures=True))
    assert asked(game) == Decision("place", BOB) and recorded(game, cn.CornChosen) == []
    # A figure of any kind on the board (a thief, for a city circle): asked, though nobody acts.
    game = played([bare[0], OPENING[1], CITY_CIRCLE], rules=rule_set(corn_ask_when_figures=True))
    assert asked(game) == Decision(cn.CHOOSE, ANN)
    answer(game, cn.ChooseCorn(value="remove"))
    assert asked(game) == Decision("place", BOB)


def test_JCZ_CORN_ASK_off_the_placer_always_chooses() -> None:
    bare: list[Step] = [("BA/Cc.1", 0, -1, 180, None), ("BA/RFr", 1, 0, 0, None), CITY_CIRCLE]
    game = played(bare)
    assert asked(game) == Decision(cn.CHOOSE, ANN)
    answer(game, cn.ChooseCorn(value="deploy"))
    assert asked(game) == Decision("place", BOB)
    assert JCZ_READING["corn_ask_when_figures"] is True


def test_V_CORN_DEPLOY_MUST_on_a_player_who_can_deploy_must() -> None:
    game = played([*OPENING, CITY_CIRCLE], rules=rule_set(corn_deploy_must=True))
    answer(game, cn.ChooseCorn(value="deploy"))
    assert asked(game) == Decision(cn.MUST, ANN)
    assert Pass() not in legal_commands(game.state)
    assert refused(game, ANN, Pass()) == "V-CORN-DEPLOY-MUST"
    answer(game, cn.CornDeploy(x=0, y=-1, location="E+S"))
    deployed = recorded(game, cn.CornDeployed)
    assert deployed and cn.PART.rule_of(deployed[0], game.state.rules) == "V-CORN-DEPLOY-MUST"


def test_V_CORN_DEPLOY_MUST_off_a_pass_is_allowed() -> None:
    game = played([*OPENING, CITY_CIRCLE])
    answer(game, cn.ChooseCorn(value="deploy"))
    assert Pass() in legal_commands(game.state)
    answer(game, Pass())
    assert recorded(game, ev.Passed)[-1] == ev.Passed(
        originator_id=game.id, originator_version=game.version - 1, player=ANN, step=cn.DEPLOY
    )


# ----------------------------------------------------------------- edges, replays, views


def test_R_CORN_3_the_games_last_tile_removes_before_the_final_scoring() -> None:
    game = played([*OPENING, CITY_CIRCLE], extra=())
    assert not game.state.over and asked(game) == Decision(cn.CHOOSE, ANN)
    answer(game, cn.ChooseCorn(value="remove"))
    answer(game, ANN_KNIGHT)
    state = game.state
    assert state.over
    assert [(a.player, a.category) for a in state.awards] == [(BOB, "road")]  # Ann's city: nobody


def test_a_game_with_crop_circles_replays_event_for_event() -> None:
    game = played([*OPENING, CITY_CIRCLE])
    answer(game, cn.ChooseCorn(value="deploy"))
    answer(game, cn.CornDeploy(x=0, y=-1, location="E+S"))
    replay(game.pending)


def test_the_board_shows_each_crop_circle() -> None:
    game = played([*OPENING, CITY_CIRCLE], extra=("BA/RFr", "CC.1/CR"))
    answer(game, cn.ChooseCorn(value="remove"))
    answer(game, ANN_KNIGHT)
    turn(game, ("BA/RFr", 2, 0, 0, None))
    turn(game, FIELD_CIRCLE)
    assert cn.PART.view(game.state).marks == (
        Mark(kind=MarkKind.DISC, style="corn", x=-1, y=0, label="F", text="&"),
        Mark(kind=MarkKind.DISC, style="corn", x=0, y=1, label="C", text="@"),
    )
    rows = render_board(game.state).splitlines()
    assert rows[7][4] == "@" and rows[4][1] == "&"  # at the tiles' centres
    svg = render_svg(game.state)
    assert svg.count('class="corn"') == 2


def test_jczs_fixture_a_castle_is_not_affected_by_a_crop_circle() -> None:
    """JCloisterZone's own fixture (no `corn-circle` element: its client adds it), once refused as
    unsupported: the knight in the castle stays, and the next tile is drawn."""
    path = require(
        JCZ / "engine-tests" / "bridge-bazaar-and-castles" / "castle-not-affected-by-corn-circles.jcz"
    )
    result = check_file(path)
    assert result.verdict == "agrees" and result.sets == ("base", "bcb", "corn")


def test_jcz_remove_both_asked_the_placer_last() -> None:
    """`basic_corn-p2` turn 33 (messages 99 to 106): seat 0 chooses remove; seat 1 returns his
    knight, then seat 0 one of his two."""
    path = require(JCZ / "oracle-wave2" / "basic_corn-p2-s510013.jcz")
    save = read_jcz(path)
    events = replay_jcz(save, plan_draws(save).order).collect_events()
    chosen = [e for e in events if isinstance(e, cn.CornChosen)]
    assert len(chosen) == 6
    at = events.index(chosen[1])
    assert events[at].player == 0 and events[at].value == "remove"  # type: ignore[attr-defined]
    assert events[at + 1] == cn.CornReturned(
        originator_id=events[0].originator_id,
        originator_version=events[at + 1].originator_version,
        player=1,
        x=-6,
        y=-2,
        location="N+E+S",
        figure="follower",
    )
    assert isinstance(events[at + 2], cn.CornReturned) and events[at + 2].player == 0  # type: ignore[attr-defined]
    assert isinstance(events[at + 3], ev.TileDrawn)


def test_R_CORN_2_nobody_else_passes_the_choice_away() -> None:
    """Bob's pass, while Ann's choice is due, is refused: the choice waits for her."""
    game = played([*OPENING, CITY_CIRCLE])
    assert refused(game, BOB, Pass()) == "R-CORN-2"


def _circle_save(*after: Message, elements: bool = True) -> JczSave:
    """The opening and Ann's city circle as JCloisterZone's client writes them, then `after`."""
    return decode(
        save(
            [
                place(ANN, "BA/Cc.1", 0, -1, 180),
                deploy(ANN, 0, -1, "SE", "City"),
                commit(ANN),
                place(BOB, "BA/RFr", 1, 0),
                deploy(BOB, 1, 0, "WE", "Road"),
                commit(BOB),
                place(ANN, "CC.1/CC.2", 0, 1, 180),
                pass_(ANN),
                commit(ANN),
                *after,
                place(BOB, "BA/C", 1, -1, 270),
                pass_(BOB),
                commit(BOB),
            ],
            ["BA/Cc.1", "BA/RFr", "CC.1/CC.2", "BA/C"],
            sets={"basic:1": 1, "corn-circles/1": 1},
            elements={"small-follower": 7, "farmers": True, **({"corn-circle": True} if elements else {})},
        )
    )


CHOICE_DEPLOY: Message = {"type": "CIRCLE_REMOVE_OR_DEPLOY", "payload": {"value": "DEPLOY"}, "player": ANN}


def test_jcz_a_pass_ends_the_circles_phase_and_the_next_tile_is_drawn_after_it() -> None:
    """The circle's phase closes the turn part: Bob's tile is drawn while JCloisterZone processes
    Ann's pass, the phase's last message (the oracle names such a draw a redraw)."""
    circle = _circle_save(CHOICE_DEPLOY, pass_(ANN))
    draws = [(d.tile, d.kind, d.after) for d in plan_draws(circle).draws]
    assert draws[2:4] == [("CC.1/CC.2", "turn", 5), ("BA/C", "redraw", 10)]
    events = replay_jcz(circle, plan_draws(circle).order).collect_events()
    assert [e.step for e in events if isinstance(e, ev.Passed)][-2:] == [cn.DEPLOY, "deploy"]


def test_jcz_a_deployment_with_its_commit_ends_the_phase() -> None:
    placed = deploy(ANN, 0, -1, "SE", "City")
    placed["payload"]["meepleId"] = "0.small.2"
    circle = _circle_save(CHOICE_DEPLOY, placed, commit(ANN))
    draws = [(d.tile, d.kind, d.after) for d in plan_draws(circle).draws]
    assert draws[3] == ("BA/C", "turn", 11)
    events = replay_jcz(circle, plan_draws(circle).order).collect_events()
    assert next(e for e in events if isinstance(e, cn.CornDeployed)).location == "E+S"


def test_jcz_the_element_is_played_even_when_the_save_leaves_it_out() -> None:
    """The client adds `corn-circle` whenever the tiles are chosen (it `enforces` it)."""
    circle = _circle_save(CHOICE_DEPLOY, pass_(ANN), elements=False)
    events = replay_jcz(circle, plan_draws(circle).order).collect_events()
    assert any(isinstance(e, cn.CornChosen) for e in events)
