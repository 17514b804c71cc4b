"""Traders & Builders scenarios, one or more per rule id (RULES.md 5, R-TB-*).

Board conventions as in tests/helpers.py: the start tile BA/RCr lies at (0,0) with its city N,
road E+W and field S; x grows east, y grows south, rotations are clockwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NamedTuple

import pytest

from domain import events as ev
from domain.aggregate import Game
from domain.commands import Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.expansions import builders as bd, castles as cs, goods as gd
from domain.moves import expected_step, legal_commands, legal_deployments
from domain.readings import rule_set
from domain.rules import RuleSet
from domain.state import Phase
from tests.helpers import figures, in_supply

PLAYERS = ("Ann", "Bob")
ANN, BOB = 0, 1
EXPANSIONS = ("base", "bcb", "tb")
Figure = Literal["follower", "builder", "pig"]


class Move(NamedTuple):
    """One turn part: place the held tile, then deploy `figure` on `deploy`, or pass."""

    x: int
    y: int
    rotation: int = 0
    deploy: str | None = None
    figure: Figure = "follower"


def start(draw_order: Sequence[str], rules: RuleSet | None = None) -> Game:
    return Game.start(PLAYERS, list(draw_order), expansions=EXPANSIONS, rules=rules)


def play(game: Game, *moves: Move) -> Game:
    for move in moves:
        player = game.state.current
        game.execute(player, PlaceTile(x=move.x, y=move.y, rotation=move.rotation))
        if move.deploy is not None:
            game.execute(player, Deploy(location=move.deploy, figure=move.figure))
        elif game.state.phase == Phase.ACTION:
            game.execute(player, Pass())
    return game


def part_events(game: Game) -> list[str]:
    """Draws and builder events as 'Name player tile'."""
    found = []
    for e in game.pending:
        if isinstance(e, ev.TileDrawn | bd.BuilderTurnTaken):
            found.append(f"{type(e).__name__} {PLAYERS[e.player]} {e.tile}")
        elif isinstance(e, bd.BuilderTurnGranted):
            found.append(f"BuilderTurnGranted {PLAYERS[e.player]}")
        elif isinstance(e, ev.GameEnded):
            found.append("GameEnded")
    return found


def awards(game: Game) -> list[tuple[int, int, str, str]]:
    return [(a.player, a.points, a.category, a.rule) for a in game.state.awards]


R = "BA/RFr"
L = "BA/L"

# ----------------------------------------------------------------- R-TB-1, R-TB-2, R-TB-4
#
# Ann's junction at (1,0) with her follower on its south road; Bob's curve at (0,1) starts a road
# of his own; Ann's curve at (1,1) joins both roads and takes her builder; Bob's junction at
# (0,2) completes the 4-tile road.
SHARED_ROAD = ("BA/RRR", "BA/Rr", "BA/Rr", "BA/RRR", L)
ANN_JUNCTION = Move(1, 0, 0, "S")
BOB_CURVE = Move(0, 1, 270, "E+S")
ANN_CURVE = Move(1, 1, 90, "N+W", "builder")
BOB_CLOSES = Move(0, 2, 180)


def test_R_TB_1_each_player_has_one_builder_and_one_pig() -> None:
    state = start([L]).state
    assert in_supply(state, "builder") == [1, 1] and in_supply(state, "pig") == [1, 1]
    base = Game.start(PLAYERS, [L]).state
    assert in_supply(base, "builder") == [0, 0] and in_supply(base, "pig") == [0, 0]


def test_R_TB_2_builder_needs_the_players_own_follower_on_that_road() -> None:
    game = start(SHARED_ROAD)
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=0))
    assert legal_deployments(game.state, "builder") == []  # no follower of Ann's there yet
    with pytest.raises(RuleViolation) as info:
        game.execute(ANN, Deploy(location="S", figure="builder"))
    assert info.value.rule == "R-TB-2"
    game.execute(ANN, Deploy(location="S"))
    game.execute(BOB, PlaceTile(x=0, y=1, rotation=270))
    assert legal_deployments(game.state, "builder") == []
    game.execute(BOB, Deploy(location="E+S"))
    game.execute(ANN, PlaceTile(x=1, y=1, rotation=90))
    # The curve joins Ann's and Bob's roads: Ann may put her builder there, on no field.
    assert legal_deployments(game.state, "builder") == ["N+W"]
    with pytest.raises(RuleViolation) as info:
        game.execute(ANN, Deploy(location="Es+Se", figure="builder"))
    assert info.value.rule == "R-TB-2"
    assert Deploy(location="N+W", figure="builder") in legal_commands(game.state)
    game.execute(ANN, Deploy(location="N+W", figure="builder"))
    assert in_supply(game.state, "builder") == [0, 1]
    assert game.state.supply == [6, 6]  # a builder is not a follower
    road = game.state.board.graph.feature(game.state.board.at[(1, 1)].segment("N+W"))
    assert [p for p, _ in figures(road, "builder")] == [ANN]


def test_R_TB_2_builder_never_counts_for_majority() -> None:
    """Ann: follower + builder, Bob: follower. A tie: both score the 4-tile road."""
    game = play(start(SHARED_ROAD), ANN_JUNCTION, BOB_CURVE, ANN_CURVE, BOB_CLOSES)
    assert awards(game)[:2] == [(ANN, 4, "road", "R-BASE-5"), (BOB, 4, "road", "R-BASE-5")]


def test_R_TB_2_builder_only_instead_of_a_follower() -> None:
    game = play(start(SHARED_ROAD), ANN_JUNCTION, BOB_CURVE)
    game.execute(ANN, PlaceTile(x=1, y=1, rotation=90))
    game.execute(ANN, Deploy(location="N+W", figure="builder"))
    # The part is over (no follower as well): it is Bob's turn.
    assert expected_step(game.state) == ("place", BOB)
    assert game.state.supply[ANN] == 6
    with pytest.raises(RuleViolation):
        game.execute(ANN, Deploy(location="Es+Se"))


def test_R_TB_3_other_players_extending_the_builders_road_earn_nothing() -> None:
    game = play(start(SHARED_ROAD), ANN_JUNCTION, BOB_CURVE, ANN_CURVE, BOB_CLOSES)
    assert not any(isinstance(e, bd.BuilderTurnGranted | bd.BuilderTurnTaken) for e in game.pending)


def test_R_TB_4_builder_returns_when_its_road_is_scored() -> None:
    game = play(start(SHARED_ROAD), ANN_JUNCTION, BOB_CURVE, ANN_CURVE)
    assert in_supply(game.state, "builder") == [0, 1]
    play(game, BOB_CLOSES)
    assert in_supply(game.state, "builder") == [1, 1]
    assert game.state.supply == [7, 7]
    assert all(not figures(f, "builder") for f in game.state.board.graph.roots())


def test_R_TB_4_builder_goes_home_at_the_end_with_its_unfinished_road() -> None:
    game = play(start(SHARED_ROAD[:3]), ANN_JUNCTION, BOB_CURVE, ANN_CURVE)
    assert game.over
    assert in_supply(game.state, "builder") == [1, 1]
    assert all(not figures(f, "builder") for f in game.state.board.graph.roots())
    # The builder adds nothing to the final road score either: a 3-tile road, both 3.
    assert [(p, n, c) for p, n, c, _ in awards(game) if c == "road"] == [(ANN, 3, "road"), (BOB, 3, "road")]


# ----------------------------------------------------------------------- R-TB-3, R-TB-3a
#
# Ann's road east of the start tile: follower at (1,0), builder at (2,0); Bob lays cloisters south.
BUILDER_ROAD = (Move(1, 0, 0, "E+W"), Move(0, 1), Move(2, 0, 0, "E+W", "builder"), Move(0, 2))


def test_R_TB_3_double_turn_when_a_later_tile_extends_the_builders_road() -> None:
    game = play(start([R, L, R, L, R, R, L, L]), *BUILDER_ROAD)
    # Deploying the builder earned nothing in that same turn.
    assert part_events(game) == [
        f"TileDrawn Ann {R}",
        f"TileDrawn Bob {L}",
        f"TileDrawn Ann {R}",
        f"TileDrawn Bob {L}",
        f"TileDrawn Ann {R}",
    ]
    play(game, Move(3, 0))  # extends the builder's road: a second tile
    assert part_events(game)[5:] == ["BuilderTurnGranted Ann", f"BuilderTurnTaken Ann {R}"]
    assert game.state.current == ANN
    play(game, Move(4, 0))  # extends it again in the builder part: nothing more
    assert part_events(game)[7:] == [f"TileDrawn Bob {L}"]
    play(game, Move(1, 1))
    assert part_events(game)[8:] == [f"TileDrawn Ann {L}"]


def test_R_TB_3_a_tile_away_from_the_builders_road_earns_nothing() -> None:
    game = play(start([R, L, R, L, L, L]), *BUILDER_ROAD, Move(1, 1))
    assert part_events(game)[5:] == [f"TileDrawn Bob {L}"]


def test_R_TB_3_extending_the_builders_city_counts_too() -> None:
    """Knight in the grain city at (0,-1), builder on its extension at (1,-1); extending the
    city again at (2,-1) earns a second tile."""
    city = "BA/CFc.1"
    game = start(["TB/Cc.g", L, city, L, city, L, L])
    play(game, Move(0, -1, 180, "E+S"), Move(0, 1))
    game.execute(ANN, PlaceTile(x=1, y=-1, rotation=0))
    assert legal_deployments(game.state, "builder") == ["E+W"]
    game.execute(ANN, Deploy(location="E+W", figure="builder"))
    play(game, Move(0, 2), Move(2, -1))
    assert part_events(game)[-2:] == ["BuilderTurnGranted Ann", f"BuilderTurnTaken Ann {L}"]


def test_R_TB_3a_no_second_tile_from_an_empty_pile() -> None:
    game = play(start([R, L, R, L, R]), *BUILDER_ROAD, Move(3, 0))
    assert game.over
    names = part_events(game)
    assert not any(name.startswith("BuilderTurnTaken") for name in names)
    assert names[-1] == "GameEnded"


# --------------------------------------------------------------------- R-TB-5, R-TB-6
#
# Ann closes the start city with a cap at (0,-1) and puts a farmer in the field around it; a
# cloister east of the cap at (1,-1) extends that field.
CAP_FIELD = "Nw+Ne+En+Es+Ws+Wn"


def test_R_TB_5_pig_only_on_a_field_holding_the_players_farmer() -> None:
    game = start(["BA/C", L, L, L])
    game.execute(ANN, PlaceTile(x=0, y=-1, rotation=180))
    assert legal_deployments(game.state, "pig") == []
    with pytest.raises(RuleViolation) as info:
        game.execute(ANN, Deploy(location=CAP_FIELD, figure="pig"))
    assert info.value.rule == "R-TB-5"
    game.execute(ANN, Deploy(location=CAP_FIELD))
    game.execute(BOB, PlaceTile(x=1, y=-1, rotation=0))
    assert legal_deployments(game.state, "pig") == []  # Ann's farmer, not Bob's
    game.execute(BOB, Pass())
    game.execute(ANN, PlaceTile(x=-1, y=-1, rotation=0))
    # Only the field, not the cloister.
    assert legal_deployments(game.state, "pig") == ["Nw+Ne+En+Es+Se+Sw+Ws+Wn"]
    with pytest.raises(RuleViolation):
        game.execute(ANN, Deploy(location="cloister", figure="pig"))
    game.execute(ANN, Deploy(location="Nw+Ne+En+Es+Se+Sw+Ws+Wn", figure="pig"))
    assert in_supply(game.state, "pig") == [0, 1] and game.state.supply[ANN] == 6


def test_R_TB_5b_never_two_of_a_players_pigs_on_one_field() -> None:
    """With two pigs each (a JCloisterZone setup), the second never joins the first: JCZ's rule."""
    game = start(["BA/C", L, L, L, L, L], rules=rule_set(pigs=2))
    game.execute(ANN, PlaceTile(x=0, y=-1, rotation=180))
    game.execute(ANN, Deploy(location=CAP_FIELD))
    game.execute(BOB, PlaceTile(x=1, y=-1, rotation=0))
    game.execute(BOB, Pass())
    game.execute(ANN, PlaceTile(x=-1, y=-1, rotation=0))
    game.execute(ANN, Deploy(location="Nw+Ne+En+Es+Se+Sw+Ws+Wn", figure="pig"))
    game.execute(BOB, PlaceTile(x=2, y=-1, rotation=0))
    game.execute(BOB, Pass())
    game.execute(ANN, PlaceTile(x=-2, y=-1, rotation=0))  # the same field again
    assert legal_deployments(game.state, "pig") == []
    with pytest.raises(RuleViolation):
        game.execute(ANN, Deploy(location="Nw+Ne+En+Es+Se+Sw+Ws+Wn", figure="pig"))
    assert in_supply(game.state, "pig") == [1, 2]


def test_R_TB_6_farm_with_the_pig_scores_4_per_city() -> None:
    game = play(
        start(["BA/C", L, L]),
        Move(0, -1, 180, CAP_FIELD),
        Move(0, 1),
        Move(1, -1, 0, "Nw+Ne+En+Es+Se+Sw+Ws+Wn", "pig"),
    )
    assert game.over
    farm = [a for a in game.state.awards if a.category == "farm"]
    assert [(a.player, a.points, a.rule, a.parts) for a in farm] == [
        (ANN, 4, "R-TB-6", (("cities", 1), ("pig", 1)))
    ]
    assert in_supply(game.state, "pig") == [1, 1]  # home at the end


def test_R_TB_6_farm_without_the_pig_scores_3_per_city() -> None:
    game = play(start(["BA/C", L, L]), Move(0, -1, 180, CAP_FIELD), Move(0, 1), Move(1, -1))
    assert [(a.player, a.points, a.rule) for a in game.state.awards if a.category == "farm"] == [
        (ANN, 3, "R-BASE-8")
    ]


def test_R_TB_6_pig_counts_only_for_its_owner() -> None:
    """Bob's farmer north-west of the start tile joins Ann's field: a tie on farmers, both
    score the completed city, Ann with her pig 4, Bob 3."""
    game = play(
        start(["BA/C", R, L, L]),
        Move(0, -1, 180, CAP_FIELD),
        Move(-1, 0, 0, "Nw+Ne+En+Wn"),
        Move(1, -1, 0, "Nw+Ne+En+Es+Se+Sw+Ws+Wn", "pig"),
        Move(-1, -1),  # joins the two fields
    )
    assert game.over
    farm = [(a.player, a.points, a.rule) for a in game.state.awards if a.category == "farm"]
    assert farm == [(ANN, 4, "R-TB-6"), (BOB, 3, "R-BASE-8")]


def test_R_TB_6_farm_with_the_pig_scores_5_per_castle() -> None:
    """Ann's knight turns the start city and her cap into a castle (R-CASTLE-3)."""
    game = start(["BA/C", L, L, L, L])
    game.execute(ANN, PlaceTile(x=0, y=-1, rotation=180))
    game.execute(ANN, Deploy(location="S"))
    game.execute(ANN, cs.ChooseCastle(x=0, y=-1, location="S"))
    play(game, Move(0, 1), Move(1, -1, 0, "Nw+Ne+En+Es+Se+Sw+Ws+Wn"), Move(0, 2))
    play(game, Move(2, -1, 0, "Nw+Ne+En+Es+Se+Sw+Ws+Wn", "pig"))
    assert game.over
    farm = [(a.player, a.points, a.rule, a.parts) for a in game.state.awards if a.category == "farm"]
    assert farm == [(ANN, 5, "R-TB-6", (("cities", 0), ("castles", 1), ("pig", 1)))]


def test_R_TB_6_pigs_do_not_stack_one_pig_per_player() -> None:
    game = play(
        start(["BA/C", L, L, L, L]),
        Move(0, -1, 180, CAP_FIELD),
        Move(0, 1),
        Move(1, -1, 0, "Nw+Ne+En+Es+Se+Sw+Ws+Wn", "pig"),
        Move(0, 2),
    )
    game.execute(ANN, PlaceTile(x=2, y=-1, rotation=0))
    assert legal_deployments(game.state, "pig") == []
    assert not [c for c in legal_commands(game.state) if isinstance(c, Deploy) and c.figure == "pig"]
    with pytest.raises(RuleViolation) as info:
        game.execute(ANN, Deploy(location="Nw+Ne+En+Es+Se+Sw+Ws+Wn", figure="pig"))
    assert info.value.rule == "R-TB-5"
    # A second farmer of Ann's cannot join either (occupied), and the one pig counts once.
    game.execute(ANN, Pass())
    assert game.over
    farm = [(a.player, a.points) for a in game.state.awards if a.category == "farm"]
    assert farm == [(ANN, 4)]


# ------------------------------------------------------------------------------ R-TB-7
#
# City 1: the start city, TB/Cc.w (wine) at (0,-1) and a cap at (1,-1).
# City 2: TB/Cc.w at (-1,-1), a cap at (-2,-1) and BA/CRr at (-1,0).


def test_R_TB_7_goods_go_to_whoever_completes_the_city_not_its_owner() -> None:
    game = play(start(["TB/Cc.g", "BA/C"]), Move(0, -1, 180, "E+S"), Move(1, -1, 270))
    assert game.over
    assert gd.goods(game.state)[BOB] == {"grain": 1} and gd.goods(game.state)[ANN] == {}
    assert awards(game) == [(ANN, 6, "city", "R-BASE-5"), (BOB, 10, "goods", "R-TB-7")]


def test_R_TB_7_goods_of_an_empty_city_go_to_its_completer() -> None:
    game = play(start(["TB/Cc.g", "BA/C", L]), Move(0, -1, 180), Move(1, -1, 270), Move(0, 1))
    assert gd.goods(game.state) == [{}, {"grain": 1}]
    assert awards(game) == [(BOB, 10, "goods", "R-TB-7")]


def test_R_TB_7_no_goods_for_an_unfinished_city() -> None:
    game = play(start(["TB/Cc.g", L]), Move(0, -1, 180), Move(0, 1))
    assert gd.goods(game.state) == [{}, {}]
    assert awards(game) == []


def test_R_TB_7_goods_tie_gives_every_tied_player_10() -> None:
    game = play(
        start(["TB/Cc.w", "TB/Cc.w", "BA/C", "BA/C", L, "BA/CRr"]),
        Move(0, -1, 180),
        Move(-1, -1, 270),
        Move(1, -1, 270),  # Ann completes city 1
        Move(-2, -1, 90),
        Move(0, 1),
        Move(-1, 0, 0),  # Bob completes city 2
    )
    assert game.over
    assert gd.goods(game.state) == [{"wine": 1}, {"wine": 1}]
    assert [a for a in awards(game) if a[2] == "goods"] == [
        (ANN, 10, "goods", "R-TB-7"),
        (BOB, 10, "goods", "R-TB-7"),
    ]


def test_R_TB_7_majority_per_kind() -> None:
    """Ann completes a grain city, Bob a wine city: each wins their own kind."""
    game = play(
        start(["TB/Cc.g", "TB/Cc.w", "BA/C", "BA/C", L, "BA/CRr"]),
        Move(0, -1, 180),
        Move(-1, -1, 270),
        Move(1, -1, 270),  # Ann completes the grain city
        Move(-2, -1, 90),
        Move(0, 1),
        Move(-1, 0, 0),  # Bob completes the wine city
    )
    assert gd.goods(game.state) == [{"grain": 1}, {"wine": 1}]
    goods = [(a.player, a.points, a.parts) for a in game.state.awards if a.category == "goods"]
    assert sorted(goods) == [(ANN, 10, (("grain", 1),)), (BOB, 10, (("wine", 1),))]
