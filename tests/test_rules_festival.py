"""The Festival, one or more scenarios per rule id (docs/RULES.md 18, R-FESTIVAL-*), its two
switches both ways, and its JCloisterZone mapping.

The start tile BA/RCr lies at (0,0): city N, road E+W, field S. In the main scenario Ann's thief
stands on a road tile at (1,0); Bob closes the road's west end with the festival tile FE/CR at
(-1,0) and Ann holds FE/RC, which closes its east end at (2,0) (festival squares end roads).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import msgspec
import pytest

from domain import events as ev
from domain.aggregate import Game
from domain.bots import RandomBot
from domain.catalogue import START_TILE
from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.expansions import builders as bd, castles as cs, fairy as fy, festival as fe, tower as tw
from domain.moves import Decision, expected_step, legal_commands, legal_deployments
from domain.provenance import rule_of
from domain.readings import audit_variants, rule_set, switch
from domain.replay import replay
from domain.rules import RuleSet
from domain.tiles import TILES, Kind, draw_pile
from replays.jcz import JCZ_READING, JczSave, jcz_rules
from replays.jcz_export import export_jcz, jcz_setup
from replays.sources import import_jcz
from tests.jcz_saves import commit, deploy, place as jcz_place, save
from tests.reference import JCZ, require

ANN, BOB = 0, 1
FESTIVAL = ("base", "festival")
THIEF = fe.TakeBackFigure(x=1, y=0, location="E+W")  # Ann's thief east of the start tile


def start(pile: Sequence[str], sets: tuple[str, ...] = FESTIVAL, rules: RuleSet | None = None) -> Game:
    return Game.start(("Ann", "Bob"), list(pile), expansions=sets, rules=rules)


def turn(game: Game, x: int, y: int, rotation: int = 0, then: Command | None = None) -> None:
    """The current player places the tile they hold, then does `then` or passes if asked."""
    player = game.state.current
    game.execute(player, PlaceTile(x=x, y=y, rotation=rotation))
    if then is not None:
        game.execute(player, then)
    elif expected_step(game.state) == Decision("action", player):
        game.execute(player, Pass())


def taken_back(game: Game) -> list[Command]:
    return [c for c in legal_commands(game.state) if isinstance(c, fe.TakeBackFigure)]


def road_festival(rules: RuleSet | None = None) -> Game:
    """Ann holds FE/RC, placed at (2,0) where it completes the road holding her thief."""
    game = start(["BA/RFr", "FE/CR", "FE/RC", "BA/L", "BA/L"], rules=rules)
    turn(game, 1, 0, then=Deploy(location="E+W"))
    turn(game, -1, 0)  # Bob: a festival tile, and nothing of his on the board
    game.execute(ANN, PlaceTile(x=2, y=0, rotation=0))
    return game


# ----------------------------------------------------------------- R-FESTIVAL-1


def test_R_FESTIVAL_1_ten_festival_tiles_one_of_each() -> None:
    festival = [t for t in TILES.values() if t.expansion == "festival"]
    assert len(festival) == 10 and all(t.count == 1 for t in festival)
    assert all(fe.TAG in t.tags for t in festival)
    assert not any(fe.TAG in t.tags for t in TILES.values() if t.expansion != "festival")


def test_R_FESTIVAL_1_the_inner_field_takes_a_farmer_and_borders_both_cities() -> None:
    """FE/CCc above the start tile: its south city closes the start city; its inner field lies
    between that city and its east-west one."""
    game = start(["FE/CCc"])
    game.execute(ANN, PlaceTile(x=0, y=-1, rotation=0))
    assert "inner" in legal_deployments(game.state)
    graph = game.state.board.graph
    placed = game.state.board.at[(0, -1)]
    field = graph.feature(placed.segment("inner"))
    cities = {graph.find(sid) for sid in field.borders}
    assert cities == {graph.find(placed.segment("S")), graph.find(placed.segment("E+W"))}
    game.execute(ANN, Deploy(location="inner"))
    assert game.state.over  # the pile is empty: the farm counts its one completed city
    assert [(a.player, a.points, a.category, a.parts) for a in game.state.awards] == [
        (ANN, 3, "farm", (("cities", 1),))
    ]


def test_R_FESTIVAL_1_a_game_without_the_set_takes_nothing_back() -> None:
    game = start(["BA/RFr", "BA/L", "BA/L"], sets=("base",))
    turn(game, 1, 0, then=Deploy(location="E+W"))
    turn(game, 0, 1)
    game.execute(ANN, PlaceTile(x=1, y=1, rotation=0))
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, THIEF)
    assert refused.value.rule == "R-FESTIVAL-1"


# ----------------------------------------------------------------- R-FESTIVAL-2


def test_R_FESTIVAL_2_a_festival_tile_offers_a_figure_back_beside_deploying_and_passing() -> None:
    game = road_festival()
    offered = legal_commands(game.state)
    assert THIEF in offered and Pass() in offered and Deploy(location="N") in offered
    game.execute(ANN, THIEF)
    taken = [e for e in game.pending if isinstance(e, fe.FigureTakenBack)]
    assert [(e.player, e.x, e.y, e.location, e.figure) for e in taken] == [(ANN, 1, 0, "E+W", "follower")]
    assert game.state.supply == [7, 7]
    assert not any(game.state.board.graph.figured())
    assert game.state.current == BOB  # the action is used: Ann's turn is over
    replay(game.pending)


def test_R_FESTIVAL_2_the_player_may_pass_and_keep_the_figure_where_it_is() -> None:
    game = road_festival()
    game.execute(ANN, Pass())
    assert [(a.player, a.points, a.category) for a in game.state.awards] == [(ANN, 4, "road")]


def test_R_FESTIVAL_2_an_ordinary_tile_gives_nothing_back() -> None:
    game = start(["BA/RFr", "BA/L", "BA/L", "BA/L"])
    turn(game, 1, 0, then=Deploy(location="E+W"))
    turn(game, 0, 1)
    game.execute(ANN, PlaceTile(x=1, y=1, rotation=0))
    assert taken_back(game) == []
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, THIEF)
    assert refused.value.rule == "R-FESTIVAL-2"


# ----------------------------------------------------------------- R-FESTIVAL-3


def test_R_FESTIVAL_3_nothing_of_ones_own_on_the_board_nothing_offered() -> None:
    game = start(["BA/RFr", "FE/CR", "BA/L"])
    turn(game, 1, 0, then=Deploy(location="E+W"))
    game.execute(BOB, PlaceTile(x=-1, y=0, rotation=0))
    assert expected_step(game.state) == Decision("action", BOB)  # he may still deploy
    assert taken_back(game) == []


def test_R_FESTIVAL_3_never_another_players_figure() -> None:
    game = start(["BA/RFr", "FE/CR", "BA/L"])
    turn(game, 1, 0, then=Deploy(location="E+W"))
    game.execute(BOB, PlaceTile(x=-1, y=0, rotation=0))
    with pytest.raises(RuleViolation) as refused:
        game.execute(BOB, fe.TakeBackFigure(x=1, y=0, location="E+W"))  # Ann's thief
    assert refused.value.rule == "R-FESTIVAL-3"
    with pytest.raises(RuleViolation) as refused:
        game.execute(BOB, fe.TakeBackFigure(x=1, y=0, location="E+W", figure="builder"))
    assert refused.value.rule == "R-FESTIVAL-3"


def builder_game(rules: RuleSet | None = None) -> Game:
    """Ann's thief at (1,0) and her builder at (2,0) on the start tile's road; her third road tile
    at (3,0) earns the builder's second tile: FE/RC, which she holds at (4,0)."""
    sets = ("base", "tb", "festival")
    game = start(["BA/RFr", "BA/L", "BA/RFr", "BA/L", "BA/RFr", "FE/RC", "BA/L", "BA/L"], sets, rules)
    turn(game, 1, 0, then=Deploy(location="E+W"))
    turn(game, 0, 1)
    turn(game, 2, 0, then=Deploy(location="E+W", figure="builder"))
    turn(game, 1, 1)
    turn(game, 3, 0)
    game.execute(ANN, PlaceTile(x=4, y=0, rotation=0))
    assert game.state.part == bd.PART_KIND
    return game


BUILDER = fe.TakeBackFigure(x=2, y=0, location="E+W", figure="builder")


def test_R_FESTIVAL_3_a_builder_may_be_taken_back_as_any_figure_of_ones_own() -> None:
    game = builder_game()
    assert taken_back(game) == [THIEF, BUILDER]
    game.execute(ANN, BUILDER)
    assert game.state.ext["figures"]["builder"] == [1, 1] and game.state.supply == [6, 7]


def pig_game(rules: RuleSet | None = None) -> Game:
    """Ann's farmer south of the road at (1,0), her pig beside it at (1,1); Ann holds FE/RC."""
    sets = ("base", "tb", "festival")
    game = start(["BA/RFr", "BA/L", "BA/L", "BA/L", "FE/RC", "BA/L"], sets, rules)
    turn(game, 1, 0, then=Deploy(location="Es+Se+Sw+Ws"))
    turn(game, 0, 1)
    turn(game, 1, 1, then=Deploy(location="Nw+Ne+En+Es+Se+Sw+Ws+Wn", figure="pig"))
    turn(game, -1, 1)
    game.execute(ANN, PlaceTile(x=0, y=-1, rotation=180))
    return game


def test_R_FESTIVAL_3_a_pig_may_be_taken_back() -> None:
    game = pig_game()
    pig = fe.TakeBackFigure(x=1, y=1, location="Nw+Ne+En+Es+Se+Sw+Ws+Wn", figure="pig")
    assert taken_back(game) == [fe.TakeBackFigure(x=1, y=0, location="Es+Se+Sw+Ws"), pig]
    game.execute(ANN, pig)
    assert game.state.ext["figures"]["pig"] == [1, 1] and game.state.supply == [6, 7]


AM = ("base", "am", "festival")
FIELD = "Nw+Ne+En+Es+Se+Sw+Ws+Wn"  # the field of a cloister tile (BA/L)


AM_PILE = ["BA/RFr", "BA/L", "BA/L", "BA/L", "BA/Cc.1", "BA/L", "FE/RC", "BA/C"]


def am_game(rules: RuleSet | None = None, pile: Sequence[str] = AM_PILE) -> Game:
    """Ann's wagon on the road at (1,0), her barn on the tile at (0,1), where the fields of (0,0),
    (1,0), (0,1) and (1,1) meet, her mayor in the city above the start tile; then Ann holds FE/RC."""
    game = start(pile, AM, rules)
    turn(game, 1, 0, then=Deploy(location="E+W", figure="wagon"))
    turn(game, 1, 1)
    turn(game, 0, 1, then=Deploy(location=FIELD, figure="barn"))  # at the tile's north-east corner
    turn(game, -1, 1)
    turn(game, 0, -1, 180, then=Deploy(location="E+S", figure="mayor"))
    turn(game, -1, 2)
    game.execute(ANN, PlaceTile(x=2, y=0, rotation=0))
    return game


BARN = fe.TakeBackFigure(x=0, y=1, location=FIELD, figure="barn")


def test_R_FESTIVAL_3_a_mayor_a_wagon_and_a_barn_may_be_taken_back() -> None:
    game = am_game()
    assert taken_back(game) == [
        fe.TakeBackFigure(x=0, y=-1, location="E+S", figure="mayor"),
        BARN,
        fe.TakeBackFigure(x=1, y=0, location="E+W", figure="wagon"),
    ]
    game.execute(ANN, BARN)
    assert game.state.ext["figures"]["barn"] == [1, 1]
    field = game.state.board.graph.feature(game.state.board.at[(0, 1)].segment(FIELD))
    assert field.figures == []  # the field holds no barn: a new one may go there (R-AM-6)
    replay(game.pending)


def tower_game() -> Game:
    """Ann raises the tower at (0,1) and puts her thief on top of it; then Ann holds FE/RC."""
    sets = ("base", "tower", "festival")
    game = start(["TO/F", "BA/L", "BA/L", "BA/L", "FE/RC", "BA/L", "BA/L"], sets)
    turn(game, 0, 1, then=tw.PlaceTowerPiece(x=0, y=1))
    turn(game, 1, 1)
    turn(game, -1, 1, then=tw.GuardTower(x=0, y=1))
    game.execute(BOB, PlaceTile(x=2, y=1, rotation=0))
    assert tw.PlaceTowerPiece(x=0, y=1) not in legal_commands(game.state)  # closed (R-TOWER-8)
    game.execute(BOB, Pass())
    game.execute(ANN, PlaceTile(x=0, y=-1, rotation=180))
    return game


GUARD = fe.TakeBackFigure(x=0, y=1, location=tw.ON_TOWER)


def test_R_FESTIVAL_3_a_follower_on_top_of_a_tower_may_be_taken_back() -> None:
    game = tower_game()
    assert taken_back(game) == [GUARD]
    game.execute(ANN, GUARD)
    assert tw.towers(game.state).guards == {} and game.state.supply == [7, 7]
    replay(game.pending)


def test_R_FESTIVAL_3_a_prisoner_is_not_on_the_board() -> None:
    """Ann's tower takes Bob's monk; Bob's festival tile then has nothing of his to give back."""
    sets = ("base", "tower", "festival")
    game = start(["TO/F", "BA/L", "BA/L", "FE/CR", "BA/L"], sets)
    turn(game, 0, 1)
    turn(game, 1, 1, then=Deploy(location="cloister"))
    turn(game, -1, 1, then=tw.PlaceTowerPiece(x=0, y=1))
    game.execute(ANN, tw.CaptureFollower(x=1, y=1, location="cloister", owner=BOB))
    game.execute(BOB, PlaceTile(x=-1, y=0, rotation=0))
    assert tw.towers(game.state).prisoners[ANN] == [(BOB, "follower")]
    assert taken_back(game) == []


def castle_game() -> Game:
    """Ann's knight closes the start city with BA/C at (0,-1) and makes it her castle; then Ann
    holds FE/RC at (1,0)."""
    sets = ("base", "bcb", "festival")
    game = start(["BA/C", "BA/L", "FE/RC", "FE/CR", "BA/L"], sets)
    game.execute(ANN, PlaceTile(x=0, y=-1, rotation=180))
    game.execute(ANN, Deploy(location="S"))
    game.execute(ANN, cs.ChooseCastle(x=0, y=-1, location="S"))
    turn(game, 0, 1)
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=0))
    return game


KNIGHT = fe.TakeBackFigure(x=0, y=-1, location="S")


def test_R_FESTIVAL_3_a_knight_in_a_castle_may_be_taken_back() -> None:
    game = castle_game()
    assert KNIGHT in taken_back(game)
    game.execute(ANN, KNIGHT)
    assert game.state.supply == [7, 7]


# ----------------------------------------------------------------- R-FESTIVAL-4


def test_R_FESTIVAL_4_the_builder_goes_home_with_the_last_follower_beside_it() -> None:
    game = builder_game()
    game.execute(ANN, THIEF)
    assert game.state.supply == [7, 7] and game.state.ext["figures"]["builder"] == [1, 1]
    assert not any(game.state.board.graph.figured())
    assert game.state.awards == []  # nothing scored, the road least of all
    replay(game.pending)


def test_R_FESTIVAL_4_the_pig_goes_home_with_the_farmer() -> None:
    game = pig_game()
    game.execute(ANN, fe.TakeBackFigure(x=1, y=0, location="Es+Se+Sw+Ws"))
    assert game.state.supply == [7, 7] and game.state.ext["figures"]["pig"] == [1, 1]


def test_R_FESTIVAL_4_the_fairy_stays_on_her_tile_beside_nobody() -> None:
    """Ann's fairy stands by her thief, which earns her a point as her turn opens; the thief
    taken back, she stands by nobody and earns nothing more."""
    sets = ("base", "pd", "festival")
    game = start(["BA/RFr", "BA/L", "BA/L", "BA/L", "FE/RC", "BA/L", "BA/L"], sets)
    turn(game, 1, 0, then=Deploy(location="E+W"))
    turn(game, 0, 1)
    turn(game, 1, 1, then=fy.MoveFairy(x=1, y=0, location="E+W"))
    turn(game, -1, 1)
    assert [(a.player, a.points, a.category) for a in game.state.awards] == [(ANN, 1, "fairy.turn")]
    game.execute(ANN, PlaceTile(x=2, y=0, rotation=0))
    assert taken_back(game) == [THIEF]  # the fairy is nobody's figure
    game.execute(ANN, THIEF)
    assert fy.fairy(game.state).by is None and fy.fairy(game.state).at == (1, 0)
    turn(game, -1, 2)
    assert len(game.state.awards) == 1  # Ann's next turn opens without the fairy's point
    replay(game.pending)


def test_R_FESTIVAL_4_a_tower_is_open_again_once_its_follower_is_taken_back() -> None:
    game = tower_game()
    game.execute(ANN, GUARD)
    game.execute(BOB, PlaceTile(x=3, y=1, rotation=0))
    assert tw.PlaceTowerPiece(x=0, y=1) in legal_commands(game.state)
    game.execute(BOB, tw.PlaceTowerPiece(x=0, y=1))
    assert tw.towers(game.state).heights[(0, 1)] == 2


def test_R_FESTIVAL_4_a_castle_without_its_knight_scores_nobody() -> None:
    """Ann's castle emptied, Bob closes a road in its fief: the castle scores, for nobody."""
    game = castle_game()
    game.execute(ANN, KNIGHT)
    castle = cs.castles(game.state).all[0]
    assert castle.feature in cs.castles(game.state).roots  # still a castle
    turn(game, -1, 0)  # Bob's festival tile closes the road through the start tile
    assert castle.scored
    assert [(a.player, a.category) for a in game.state.awards] == []  # the road had nobody either
    replay(game.pending)


# ----------------------------------------------------------------- R-FESTIVAL-5


def test_R_FESTIVAL_5_a_follower_taken_back_misses_the_scoring_of_the_feature_it_left() -> None:
    game = road_festival()
    road = game.state.board.graph.feature(game.state.board.at[(1, 0)].segment("E+W"))
    assert road.open == 0  # the festival tile completed Ann's road
    game.execute(ANN, THIEF)
    assert game.state.awards == [] and game.state.scores == [0, 0]


# ----------------------------------------------------------------- R-FESTIVAL-6


def test_R_FESTIVAL_6_a_builders_second_tile_offers_it_too() -> None:
    game = builder_game()
    assert expected_step(game.state) == Decision("action", ANN)
    assert THIEF in legal_commands(game.state)


def test_R_FESTIVAL_6_a_figure_taken_back_is_the_action_nothing_else_follows() -> None:
    game = road_festival()
    game.execute(ANN, THIEF)
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, Deploy(location="N"))
    assert refused.value.rule == "R-BASE-3"  # Bob's turn now


def test_R_FESTIVAL_6_an_abbey_is_no_festival_tile() -> None:
    from domain.expansions.abbey import TILE

    assert fe.TAG not in TILES[TILE].tags


# ----------------------------------------------------------------- V-FESTIVAL-FOLLOWERS


def test_V_FESTIVAL_FOLLOWERS_off_a_builder_comes_back_as_a_follower_does() -> None:
    game = builder_game(rule_set(festival_followers_only=False))
    assert taken_back(game) == [THIEF, BUILDER]


def test_V_FESTIVAL_FOLLOWERS_on_only_followers_come_back() -> None:
    game = builder_game(rule_set(festival_followers_only=True))
    assert taken_back(game) == [THIEF]
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, BUILDER)
    assert refused.value.rule == "V-FESTIVAL-FOLLOWERS"
    game.execute(ANN, THIEF)
    taken = next(e for e in game.pending if isinstance(e, fe.FigureTakenBack))
    assert rule_of(taken, game.state.rules) == "V-FESTIVAL-FOLLOWERS"


def test_V_FESTIVAL_FOLLOWERS_on_a_mayor_and_a_wagon_are_followers_a_barn_is_not() -> None:
    game = am_game(rule_set(festival_followers_only=True))
    assert [c.figure for c in taken_back(game) if isinstance(c, fe.TakeBackFigure)] == ["mayor", "wagon"]
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, BARN)
    assert refused.value.rule == "V-FESTIVAL-FOLLOWERS"


def test_V_FESTIVAL_FOLLOWERS_is_a_reading_the_audit_flips() -> None:
    game = road_festival()
    game.execute(ANN, THIEF)
    readings = audit_variants(game.state.rules, {part.name for part in game.state.parts})
    assert switch(readings["V-FESTIVAL-FOLLOWERS=on"], "festival_followers_only") is True
    assert "JCZ-FESTIVAL-FOLLOWERS-NONE=on" in readings
    assert rule_of(next(e for e in game.pending if isinstance(e, fe.FigureTakenBack)), RuleSet()) == (
        "R-FESTIVAL-2"
    )


# ----------------------------------------------------------------- JCZ-FESTIVAL-FOLLOWERS-NONE


def test_JCZ_FESTIVAL_FOLLOWERS_NONE_on_with_only_followers_nothing_comes_back() -> None:
    rules = rule_set(festival_followers_only=True, festival_followers_none=True)
    game = builder_game(rules)
    assert taken_back(game) == []
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, THIEF)
    assert refused.value.rule == "JCZ-FESTIVAL-FOLLOWERS-NONE"


def test_JCZ_FESTIVAL_FOLLOWERS_NONE_off_with_only_followers_the_follower_comes_back() -> None:
    rules = rule_set(festival_followers_only=True, festival_followers_none=False)
    assert taken_back(builder_game(rules)) == [THIEF]


def test_JCZ_FESTIVAL_FOLLOWERS_NONE_on_changes_nothing_under_the_default_reading() -> None:
    rules = rule_set(festival_followers_only=False, festival_followers_none=True)
    assert taken_back(builder_game(rules)) == [THIEF, BUILDER]


# ----------------------------------------------------------------- JCloisterZone's saves


FESTIVAL_SAVE = {"basic:1": 1, "festival": 1}
FESTIVAL_ELEMENTS = {"small-follower": 7, "farmers": True, "festival": True}


def _save_with(rules: dict[str, str]) -> JczSave:
    document = save([], ["FE/RC"], sets=FESTIVAL_SAVE, elements=FESTIVAL_ELEMENTS, rules=rules)
    return msgspec.convert(document, JczSave)


def test_V_FESTIVAL_FOLLOWERS_a_saves_festival_return_sets_it() -> None:
    assert switch(jcz_rules(_save_with({})), "festival_followers_only") is False
    assert switch(jcz_rules(_save_with({"festival-return": "meeple"})), "festival_followers_only") is False
    chosen = jcz_rules(_save_with({"festival-return": "follower"}))
    assert switch(chosen, "festival_followers_only") is True
    assert switch(chosen, "festival_followers_none") is True  # JCloisterZone's reading


def test_V_FESTIVAL_FOLLOWERS_an_export_writes_it_and_the_set_as_the_client_does() -> None:
    game = road_festival(rule_set(festival_followers_only=True))
    started = game.pending[0]
    assert isinstance(started, ev.GameStarted)
    setup = jcz_setup(started)
    assert setup["rules"] == {"festival-return": "follower"}
    assert setup["sets"] == FESTIVAL_SAVE and setup["elements"]["festival"] is True


def test_R_FESTIVAL_2_a_saves_festival_return_becomes_a_figure_taken_back(tmp_path: Path) -> None:
    """Ann's thief on the road at (1,0), Bob passes on FE/CR, Ann's FE/RC closes the road and she
    takes the thief back: a RETURN_MEEPLE with the source FESTIVAL, its meeple named by id."""
    where = {"position": [1, 0], "location": "WE", "feature": "Road"}
    document = save(
        [
            jcz_place(0, "BA/RFr", 1, 0),
            deploy(0, 1, 0, "WE", "Road"),
            commit(0),
            jcz_place(1, "FE/CR", -1, 0),
            {"type": "PASS", "payload": {}, "player": 1},
            commit(1),
            jcz_place(0, "FE/RC", 2, 0),
            {
                "type": "RETURN_MEEPLE",
                "payload": {
                    "source": "FESTIVAL",
                    "pointer": {"featurePointer": where, "meepleId": "0.small.1"},
                },
                "player": 0,
            },
            commit(0),
        ],
        ["BA/RFr", "FE/CR", "FE/RC"],
        sets=FESTIVAL_SAVE,
        elements=FESTIVAL_ELEMENTS,
    )
    path = tmp_path / "festival.jcz"
    path.write_bytes(msgspec.json.encode(document))
    _, events = import_jcz(path)
    taken = [e for e in events if isinstance(e, fe.FigureTakenBack)]
    assert [(e.player, e.x, e.y, e.location, e.figure) for e in taken] == [(ANN, 1, 0, "E+W", "follower")]
    assert not any(isinstance(e, ev.FollowerDeployed) and e.x == 2 for e in events)


def test_R_FESTIVAL_3_a_barn_taken_back_is_named_as_its_deployment_named_it(tmp_path: Path) -> None:
    """JCloisterZone names a barn by the tile whose north-west corner it stands on; the export
    writes that pointer, and the import finds the barn on our board by its field."""
    rest = Counter(draw_pile(AM, START_TILE)) - Counter(AM_PILE)
    game = am_game(rule_set(**JCZ_READING), [*AM_PILE, *sorted(rest.elements())])  # the whole pack
    game.execute(ANN, BARN)
    bot = RandomBot(random.Random(1))
    while not game.state.over:
        game.execute(*bot.choose(game.state))
    events = game.collect_events()
    data = export_jcz(events)  # checked: imported again, the same events come back
    returned = [m for m in msgspec.json.decode(data)["replay"] if m["type"] == "RETURN_MEEPLE"]
    pointer = returned[0]["payload"]["pointer"]
    assert returned[0]["payload"]["source"] == "FESTIVAL" and pointer["meepleId"] == "0.barn.1"
    assert pointer["featurePointer"]["position"] == [1, 1]  # the crossing is (1,1)'s north-west corner
    path = tmp_path / "barn.jcz"
    path.write_bytes(data)
    _, again = import_jcz(path)
    assert next(e for e in again if isinstance(e, fe.FigureTakenBack)).x == 0  # ours: the tile at (0,1)


def test_R_FESTIVAL_2_the_reference_games_take_figures_back() -> None:
    """basic_festival-p2 turn 8: Bob (seat 1) takes back his farmer 1.small.3 at (-1,-1)."""
    path = require(JCZ / "oracle-wave2" / "basic_festival-p2-s510019.jcz")
    _, events = import_jcz(path)
    taken = [e for e in events if isinstance(e, fe.FigureTakenBack)]
    assert len(taken) == 7
    first = taken[0]
    assert (first.player, first.x, first.y, first.figure) == (BOB, -1, -1, "follower")
    board = replay(events[: events.index(first)]).state.board
    placed = board.at[(-1, -1)]
    assert next(kind for name, _, kind in placed.locations() if name == first.location) == Kind.FIELD
