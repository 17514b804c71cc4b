"""Placed tiles, the open positions around them and the edge constraint at each.

Legal placements are a look-up: every open position keeps the byte of edge kinds its placed
neighbours impose, and `rotations_fitting` maps (tile type, constraint) to rotations once.
"""

from __future__ import annotations

from typing import Final

from domain.features import Feature, FeatureGraph
from domain.geometry import EDGE_OFFSETS, HALF_OPPOSITE, RING_OFFSETS, E, N, Pos, S, W, opposite
from domain.tiles import FIELD_EDGE, ROAD_EDGE, Kind, Orientation, TileType, bridge_needs, rotations_fitting

BridgeSpot = tuple[int, int, str]  # (x, y, axis)


AXES: Final = {"NS": (N, S), "EW": (E, W)}


class PlacedTile:
    __slots__ = ("base", "bridge", "edge_codes", "edge_segment", "index", "orientation", "pos", "tile")

    def __init__(self, index: int, pos: Pos, tile: TileType, orientation: Orientation, base: int) -> None:
        self.index = index
        self.pos = pos
        self.tile = tile
        self.orientation = orientation
        self.base = base  # segment id of the tile's first segment
        # Global segment id reaching each edge (roads and cities), -1 for field edges.
        self.edge_segment = [base + s if s >= 0 else -1 for s in orientation.edge_segment]
        # Edge kinds as the board sees them: a bridge turns its two field edges into road.
        self.edge_codes = list(orientation.edge_codes)
        self.bridge: str | None = None  # axis of the bridge on this tile (R-BRIDGE-3: one at most)

    def segment(self, name: str) -> int:
        """Segment id of the location `name` on this tile; KeyError if there is none."""
        return self.base + self.orientation.by_name[name]

    def half_segment(self, half: int) -> int:
        s = self.orientation.half_segment[half]
        return self.base + s if s >= 0 else -1


class Board:
    __slots__ = ("at", "by_constraint", "cloister_ring", "cloister_segment", "graph", "open", "tiles")

    def __init__(self) -> None:
        self.tiles: list[PlacedTile] = []
        self.at: dict[Pos, PlacedTile] = {}
        self.open: dict[Pos, int] = {}  # empty position next to a tile -> edge constraint
        # The same, grouped: constraint -> its positions. A tile's legal placements are then one
        # table look-up per distinct constraint, not one per open position.
        self.by_constraint: dict[int, set[Pos]] = {}
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
        self._unset_open(pos)

        x, y = pos
        codes = orientation.edge_codes
        for edge in range(4):
            dx, dy = EDGE_OFFSETS[edge]
            q = (x + dx, y + dy)
            other = at.get(q)
            if other is None:
                self._set_open(q, open_.get(q, 0) | (codes[edge] << (2 * ((edge + 2) & 3))))
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

    def _unset_open(self, pos: Pos) -> None:
        old = self.open.pop(pos, None)
        if old is not None:
            group = self.by_constraint[old]
            group.discard(pos)
            if not group:
                del self.by_constraint[old]

    def _set_open(self, pos: Pos, constraint: int) -> None:
        self._unset_open(pos)
        self.open[pos] = constraint
        self.by_constraint.setdefault(constraint, set()).add(pos)

    def _join(self, placed: PlacedTile, other: PlacedTile, edge: int) -> None:
        graph = self.graph
        for half in (2 * edge, 2 * edge + 1):
            mine = placed.half_segment(half)
            if mine >= 0:
                theirs = other.half_segment(HALF_OPPOSITE[half])
                if theirs >= 0:
                    graph.union(mine, theirs)
        mine = placed.edge_segment[edge]
        theirs = other.edge_segment[(edge + 2) & 3]
        # Road against field is left open here: the bridge placed with this tile joins it.
        if mine >= 0 and theirs >= 0:
            graph.join_edge(mine, theirs)

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

    # --- bridges (R-BRIDGE-*) ---

    def add_bridge(self, pos: Pos, axis: str) -> int:
        """Lay a bridge: a road segment across the tile joining two field edges (R-BRIDGE-4).

        Trusts its input like `place`. Returns the bridge's segment id.
        """
        placed = self.at[pos]
        sid = self.graph.add_segment(Kind.ROAD, placed.index, 2)
        placed.bridge = axis
        x, y = pos
        for edge in AXES[axis]:
            placed.edge_segment[edge] = sid
            placed.edge_codes[edge] = ROAD_EDGE
            dx, dy = EDGE_OFFSETS[edge]
            q = (x + dx, y + dy)
            other = self.at.get(q)
            if other is None:
                shift = 2 * opposite(edge)
                self._set_open(q, (self.open[q] & ~(3 << shift)) | (ROAD_EDGE << shift))
            else:
                self.graph.join_edge(sid, other.edge_segment[opposite(edge)])
        return sid

    def bridge_allowed(self, pos: Pos, axis: str) -> bool:
        """A voluntary bridge on the placed tile at `pos`: both ends on field, no other bridge,
        each end facing a road or an empty space (R-BRIDGE-3, R-BRIDGE-4)."""
        placed = self.at[pos]
        if placed.bridge is not None:
            return False
        codes = placed.edge_codes
        x, y = pos
        for edge in AXES[axis]:
            if codes[edge] != FIELD_EDGE:
                return False
            dx, dy = EDGE_OFFSETS[edge]
            other = self.at.get((x + dx, y + dy))
            if other is not None and other.edge_codes[opposite(edge)] != ROAD_EDGE:
                return False
        return True

    def bridge_spots(self, pos: Pos, neighbours: bool = True) -> list[BridgeSpot]:
        """Voluntary bridges after placing at `pos`: on that tile or an orthogonal neighbour (R-BRIDGE-2)."""
        x, y = pos
        spots: list[BridgeSpot] = []
        around = ((x + dx, y + dy) for dx, dy in EDGE_OFFSETS) if neighbours else ()
        for q in (pos, *around):
            if q in self.at:
                spots.extend((q[0], q[1], axis) for axis in AXES if self.bridge_allowed(q, axis))
        return spots

    def bridge_fix(self, tile: TileType, pos: Pos, rotation: int) -> BridgeSpot | None:
        """The one bridge that makes an otherwise mismatching placement legal, if any (R-BRIDGE-4)."""
        constraint = self.open.get(pos)
        if constraint is None:
            return None
        for r, axis, edge in bridge_needs(tile, constraint):
            if r == rotation:
                return self.bridge_for(tile, pos, rotation, axis, edge)
        return None

    def bridge_for(self, tile: TileType, pos: Pos, rotation: int, axis: str, edge: int) -> BridgeSpot | None:
        """Whether the bridge `bridge_needs` names can be laid: on the new tile along `axis`, or on
        the neighbour across `edge`."""
        if axis:  # checked against the neighbours already, through the constraint
            return (pos[0], pos[1], axis)
        dx, dy = EDGE_OFFSETS[edge]
        q = (pos[0] + dx, pos[1] + dy)
        other = self.at[q]
        # The neighbour's end facing the new tile meets its road; its far end lies on `edge`'s
        # side and must face a road or an empty space.
        if other.bridge is not None:
            return None
        if other.edge_codes[edge] != FIELD_EDGE or other.edge_codes[opposite(edge)] != FIELD_EDGE:
            return None
        beyond = self.at.get((q[0] + dx, q[1] + dy))
        if beyond is not None and beyond.edge_codes[opposite(edge)] != ROAD_EDGE:
            return None
        return (q[0], q[1], "NS" if edge in (N, S) else "EW")
