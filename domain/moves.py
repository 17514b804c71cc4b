"""Legal moves in a state: what the current player may do next."""

from __future__ import annotations

from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.state import GameState, Phase
from domain.tiles import Kind


def legal_placements(state: GameState) -> list[tuple[int, int, int]]:
    """Every (x, y, rotation) the held tile may take (R-BASE-3)."""
    if state.phase != Phase.PLACE or state.tile is None:
        return []
    return state.board.placements(state.tile)


def legal_deployments(state: GameState) -> list[str]:
    """Locations on the tile just placed where the current player may put a follower (R-BASE-4)."""
    placed = state.placed
    if state.phase != Phase.ACTION or placed is None or state.supply[state.current] == 0:
        return []
    graph = state.board.graph
    farmers = state.rules.farmers
    names = placed.orientation.names
    return [
        names[i]
        for i, seg in enumerate(placed.tile.segments)
        if (farmers or seg.kind != Kind.FIELD) and not graph.feature(placed.base + i).meeples
    ]


def legal_commands(state: GameState) -> list[Command]:
    """Every command the current player may give now; empty when nobody is to act.

    Clients (bots, the HTTP service, user interfaces) offer exactly these.
    """
    if state.phase == Phase.PLACE:
        return [PlaceTile(x=x, y=y, rotation=r) for x, y, r in legal_placements(state)]
    if state.phase == Phase.ACTION:
        return [*(Deploy(location=loc) for loc in legal_deployments(state)), Pass()]
    return []
