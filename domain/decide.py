"""`decide`: a player's command checked against the state, giving its events or a RuleViolation.

All checks live here; `evolve` trusts what this returns.
"""

from __future__ import annotations

from domain import events as ev
from domain.castles import castle_base
from domain.commands import (
    Bid,
    Buy,
    ChooseBazaarTile,
    ChooseCastle,
    ChooseCastleTarget,
    Command,
    Deploy,
    Pass,
    PlaceBridge,
    PlaceTile,
    Sell,
)
from domain.errors import RuleViolation
from domain.geometry import EDGE_NAMES, ROTATIONS, neighbour, opposite
from domain.moves import (
    bridge_spots,
    bridges_in_play,
    expected_step,
    feature_handle,
    legal_deployments,
    max_bid,
    may_decline_bridge,
)
from domain.state import GameState, Phase, castle_offer, castle_target_pending
from domain.tiles import TILES, Kind, TileType

_EDGE_KIND_NAMES = {1: "city", 2: "road", 3: "field"}
_STEP_NAMES = {
    "place": "a tile placement",
    "action": "a bridge, a deployment or a pass",
    "castle": "a castle decision",
    "castle-target": "the castle's choice of feature",
    "choose": "a bazaar tile choice",
    "bid": "a bid or a pass",
    "deal": "buy or sell",
}
# The step each command answers, and the rule behind the step.
_COMMAND_STEPS: dict[type[Command], tuple[tuple[str, ...], str]] = {
    PlaceTile: (("place",), "R-BASE-3"),
    PlaceBridge: (("action",), "R-BRIDGE-6"),
    Deploy: (("action",), "R-BASE-4"),
    Pass: (("place", "action", "castle", "bid"), "R-BASE-4"),
    ChooseCastle: (("castle",), "R-CASTLE-3"),
    ChooseCastleTarget: (("castle-target",), "R-CASTLE-7"),
    ChooseBazaarTile: (("choose",), "R-BAZAAR-4"),
    Bid: (("bid",), "R-BAZAAR-4"),
    Buy: (("deal",), "R-BAZAAR-5"),
    Sell: (("deal",), "R-BAZAAR-5"),
}


def decide(state: GameState, player: int, command: Command) -> list[ev.Event]:
    step = _check_turn(state, player, command)
    gid, version = state.id, state.version + 1
    if isinstance(command, PlaceTile):
        return _place(state, player, command)
    if isinstance(command, PlaceBridge):
        return [_bridge(state, player, command.x, command.y, command.axis, version)]
    if isinstance(command, Deploy):
        return [_deploy(state, player, command)]
    if isinstance(command, Pass):
        if step == "place":
            return [_decline_tile(state, player)]
        return [
            ev.Passed(originator_id=gid, originator_version=version, player=player, step=_PASS_STEPS[step])
        ]
    if isinstance(command, ChooseCastle):
        return [_castle(state, player, command)]
    if isinstance(command, ChooseCastleTarget):
        return [_castle_target(state, player, command)]
    if isinstance(command, ChooseBazaarTile):
        return [_choose(state, player, command)]
    if isinstance(command, Bid):
        return [_bid(state, player, command)]
    auction = state.auction
    assert auction is not None
    if isinstance(command, Buy):
        if state.rules.bazaar_no_credit and state.scores[player] < auction.high:
            raise RuleViolation(
                "V-BAZAAR-NOCREDIT",
                f"cannot pay {auction.high} with a score of {state.scores[player]}; sell instead",
            )
        return [
            ev.TileBought(
                originator_id=gid,
                originator_version=version,
                player=player,
                price=auction.high,
                payee=auction.high_bidder,
            )
        ]
    return [
        ev.TileSold(
            originator_id=gid,
            originator_version=version,
            player=player,
            buyer=auction.high_bidder,
            price=auction.high,
        )
    ]


_COMMAND_NAMES: dict[type[Command], str] = {
    PlaceTile: "place a tile",
    PlaceBridge: "lay a bridge",
    Deploy: "deploy",
    Pass: "pass",
    ChooseCastle: "make a castle",
    ChooseCastleTarget: "choose a castle's feature",
    ChooseBazaarTile: "choose a bazaar tile",
    Bid: "bid",
    Buy: "buy",
    Sell: "sell",
}
_STEP_RULES = {
    "castle": "R-CASTLE-3",
    "castle-target": "R-CASTLE-7",
    "choose": "R-BAZAAR-4",
    "bid": "R-BAZAAR-4",
    "deal": "R-BAZAAR-5",
}
_PASS_STEPS = {"action": "deploy", "castle": "castle", "bid": "bid"}


def _check_turn(state: GameState, player: int, command: Command) -> str:
    if state.phase == Phase.OVER:
        raise RuleViolation("R-BASE-8", "the game is over")
    if not 0 <= player < len(state.players):
        raise RuleViolation("R-BASE-1", f"there is no seat {player} in a {len(state.players)}-player game")
    steps, rule = _COMMAND_STEPS[type(command)]
    decision = expected_step(state)
    if decision is None:
        raise RuleViolation("R-BASE-3", "no decision is due: the game moves on by itself")
    if isinstance(command, ChooseCastle) and decision.player == player and decision.step == "action":
        _check_castle_base(state, command)
    if decision.step not in steps:
        expected = decision.step
        raise RuleViolation(
            "R-BASE-3" if expected in ("place", "action") else _STEP_RULES[expected],
            f"cannot {_COMMAND_NAMES[type(command)]} now: the game expects {_STEP_NAMES[expected]}",
        )
    if player != decision.player:
        whose, other = state.players[decision.player], state.players[player]
        if decision.step in ("place", "action"):
            raise RuleViolation("R-BASE-3", f"it is {whose}'s turn, not {other}'s")
        raise RuleViolation(rule, f"it is {whose}'s decision, not {other}'s")
    return decision.step


def _decline_tile(state: GameState, player: int) -> ev.Event:
    """Passing instead of placing: only a tile that fits nowhere without a bridge may be
    declined; it is discarded (R-BRIDGE-7)."""
    if not may_decline_bridge(state):
        raise RuleViolation("R-BASE-3", f"cannot pass now: the game expects {_STEP_NAMES['place']}")
    assert state.tile is not None
    return ev.TileDiscarded(
        originator_id=state.id, originator_version=state.version + 1, player=player, tile=state.tile.id
    )


def _place(state: GameState, player: int, command: PlaceTile) -> list[ev.Event]:
    held = state.tile
    assert held is not None
    if command.tile is not None and command.tile != held.id:
        if command.tile not in TILES:
            raise RuleViolation("R-BASE-3", f"unknown tile id {command.tile!r}")
        raise RuleViolation("R-BASE-3", f"the tile drawn is {held.id}, not {command.tile}")
    if command.rotation not in ROTATIONS:
        raise RuleViolation("R-BASE-3", f"rotation must be 0, 90, 180 or 270, not {command.rotation}")
    pos = (command.x, command.y)
    board = state.board
    if pos in board.at:
        raise RuleViolation("R-BASE-3", f"position {pos} is already occupied")
    if pos not in board.open:
        raise RuleViolation("R-BASE-3", f"position {pos} touches no placed tile")
    gid, version = state.id, state.version + 1
    placed = ev.TilePlaced(
        originator_id=gid,
        originator_version=version,
        player=player,
        tile=held.id,
        x=command.x,
        y=command.y,
        rotation=command.rotation,
    )
    fits = command.rotation in board.rotations_at(held, pos)
    spec = command.bridge
    if fits:
        if spec is None:
            return [placed]
        raise RuleViolation(
            "R-BRIDGE-4", "this placement needs no bridge; lay a voluntary bridge after placing"
        )
    needed = board.bridge_fix(held, pos, command.rotation) if bridges_in_play(state) else None
    if needed is None:
        raise RuleViolation("R-BASE-3", _mismatch(state, held, pos, command.rotation))
    if spec is not None and (spec.x, spec.y, spec.axis) != needed:
        raise RuleViolation(
            "R-BRIDGE-4",
            f"this placement needs the bridge {needed[2]} at {needed[:2]}, "
            f"not {spec.axis} at {(spec.x, spec.y)}",
        )
    return [
        placed,
        ev.BridgePlaced(
            originator_id=gid,
            originator_version=version + 1,
            player=player,
            x=needed[0],
            y=needed[1],
            axis=needed[2],
        ),
    ]


def _mismatch(state: GameState, held: TileType, pos: tuple[int, int], rotation: int) -> str:
    codes = held.orientation(rotation).edge_codes
    for edge in range(4):
        other = state.board.at.get(neighbour(pos, edge))
        if other is None:
            continue
        theirs = other.edge_codes[opposite(edge)]
        if theirs != codes[edge]:
            return (
                f"{held.id} at {pos} rotated {rotation}: its {EDGE_NAMES[edge]} edge is "
                f"{_EDGE_KIND_NAMES[codes[edge]]} but the neighbour shows "
                f"{_EDGE_KIND_NAMES[theirs]}"
            )
    return f"{held.id} does not fit at {pos} rotated {rotation}"


def _bridge(state: GameState, player: int, x: int, y: int, axis: str, version: int) -> ev.Event:
    if "bcb" not in state.expansions:
        raise RuleViolation("R-BRIDGE-1", "this game is played without Bridges, Castles and Bazaars")
    if state.bridges[player] == 0:
        raise RuleViolation("R-BRIDGE-1", "no bridge left in supply")
    if state.bridge_sid >= 0:
        raise RuleViolation("R-BRIDGE-2", "one bridge per turn, and one was laid already")
    if axis not in ("NS", "EW"):
        raise RuleViolation("R-BRIDGE-2", f"a bridge runs NS or EW, not {axis!r}")
    placed = state.placed
    assert placed is not None
    if (x, y) not in state.board.at or abs(x - placed.pos[0]) + abs(y - placed.pos[1]) > 1:
        raise RuleViolation("R-BRIDGE-2", "a bridge goes on the tile just placed or a tile beside it")
    if (x, y, axis) not in bridge_spots(state):
        raise RuleViolation(
            "R-BRIDGE-3",
            f"no bridge {axis} at {(x, y)}: both ends must be field edges, facing a road or an empty "
            "space, and bridges may not cross",
        )
    return ev.BridgePlaced(
        originator_id=state.id, originator_version=version, player=player, x=x, y=y, axis=axis
    )


def _deploy(state: GameState, player: int, command: Deploy) -> ev.Event:
    placed = state.placed
    assert placed is not None
    figure = command.figure
    rule = {"follower": "R-BASE-4", "builder": "R-TB-2", "pig": "R-TB-5"}[figure]
    if figure != "follower" and "tb" not in state.expansions:
        raise RuleViolation(rule, "this game is played without Traders & Builders")
    if figure == "follower" and state.supply[player] == 0:
        raise RuleViolation(rule, "no follower left in supply")
    if figure == "builder" and state.builders[player] == 0:
        raise RuleViolation(rule, "no builder left in supply (it is on the board)")
    if figure == "pig" and state.pigs[player] == 0:
        raise RuleViolation(rule, "no pig left in supply (it is on the board)")
    options = legal_deployments(state, figure)
    if command.location not in options:
        names = [name for name, _, _ in placed.locations()]
        if command.location not in names:
            raise RuleViolation(
                rule,
                f"{placed.tile.id} at {placed.pos} has no location {command.location!r}; "
                f"it has {', '.join(names)}",
            )
        if figure == "builder":
            raise RuleViolation(
                rule, f"a builder goes on a road or city holding your own follower, not {command.location}"
            )
        if figure == "pig":
            raise RuleViolation(
                rule, f"a pig goes on a field holding your own farmer, not {command.location}"
            )
        kind = next(k for name, _, k in placed.locations() if name == command.location)
        if kind == Kind.FIELD and not state.rules.farmers:
            raise RuleViolation(rule, "this game is played without farmers")
        raise RuleViolation(rule, f"the feature at {command.location} already holds a follower")
    return ev.FollowerDeployed(
        originator_id=state.id,
        originator_version=state.version + 1,
        player=player,
        x=placed.pos[0],
        y=placed.pos[1],
        location=command.location,
        figure=figure,
    )


def _root_at(state: GameState, x: int, y: int, location: str) -> int:
    """The feature (root segment id) at `location` of the tile at (x, y); -1 if there is none."""
    placed = state.board.at.get((x, y))
    try:
        return -1 if placed is None else state.board.graph.find(placed.segment(location))
    except KeyError:
        return -1


def _check_castle_base(state: GameState, command: ChooseCastle) -> None:
    """A castle asked for on a completed city that can never be one names R-CASTLE-2."""
    board = state.board
    root = _root_at(state, command.x, command.y, command.location)
    if root < 0:
        return
    feature = board.graph.feature(root)
    if feature.kind != Kind.CITY or feature.open != 0 or feature.castle:
        return
    if castle_base(board, feature, state.rules.castle_ends) is None:
        raise RuleViolation(
            "R-CASTLE-2",
            f"the city at {command.location} of {(command.x, command.y)} cannot become a castle: "
            f"it covers {len(feature.tiles)} tiles, and only a city of two tiles, each with one "
            "city end, may",
        )


def _castle(state: GameState, player: int, command: ChooseCastle) -> ev.Event:
    offer = castle_offer(state)
    assert offer is not None
    x, y, location = feature_handle(state, offer[0])
    if _root_at(state, command.x, command.y, command.location) != state.board.graph.find(offer[0]):
        raise RuleViolation(
            "R-CASTLE-2",
            f"no castle can be made at {command.location} of {(command.x, command.y)}; "
            f"the city on offer is {location} at {(x, y)}",
        )
    return ev.CastleBuilt(
        originator_id=state.id,
        originator_version=state.version + 1,
        player=player,
        x=x,
        y=y,
        location=location,
    )


def _castle_target(state: GameState, player: int, command: ChooseCastleTarget) -> ev.Event:
    pending = castle_target_pending(state)
    assert pending is not None
    index, hits = pending
    handles = [feature_handle(state, f.id) for f in hits]
    wanted = (command.x, command.y, command.location)
    root = _root_at(state, command.x, command.y, command.location)
    graph = state.board.graph
    chosen = next((h for h, f in zip(handles, hits, strict=True) if graph.find(f.id) == root), None)
    if chosen is None:
        raise RuleViolation(
            "R-CASTLE-7",
            f"{wanted} is not one of the features this castle may score: {', '.join(map(str, handles))}",
        )
    castle = state.castles[index]
    return ev.CastleTargetChosen(
        originator_id=state.id,
        originator_version=state.version + 1,
        player=player,
        castle_x=castle.positions[0][0],
        castle_y=castle.positions[0][1],
        x=chosen[0],
        y=chosen[1],
        location=chosen[2],
    )


def _choose(state: GameState, player: int, command: ChooseBazaarTile) -> ev.Event:
    auction = state.auction
    assert auction is not None
    gid, version = state.id, state.version + 1
    if command.index not in auction.remaining():
        raise RuleViolation(
            "R-BAZAAR-4",
            f"tile {command.index} is not on offer; the remaining ones are {auction.remaining()}",
        )
    if auction.free:
        if command.bid != 0:
            raise RuleViolation("V-BAZAAR-NOAUCTION", "this bazaar has no bidding: tiles are picked free")
        return ev.BazaarTileAssigned(
            originator_id=gid, originator_version=version, player=player, index=command.index
        )
    _check_bid(state, player, command.bid, -1)
    return ev.BazaarTileChosen(
        originator_id=gid, originator_version=version, player=player, index=command.index, bid=command.bid
    )


def _bid(state: GameState, player: int, command: Bid) -> ev.Event:
    auction = state.auction
    assert auction is not None
    _check_bid(state, player, command.amount, auction.high)
    return ev.BidRaised(
        originator_id=state.id, originator_version=state.version + 1, player=player, bid=command.amount
    )


def _check_bid(state: GameState, player: int, amount: int, high: int) -> None:
    if amount < 0:
        raise RuleViolation("R-BAZAAR-4", f"a bid is 0 or more points, not {amount}")
    if amount <= high:
        raise RuleViolation("R-BAZAAR-4", f"a bid must raise the highest bid of {high}; {amount} does not")
    if amount > max_bid(state, player):
        raise RuleViolation(
            "V-BAZAAR-NOCREDIT", f"no bid above your score of {state.scores[player]} under V-BAZAAR-NOCREDIT"
        )
