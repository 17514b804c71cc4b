"""What happens next in a state: whose decision it is, and every legal move for it."""

from __future__ import annotations

from typing import NamedTuple

from domain.bazaars import Step as AuctionStep
from domain.board import BridgeSpot
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
from domain.commands import (
    BridgeSpot as BridgeSpec,
)
from domain.state import GameState, Phase, castle_offer, castle_target_pending
from domain.tiles import Kind, placement_entry, placement_table


class Decision(NamedTuple):
    step: str  # place, action, castle, castle-target, choose, bid, deal
    player: int


def expected_step(state: GameState) -> Decision | None:
    """The decision the game waits for, or None when the engine moves on by itself."""
    found: Decision | None = state.memoized("step", lambda: _expected_step(state))
    return found


def _expected_step(state: GameState) -> Decision | None:
    phase = state.phase
    if phase == Phase.PLACE:
        return Decision("place", state.current)
    if phase == Phase.ACTION and action_open(state):
        return Decision("action", state.current)
    if phase == Phase.ACTION or phase == Phase.ACTION_DONE:
        offer = castle_offer(state)
        if offer is not None:
            return Decision("castle", offer[1])
        pending = castle_target_pending(state)
        if pending is not None:
            castle = state.castles[pending[0]]
            owners = sorted({p for p, _ in state.board.graph.feature(castle.feature).meeples})
            return Decision("castle-target", owners[0])
        return None
    if phase == Phase.AUCTION:
        auction = state.auction
        assert auction is not None
        if auction.step == AuctionStep.CHOOSE:
            return None if auction.last_one else Decision("choose", auction.chooser)
        if auction.step == AuctionStep.BID:
            return Decision("bid", auction.bidders[0])
        return None if auction.high_bidder == auction.chooser else Decision("deal", auction.chooser)
    return None


def actor(state: GameState) -> int | None:
    decision = expected_step(state)
    return None if decision is None else decision.player


def bridges_in_play(state: GameState) -> bool:
    return "bcb" in state.expansions and state.bridges[state.current] > 0


Placement = tuple[int, int, int, BridgeSpot | None]  # x, y, rotation, the bridge it needs


def placement_options(state: GameState) -> list[Placement]:
    """Every placement of the held tile, each with the bridge it needs (R-BASE-3, R-BRIDGE-4)."""
    found: list[Placement] = state.memoized("placements", lambda: _placement_options(state))
    return found


def _placement_options(state: GameState) -> list[Placement]:
    held = state.tile
    if state.phase != Phase.PLACE or held is None:
        return []
    board = state.board
    bridges = bridges_in_play(state)
    found: list[Placement] = []
    # One table look-up per distinct constraint: the rotations that match, and those a bridge
    # rescues (a bridge on a neighbour still checked position by position).
    table = placement_table(held)
    for constraint, positions in board.by_constraint.items():
        fits, needs = table.get(constraint) or placement_entry(held, constraint)
        if fits:
            found += [(x, y, rotation, None) for x, y in positions for rotation in fits]
        if bridges and needs:
            for pos in positions:
                for rotation, axis, edge in needs:
                    spot = board.bridge_for(held, pos, rotation, axis, edge)
                    if spot is not None:
                        found.append((pos[0], pos[1], rotation, spot))
    return found


def legal_placements(state: GameState) -> list[tuple[int, int, int]]:
    """Every (x, y, rotation) the held tile may take, bridges considered (R-BASE-3, R-BRIDGE-4)."""
    return [(x, y, r) for x, y, r, _ in placement_options(state)]


def may_decline_bridge(state: GameState) -> bool:
    """The held tile fits only with a bridge: the player may decline and discard it (R-BRIDGE-7)."""
    held = state.tile
    return state.phase == Phase.PLACE and held is not None and not state.board.fits_somewhere(held)


def fits_somewhere(state: GameState) -> bool:
    held = state.tile
    assert held is not None
    if state.board.fits_somewhere(held):
        return True
    return bool(placement_options(state))


def bridge_spots(state: GameState) -> list[BridgeSpot]:
    """Voluntary bridges the current player may lay now (R-BRIDGE-1, R-BRIDGE-2)."""
    placed = state.placed
    if state.phase != Phase.ACTION or placed is None or state.bridge_sid >= 0 or not bridges_in_play(state):
        return []
    return state.board.bridge_spots(placed.pos, state.rules.bridge_on_neighbours)


def legal_deployments(state: GameState, figure: str = "follower") -> list[str]:
    """Locations on the tile just placed (its bridge included) for a figure (R-BASE-4, R-TB-2, R-TB-5)."""
    placed = state.placed
    if state.phase != Phase.ACTION or placed is None:
        return []
    me = state.current
    graph = state.board.graph
    # A bridge on the tile just placed was laid in this part: a follower may go on it (R-BRIDGE-6).
    locations = placed.locations()
    if figure == "follower":
        if state.supply[me] == 0:
            return []
        farmers = state.rules.farmers
        return [
            name
            for name, sid, kind in locations
            if (farmers or kind != Kind.FIELD) and not graph.feature(sid).meeples
        ]
    if figure == "builder":
        wanted: tuple[Kind, ...] = (Kind.ROAD, Kind.CITY)
        if state.builders[me] == 0:
            return []
    else:
        wanted = (Kind.FIELD,)
        if state.pigs[me] == 0:
            return []
    completed_too = figure != "builder" or state.rules.builder_on_completed
    found = []
    for name, sid, kind in locations:
        feature = graph.feature(sid)
        if kind in wanted and any(p == me for p, _ in feature.meeples) and (completed_too or feature.open):
            found.append(name)
    return found


def action_open(state: GameState) -> bool:
    """Anything left to do before scoring: a bridge or a deployment."""
    return bool(
        legal_deployments(state)
        or bridge_spots(state)
        or legal_deployments(state, "builder")
        or legal_deployments(state, "pig")
    )


def legal_commands(state: GameState) -> list[Command]:
    """Every command the deciding player may give now; empty when nobody is to act.

    Clients (bots, the HTTP service, user interfaces) offer exactly these. Bids are listed up to
    the next 10 points above the current bid; higher bids are legal too.
    """
    decision = expected_step(state)
    if decision is None:
        return []
    step = decision.step
    if step == "place":
        commands: list[Command] = [place_command(p) for p in placement_options(state)]
        if may_decline_bridge(state):
            commands.append(Pass())  # R-BRIDGE-7: no bridge, and the tile is discarded
        return commands
    if step == "action":
        return [
            *(PlaceBridge(x=x, y=y, axis=axis) for x, y, axis in bridge_spots(state)),  # type: ignore[arg-type]
            *(Deploy(location=loc) for loc in legal_deployments(state)),
            *(Deploy(location=loc, figure="builder") for loc in legal_deployments(state, "builder")),
            *(Deploy(location=loc, figure="pig") for loc in legal_deployments(state, "pig")),
            Pass(),
        ]
    if step == "castle":
        offer = castle_offer(state)
        assert offer is not None
        x, y, location = feature_handle(state, offer[0])
        return [ChooseCastle(x=x, y=y, location=location), Pass()]
    if step == "castle-target":
        pending = castle_target_pending(state)
        assert pending is not None
        return [
            ChooseCastleTarget(x=h[0], y=h[1], location=h[2])
            for h in (feature_handle(state, f.id) for f in pending[1])
        ]
    auction = state.auction
    assert auction is not None
    if step == "choose":
        if auction.free:
            return [ChooseBazaarTile(index=i) for i in auction.remaining()]
        top = max_bid(state, decision.player)
        return [
            ChooseBazaarTile(index=i, bid=b) for i in auction.remaining() for b in range(0, min(top, 10) + 1)
        ]
    if step == "bid":
        top = max_bid(state, decision.player)
        return [*(Bid(amount=b) for b in range(auction.high + 1, min(top, auction.high + 10) + 1)), Pass()]
    deal: list[Command] = [Sell()]
    if not state.rules.bazaar_no_credit or state.scores[decision.player] >= auction.high:
        deal.insert(0, Buy())
    return deal


def place_command(placement: Placement) -> PlaceTile:
    x, y, rotation, spot = placement
    if spot is None:
        return PlaceTile(x=x, y=y, rotation=rotation)
    bridge = BridgeSpec(x=spot[0], y=spot[1], axis=spot[2])  # type: ignore[arg-type]
    return PlaceTile(x=x, y=y, rotation=rotation, bridge=bridge)


def max_bid(state: GameState, player: int) -> int:
    """The highest bid allowed: unbounded, or the bidder's score under V-BAZAAR-NOCREDIT."""
    if state.rules.bazaar_no_credit:
        return max(state.scores[player], 0)
    return 10**6


def feature_handle(state: GameState, root: int) -> tuple[int, int, str]:
    """A (x, y, location) naming a feature: its first location on the last tile placed among its tiles."""
    board = state.board
    graph = board.graph
    root = graph.find(root)
    placed = board.tiles[max(graph.feature(root).tiles)]  # tile indices grow as tiles are placed
    name = next(name for name, sid, _ in placed.locations() if graph.find(sid) == root)
    return placed.pos[0], placed.pos[1], name
