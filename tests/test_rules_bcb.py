"""Scenario tests for Bridges, Castles and Bazaars (RULES.md sections 2, 3, 4, 7 and 8).

Each test is named after the rule it checks and plays an exact pile. Board conventions as in
tests/helpers.py: the start tile BA/RCr lies at (0,0) with its city N, road E+W and field S; x
grows east, y grows south, rotations are degrees clockwise. Tiles used most:

* BA/C: a city cap; rotation 180 puts the cap S, so at (0,-1) it closes the start tile's city
  into a two-cap city, the classic castle base (R-CASTLE-2).
* BA/LR: a cloister whose road ends inside it; rotation 90 turns the road W, 270 turns it E.
* BA/L, BB/F.b: field only (BB/F.b is a bazaar).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from domain import events as ev
from domain.aggregate import Game
from domain.commands import BridgeSpot, Command, Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.expansions import bazaars as bz, bridges as br, builders as bd, castles as cs
from domain.moves import Decision, expected_step, legal_commands, legal_deployments, legal_placements
from domain.readings import rule_set
from domain.replay import replay
from domain.rules import RuleSet
from domain.state import GameState
from domain.tiles import Kind
from replays.jcz import JCZ_READING, ReplayVisitor, read_jcz, replay_jcz
from replays.jcz_draws import plan_draws
from replays.jcz_export import export_jcz

BCB = ("base", "bcb")
ANN, BOB = 0, 1
RED, BLUE, GREEN = 0, 1, 2
FILL = ["BA/L"] * 3  # spare tiles so that the game does not end during a scenario


def bcb(
    draw_order: Sequence[str],
    players: Sequence[str] = ("Ann", "Bob"),
    rules: RuleSet | None = None,
    expansions: Sequence[str] = BCB,
) -> Game:
    """A game with Bridges, Castles and Bazaars on an exact pile."""
    return Game.start(tuple(players), list(draw_order), expansions=expansions, rules=rules)


def turn(
    game: Game,
    x: int,
    y: int,
    rotation: int = 0,
    *,
    deploy: str | None = None,
    bridge: tuple[int, int, str] | None = None,
    lay: tuple[int, int, str] | None = None,
    castle: bool | None = None,
) -> None:
    """The current player's whole turn part: place (with the `bridge` the placement needs), lay a
    voluntary bridge `lay`, deploy on `deploy` or pass, then take or decline a castle offer
    (which must be offered exactly when `castle` is given)."""
    player = game.state.current
    spot = None if bridge is None else BridgeSpot(x=bridge[0], y=bridge[1], axis=bridge[2])  # type: ignore[arg-type]
    game.execute(player, PlaceTile(x=x, y=y, rotation=rotation, bridge=spot))
    if lay is not None:
        game.execute(player, br.PlaceBridge(x=lay[0], y=lay[1], axis=lay[2]))  # type: ignore[arg-type]
    if deploy is not None:
        game.execute(player, Deploy(location=deploy))
    elif expected_step(game.state) == Decision("action", player):
        game.execute(player, Pass())
    decision = expected_step(game.state)
    if decision is not None and decision.step == "castle":
        assert castle is not None, "a castle decision is due: say castle=True or castle=False"
        offer = legal_commands(game.state)[0]
        game.execute(decision.player, offer if castle else Pass())
    else:
        assert castle is None, f"no castle was offered (next decision: {decision})"


def awards_of(game: Game, category: str) -> list[tuple[int, int]]:
    """(player, points) of every award of one category, in order."""
    return [(a.player, a.points) for a in game.state.awards if a.category == category]


def events_of(game: Game, kind: type[ev.Event]) -> list[ev.Event]:
    return [e for e in game.pending if isinstance(e, kind)]


def got(game: Game) -> dict[int, str]:
    """Which tile each player got at the bazaar: those already taken and those still waiting."""
    taken = {e.player: e.tile for e in events_of(game, bz.BazaarTileTaken)}  # type: ignore[attr-defined]
    return taken | bz.bazaars(game.state).won


def held(game: Game) -> str | None:
    return None if game.state.tile is None else game.state.tile.id


def refused(game: Game, player: int, command: Command, rule: str) -> RuleViolation:
    """The command is refused under `rule` and nothing is recorded."""
    version, pending, scores = game.version, game.pending, list(game.state.scores)
    with pytest.raises(RuleViolation) as info:
        game.execute(player, command)
    assert info.value.rule == rule, info.value
    assert game.version == version
    assert game.pending == pending
    assert game.state.scores == scores
    return info.value


def castle_at_start(extra: Sequence[str], rules: RuleSet | None = None) -> Game:
    """Ann closes the start city with BA/C at (0,-1), knight on it, and makes it her castle.

    Its fief: x from -1 to 1, y from -1 to 0. Bob is to play `extra[0]`.
    """
    game = bcb(["BA/C", *extra], rules=rules)
    turn(game, 0, -1, 180, deploy="S", castle=True)
    assert len(cs.castles(game.state).all) == 1
    return game


# ================================================================ bridges


def test_R_BRIDGE_1_supply_three_with_two_to_four_players_two_with_five_or_six() -> None:
    for n, expected in ((2, 3), (3, 3), (4, 3), (5, 2), (6, 2)):
        game = bcb(FILL, players=[f"P{i}" for i in range(n)])
        assert br.bridges(game.state).left == [expected] * n
    without = Game.start(("Ann", "Bob"), FILL)
    assert not without.state.has(br.NAME)  # no bridges without the set


def test_R_BRIDGE_1_supply_runs_out() -> None:
    # Ann lays a voluntary EW bridge on each of her field tiles in the column below the start.
    game = bcb(["BA/L"] * 8)
    for k in range(1, 8):
        if game.state.current == ANN and k < 7:
            turn(game, 0, k, lay=(0, k, "EW"))
        elif game.state.current == ANN:
            game.execute(ANN, PlaceTile(x=0, y=k, rotation=0))
            assert not any(isinstance(c, br.PlaceBridge) for c in legal_commands(game.state))
            refused(game, ANN, br.PlaceBridge(x=0, y=k, axis="EW"), "R-BRIDGE-1")
        else:
            turn(game, 0, k)
    assert br.bridges(game.state).left == [0, 3]
    assert len(events_of(game, br.BridgePlaced)) == 3


def test_R_BRIDGE_2_one_bridge_per_turn_on_the_tile_or_a_neighbour() -> None:
    game = bcb(["BA/L", "BA/L", "BA/L", *FILL])
    turn(game, 0, 1)  # Ann: (0,1)
    turn(game, 1, 1)  # Bob: (1,1)
    game.execute(ANN, PlaceTile(x=2, y=1, rotation=0))  # Ann: (2,1)
    # (0,1) is two tiles away from the tile just placed.
    spots = [(c.x, c.y, c.axis) for c in legal_commands(game.state) if isinstance(c, br.PlaceBridge)]
    assert (0, 1, "EW") not in spots and (1, 1, "NS") in spots
    refused(game, ANN, br.PlaceBridge(x=0, y=1, axis="EW"), "R-BRIDGE-2")
    game.execute(ANN, br.PlaceBridge(x=1, y=1, axis="NS"))  # on the neighbour
    assert not any(isinstance(c, br.PlaceBridge) for c in legal_commands(game.state))
    refused(game, ANN, br.PlaceBridge(x=2, y=1, axis="NS"), "R-BRIDGE-2")
    assert br.bridges(game.state).left == [2, 3]


def test_R_BRIDGE_2_needed_bridge_is_the_turns_one_bridge() -> None:
    game = bcb(["BA/C", *FILL])
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=0, bridge=BridgeSpot(x=1, y=0, axis="EW")))
    refused(game, ANN, br.PlaceBridge(x=1, y=0, axis="NS"), "R-BRIDGE-2")


def test_R_BRIDGE_3_pillar_on_a_road_is_refused() -> None:
    game = bcb(["BA/L", *FILL])
    game.execute(ANN, PlaceTile(x=0, y=1, rotation=0))
    # The start tile's E and W edges are road; its N edge is city and S field.
    refused(game, ANN, br.PlaceBridge(x=0, y=0, axis="EW"), "R-BRIDGE-3")
    refused(game, ANN, br.PlaceBridge(x=0, y=0, axis="NS"), "R-BRIDGE-3")
    game.execute(ANN, br.PlaceBridge(x=0, y=1, axis="EW"))  # field ends, empty spaces beyond
    assert br.bridges(game.state).axis.get((0, 1)) == "EW"


def test_R_BRIDGE_3_bridges_do_not_cross() -> None:
    game = bcb(["BA/L", "BA/L", "BA/L", *FILL])
    turn(game, 0, 1)
    turn(game, 1, 1, lay=(1, 1, "NS"))  # Bob bridges (1,1) north-south
    game.execute(ANN, PlaceTile(x=2, y=1, rotation=0))
    spots = [(c.x, c.y, c.axis) for c in legal_commands(game.state) if isinstance(c, br.PlaceBridge)]
    assert (1, 1, "EW") not in spots and (2, 1, "NS") in spots
    refused(game, ANN, br.PlaceBridge(x=1, y=1, axis="EW"), "R-BRIDGE-3")


def test_R_BRIDGE_3_and_5_bridge_may_cross_a_city_which_stays_one() -> None:
    # BA/CFc.1 turned 90 at (0,-1): city N+S continuing the start city, fields E and W.
    game = bcb(["BA/CFc.1", *FILL])
    game.execute(ANN, PlaceTile(x=0, y=-1, rotation=90))
    game.execute(ANN, br.PlaceBridge(x=0, y=-1, axis="EW"))
    board = game.state.board
    city = board.graph.feature(board.at[(0, -1)].segment("N+S"))
    assert city is board.graph.feature(board.at[(0, 0)].segment("N"))  # R-BRIDGE-5
    assert city.open == 1
    bridge = board.graph.feature(br.bridges(game.state).laid)
    assert bridge.kind == Kind.ROAD and bridge.open == 2 and city is not bridge


def test_R_BRIDGE_4_placement_legal_only_with_a_bridge_on_the_new_tile() -> None:
    # BA/C unrotated at (1,0): its W field edge meets the start tile's E road.
    game = bcb(["BA/C", *FILL])
    tile = game.state.tile
    assert tile is not None and (1, 0, 0) not in game.state.board.placements(tile)
    assert (1, 0, 0) in legal_placements(game.state)
    refused(game, ANN, PlaceTile(x=1, y=0, rotation=0, bridge=BridgeSpot(x=0, y=0, axis="EW")), "R-BRIDGE-4")
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=0, bridge=BridgeSpot(x=1, y=0, axis="EW")))
    bridges = events_of(game, br.BridgePlaced)
    assert [(e.player, e.x, e.y, e.axis) for e in bridges] == [(ANN, 1, 0, "EW")]  # type: ignore[attr-defined]
    assert br.bridges(game.state).left == [2, 3]
    # The bridge continues the start road: one road of two tiles, open at both ends.
    board = game.state.board
    road = board.graph.feature(board.at[(0, 0)].segment("E+W"))
    assert len(road.tiles) == 2 and road.open == 2
    # A bridge just laid on the new tile may carry the thief (R-BRIDGE-6).
    assert "E+W" in legal_deployments(game.state)


def test_R_BRIDGE_4_placement_legal_only_with_a_bridge_on_the_neighbour() -> None:
    # BA/L at (0,1); then BA/RFr at (1,1): its W road meets the cloister tile's E field, so a
    # bridge EW on (0,1) must carry the road on.
    game = bcb(["BA/L", "BA/RFr", *FILL])
    turn(game, 0, 1)
    tile = game.state.tile
    assert tile is not None and (1, 1, 0) not in game.state.board.placements(tile)
    assert (1, 1, 0) in legal_placements(game.state)
    refused(game, BOB, PlaceTile(x=1, y=1, rotation=0, bridge=BridgeSpot(x=1, y=1, axis="NS")), "R-BRIDGE-4")
    game.execute(BOB, PlaceTile(x=1, y=1, rotation=0, bridge=BridgeSpot(x=0, y=1, axis="EW")))
    board = game.state.board
    assert br.bridges(game.state).axis == {(0, 1): "EW"}
    road = board.graph.feature(board.at[(1, 1)].segment("E+W"))
    assert road.tiles == {board.at[(0, 1)].index, board.at[(1, 1)].index} and road.open == 2
    assert br.bridges(game.state).left == [3, 2]


def test_R_BRIDGE_4_bridge_on_the_neighbour_needs_its_far_end_free() -> None:
    # As above, but BA/L at (-1,1) first: a bridge EW on (0,1) would end against its field.
    game = bcb(["BA/L", "BA/L", "BA/RFr", *FILL])
    turn(game, 0, 1)
    turn(game, -1, 1)
    assert (1, 1, 0) not in legal_placements(game.state)
    refused(game, ANN, PlaceTile(x=1, y=1, rotation=0, bridge=BridgeSpot(x=0, y=1, axis="EW")), "R-BASE-3")
    refused(game, ANN, PlaceTile(x=1, y=1, rotation=0), "R-BASE-3")


def test_R_BRIDGE_4_bridge_on_the_neighbour_carries_the_road_to_completion() -> None:
    # Bob's BA/LR at (-1,1) (road end E) needs a bridge EW on (0,1); Ann's BA/LR at (1,1) (road
    # end W) then meets the bridge's far end: a road of three tiles, the bridge's tile included.
    game = bcb(["BA/L", "BA/LR", "BA/LR", *FILL])
    turn(game, 0, 1)
    turn(game, -1, 1, 270, bridge=(0, 1, "EW"))
    tile = game.state.tile
    assert tile is not None and (1, 1, 90) in game.state.board.placements(tile)  # no bridge needed
    turn(game, 1, 1, 90, deploy="W")
    assert awards_of(game, "road") == [(ANN, 3)]


def test_R_BRIDGE_4_bridge_end_must_face_a_road_or_an_empty_space() -> None:
    game = bcb(["BA/L", "BA/L", "BA/L", *FILL])
    turn(game, 0, 1)
    turn(game, 1, 1)
    game.execute(ANN, PlaceTile(x=2, y=1, rotation=0))
    # (1,1) EW: its ends would face the fields of (0,1) and (2,1).
    refused(game, ANN, br.PlaceBridge(x=1, y=1, axis="EW"), "R-BRIDGE-3")
    # (0,1) NS: its north end would face the start tile's field.
    game.execute(ANN, Pass())
    game.execute(BOB, PlaceTile(x=0, y=2, rotation=0))
    refused(game, BOB, br.PlaceBridge(x=0, y=1, axis="NS"), "R-BRIDGE-3")


def test_R_BRIDGE_4_bridge_road_scores_and_counts_its_tile_once() -> None:
    # A loop through BA/RFr at (1,0), W-E on its printed road and N-S over its bridge:
    # 9 tiles, (1,0) counted once although two segments of the loop lie on it.
    game = bcb(["BA/RFr", "BA/Rr", "BA/Rr", "BA/Rr", "BA/Rr", "BA/RFr", "BA/Rr", "BA/Rr", *FILL])
    turn(game, 1, 0, 0, lay=(1, 0, "NS"), deploy="N+S")  # Ann's thief on the bridge (R-BRIDGE-6)
    assert game.state.supply == [6, 7]
    turn(game, 2, 0, 90)  # W+N
    turn(game, 2, -1, 0)  # S+W
    turn(game, 1, -1, 270)  # E+S
    turn(game, 1, 1, 90)  # W+N
    turn(game, 0, 1, 0)  # E+W
    turn(game, -1, 1, 180)  # N+E
    assert awards_of(game, "road") == []
    turn(game, -1, 0, 270)  # E+S closes the loop
    assert [(a.player, a.points, a.parts) for a in game.state.awards] == [(ANN, 9, (("tiles", 9),))]
    assert game.state.supply == [7, 7]


def test_R_BRIDGE_5_field_under_a_bridge_stays_one_field() -> None:
    game = bcb(["BA/L", *FILL])
    game.execute(ANN, PlaceTile(x=0, y=1, rotation=0))
    game.execute(ANN, br.PlaceBridge(x=0, y=1, axis="EW"))
    placed = game.state.board.at[(0, 1)]
    fields = [n for n in placed.orientation.names if n != "cloister"]
    assert len(fields) == 1  # still a single field after the bridge
    assert set(legal_deployments(game.state)) == {"cloister", fields[0], "E+W"}
    # ...and it is the start tile's southern field.
    start = game.state.board.at[(0, 0)]
    graph = game.state.board.graph
    assert graph.find(placed.segment(fields[0])) == graph.find(start.segment("Es+Se+Sw+Ws"))


def test_R_BRIDGE_6_bridge_on_a_neighbour_carries_no_follower_of_this_turn() -> None:
    game = bcb(["BA/L", "BA/L", *FILL])
    turn(game, 0, 1)
    game.execute(BOB, PlaceTile(x=0, y=2, rotation=0))
    game.execute(BOB, br.PlaceBridge(x=0, y=1, axis="EW"))
    assert "E+W" not in legal_deployments(game.state)
    refused(game, BOB, Deploy(location="E+W"), "R-BASE-4")


def test_R_BRIDGE_6_bridge_comes_before_deployment() -> None:
    game = bcb(["BA/L", *FILL])
    turn(game, 0, 1, deploy="cloister")
    # Ann deployed: her turn is over, no bridge afterwards.
    assert expected_step(game.state) == Decision("place", BOB)
    refused(game, ANN, br.PlaceBridge(x=0, y=1, axis="EW"), "R-BASE-3")


def test_R_BRIDGE_7_bridge_is_optional_and_the_tile_then_discarded() -> None:
    # With the start city closed and both road ends capped, every open position asks for field:
    # the crossroads BA/RRRR fits only with a bridge. Bob declines it: the tile is discarded.
    game = bcb(["BA/C", "BA/LR", "BA/LR", "BA/RRRR", "BA/L", *FILL])
    refused(game, ANN, Pass(), "R-BASE-3")  # BA/C fits without a bridge: no discarding it
    turn(game, 0, -1, 180)
    turn(game, 1, 0, 90)
    turn(game, -1, 0, 270)
    assert held(game) == "BA/RRRR" and expected_step(game.state) == Decision("place", BOB)
    tile = game.state.tile
    assert tile is not None and game.state.board.placements(tile) == []
    assert (1, 1, 0) in legal_placements(game.state)  # with a bridge NS on (1,0)
    assert Pass() in legal_commands(game.state)
    refused(game, ANN, Pass(), "R-BASE-3")  # not Ann's tile
    game.execute(BOB, Pass())
    discarded = events_of(game, ev.TileDiscarded)
    assert [(e.player, e.tile) for e in discarded] == [(BOB, "BA/RRRR")]  # type: ignore[attr-defined]
    assert expected_step(game.state) == Decision("place", BOB) and held(game) == "BA/L"
    assert br.bridges(game.state).left == [3, 3]
    # The decline is a decision a recorded game carries: its strict replay accepts it.
    assert replay(game.pending).state.discarded == ["BA/RRRR"]


def test_R_BRIDGE_7_no_bridge_left_no_bridged_placement() -> None:
    # After the start city is closed, Bob spends his three bridges; then his BA/L can no longer
    # go E of the start (it would need a bridge there).
    game = bcb(["BA/C"] + ["BA/L"] * 7)
    turn(game, 0, -1, 180)  # Ann closes the start city
    assert (1, 0, 0) in legal_placements(game.state)  # Bob could still bridge there
    for k, player in zip(range(1, 7), [BOB, ANN] * 3, strict=True):
        assert game.state.current == player
        turn(game, 0, k, lay=(0, k, "EW") if player == BOB else None)
    assert br.bridges(game.state).left == [3, 0]
    assert game.state.current == BOB
    assert all(p[:2] != (1, 0) for p in legal_placements(game.state))
    refused(game, BOB, PlaceTile(x=1, y=0, rotation=0, bridge=BridgeSpot(x=1, y=0, axis="EW")), "R-BASE-3")


# ================================================================ castles


def test_R_CASTLE_1_supply_three_or_two_tokens() -> None:
    for n, expected in ((2, 3), (4, 3), (5, 2), (6, 2)):
        assert cs.castles(bcb(FILL, players=[f"P{i}" for i in range(n)]).state).left == [expected] * n
    game = castle_at_start(FILL)
    assert cs.castles(game.state).left == [2, 3]
    assert len(events_of(game, cs.CastleBuilt)) == 1


def test_R_CASTLE_1_no_offer_without_a_token() -> None:
    # Five players: Ann has two tokens. Her third two-cap city is scored, not offered.
    pile = [
        "BA/C",  # Ann: castle 1 at (0,-1)/(0,0)
        "BA/RFr", "BA/C", "BA/RFr", "BA/C",  # Bob, Cid, Dan, Eve
        "BA/C",  # Ann: castle 2 at (1,-2)/(1,-1)
        "BA/RFr", "BA/RFr", "BA/RFr", "BA/RFr",  # Bob..Eve
        "BA/C",  # Ann: closes (-1,-2)/(-1,-1) with no token left
        *FILL,
    ]  # fmt: skip
    game = bcb(pile, players=("Ann", "Bob", "Cid", "Dan", "Eve"))
    turn(game, 0, -1, 180, deploy="S", castle=True)
    turn(game, 1, 0)
    turn(game, 1, -1, 0)
    turn(game, -1, 0)
    turn(game, -1, -1, 0)
    turn(game, 1, -2, 180, deploy="S", castle=True)
    assert cs.castles(game.state).left[ANN] == 0
    for x in (2, -2, 3, -3):
        turn(game, x, 0)
    turn(game, -1, -2, 180, deploy="S")  # no castle offer (turn() checks): scored as a city
    assert awards_of(game, "city") == [(ANN, 4)]
    assert len(cs.castles(game.state).all) == 2
    # The city at (-1,-2)/(-1,-1) lies in the first castle's fief: that castle scores 4, and
    # the second one, whose fief holds (0,-1), scores the same (R-CASTLE-8).
    assert awards_of(game, "castle") == [(ANN, 4), (ANN, 4)]


def test_R_CASTLE_2_two_semicircle_caps_are_offered_a_castle() -> None:
    game = bcb(["BA/C", *FILL])
    game.execute(ANN, PlaceTile(x=0, y=-1, rotation=180))
    game.execute(ANN, Deploy(location="S"))
    assert expected_step(game.state) == Decision("castle", ANN)
    assert legal_commands(game.state) == [cs.ChooseCastle(x=0, y=-1, location="S"), Pass()]
    refused(game, ANN, cs.ChooseCastle(x=0, y=-1, location="Nw+Ne+En+Es+Ws+Wn"), "R-CASTLE-2")
    game.execute(ANN, cs.ChooseCastle(x=0, y=0, location="N"))  # the same city, named on the other tile
    assert len(cs.castles(game.state).all) == 1


def test_R_CASTLE_2_three_tile_city_is_not_offered() -> None:
    # BA/CFc.1 turned N+S at (0,-1), then a cap at (0,-2): a completed city of three tiles.
    game = bcb(["BA/CFc.1", "BA/C", *FILL])
    turn(game, 0, -1, 90, deploy="N+S")
    game.execute(BOB, PlaceTile(x=0, y=-2, rotation=180))
    refused(game, BOB, cs.ChooseCastle(x=0, y=-2, location="S"), "R-CASTLE-2")
    game.execute(BOB, Pass())
    assert awards_of(game, "city") == [(ANN, 6)]
    assert cs.castles(game.state).all == []


def test_R_CASTLE_2_unoccupied_two_cap_city_offers_nothing() -> None:
    game = bcb(["BA/C", *FILL])
    turn(game, 0, -1, 180)  # turn() fails if a castle is offered
    assert cs.castles(game.state).all == [] and expected_step(game.state) == Decision("place", BOB)


def test_R_CASTLE_2_angular_city_end_is_no_castle_base() -> None:
    # BB/CFR! rotated 270: its angular city end faces S onto the start tile's cap.
    game = bcb(["BB/CFR!", *FILL])
    turn(game, 0, -1, 270, deploy="S")
    assert awards_of(game, "city") == [(ANN, 4)]
    assert cs.castles(game.state).all == []


def test_V_CASTLE_ENDS_angular_city_end_may_become_a_castle() -> None:
    game = bcb(["BB/CFR!", *FILL], rules=rule_set(castle_ends=True))
    turn(game, 0, -1, 270, deploy="S", castle=True)
    assert awards_of(game, "city") == []
    assert len(cs.castles(game.state).all) == 1
    assert cs.castles(game.state).left == [2, 3]


def test_R_CASTLE_3_declining_scores_the_city_normally() -> None:
    game = bcb(["BA/C", *FILL])
    turn(game, 0, -1, 180, deploy="S", castle=False)
    assert awards_of(game, "city") == [(ANN, 4)]
    assert cs.castles(game.state).all == [] and cs.castles(game.state).left == [3, 3]
    assert game.state.supply == [7, 7]


def test_R_CASTLE_3_converting_scores_nothing_and_keeps_the_knight() -> None:
    game = castle_at_start(FILL)
    assert game.state.awards == []
    assert game.state.scores == [0, 0]
    assert game.state.supply == [6, 7]
    assert cs.castles(game.state).left == [2, 3]


def test_R_CASTLE_3_knight_placed_earlier_counts_and_its_owner_decides() -> None:
    game = bcb(["BA/L", "BA/C", "BA/C", *FILL])
    turn(game, 0, 1)  # Ann: filler
    turn(game, 1, 1, 180, deploy="S")  # Bob: knight on an open cap facing S at (1,1)
    game.execute(ANN, PlaceTile(x=1, y=2, rotation=0))  # Ann closes it
    game.execute(ANN, Pass())
    assert expected_step(game.state) == Decision("castle", BOB)
    refused(game, ANN, cs.ChooseCastle(x=1, y=2, location="N"), "R-CASTLE-3")
    game.execute(BOB, cs.ChooseCastle(x=1, y=2, location="N"))
    assert cs.castles(game.state).left == [3, 2]
    assert cs.castles(game.state).all[0].owners == [BOB]
    assert game.state.scores == [0, 0]


def test_R_CASTLE_10_and_R_CASTLE_4_farm_counts_a_castle_as_4() -> None:
    # Bob's farmer on BA/LR at (1,0): its field joins the start tile's north field, which
    # borders Ann's castle. The pile then runs out.
    game = castle_at_start(["BA/LR"])
    game.execute(BOB, PlaceTile(x=1, y=0, rotation=90))
    field = next(n for n in legal_deployments(game.state) if n not in ("cloister", "W"))
    game.execute(BOB, Deploy(location=field))
    assert game.state.over
    farms = [(a.player, a.points, a.parts) for a in game.state.awards if a.category == "farm"]
    assert farms == [(BOB, 4, (("cities", 0), ("castles", 1)))]
    # R-CASTLE-10: the occupied castle scores nothing at the end (a 0 award says so); its knight
    # comes home.
    assert awards_of(game, "castle") == [(ANN, 0)] and awards_of(game, "city") == []
    assert game.state.supply == [7, 7]


def test_R_CASTLE_4_declined_castle_is_a_city_worth_3_to_farms() -> None:
    game = bcb(["BA/C", "BA/LR"])
    turn(game, 0, -1, 180, deploy="S", castle=False)
    game.execute(BOB, PlaceTile(x=1, y=0, rotation=90))
    field = next(n for n in legal_deployments(game.state) if n not in ("cloister", "W"))
    game.execute(BOB, Deploy(location=field))
    farms = [(a.player, a.points) for a in game.state.awards if a.category == "farm"]
    assert farms == [(BOB, 3)]


def test_R_CASTLE_5_fief_is_the_two_tiles_and_their_side_neighbours() -> None:
    game = castle_at_start(FILL)
    castle = cs.castles(game.state).all[0]
    assert set(castle.positions) == {(0, -1), (0, 0)}
    assert castle.fief == {(x, y) for x in (-1, 0, 1) for y in (-1, 0)}


def test_R_CASTLE_5_road_outside_the_fief_does_not_score_it() -> None:
    # A road of three tiles at y=1, just below the fief.
    game = castle_at_start(["BA/L", "BA/LR", "BA/LR", *FILL])
    turn(game, 0, 1)  # Bob: field tile below the start, outside the fief
    turn(game, 1, 1, 90, bridge=(0, 1, "EW"))  # Ann: road end W at (1,1), bridged on (0,1)
    turn(game, -1, 1, 270)  # Bob: road end E at (-1,1): the bridged road (3 tiles) closes
    assert awards_of(game, "road") == []
    assert awards_of(game, "castle") == []


def test_R_CASTLE_6_unoccupied_road_completed_in_the_fief_scores_the_castle() -> None:
    game = castle_at_start(["BA/LR", "BA/LR", *FILL])
    turn(game, 1, 0, 90)  # Bob: road end E of the start
    assert awards_of(game, "castle") == []
    turn(game, -1, 0, 270)  # Ann: road end W: a road of 3 tiles nobody owns
    assert awards_of(game, "road") == []
    assert [(a.player, a.points, a.rule) for a in game.state.awards] == [(ANN, 3, "R-CASTLE-6")]
    assert game.state.supply == [7, 7]  # the knight returns
    assert cs.castles(game.state).all[0].scored
    # The token stays: the castle is still a castle.
    assert cs.castles(game.state).all[0].feature in cs.castles(game.state).roots
    assert cs.castles(game.state).left == [2, 3]


def test_R_CASTLE_6_not_in_the_scoring_that_created_it() -> None:
    # Ann's BA/CRRR at (-1,0) closes both her city with the cap at (-1,-1) (castle) and the start
    # road (BA/LR at (1,0) .. start .. junction at (-1,0)) in one scoring.
    pile = ["BA/LR", "BA/C", "BA/C", "BA/L", "BA/CRRR", "BA/LR", *FILL]
    game = bcb(pile)
    turn(game, 1, 0, 90)  # Ann: road end E
    turn(game, 0, -1, 180)  # Bob: closes the start city (nobody's)
    turn(game, -1, -1, 180)  # Ann: cap facing S at (-1,-1)
    turn(game, 1, 1)  # Bob: filler
    turn(game, -1, 0, 0, deploy="N", castle=True)  # Ann: castle, and the road completes
    assert awards_of(game, "castle") == []
    assert not cs.castles(game.state).all[0].scored
    turn(game, -2, 0, 270)  # Bob: closes the junction's W road, 2 tiles, in the fief
    assert awards_of(game, "castle") == [(ANN, 2)]


def test_R_CASTLE_6_city_of_20_completed_in_the_fief_scores_twice() -> None:
    # Section 8: Red's castle at (0,-1)/(0,0); Blue completes a city of 8 tiles with 2 pennants
    # (20 points) that has a segment on the fief tile (1,-1).
    red, blue = 0, 1
    pile = [
        "BA/C",  # Red: castle
        "BA/C",  # Blue: cap facing E at (1,-1), knight
        "BA/CFc+",  # Red (2,-1)
        "BA/RFr",  # Blue: filler at (-1,0)
        "BA/CFc.1",  # Red (3,-1)
        "BA/Cc.1",  # Blue (4,-1) N+W
        "BA/Cc.1",  # Red (4,-2) S+E
        "BA/Cc.1",  # Blue (5,-2) N+W
        "BA/Cc+",  # Red (5,-3) S+E
        "BA/C",  # Blue (6,-3) cap facing W: completes
        *FILL,
    ]
    game = bcb(pile, players=("Red", "Blue"))
    turn(game, 0, -1, 180, deploy="S", castle=True)
    turn(game, 1, -1, 90, deploy="E")
    turn(game, 2, -1, 0)
    turn(game, -1, 0, 0)
    turn(game, 3, -1, 0)
    turn(game, 4, -1, 0)
    turn(game, 4, -2, 180)
    turn(game, 5, -2, 0)
    turn(game, 5, -3, 180)
    assert game.state.scores == [0, 0]
    turn(game, 6, -3, 270)
    assert awards_of(game, "city") == [(blue, 20)]
    assert awards_of(game, "castle") == [(red, 20)]
    assert game.state.scores == [20, 20]
    assert game.state.supply == [7, 7]  # both followers return


def test_R_CASTLE_6_cloister_counts_only_through_its_own_tile() -> None:
    # Ann's monk on the cloister at (1,1), outside the fief; the tile completing it, (1,0), is a
    # fief tile.
    pile = ["BA/L", "BA/L", "BA/L", "BA/RFr", "BA/RFr", "BA/RFr", "BA/RFr", "BA/RFr", "BA/L", *FILL]
    game = castle_at_start(pile)
    turn(game, 0, 1)  # Bob
    turn(game, 1, 1, deploy="cloister")  # Ann's monk
    turn(game, 2, 1)  # Bob
    turn(game, 0, 2)  # Ann
    turn(game, 1, 2)  # Bob
    turn(game, 2, 2)  # Ann
    turn(game, 2, 0)  # Bob
    turn(game, 1, 0)  # Ann: (1,0), a fief tile, completes the cloister at (1,1)
    assert awards_of(game, "cloister") == [(ANN, 9)]
    assert awards_of(game, "castle") == []
    assert not cs.castles(game.state).all[0].scored


def test_R_CASTLE_6_cloister_on_a_fief_tile_counts() -> None:
    # Unoccupied cloister BA/L at (1,-1), a fief tile; its ring closes with (2,0), outside.
    pile = ["BA/L", "BA/LR", "BA/L", "BA/L", "BA/L", "BA/Rr", "BA/Rr", *FILL]
    game = castle_at_start(pile)
    turn(game, 1, -1)  # Bob: the cloister
    turn(game, 1, 0, 90)  # Ann: road end E of the start
    turn(game, 2, -1)  # Bob
    turn(game, 0, -2)  # Ann
    turn(game, 1, -2)  # Bob
    turn(game, 2, -2, 180)  # Ann
    assert awards_of(game, "castle") == []
    turn(game, 2, 0, 270)  # Bob closes the ring
    assert awards_of(game, "cloister") == []
    assert awards_of(game, "castle") == [(ANN, 9)]


def test_R_CASTLE_7_the_target_goes_to_the_castle_asked_when_two_castles_share_a_tile() -> None:
    """A tile of two cities may hold two castles: the choice of a completion goes to the castle
    whose owner was asked, not to the first castle on that tile (a bot game looped there for ever,
    asking the same castle again after each choice)."""
    import random

    from domain.bots import RandomBot, shuffled_pile

    rng = random.Random(1482260)
    pile = shuffled_pile(("base", "bcb"), rng)
    game = Game.start(("Ann", "Bob"), pile, expansions=("base", "bcb"), seed=1482260)
    bot = RandomBot(rng)
    for _ in range(1000):  # the whole game takes about 200 commands
        if game.state.over:
            break
        game.execute(*bot.choose(game.state))
    assert game.state.over
    castles = cs.castles(game.state).all
    shared = [c for c in castles if any(set(c.positions) & set(o.positions) for o in castles if o is not c)]
    assert shared and any(isinstance(e, cs.CastleTargetChosen) for e in game.collect_events())


def test_R_CASTLE_7_several_completions_owner_chooses_one() -> None:
    # BA/CRRR at (-1,0) completes the start road (with BA/LR at (1,0)) and, with a cap at
    # (-1,-1), a two-tile city (unoccupied: no castle offer), both in the fief of Ann's castle.
    pile = ["BA/LR", "BA/C", "BA/L", "BA/CRRR", "BA/LR", *FILL]
    game = castle_at_start(pile)
    turn(game, 1, 0, 90)  # Bob: road end E
    turn(game, -1, -1, 180)  # Ann: cap facing S at (-1,-1)
    turn(game, 1, 1)  # Bob: filler
    game.execute(ANN, PlaceTile(x=-1, y=0, rotation=0))
    game.execute(ANN, Pass())
    assert expected_step(game.state) == Decision("castle-target", ANN)
    options = legal_commands(game.state)
    assert set(options) == {
        cs.ChooseCastleTarget(x=-1, y=0, location="N"),
        cs.ChooseCastleTarget(x=-1, y=0, location="E"),
    }
    refused(game, ANN, cs.ChooseCastleTarget(x=1, y=1, location="cloister"), "R-CASTLE-7")
    refused(game, ANN, cs.ChooseCastleTarget(x=-1, y=0, location="W"), "R-CASTLE-7")
    game.execute(ANN, cs.ChooseCastleTarget(x=-1, y=0, location="N"))
    assert awards_of(game, "castle") == [(ANN, 4)]
    assert [(e.x, e.y, e.location) for e in events_of(game, cs.CastleTargetChosen)] == [(-1, 0, "N")]  # type: ignore[attr-defined]
    # It scored once: a later fief completion gives nothing more.
    turn(game, -2, 0, 270)
    assert awards_of(game, "castle") == [(ANN, 4)]


@pytest.mark.parametrize("best", [False, True])
def test_JCZ_CASTLE_TARGET_the_castle_takes_the_most_valuable_completion_unasked(best: bool) -> None:
    """JCZ-3's choice: under JCloisterZone's reading nobody is asked which of several fief
    completions the castle scores: it takes the most valuable (the two-tile city's 4, not the
    road's 3); otherwise its owner chooses (R-CASTLE-7) and may take the road."""
    pile = ["BA/LR", "BA/C", "BA/L", "BA/CRRR", "BA/LR", *FILL]
    game = castle_at_start(pile, rules=rule_set(castle_target_best=best))
    turn(game, 1, 0, 90)
    turn(game, -1, -1, 180)
    turn(game, 1, 1)
    game.execute(ANN, PlaceTile(x=-1, y=0, rotation=0))
    game.execute(ANN, Pass())
    if best:
        assert expected_step(game.state) != Decision("castle-target", ANN)
        assert events_of(game, cs.CastleTargetChosen) == []
        assert awards_of(game, "castle") == [(ANN, 4)]
    else:
        assert expected_step(game.state) == Decision("castle-target", ANN)
        game.execute(ANN, cs.ChooseCastleTarget(x=-1, y=0, location="E"))
        assert awards_of(game, "castle") == [(ANN, 3)]


def test_R_CASTLE_8_neighbouring_castles_chain() -> None:
    # Castle A (Ann) at (0,-1)/(0,0); castle B (Bob) at (0,-2)/(1,-2), whose fief (0..1, -3..-1)
    # holds A's tile (0,-1). A road completed at y=0 scores A, and B scores the same.
    pile = ["BA/C", "BA/LR", "BA/C", "BA/LR", *FILL]
    game = castle_at_start(pile)
    turn(game, 0, -2, 90)  # Bob: cap facing E at (0,-2)
    turn(game, 1, 0, 90)  # Ann: road end E of the start
    turn(game, 1, -2, 270, deploy="W", castle=True)  # Bob: castle B
    assert len(cs.castles(game.state).all) == 2
    assert awards_of(game, "castle") == []
    turn(game, -1, 0, 270)  # Ann: road end W: 3 tiles, in A's fief only
    assert sorted(awards_of(game, "castle")) == [(ANN, 3), (BOB, 3)]
    assert game.state.supply == [7, 7]


def test_R_CASTLE_9_field_around_a_castle_counts_it_once() -> None:
    # The castle splits the fields north and south of it like a city; BA/L at (1,-1) and BA/LR
    # at (1,0) join them round its east side into one farm, which counts the castle once.
    game = castle_at_start(["BA/L", "BA/LR"])
    board = game.state.board
    graph = board.graph
    north = board.at[(0, -1)].segment("Nw+Ne+En+Es+Ws+Wn")
    south = board.at[(0, 0)].segment("En+Wn")
    assert graph.find(north) != graph.find(south)
    turn(game, 1, -1)  # Bob
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=90))
    field = next(n for n in legal_deployments(game.state) if n not in ("cloister", "W"))
    game.execute(ANN, Deploy(location=field))
    assert graph.find(north) == graph.find(south)
    assert game.state.over
    farms = [(a.player, a.points, a.parts) for a in game.state.awards if a.category == "farm"]
    assert farms == [(ANN, 4, (("cities", 0), ("castles", 1)))]


@pytest.mark.parametrize("same_turn", [True, False])
def test_V_CASTLE_SAME_TURN_does_not_concern_another_players_bazaar_part(same_turn: bool) -> None:
    # Bazaar parts are each player's own turn (R-BAZAAR-7), not a double turn of the castle's
    # owner: Ann's castle made in her bazaar part scores in Bob's bazaar part under both readings.
    rules = rule_set(castle_same_turn=same_turn)
    game = bcb(["BA/LR", "BB/F.b", "BA/C", "BA/LR", *FILL], rules=rules)
    turn(game, 1, 0, 90)  # Ann: road end E
    turn(game, 0, 1)  # Bob hosts; revealed BA/C, BA/LR
    game.execute(ANN, bz.ChooseBazaarTile(index=0, bid=0))
    game.execute(BOB, Pass())
    turn(game, 0, -1, 180, deploy="S", castle=True)  # Ann's bazaar part: castle
    turn(game, -1, 0, 270)  # Bob's bazaar part: closes the road, 3 tiles, in the fief
    assert awards_of(game, "castle") == [(ANN, 3)]


@pytest.mark.parametrize("same_turn", [True, False])
def test_V_CASTLE_SAME_TURN_castle_made_in_a_double_turns_first_part(same_turn: bool) -> None:
    # Traders & Builders: Ann's builder sits on her road (thief at (-1,0), builder on BA/LR at
    # (1,0)). BA/RCr at (-2,0) extends that road and closes a two-cap city: castle, and a builder
    # tile. With it, BA/LR at (-3,0) closes the road (5 tiles) in the castle's fief.
    pile = ["BA/RFr", "BA/L", "BA/LR", "BA/C", "BA/RCr", "BA/LR", *FILL]
    game = bcb(pile, rules=rule_set(castle_same_turn=same_turn), expansions=("base", "bcb", "tb"))
    turn(game, -1, 0, 0, deploy="E+W")  # Ann: thief
    turn(game, -1, -1)  # Bob
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=90))
    game.execute(ANN, Deploy(location="W", figure="builder"))
    turn(game, -2, -1, 180)  # Bob: cap facing S
    turn(game, -2, 0, 0, deploy="N", castle=True)  # Ann: castle and builder tile
    assert events_of(game, bd.BuilderTurnTaken) != []
    assert expected_step(game.state) == Decision("place", ANN)
    turn(game, -3, 0, 270)  # Ann's builder part closes the road
    assert awards_of(game, "road") == [(ANN, 5)]
    assert awards_of(game, "castle") == ([(ANN, 5)] if same_turn else [])
    assert cs.castles(game.state).all[0].scored == same_turn


# ================================================================ bazaars


def bazaar_example() -> Game:
    """Section 8: Red hosts (BB/F.b at (0,1)); revealed BA/RFr, BA/L, BA/C; one spare tile."""
    game = bcb(["BB/F.b", "BA/RFr", "BA/L", "BA/C", "BA/L"], players=("Red", "Blue", "Green"))
    turn(game, 0, 1)
    return game


def test_R_BAZAAR_section_8_example() -> None:
    game = bazaar_example()
    assert expected_step(game.state) == Decision("choose", BLUE)
    assert [e.tiles for e in events_of(game, bz.BazaarOpened)] == [("BA/RFr", "BA/L", "BA/C")]  # type: ignore[attr-defined]
    game.execute(BLUE, bz.ChooseBazaarTile(index=0, bid=2))
    game.execute(GREEN, Pass())
    game.execute(RED, bz.Bid(amount=3))
    assert expected_step(game.state) == Decision("deal", BLUE)
    game.execute(BLUE, bz.Buy())
    assert game.state.scores == [3, -3, 0]
    assert expected_step(game.state) == Decision("choose", GREEN)
    game.execute(GREEN, bz.ChooseBazaarTile(index=2, bid=2))
    assert expected_step(game.state) == Decision("bid", RED)  # Blue has a tile: no bid
    refused(game, BLUE, bz.Bid(amount=4), "R-BAZAAR-4")
    game.execute(RED, bz.Bid(amount=3))
    game.execute(GREEN, bz.Sell())
    assert game.state.scores == [0, -3, 3]
    # The last tile, BA/L, goes free to Green.
    assigned = events_of(game, bz.BazaarTileAssigned)
    assert [(e.player, e.index) for e in assigned] == [(GREEN, 1)]  # type: ignore[attr-defined]
    assert awards_of(game, "bazaar") == [(BLUE, -3), (RED, 3), (RED, -3), (GREEN, 3)]
    # Blue, Green, Red play their tiles in that order.
    assert expected_step(game.state) == Decision("place", BLUE) and held(game) == "BA/RFr"
    turn(game, 1, 0)
    assert expected_step(game.state) == Decision("place", GREEN) and held(game) == "BA/L"
    turn(game, -1, 1)
    assert expected_step(game.state) == Decision("place", RED) and held(game) == "BA/C"
    turn(game, 0, 2, 180)
    # R-BAZAAR-7b: normal play resumes with the player after the host.
    assert expected_step(game.state) == Decision("place", BLUE)
    assert [type(e) for e in game.pending[-2:]] == [ev.TurnEnded, ev.TileDrawn]
    taken = [(e.player, e.tile) for e in events_of(game, bz.BazaarTileTaken)]  # type: ignore[attr-defined]
    assert taken == [(BLUE, "BA/RFr"), (GREEN, "BA/L"), (RED, "BA/C")]
    assert game.state.scores == [0, -3, 3]


def test_R_BAZAAR_9_every_step_is_an_event() -> None:
    game = bazaar_example()
    game.execute(BLUE, bz.ChooseBazaarTile(index=0, bid=2))
    game.execute(GREEN, Pass())
    game.execute(RED, bz.Bid(amount=3))
    game.execute(BLUE, bz.Buy())
    game.execute(GREEN, bz.ChooseBazaarTile(index=2, bid=2))
    game.execute(RED, bz.Bid(amount=3))
    game.execute(GREEN, bz.Sell())
    names = [type(e).__name__ for e in game.pending]
    start = names.index("BazaarOpened")
    assert names[start - 1 : start + 10] == [
        "TurnEnded",
        "BazaarOpened",
        "BazaarTileChosen",
        "Passed",
        "BidRaised",
        "TileBought",
        "BazaarTileChosen",
        "BidRaised",
        "TileSold",
        "BazaarTileAssigned",
        "BazaarTileTaken",
    ]
    sold = events_of(game, bz.TileSold)
    assert [(e.player, e.buyer, e.price) for e in sold] == [(GREEN, RED, 3)]  # type: ignore[attr-defined]
    bought = events_of(game, bz.TileBought)
    assert [(e.player, e.price, e.payee) for e in bought] == [(BLUE, 3, RED)]  # type: ignore[attr-defined]


def test_R_BAZAAR_1_bazaar_ground_ends_a_road() -> None:
    # BB/R.bi turned 90: its road runs W into the bazaar. One tile left: no bazaar is held.
    game = bcb(["BB/R.bi", "BA/LR"])
    turn(game, 1, 0, 90)
    assert events_of(game, bz.BazaarOpened) == []
    turn(game, -1, 0, 270, deploy="E")
    assert awards_of(game, "road") == [(BOB, 3)]


def test_R_BAZAAR_2_bazaar_held_after_the_turn_and_its_scoring() -> None:
    # BB/CFR.b rotated 180 at (0,-1): its city cap closes the start city; Ann's knight scores
    # (castle declined) before the bazaar opens.
    game = bcb(["BB/CFR.b", "BA/L", "BA/L", *FILL])
    turn(game, 0, -1, 180, deploy="S", castle=False)
    names = [type(e).__name__ for e in game.pending]
    assert names.index("TurnEnded") < names.index("BazaarOpened")
    assert game.state.scores == [4, 0]
    assert expected_step(game.state) == Decision("choose", BOB)


def test_R_BAZAAR_2_discarded_bazaar_tile_holds_no_bazaar() -> None:
    # After the start city is closed no city edge is open: BB/Cccc.b fits nowhere.
    game = bcb(["BA/C", "BB/Cccc.b", "BA/L", "BA/L", "BA/L", "BA/L"])
    turn(game, 0, -1, 180)
    assert [e.tile for e in events_of(game, ev.TileDiscarded)] == ["BB/Cccc.b"]  # type: ignore[attr-defined]
    assert expected_step(game.state) == Decision("place", BOB)
    turn(game, 0, 1)
    assert events_of(game, bz.BazaarOpened) == []
    assert expected_step(game.state) == Decision("place", ANN)


def test_R_BAZAAR_3_fewer_tiles_than_players_no_bazaar() -> None:
    game = bcb(["BB/F.b", "BA/L", "BA/RFr"], players=("Red", "Blue", "Green"))
    turn(game, 0, 1)
    assert events_of(game, bz.BazaarOpened) == []
    assert expected_step(game.state) == Decision("place", BLUE) and held(game) == "BA/L"


def test_R_BAZAAR_3_exactly_as_many_tiles_as_players_holds_one() -> None:
    game = bcb(["BB/F.b", "BA/L", "BA/RFr"])
    turn(game, 0, 1)
    assert [e.tiles for e in events_of(game, bz.BazaarOpened)] == [("BA/L", "BA/RFr")]  # type: ignore[attr-defined]


def test_R_BAZAAR_4_chooser_and_bidders_from_the_hosts_left() -> None:
    game = bcb(["BA/L", "BB/F.b", "BA/L", "BA/RFr", "BA/C", *FILL], players=("Red", "Blue", "Green"))
    turn(game, 0, 1)  # Red
    turn(game, 0, 2)  # Blue hosts with BB/F.b
    assert expected_step(game.state) == Decision("choose", GREEN)
    refused(game, RED, bz.ChooseBazaarTile(index=1, bid=0), "R-BAZAAR-4")
    game.execute(GREEN, bz.ChooseBazaarTile(index=1, bid=0))
    assert expected_step(game.state) == Decision("bid", RED)
    game.execute(RED, Pass())
    assert expected_step(game.state) == Decision("bid", BLUE)
    game.execute(BLUE, Pass())
    # Green's own opening bid of 0 stood: bought for nothing; Red chooses next.
    assert expected_step(game.state) == Decision("choose", RED)
    auction = bz.bazaars(game.state).auction
    assert auction is not None and auction.won == {GREEN: "BA/RFr"}


def test_R_BAZAAR_4_bid_must_raise() -> None:
    game = bazaar_example()
    game.execute(BLUE, bz.ChooseBazaarTile(index=0, bid=2))
    refused(game, GREEN, bz.Bid(amount=2), "R-BAZAAR-4")
    refused(game, GREEN, bz.Bid(amount=1), "R-BAZAAR-4")
    refused(game, GREEN, bz.Bid(amount=-1), "R-BAZAAR-4")
    game.execute(GREEN, bz.Bid(amount=5))
    refused(game, RED, bz.Bid(amount=5), "R-BAZAAR-4")
    refused(game, RED, bz.Bid(amount=4), "R-BAZAAR-4")
    game.execute(RED, bz.Bid(amount=6))
    assert expected_step(game.state) == Decision("deal", BLUE)


def test_R_BAZAAR_4_only_revealed_tiles_and_no_negative_opening() -> None:
    game = bazaar_example()
    refused(game, BLUE, bz.ChooseBazaarTile(index=3, bid=0), "R-BAZAAR-4")
    refused(game, BLUE, bz.ChooseBazaarTile(index=0, bid=-1), "R-BAZAAR-4")
    game.execute(BLUE, bz.ChooseBazaarTile(index=0, bid=0))
    game.execute(GREEN, Pass())
    game.execute(RED, Pass())
    refused(game, GREEN, bz.ChooseBazaarTile(index=0, bid=0), "R-BAZAAR-4")  # already taken


def test_R_BAZAAR_5_unchallenged_opening_bid_is_paid_to_nobody() -> None:
    game = bcb(["BB/F.b", "BA/L", "BA/RFr", *FILL])
    turn(game, 0, 1)  # Ann hosts
    game.execute(BOB, bz.ChooseBazaarTile(index=1, bid=2))
    game.execute(ANN, Pass())
    bought = events_of(game, bz.TileBought)
    assert [(e.player, e.price, e.payee) for e in bought] == [(BOB, 2, None)]  # type: ignore[attr-defined]
    assert game.state.scores == [0, -2]  # nobody receives the 2 points
    assert awards_of(game, "bazaar") == [(BOB, -2)]
    assert got(game) == {BOB: "BA/RFr", ANN: "BA/L"}


def test_R_BAZAAR_5_scores_may_go_below_zero() -> None:
    game = bcb(["BB/F.b", "BA/L", "BA/RFr", *FILL])
    turn(game, 0, 1)
    game.execute(BOB, bz.ChooseBazaarTile(index=0, bid=5))
    game.execute(ANN, bz.Bid(amount=8))
    game.execute(BOB, bz.Buy())
    assert game.state.scores == [8, -8]


def test_R_BAZAAR_6_seller_chooses_again() -> None:
    game = bazaar_example()
    game.execute(BLUE, bz.ChooseBazaarTile(index=0, bid=1))
    game.execute(GREEN, bz.Bid(amount=2))
    game.execute(RED, Pass())
    game.execute(BLUE, bz.Sell())
    assert game.state.scores == [0, 2, -2]
    assert expected_step(game.state) == Decision("choose", BLUE)
    game.execute(BLUE, bz.ChooseBazaarTile(index=1, bid=0))
    assert expected_step(game.state) == Decision("bid", RED)  # Green has a tile
    game.execute(RED, Pass())
    # Red gets the last tile free.
    assert got(game) == {GREEN: "BA/RFr", BLUE: "BA/L", RED: "BA/C"}
    assert game.state.scores == [0, 2, -2]


def test_R_BAZAAR_7_bought_tile_that_fits_nowhere_is_replaced_from_the_pile() -> None:
    # The start city is closed first: the all-city BA/Cccc+ bought at the bazaar fits nowhere.
    game = bcb(["BA/C", "BB/F.b", "BA/Cccc+", "BA/L", "BA/RFr", *FILL])
    turn(game, 0, -1, 180)  # Ann
    turn(game, 0, 1)  # Bob hosts
    game.execute(ANN, bz.ChooseBazaarTile(index=0, bid=0))
    game.execute(BOB, Pass())
    discarded = events_of(game, ev.TileDiscarded)
    assert [(e.player, e.tile) for e in discarded] == [(ANN, "BA/Cccc+")]  # type: ignore[attr-defined]
    assert expected_step(game.state) == Decision("place", ANN) and held(game) == "BA/RFr"  # from the pile
    turn(game, 1, 0)
    assert expected_step(game.state) == Decision("place", BOB) and held(game) == "BA/L"  # his bazaar tile
    turn(game, 1, 1)
    # Normal play resumes with Ann, the player after the host, from the pile.
    assert expected_step(game.state) == Decision("place", ANN) and held(game) == FILL[0]


def test_R_BAZAAR_7a_game_goes_on_while_bazaar_tiles_are_unplayed() -> None:
    game = bcb(["BB/F.b", "BA/L", "BA/RFr"])
    turn(game, 0, 1)
    assert game.state.pile_left == 0
    game.execute(BOB, bz.ChooseBazaarTile(index=0, bid=0))
    game.execute(ANN, Pass())
    assert not game.state.over
    turn(game, 1, 1)  # Bob's BA/L
    assert not game.state.over
    turn(game, 1, 0)  # Ann's BA/RFr
    assert game.state.over
    assert len(events_of(game, ev.TilePlaced)) == 3


def test_R_BAZAAR_7a_bought_tile_discarded_with_the_pile_empty() -> None:
    game = bcb(["BA/C", "BB/F.b", "BA/Cccc+", "BA/L"])
    turn(game, 0, -1, 180)
    turn(game, 0, 1)  # Bob hosts; the pile is now empty
    game.execute(ANN, bz.ChooseBazaarTile(index=0, bid=0))
    game.execute(BOB, Pass())
    assert [e.tile for e in events_of(game, ev.TileDiscarded)] == ["BA/Cccc+"]  # type: ignore[attr-defined]
    assert expected_step(game.state) == Decision("place", BOB) and held(game) == "BA/L"
    turn(game, 1, 1)
    assert game.state.over


def test_R_BAZAAR_7b_normal_play_resumes_after_the_host() -> None:
    # Blue hosts: Green, Red and Blue play their tiles, then Green draws from the pile.
    pile = ["BA/L", "BB/F.b", "BA/L", "BA/RFr", "BA/C", "BA/Cccc+", *FILL]
    game = bcb(pile, players=("Red", "Blue", "Green"))
    turn(game, 0, 1)  # Red
    turn(game, 0, 2)  # Blue hosts
    game.execute(GREEN, bz.ChooseBazaarTile(index=0, bid=0))
    game.execute(RED, Pass())
    game.execute(BLUE, Pass())
    game.execute(RED, bz.ChooseBazaarTile(index=1, bid=0))
    game.execute(BLUE, Pass())
    assert got(game) == {GREEN: "BA/L", RED: "BA/RFr", BLUE: "BA/C"}
    assert expected_step(game.state) == Decision("place", GREEN)
    turn(game, 1, 1)
    assert expected_step(game.state) == Decision("place", RED)
    turn(game, 1, 0)
    assert expected_step(game.state) == Decision("place", BLUE)
    turn(game, -1, 1, 180)
    assert expected_step(game.state) == Decision("place", GREEN) and held(game) == "BA/Cccc+"
    drawn = events_of(game, ev.TileDrawn)[-1]
    assert isinstance(drawn, ev.TileDrawn) and drawn.player == GREEN


def test_R_BAZAAR_8_bought_bazaar_tile_holds_no_bazaar() -> None:
    game = bcb(["BB/F.b", "BB/R.bi", "BA/L", "BA/L", "BA/L", "BA/L"])
    turn(game, 0, 1)  # Ann hosts
    game.execute(BOB, bz.ChooseBazaarTile(index=0, bid=0))
    game.execute(ANN, Pass())
    assert held(game) == "BB/R.bi"
    turn(game, 1, 1, 0)  # Bob plays the bazaar tile BB/R.bi
    turn(game, -1, 1)  # Ann
    assert len(events_of(game, bz.BazaarOpened)) == 1
    assert events_of(game, bz.BazaarDeferred) == [] and events_of(game, bz.BazaarDropped) == []
    assert expected_step(game.state) == Decision("place", BOB)


def test_V_BAZAAR_NOAUCTION_each_picks_free() -> None:
    game = bcb(
        ["BB/F.b", "BA/RFr", "BA/L", "BA/C", "BA/L"],
        players=("Red", "Blue", "Green"),
        rules=rule_set(bazaar_no_auction=True),
    )
    turn(game, 0, 1)
    assert expected_step(game.state) == Decision("choose", BLUE)
    assert legal_commands(game.state) == [bz.ChooseBazaarTile(index=i, bid=0) for i in range(3)]
    refused(game, BLUE, bz.ChooseBazaarTile(index=2, bid=1), "V-BAZAAR-NOAUCTION")
    game.execute(BLUE, bz.ChooseBazaarTile(index=2))
    assert expected_step(game.state) == Decision("choose", GREEN)
    game.execute(GREEN, bz.ChooseBazaarTile(index=0))
    assert got(game) == {BLUE: "BA/C", GREEN: "BA/RFr", RED: "BA/L"}
    assert awards_of(game, "bazaar") == []
    assert events_of(game, bz.BidRaised) == [] and events_of(game, bz.BazaarTileChosen) == []


def test_V_BAZAAR_ZEROSCORES_free_picks_while_every_score_is_zero() -> None:
    rules = rule_set(bazaar_zero_scores=True)
    game = bcb(["BB/F.b", "BA/RFr", "BA/L", *FILL], rules=rules)
    turn(game, 0, 1)
    refused(game, BOB, bz.ChooseBazaarTile(index=0, bid=1), "V-BAZAAR-NOAUCTION")
    game.execute(BOB, bz.ChooseBazaarTile(index=0))
    assert got(game) == {BOB: "BA/RFr", ANN: "BA/L"}
    assert events_of(game, bz.BazaarTileChosen) == []


def test_V_BAZAAR_ZEROSCORES_auction_once_someone_scored() -> None:
    rules = rule_set(bazaar_zero_scores=True)
    game = bcb(["BA/C", "BB/F.b", "BA/RFr", "BA/L", *FILL], rules=rules)
    turn(game, 0, -1, 180, deploy="S", castle=False)  # Ann scores 4
    turn(game, 0, 1)  # Bob hosts
    game.execute(ANN, bz.ChooseBazaarTile(index=0, bid=1))
    assert expected_step(game.state) == Decision("bid", BOB)


def test_V_BAZAAR_ZEROSCORES_judged_when_the_auction_starts() -> None:
    # V-ORDER-FACEDOWN with Traders & Builders: Ann's bazaar tile BB/RFR.b extends her builder's
    # road; the bazaar's tiles go face down, her builder tile closes the road (5 points), and only
    # then is the bazaar revealed: not every score is 0 any more, so it is an auction.
    rules = rule_set(order="facedown", bazaar_zero_scores=True)
    pile = ["BA/RFr", "BA/L", "BA/RFr", "BA/L", "BB/RFR.b", "BA/L", "BA/L", "BA/LR", *FILL]
    game = bcb(pile, rules=rules, expansions=("base", "bcb", "tb"))
    turn(game, 1, 0, deploy="E+W")  # Ann: thief
    turn(game, 0, 1)
    game.execute(ANN, PlaceTile(x=2, y=0, rotation=0))
    game.execute(ANN, Deploy(location="E+W", figure="builder"))
    turn(game, 0, 2)
    turn(game, -1, 0, 90)  # Ann: the bazaar tile, W end of her road
    assert [type(e) for e in game.pending[-2:]] == [bz.BazaarTilesTakenFaceDown, bd.BuilderTurnTaken]
    assert game.state.scores == [0, 0]
    turn(game, 3, 0, 90)  # Ann's builder tile closes the road
    assert game.state.scores == [5, 0]
    assert expected_step(game.state) == Decision("choose", BOB)
    assert bz.ChooseBazaarTile(index=0, bid=1) in legal_commands(game.state)
    game.execute(BOB, bz.ChooseBazaarTile(index=0, bid=1))
    assert expected_step(game.state) == Decision("bid", ANN)


def test_V_BAZAAR_NOCREDIT_no_bid_above_the_score() -> None:
    rules = rule_set(bazaar_no_credit=True)
    game = bcb(["BA/C", "BB/F.b", "BA/RFr", "BA/L", *FILL], rules=rules)
    turn(game, 0, -1, 180, deploy="S", castle=False)  # Ann: 4 points
    turn(game, 0, 1)  # Bob hosts; Ann chooses
    refused(game, ANN, bz.ChooseBazaarTile(index=0, bid=5), "V-BAZAAR-NOCREDIT")
    game.execute(ANN, bz.ChooseBazaarTile(index=0, bid=4))
    refused(game, BOB, bz.Bid(amount=5), "V-BAZAAR-NOCREDIT")  # Bob has 0
    assert legal_commands(game.state) == [Pass()]
    game.execute(BOB, Pass())
    assert game.state.scores == [0, 0]  # paid to nobody, down to 0, not below


def test_V_BAZAAR_NOCREDIT_chooser_who_cannot_pay_must_sell() -> None:
    rules = rule_set(bazaar_no_credit=True)
    game = bcb(["BA/C", "BA/L", "BB/F.b", "BA/RFr", "BA/L", *FILL], rules=rules)
    turn(game, 0, -1, 180, deploy="S", castle=False)  # Ann: 4
    turn(game, 0, 1)  # Bob
    turn(game, 0, 2)  # Ann hosts; Bob (0 points) chooses
    game.execute(BOB, bz.ChooseBazaarTile(index=0, bid=0))
    game.execute(ANN, bz.Bid(amount=3))
    assert legal_commands(game.state) == [bz.Sell()]
    refused(game, BOB, bz.Buy(), "V-BAZAAR-NOCREDIT")
    game.execute(BOB, bz.Sell())
    assert game.state.scores == [1, 3]


def test_V_BAZAAR_NOCREDIT_off_bids_above_the_score_are_fine() -> None:
    game = bazaar_example()
    game.execute(BLUE, bz.ChooseBazaarTile(index=0, bid=50))
    assert expected_step(game.state) == Decision("bid", GREEN)


def _two_castle_offers(turn_order: bool) -> Game:
    """Bob's knight on the cap at (-1,-1); Cid's tile at (0,-1) closes two cities of two caps, his
    own knight in the one it makes with the start tile: Bob's city scores first, Cid's turn."""
    game = bcb(
        ["BA/RFr", "BA/C", "BA/CC.2", *FILL],
        players=("Ann", "Bob", "Cid"),
        rules=rule_set(castle_turn_order=turn_order),
    )
    game.execute(0, PlaceTile(x=-1, y=0, rotation=0))
    game.execute(0, Pass())
    game.execute(1, PlaceTile(x=-1, y=-1, rotation=90))
    game.execute(1, Deploy(location="E"))
    game.execute(2, PlaceTile(x=0, y=-1, rotation=270))
    game.execute(2, Deploy(location="S"))
    return game


def test_JCZ_CASTLE_OFFER_off_each_city_is_offered_to_its_owner_and_a_pass_is_theirs_alone() -> None:
    game = _two_castle_offers(turn_order=False)
    assert expected_step(game.state) == Decision("castle", 1)  # the city that scored first
    game.execute(1, Pass())
    assert expected_step(game.state) == Decision("castle", 2)  # Cid is still asked
    game.execute(2, cs.ChooseCastle(x=0, y=-1, location="S"))
    assert [c.owners for c in cs.castles(game.state).all] == [[2]]
    replay(game.pending)


def test_JCZ_CASTLE_OFFER_on_the_placer_first_and_a_pass_ends_the_asking() -> None:
    game = _two_castle_offers(turn_order=True)
    assert expected_step(game.state) == Decision("castle", 2)  # who placed the tile, first
    game.execute(2, Pass())  # nobody else is asked
    assert cs.castles(game.state).all == [] and game.state.current == 0
    scored = sorted((a.player, a.points, a.category) for a in game.state.awards)
    assert scored == [(1, 4, "city"), (2, 4, "city")]
    replay(game.pending)


def test_JCZ_CASTLE_OFFER_on_after_a_castle_the_next_players_are_asked() -> None:
    game = _two_castle_offers(turn_order=True)
    game.execute(2, cs.ChooseCastle(x=0, y=-1, location="S"))
    assert expected_step(game.state) == Decision("castle", 1)  # round the table to Bob
    game.execute(1, cs.ChooseCastle(x=-1, y=-1, location="E"))
    assert [c.owners for c in cs.castles(game.state).all] == [[2], [1]]
    replay(game.pending)



JCZ_RULES = rule_set(**JCZ_READING)


class _Decisions(ReplayVisitor):
    def __init__(self) -> None:
        self.at: dict[int, tuple[str | None, list[tuple[int, int, int]]]] = {}

    def placement(self, index: int, state: GameState, *, aside: bool = False) -> None:
        held = state.tile.id if state.tile is not None else None
        self.at[index] = (held, sorted(legal_placements(state)))


def test_R_BRIDGE_7_a_declined_tile_is_a_placement_decision_of_a_jcloisterzone_save(tmp_path: Path) -> None:
    """JCloisterZone lists a tile declined because it fits only with a bridge as a placement
    decision, its bridged placements the legal set: the replay of its save reports it there."""
    game = bcb(["BA/C", "BA/LR", "BA/LR", "BA/RRRR", "BA/L", *FILL], rules=JCZ_RULES)
    turn(game, 0, -1, 180)
    turn(game, 1, 0, 90)
    turn(game, -1, 0, 270)
    game.execute(BOB, Pass())  # BA/RRRR declined
    turn(game, 0, 1)
    path = tmp_path / "declined.jcz"
    path.write_bytes(export_jcz(game.pending))
    save = read_jcz(path)
    messages = save.replay
    kinds = [m.type for m in messages]
    declined = next(i for i, kind in enumerate(kinds) if kind == "PASS" and kinds[i - 1] == "COMMIT")
    seen = _Decisions()
    replay_jcz(save, plan_draws(save).order, seen)
    held, placements = seen.at[declined]
    assert held == "BA/RRRR" and (1, 1, 0) in placements and messages[declined + 1].type == "PLACE_TILE"
