"""Placed tiles, the open positions around them and the edge constraint at each.

Legal placements are a look-up: every open position keeps the byte of edge kinds its placed
neighbours impose, and `rotations_fitting` maps (tile type, constraint) to rotations once.
"""

from __future__ import annotations

from domain.features import Feature, FeatureGraph
from domain.geometry import EDGE_OFFSETS, HALF_OPPOSITE, RING_OFFSETS, Pos
from domain.tiles import Kind, Orientation, TileType, rotations_fitting


class PlacedTile:
    __slots__ = ("base", "edge_segment", "index", "orientation", "pos", "tile")

    def __init__(self, index: int, pos: Pos, tile: TileType, orientation: Orientation, base: int) -> None:
        self.index = index
        self.pos = pos
        self.tile = tile
        self.orientation = orientation
        self.base = base  # segment id of the tile's first segment
        # Global segment id reaching each edge (roads and cities), -1 for field edges.
        self.edge_segment = [base + s if s >= 0 else -1 for s in orientation.edge_segment]

    def segment(self, name: str) -> int:
        """Segment id of the location `name` on this tile; KeyError if there is none."""
        return self.base + self.orientation.by_name[name]

    def half_segment(self, half: int) -> int:
        s = self.orientation.half_segment[half]
        return self.base + s if s >= 0 else -1


class Board:
    __slots__ = ("at", "cloister_ring", "cloister_segment", "graph", "open", "tiles")

    def __init__(self) -> None:
        self.tiles: list[PlacedTile] = []
        self.at: dict[Pos, PlacedTile] = {}
        self.open: dict[Pos, int] = {}  # empty position next to a tile -> edge constraint
        self.graph = FeatureGraph()
        self.cloister_segment: dict[Pos, int] = {}  # cloister tile position -> its segment id
        self.cloister_ring: dict[Pos, int] = {}  # cloister tile position -> placed neighbours

    def rotations_at(self, tile: TileType, pos: Pos) -> tuple[int, ...]:
        constraint = self.open.get(pos)
        if constraint is None:
            return ()
        return rotations_fitting(tile, constraint)

    def placements(self, tile: TileType) -> list[tuple[int, int, int]]:
        """Every legal (x, y, rotation) for `tile` by edge matching alone (R-BASE-3)."""
        return [
            (pos[0], pos[1], rot)
            for pos, constraint in self.open.items()
            for rot in rotations_fitting(tile, constraint)
        ]

    def fits_somewhere(self, tile: TileType) -> bool:
        return any(rotations_fitting(tile, c) for c in self.open.values())

    def place(self, tile: TileType, pos: Pos, rotation: int) -> PlacedTile:
        """Put a tile down and merge its segments into the features around it.

        Trusts its input: legality is checked by the command before any event exists.
        """
        orientation = tile.orientations[rotation // 90]
        graph = self.graph
        index = len(self.tiles)
        base = graph.add_tile(tile, index)
        placed = PlacedTile(index, pos, tile, orientation, base)
        self.tiles.append(placed)
        at = self.at
        at[pos] = placed
        open_ = self.open
        open_.pop(pos, None)

        x, y = pos
        codes = orientation.edge_codes
        for edge in range(4):
            dx, dy = EDGE_OFFSETS[edge]
            q = (x + dx, y + dy)
            other = at.get(q)
            if other is None:
                open_[q] = open_.get(q, 0) | (codes[edge] << (2 * ((edge + 2) & 3)))
            else:
                self._join(placed, other, edge)

        ring = self.cloister_ring
        if ring:
            for dx, dy in RING_OFFSETS:
                q = (x + dx, y + dy)
                if q in ring:
                    ring[q] += 1
        if tile.cloister_segment >= 0:
            self.cloister_segment[pos] = base + tile.cloister_segment
            ring[pos] = self.cloister_neighbours(pos)
        return placed

    def _join(self, placed: PlacedTile, other: PlacedTile, edge: int) -> None:
        graph = self.graph
        for half in (2 * edge, 2 * edge + 1):
            mine = placed.half_segment(half)
            if mine >= 0:
                theirs = other.half_segment(HALF_OPPOSITE[half])
                if theirs >= 0:
                    graph.union(mine, theirs)
        mine = placed.edge_segment[edge]
        if mine >= 0:
            graph.join_edge(mine, other.edge_segment[(edge + 2) & 3])

    def cloister_neighbours(self, pos: Pos) -> int:
        x, y = pos
        at = self.at
        return sum(1 for dx, dy in RING_OFFSETS if (x + dx, y + dy) in at)

    def cloisters_completed_by(self, pos: Pos) -> list[int]:
        """Segment ids of the cloisters whose ring the tile at `pos` closed (R-BASE-5)."""
        ring = self.cloister_ring
        if not ring:
            return []
        x, y = pos
        found = [
            self.cloister_segment[q]
            for q in ((x + dx, y + dy) for dx, dy in RING_OFFSETS)
            if ring.get(q) == 8
        ]
        if ring.get(pos) == 8:
            found.append(self.cloister_segment[pos])
        return found

    def is_complete(self, feature: Feature) -> bool:
        if feature.kind == Kind.CLOISTER:
            return self.cloister_ring[self.tiles[next(iter(feature.tiles))].pos] == 8
        if feature.kind == Kind.FIELD:
            return False
        return feature.open == 0
