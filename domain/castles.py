"""Castles (R-CASTLE-*): which completed cities may become one, the fief, and the castle record."""

from __future__ import annotations

from domain.board import Board
from domain.features import Feature
from domain.geometry import Pos
from domain.tiles import Kind


class Castle:
    """A converted city: its owners' knights sit on it until it scores once (R-CASTLE-6)."""

    __slots__ = ("feature", "fief", "owners", "part", "positions", "scored", "sitting")

    def __init__(self, feature: int, positions: tuple[Pos, Pos], owners: list[int], part: int, sitting: int):
        self.feature = feature  # root segment id of the castle's city
        self.positions = positions
        self.fief = fief(*positions)
        self.owners = owners
        self.part = part  # the turn part (global count) that created it
        self.sitting = sitting  # the part that began its maker's (double) turn (V-CASTLE-SAME-TURN)
        self.scored = False


def fief(a: Pos, b: Pos) -> frozenset[Pos]:
    """The castle's two tiles and the two beside each along the shared edge's line (R-CASTLE-5)."""
    if a[1] == b[1]:  # side by side: the shared edge runs north-south
        return frozenset((x, a[1] + dy) for x in (a[0], b[0]) for dy in (-1, 0, 1))
    return frozenset((a[0] + dx, y) for y in (a[1], b[1]) for dx in (-1, 0, 1))


def castle_base(board: Board, feature: Feature, ends: bool) -> tuple[Pos, Pos] | None:
    """The two tile positions if `feature` is a completed city a castle may be made of (R-CASTLE-2).

    Two tiles, each giving one one-edge city segment; semicircles only unless V-CASTLE-ENDS.
    """
    if feature.kind != Kind.CITY or feature.castle or feature.open != 0 or len(feature.tiles) != 2:
        return None
    graph = board.graph
    root = graph.find(feature.id)
    for index in feature.tiles:
        placed = board.tiles[index]
        mine = [
            seg
            for i, seg in enumerate(placed.tile.segments)
            if seg.kind == Kind.CITY and graph.find(placed.base + i) == root
        ]
        if len(mine) != 1 or len(mine[0].edges) != 1 or not (ends or "angular" not in mine[0].flags):
            return None
    first, second = sorted(board.tiles[i].pos for i in feature.tiles)
    return first, second


def touches_fief(board: Board, feature: Feature, castle: Castle) -> bool:
    """A segment on a fief tile; a cloister only through its own tile (R-CASTLE-6)."""
    tiles = board.tiles
    return any(tiles[i].pos in castle.fief for i in feature.tiles)
