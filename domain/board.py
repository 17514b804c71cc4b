"""Placed tiles, the open positions around them and the edge constraint at each.

Legal placements are a look-up: every open position keeps the byte of edge kinds its placed
neighbours impose, and `rotations_fitting` maps (tile type, constraint) to rotations once.
"""

from __future__ import annotations

from typing import Final

from domain.features import FeatureGraph
from domain.geometry import EDGE_OFFSETS, HALF_OPPOSITE, RING_OFFSETS, E, N, Pos, S, W, neighbour, opposite
from domain.tiles import (
    EDGE_BITS,
    EDGE_MASK,
    FIELD_EDGE,
    ROAD_EDGE,
    Kind,
    Orientation,
    TileType,
    bridge_needs,
    rotations_fitting,
)

BridgeSpot = tuple[int, int, str]  # (x, y, axis)


AXES: Final = {"NS": (N, S), "EW": (E, W)}
# A bridge's location name: the road it makes runs between these two edges (never a printed
# segment's name, since both its edges were field).
BRIDGE_NAMES: Final = {"NS": "N+S", "EW": "E+W"}


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

    @property
    def bridge_segment(self) -> int:
        """Segment id of the bridge's road on this tile, -1 without a bridge."""
        return -1 if self.bridge is None else self.edge_segment[AXES[self.bridge][0]]

    def segment(self, name: str) -> int:
        """Segment id of the location `name` on this tile, its bridge included; KeyError if none."""
        if self.bridge is not None and name == BRIDGE_NAMES[self.bridge]:
            return self.bridge_segment
        return self.base + self.orientation.by_name[name]

    def locations(self) -> list[tuple[str, int, Kind]]:
        """(name, segment id, kind) of every location on this tile: its segments, then its bridge."""
        found = [
            (name, self.base + i, seg.kind)
            for i, (name, seg) in enumerate(zip(self.orientation.names, self.tile.segments, strict=True))
        ]
        if self.bridge is not None:
            found.append((BRIDGE_NAMES[self.bridge], self.bridge_segment, Kind.ROAD))
        return found

    def location(self, sid: int) -> str:
        """The location name of segment `sid` of this tile."""
        index = sid - self.base
        if 0 <= index < len(self.tile.segments):
            return self.orientation.names[index]
        assert self.bridge is not None and sid == self.bridge_segment
        return BRIDGE_NAMES[self.bridge]

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
                self._set_open(q, open_.get(q, 0) | (codes[edge] << (EDGE_BITS * ((edge + 2) & 3))))
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

    # --- bridges (R-BRIDGE-*) ---

    def add_bridge(self, pos: Pos, axis: str) -> int:
        """Lay a bridge: a road segment across the tile joining two field edges (R-BRIDGE-4).

        Trusts its input like `place`. Returns the bridge's segment id.
        """
        placed = self.at[pos]
        sid = self.graph.add_segment(Kind.ROAD, placed.index, 2)
        placed.bridge = axis
        for edge in AXES[axis]:
            placed.edge_segment[edge] = sid
            placed.edge_codes[edge] = ROAD_EDGE
            q = neighbour(pos, edge)
            other = self.at.get(q)
            if other is None:
                shift = EDGE_BITS * opposite(edge)
                self._set_open(q, (self.open[q] & ~(EDGE_MASK << shift)) | (ROAD_EDGE << shift))
            else:
                self.graph.join_edge(sid, other.edge_segment[opposite(edge)])
        return sid

    def bridge_allowed(self, pos: Pos, axis: str) -> bool:
        """A bridge on the placed tile at `pos`: both ends on field, no other bridge, each end
        facing a road or an empty space (R-BRIDGE-3, R-BRIDGE-4)."""
        placed = self.at[pos]
        if placed.bridge is not None:
            return False
        for edge in AXES[axis]:
            if placed.edge_codes[edge] != FIELD_EDGE:
                return False
            other = self.at.get(neighbour(pos, edge))
            if other is not None and other.edge_codes[opposite(edge)] != ROAD_EDGE:
                return False
        return True

    def bridge_spots(self, pos: Pos, neighbours: bool = True) -> list[BridgeSpot]:
        """Voluntary bridges after placing at `pos`: on that tile or an orthogonal neighbour (R-BRIDGE-2)."""
        spots: list[BridgeSpot] = []
        around = (neighbour(pos, edge) for edge in range(4)) if neighbours else ()
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
        # On the neighbour across `edge`, along that edge's axis. The new tile is not on the
        # board yet, so the end facing it counts as facing an empty space; its road meets it.
        q = neighbour(pos, edge)
        axis = "NS" if edge in (N, S) else "EW"
        return (q[0], q[1], axis) if self.bridge_allowed(q, axis) else None
