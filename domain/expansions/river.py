"""The River (R-RIVER-*): the spring starts the game, river tiles come first and the lake last, and
a river tile must continue the river without turning back on itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from domain import events as ev
from domain.errors import RuleViolation
from domain.geometry import EDGE_NAMES, EDGE_OFFSETS, Pos
from domain.part import Part
from domain.state import GameState
from domain.tiles import TILES, Kind, TileType

NAME: Final = "river"
SPRING: Final = "spring"  # tag of the tile the river starts from
LAKE: Final = "lake"  # tag of the tile that ends it


def river_edges(tile: TileType, rotation: int) -> tuple[int, ...]:
    """The edges the tile's river reaches, in board orientation."""
    return _RIVER_EDGES.get((tile.id, rotation), ())


def has_river(tile: TileType) -> bool:
    return tile.id in _RIVER_TILES


def _is_river(tile: TileType, index: int) -> bool:
    seg = tile.segments[index]
    return seg.kind == Kind.OTHER and seg.name == NAME


# Computed once: which tiles carry a river, and the edges it reaches in each rotation.
_RIVER_TILES: Final = frozenset(
    t.id for t in TILES.values() if any(_is_river(t, i) for i in range(len(t.segments)))
)
_RIVER_EDGES: Final = {
    (t.id, o.rotation): tuple(
        e for e in range(4) if o.edge_segment[e] >= 0 and _is_river(t, o.edge_segment[e])
    )
    for t in TILES.values()
    if t.id in _RIVER_TILES
    for o in t.orientations
}


def _continuation_free(at: Mapping[Pos, object], pos: Pos, edge: int) -> bool:
    """Beyond an open river end, the squares the river would need to go on are empty: the one
    beyond, and those to either side of the next two steps (no U-turn, R-RIVER-4)."""
    dx, dy = EDGE_OFFSETS[edge]
    sx, sy = EDGE_OFFSETS[(edge + 1) & 3]  # one side; the other is its negation
    ax, ay = pos[0] + dx, pos[1] + dy
    bx, by = ax + dx, ay + dy
    reserved = ((ax + sx, ay + sy), (ax - sx, ay - sy), (bx, by), (bx + sx, by + sy), (bx - sx, by - sy))
    return not any(q in at for q in reserved)


class RiverPart(Part):
    name = NAME
    rank = 140

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[NAME] = None

    def start_tile(self) -> str | None:
        return next((t.id for t in TILES.values() if SPRING in t.tags), None)

    def arrange(self, pile: list[str]) -> None:
        """River tiles first, the lake last of them, then the rest, each in its shuffled order (R-RIVER-2)."""

        def rank(tile_id: str) -> int:
            tile = TILES[tile_id]
            if not has_river(tile):
                return 2
            return 1 if LAKE in tile.tags else 0

        pile.sort(key=rank)

    def may_refuse(self, state: GameState, held: TileType) -> bool:
        return has_river(held)

    def refusal(
        self, state: GameState, held: TileType, x: int, y: int, rotation: int
    ) -> RuleViolation | None:
        """A river tile continues a placed river end, and every open end has room to go on (R-RIVER-3)."""
        edges = river_edges(held, rotation)
        if not edges:
            return None
        at = state.board.at
        pos = (x, y)
        open_ends = [e for e in edges if (x + EDGE_OFFSETS[e][0], y + EDGE_OFFSETS[e][1]) not in at]
        if len(open_ends) == len(edges):
            return RuleViolation("R-RIVER-3", f"{held.id} at {pos} does not continue the river")
        for edge in open_ends:
            if not _continuation_free(at, pos, edge):
                return RuleViolation(
                    "R-RIVER-4",
                    f"{held.id} at {pos} rotated {rotation} turns the river back on itself: "
                    f"no room for it to go on past its {EDGE_NAMES[edge]} end",
                )
        return None


PART = RiverPart()
PARTS = (PART,)
