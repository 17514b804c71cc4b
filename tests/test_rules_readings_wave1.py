"""Readings of the rules of Princess & Dragon and Abbey & Mayor that editions of the rule books
give differently (docs/RULES.md section 7): each a switch of the rule set, shown here both ways,
and set by a JCloisterZone save's setup rules.

The start tile BA/RCr lies at (0,0): city N, road E+W, field S.
"""

from __future__ import annotations

import json

import msgspec
import pytest

from domain import events as ev
from domain.aggregate import Game
from domain.commands import Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.expansions import dragon as dg, fairy as fy, portal_princess as pp, tower as tw, wagon as wg
from domain.moves import Decision, expected_step, legal_commands, legal_deployments
from domain.provenance import rule_of
from domain.readings import VARIANTS, audit_variants, rule_set, switch, with_switches
from domain.replay import audit, replay
from domain.rules import RuleSet
from replays.check import check_file
from replays.jcz import JczSave, jcz_rules, read_jcz, replay_jcz, unsupported
from replays.jcz_draws import plan_draws
from replays.jcz_export import export_jcz, jcz_setup
from tests.jcz_saves import save
from tests.reference import JCZ, require
from tests.test_rules_abbey import _wagon_road_completed

ANN, BOB = 0, 1
READINGS = {
    "V-PRINCESS-MUST": ("princess_must", "princess-action", "may", "must"),
    "V-FAIRY-ON-TILE": ("fairy_on_tile", "fairy-placement", "next-follower", "on-tile"),
    "V-DRAGON-AFTER-SCORING": ("dragon_after_scoring", "dragon-move", "before-scoring", "after-scoring"),
    "V-WAGON-C1": ("wagon_connected", "wagon-move", "C2", "C1"),
    "V-BARN-OCCUPIED": ("barn_occupied", "barn-placement", "not-occupied", "occupied"),
}


def _awards(game: Game) -> list[tuple[int, int, str, str]]:
    return [(a.player, a.points, a.category, a.rule) for a in game.state.awards]


# ----------------------------------------------------------------- V-PRINCESS-MUST


def _princess(must: bool, knight: bool = True) -> Game:
    """Ann's knight (unless `knight` is false) in a city north of the start tile; Bob's princess
    tile joins that city."""
    game = Game.start(
        ("Ann", "Bob"),
        ["BA/Cc+", "DG/Cc.p", "BA/L"],
        expansions=("base", "pd"),
        rules=rule_set(princess_must=must),
    )
    game.execute(ANN, PlaceTile(x=0, y=-1, rotation=180))
    game.execute(ANN, Deploy(location="E+S") if knight else Pass())
    game.execute(BOB, PlaceTile(x=1, y=-1, rotation=0))
    return game


KNIGHT = pp.RemoveKnight(x=0, y=-1, location="E+S", owner=ANN)


def test_V_PRINCESS_MUST_off_the_princess_is_one_choice_among_others() -> None:
    game = _princess(must=False)
    assert expected_step(game.state) == Decision("action", BOB)
    offered = legal_commands(game.state)
    assert KNIGHT in offered and Pass() in offered and any(isinstance(c, Deploy) for c in offered)
    game.execute(BOB, Pass())  # Bob leaves Ann's knight where it is
    assert game.state.supply == [6, 7] and game.state.current == ANN
    replay(game.pending)


def test_V_PRINCESS_MUST_on_a_knight_must_go_home_and_nothing_else_may_be_done() -> None:
    game = _princess(must=True)
    assert expected_step(game.state) == Decision("princess", BOB)
    assert legal_commands(game.state) == [KNIGHT]  # no deployment, no pass
    for other in (Pass(), Deploy(location="cloister"), Deploy(location="N+W")):
        with pytest.raises(RuleViolation) as refused:
            game.execute(BOB, other)
        assert refused.value.rule == "V-PRINCESS-MUST"
    game.execute(BOB, KNIGHT)
    assert game.state.supply == [7, 7] and game.state.current == ANN
    removed = next(e for e in game.pending if isinstance(e, pp.KnightRemoved))
    assert rule_of(removed, game.state.rules) == "V-PRINCESS-MUST"
    replay(game.pending)


def test_V_PRINCESS_MUST_on_a_princess_city_without_knights_leaves_the_action_free() -> None:
    game = _princess(must=True, knight=False)  # no knight in the city
    assert expected_step(game.state) == Decision("action", BOB)
    assert Pass() in legal_commands(game.state)


def test_V_PRINCESS_MUST_the_audit_refuses_a_pass_beside_a_knight() -> None:
    game = _princess(must=False)
    game.execute(BOB, Pass())
    verdict = audit(game.pending)["V-PRINCESS-MUST=on"]
    assert verdict.error is not None and verdict.error.rule == "V-PRINCESS-MUST"


# ----------------------------------------------------------------- V-FAIRY-ON-TILE


def _fairy(on_tile: bool, sixth: str = "BA/L") -> Game:
    """Ann's thief on the road of (1,0) and, through the portal of the junction at (2,0) that
    ends that road, her farmer on its south field; then Ann's turn to move the fairy, if she will."""
    pile = ["BA/RFr", "BA/L", "DG/RRR.g", "BA/L", "BA/L", sixth, "BA/RFr"]
    game = Game.start(("Ann", "Bob"), pile, expansions=("base", "pd"), rules=rule_set(fairy_on_tile=on_tile))
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=0))
    game.execute(ANN, Deploy(location="E+W"))
    game.execute(BOB, PlaceTile(x=0, y=1, rotation=0))
    game.execute(BOB, Pass())
    game.execute(ANN, PlaceTile(x=2, y=0, rotation=0))
    game.execute(ANN, Deploy(location="Es+Se+Sw+Ws", x=1, y=0))  # through the portal
    game.execute(BOB, PlaceTile(x=1, y=1, rotation=0))
    game.execute(BOB, Pass())
    game.execute(ANN, PlaceTile(x=-1, y=1, rotation=0))
    return game


def _fairy_moves(game: Game) -> set[fy.MoveFairy]:
    return {c for c in legal_commands(game.state) if isinstance(c, fy.MoveFairy)}


def test_V_FAIRY_ON_TILE_off_the_fairy_stands_by_one_follower_and_pays_one_point() -> None:
    game = _fairy(on_tile=False)
    assert _fairy_moves(game) == {
        fy.MoveFairy(x=1, y=0, location="E+W"),
        fy.MoveFairy(x=1, y=0, location="Es+Se+Sw+Ws"),
    }
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, fy.MoveFairy(x=1, y=0, location=fy.ON_TILE, figure=""))
    assert refused.value.rule == "R-PD-5"
    game.execute(ANN, fy.MoveFairy(x=1, y=0, location="E+W"))
    game.execute(BOB, PlaceTile(x=0, y=2, rotation=0))
    game.execute(BOB, Pass())
    assert _awards(game) == [(ANN, 1, "fairy.turn", "R-PD-5")]
    replay(game.pending)


def test_V_FAIRY_ON_TILE_on_the_fairy_takes_a_tile_and_pays_a_point_a_figure_there() -> None:
    game = _fairy(on_tile=True)
    assert _fairy_moves(game) == {fy.MoveFairy(x=1, y=0, location=fy.ON_TILE, figure="")}
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, fy.MoveFairy(x=1, y=0, location="E+W"))
    assert refused.value.rule == "V-FAIRY-ON-TILE"
    game.execute(ANN, fy.MoveFairy(x=1, y=0, location=fy.ON_TILE))  # the figure a tile names is none
    assert fy.fairy(game.state).by == (1, 0, fy.ON_TILE, ANN, "")
    game.execute(BOB, PlaceTile(x=0, y=2, rotation=0))
    game.execute(BOB, Pass())
    assert _awards(game) == [(ANN, 2, "fairy.turn", "V-FAIRY-ON-TILE")]  # the thief and the farmer
    replay(game.pending)


@pytest.mark.parametrize("on_tile", [False, True])
def test_V_FAIRY_ON_TILE_when_its_follower_leaves_the_fairy_stays_on_the_tile_only_on_tile(
    on_tile: bool,
) -> None:
    """Ann's thief with the fairy; Bob closes the road: 3 more for Ann either way; then the fairy
    stands by nobody (off), or stays on its tile with Ann's farmer (on)."""
    game = _fairy(on_tile, sixth="BA/LR")
    by_thief = fy.MoveFairy(x=1, y=0, location="E+W")
    game.execute(ANN, fy.MoveFairy(x=1, y=0, location=fy.ON_TILE, figure="") if on_tile else by_thief)
    game.execute(BOB, PlaceTile(x=-1, y=0, rotation=270))  # a cloister's road closes the road's west end
    game.execute(BOB, Pass())
    completed = [(a.player, a.points, a.rule) for a in game.state.awards if a.category != "fairy.turn"]
    assert completed == [(ANN, 4, "R-BASE-5"), (ANN, 3, "V-FAIRY-ON-TILE" if on_tile else "R-PD-5")]
    expected = (1, 0, fy.ON_TILE, ANN, "") if on_tile else None
    assert fy.fairy(game.state).by == expected
    turn = [a.points for a in game.state.awards if a.category == "fairy.turn"]
    assert turn == ([1] if on_tile else [])  # on its tile still: Ann's farmer earns her 1
    replay(game.pending)


# ----------------------------------------------------------------- V-DRAGON-AFTER-SCORING


def _dragon(after: bool) -> Game:
    """Ann's volcano below the start tile; Bob's thief on the road of (1,0), which ends at a
    cloister; Ann's dragon tile at (-1,0) closes that road; the dragon can only come by (0,0) and
    (1,0)."""
    pile = ["DG/F.v", "BA/LR", "DG/RRR.d", "BA/L"]
    game = Game.start(
        ("Ann", "Bob"), pile, expansions=("base", "pd"), rules=rule_set(dragon_after_scoring=after)
    )
    game.execute(ANN, PlaceTile(x=0, y=1, rotation=0))
    game.execute(BOB, PlaceTile(x=1, y=0, rotation=90))
    game.execute(BOB, Deploy(location="W"))
    game.execute(ANN, PlaceTile(x=-1, y=0, rotation=0))
    game.execute(ANN, Pass())
    return game


def test_V_DRAGON_AFTER_SCORING_off_the_dragon_eats_before_the_road_scores() -> None:
    game = _dragon(after=False)
    assert game.state.awards == []  # nothing scored yet: the dragon comes first
    game.execute(ANN, dg.MoveDragon(x=0, y=0))
    game.execute(BOB, dg.MoveDragon(x=1, y=0))  # eats Bob's thief
    assert game.state.supply == [7, 7]
    assert _awards(game) == []  # the road completed with nobody on it
    replay(game.pending)


def test_V_DRAGON_AFTER_SCORING_on_the_road_scores_then_the_dragon_moves() -> None:
    game = _dragon(after=True)
    assert _awards(game) == [(BOB, 3, "road", "R-BASE-5")]  # scored already; the thief is home
    assert game.state.supply == [7, 7]
    assert expected_step(game.state) == Decision("dragon", ANN)
    game.execute(ANN, dg.MoveDragon(x=0, y=0))
    game.execute(BOB, dg.MoveDragon(x=1, y=0))
    assert dg.dragon(game.state).at == (1, 0)
    assert game.state.current == BOB and game.state.tile is not None  # Bob's turn came after it
    moved = [e for e in game.pending if isinstance(e, dg.DragonMoved)]
    assert {rule_of(e, game.state.rules) for e in moved} == {"V-DRAGON-AFTER-SCORING"}
    replay(game.pending)


# ----------------------------------------------------------------- V-WAGON-C1


def _wagon(connected: bool) -> Game:
    game = _wagon_road_completed(rule_set(wagon_connected=connected))
    assert expected_step(game.state) == Decision("wagon", ANN)
    return game


def _wagon_options(game: Game) -> set[tuple[int, int, str]]:
    return {(c.x, c.y, c.location) for c in legal_commands(game.state) if isinstance(c, wg.MoveWagon)}


def test_V_WAGON_C1_off_the_wagon_rolls_to_anything_open_on_the_nine_tiles_around() -> None:
    game = _wagon(connected=False)
    options = _wagon_options(game)
    assert {(2, 0, "cloister"), (0, 0, "N")} <= options
    assert (-1, 0, "cloister") not in options  # two squares from where the wagon stood
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, wg.MoveWagon(x=-1, y=0, location="cloister"))
    assert refused.value.rule == "R-AM-5"


def test_V_WAGON_C1_on_the_wagon_rolls_only_to_what_its_road_runs_into() -> None:
    game = _wagon(connected=True)
    # Both ends of the road run into a cloister on their tile (linked in the catalogue); the city
    # beside the road on the start tile is not linked to it.
    assert _wagon_options(game) == {(2, 0, "cloister"), (-1, 0, "cloister")}
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, wg.MoveWagon(x=0, y=0, location="N"))
    assert refused.value.rule == "V-WAGON-C1"
    game.execute(ANN, wg.MoveWagon(x=-1, y=0, location="cloister"))
    cloister = game.state.board.graph.feature(game.state.board.at[(-1, 0)].segment("cloister"))
    assert [(p, k) for p, _, k in cloister.figures] == [(ANN, "wagon")]
    moved = next(e for e in game.pending if isinstance(e, wg.WagonMoved))
    assert rule_of(moved, game.state.rules) == "V-WAGON-C1"
    replay(game.pending)


def test_V_WAGON_C1_the_catalogue_links_a_roads_end_to_the_cloister_it_runs_into() -> None:
    from domain.tiles import TILES

    road_to_cloister = TILES["BA/LR"].segments
    assert [s.flags for s in road_to_cloister[:2]] == [("wagon=a",), ("wagon=a",)]
    assert not any(f.startswith("wagon=") for s in TILES["BA/RCr"].segments for f in s.flags)


ABBEY_WAGON = JCZ / "engine-tests" / "abbey-and-mayor" / "abbey-wagon-move-bridge.jcz"


def test_V_WAGON_C1_a_road_an_abbey_closes_is_linked_to_the_abbey() -> None:
    """JCloisterZone's own rule test (wagon-move C1): Bob's wagon on a bridge, its road closed by
    an abbey, rolls onto the abbey; under C1 the abbey is among the few places offered."""
    jcz = read_jcz(require(ABBEY_WAGON))
    assert switch(jcz_rules(jcz), "wagon_connected")
    assert check_file(ABBEY_WAGON).verdict == "agrees"
    events = replay_jcz(jcz, plan_draws(jcz).order).collect_events()
    moved = [e for e in events if isinstance(e, wg.WagonMoved)]
    assert [(e.player, e.x, e.y, e.location) for e in moved] == [(BOB, 0, 1, "cloister")]
    before = events[: events.index(moved[0])]
    game = replay(before)
    connected = _wagon_options(game)
    assert (0, 1, "cloister") in connected
    nearby = replay(before, with_switches(game.state.rules, wagon_connected=False))
    assert connected < _wagon_options(nearby)  # C2 offers all of these and more


# ----------------------------------------------------------------- V-BARN-OCCUPIED


def _second_barn(occupied: bool) -> Game:
    """Ann's barn on the crossing at (1,1); two more cloisters make a crossing of four fields at
    (1,2), on the same field; Ann has a second barn."""
    game = Game.start(
        ("Ann", "Bob"),
        ["BA/RFr", "BA/L", "BA/L", "BA/L", "BA/L", "BA/L"],
        expansions=("base", "am"),
        rules=rule_set(barns=2, barn_occupied=occupied),
    )
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=0))
    game.execute(ANN, Pass())
    game.execute(BOB, PlaceTile(x=0, y=1, rotation=0))
    game.execute(BOB, Pass())
    game.execute(ANN, PlaceTile(x=1, y=1, rotation=0))
    game.execute(ANN, Deploy(location="Nw+Ne+En+Es+Se+Sw+Ws+Wn", figure="barn"))
    game.execute(BOB, PlaceTile(x=0, y=2, rotation=0))
    game.execute(BOB, Pass())
    game.execute(ANN, PlaceTile(x=1, y=2, rotation=0))
    return game


FIELD = "Nw+Ne+En+Es+Se+Sw+Ws+Wn"


def test_V_BARN_OCCUPIED_off_no_second_barn_on_a_field_with_one() -> None:
    game = _second_barn(occupied=False)
    assert legal_deployments(game.state, "barn") == []
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, Deploy(location=FIELD, figure="barn"))
    assert refused.value.rule == "R-AM-6"


def test_V_BARN_OCCUPIED_on_a_second_barn_joins_the_first() -> None:
    game = _second_barn(occupied=True)
    assert legal_deployments(game.state, "barn") == [FIELD]
    game.execute(ANN, Deploy(location=FIELD, figure="barn"))
    field = game.state.board.graph.feature(game.state.board.at[(1, 2)].segment(FIELD))
    assert [(p, k) for p, _, k in field.figures] == [(ANN, "barn"), (ANN, "barn")]
    game.execute(BOB, PlaceTile(x=2, y=2, rotation=0))
    game.execute(BOB, Pass())
    assert game.state.over
    final = [(a.player, a.category) for a in game.state.awards if a.final]
    assert final == [(ANN, "farm")]  # one barn's owner scores the field once
    replay(game.pending)


# ----------------------------------------------------------------- the switches, saves, audit


@pytest.mark.parametrize("variant", sorted(READINGS))
def test_each_reading_is_a_variant_the_cli_and_audit_flip(variant: str) -> None:
    field = READINGS[variant][0]
    assert VARIANTS[variant] == field
    assert audit_variants(RuleSet())[f"{variant}=on"] == rule_set(**{field: True})


def test_the_audit_can_leave_out_readings_of_parts_not_in_the_game() -> None:
    base = audit_variants(RuleSet(), parts=())
    assert not any(name.startswith(tuple(READINGS)) for name in base)
    assert "V-TINY-CITY=on" in base
    am = audit_variants(RuleSet(), parts=("abbey", "mayor", "wagon", "barn"))
    assert {n for n in am if n.startswith(tuple(READINGS))} == {"V-WAGON-C1=on", "V-BARN-OCCUPIED=on"}


def _save_with(rules: dict[str, str]) -> JczSave:
    document = save(
        [],
        ["BA/RFr", "BA/L"],
        sets={"basic:1": 1, "abbey-and-mayor:1": 1, "princess-and-dragon:1": 1},
        elements={
            "small-follower": 7,
            "farmers": True,
            "wagon": 1,
            "barn": 1,
            "fairy": True,
            "dragon": True,
            "princess": True,
            "portal": True,
            "abbey": 1,
            "mayor": 1,
        },
        rules=rules,
    )
    return msgspec.json.decode(msgspec.json.encode(document), type=JczSave)


@pytest.mark.parametrize("variant", sorted(READINGS))
def test_a_saves_setup_rule_selects_the_reading(variant: str) -> None:
    field, name, default, other = READINGS[variant]
    assert switch(jcz_rules(_save_with({})), field) is False
    assert switch(jcz_rules(_save_with({name: default})), field) is False
    chosen = _save_with({name: other})
    assert switch(jcz_rules(chosen), field) is True
    assert unsupported(chosen) is None


def test_an_export_writes_the_readings_that_differ_from_jczs_defaults() -> None:
    game = Game.start(
        ("Ann", "Bob"),
        ["BA/L"],
        expansions=("base", "am", "pd"),
        rules=rule_set(wagon_connected=True, dragon_after_scoring=True),
    )
    started = game.pending[0]
    assert isinstance(started, ev.GameStarted)
    assert jcz_setup(started)["rules"] == {"wagon-move": "C1", "dragon-move": "after-scoring"}
    plain = Game.start(("Ann", "Bob"), ["BA/L"], expansions=("base", "am", "pd"))
    assert isinstance(plain.pending[0], ev.GameStarted)
    assert jcz_setup(plain.pending[0])["rules"] == {}


def test_V_FAIRY_ON_TILE_a_save_moves_the_fairy_to_a_tiles_position_both_ways() -> None:
    """JCloisterZone names the tile by its position alone; an export writes it so and reads back
    the same game."""
    game = _fairy(on_tile=True)
    game.execute(ANN, fy.MoveFairy(x=1, y=0, location=fy.ON_TILE, figure=""))
    game.execute(BOB, PlaceTile(x=0, y=2, rotation=0))
    game.execute(BOB, Pass())
    document = json.loads(export_jcz(game.pending))
    assert document["setup"]["rules"] == {"fairy-placement": "on-tile"}
    moves = [m for m in document["replay"] if m["type"] == "MOVE_NEUTRAL_FIGURE"]
    assert [m["payload"] for m in moves] == [{"figureId": "fairy.1", "to": [1, 0]}]
    jcz = msgspec.json.decode(json.dumps(document).encode(), type=JczSave)
    again = replay_jcz(jcz, plan_draws(jcz).order)
    assert fy.fairy(again.state).by == (1, 0, fy.ON_TILE, ANN, "")
    assert again.state.scores == game.state.scores


def test_V_PRINCESS_MUST_on_a_ransom_may_still_be_paid_while_the_knight_is_owed() -> None:
    """The owed knight is the turn's action (JCloisterZone's action phase): a ransom (R-TOWER-7)
    may be paid meanwhile, and the knight is still owed after it."""
    game = Game.start(
        ("Ann", "Bob"),
        ["BA/Cc+", "DG/Cc.p", "BA/L"],
        expansions=("base", "pd", "tower"),
        rules=rule_set(princess_must=True),
    )
    game.execute(ANN, PlaceTile(x=0, y=-1, rotation=180))
    game.execute(ANN, Deploy(location="E+S"))
    tw.towers(game.state).prisoners[ANN].append((BOB, "follower"))  # Ann holds one of Bob's
    game.state.supply[BOB] -= 1
    game.execute(BOB, PlaceTile(x=1, y=-1, rotation=0))
    assert expected_step(game.state) == Decision("princess", BOB)
    ransom = tw.PayRansom(jailer=ANN, figure="follower")
    assert legal_commands(game.state) == [KNIGHT, ransom]
    game.execute(BOB, ransom)
    assert expected_step(game.state) == Decision("princess", BOB)  # the knight is still owed
    game.execute(BOB, KNIGHT)
    assert game.state.supply == [7, 7] and game.state.scores == [3, -3]
