"""Placed tiles, the open positions around them and the edge constraint at each.

Legal placements are a look-up: every open position keeps the byte of edge kinds its placed
neighbours impose, and `rotations_fitting` maps (tile type, constraint) to rotations once.
"""

from __future__ import annotations

from domain.features import FeatureGraph
from domain.geometry import EDGE_OFFSETS, HALF_OPPOSITE, RING_OFFSETS, Pos, neighbour, opposite
from domain.tiles import (
    EDGE_BITS,
    EDGE_MASK,
    FITS,
    WILD_EDGE,
    Kind,
    Orientation,
    TileType,
    rotations_fitting,
)

EDGE_HALVES: tuple[tuple[int, int], ...] = tuple((2 * edge, 2 * edge + 1) for edge in range(4))


class PlacedTile:
    __slots__ = (
        "base",
        "edge_codes",
        "edge_segment",
        "extra",
        "index",
        "located",
        "orientation",
        "pos",
        "tile",
    )

    def __init__(self, index: int, pos: Pos, tile: TileType, orientation: Orientation, base: int) -> None:
        self.index = index
        self.pos = pos
        self.tile = tile
        self.orientation = orientation
        self.base = base  # segment id of the tile's first segment
        # Global segment id reaching each edge (roads and cities), -1 for field edges.
        self.edge_segment = [base + s if s >= 0 else -1 for s in orientation.edge_segment]
        # Edge kinds as the board sees them: a part's extra segment may change them.
        self.edge_codes = list(orientation.edge_codes)
        self.extra: list[tuple[str, int, Kind]] = []  # (name, segment id, kind) a part laid here
        self.located: list[tuple[str, int, Kind]] | None = None  # `locations()`, once asked

    def segment(self, name: str) -> int:
        """Segment id of the location `name` on this tile, extra segments included; KeyError if none."""
        for extra_name, sid, _ in self.extra:
            if extra_name == name:
                return sid
        return self.base + self.orientation.by_name[name]

    def locations(self) -> list[tuple[str, int, Kind]]:
        """(name, segment id, kind) of every location on this tile: its segments, then extra ones.
        The list is kept (a part's new segment renews it): callers read it, never change it."""
        found = self.located
        if found is None:
            base = self.base
            found = [
                (name, base + i, seg.kind)
                for i, (name, seg) in enumerate(zip(self.orientation.names, self.tile.segments, strict=True))
            ]
            found += self.extra
            self.located = found
        return found

    def location(self, sid: int) -> str:
        """The location name of segment `sid` of this tile."""
        index = sid - self.base
        if 0 <= index < len(self.tile.segments):
            return self.orientation.names[index]
        return next(name for name, extra, _ in self.extra if extra == sid)

    def half_segment(self, half: int) -> int:
        s = self.orientation.half_segment[half]
        return self.base + s if s >= 0 else -1


def _rotations(tile: TileType, key: int, constraint: int) -> tuple[int, ...]:
    """`rotations_fitting`, its table read here first (`key` is the tile's part of the table's
    key): nearly every look-up finds it there, with no call into the plain-Python tiles module."""
    fits = FITS.get(key | constraint)
    return rotations_fitting(tile, constraint) if fits is None else fits


class Board:
    __slots__ = (
        "at",
        "by_constraint",
        "cloister_ring",
        "cloister_segment",
        "graph",
        "open",
        "ring_closed",
        "sides",
        "surrounded",
        "tiles",
        "watched",
    )

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
        # Tile position -> the cloisters (segment ids) whose ring its placement closed.
        self.ring_closed: dict[Pos, list[int]] = {}
        self.watched: dict[Pos, list[Pos]] = {}  # empty position -> the cloisters it neighbours
        self.sides: dict[Pos, int] = {}  # empty position next to a tile -> its placed neighbours
        self.surrounded: set[Pos] = set()  # empty positions with a tile on all four sides

    def rotations_at(self, tile: TileType, pos: Pos) -> tuple[int, ...]:
        constraint = self.open.get(pos)
        if constraint is None:
            return ()
        return rotations_fitting(tile, constraint)

    def placements(self, tile: TileType) -> list[tuple[int, int, int]]:
        """Every legal (x, y, rotation) for `tile` by edge matching alone (R-BASE-3)."""
        found: list[tuple[int, int, int]] = []
        append = found.append
        # One table look-up per distinct constraint: the rotations that match there. Most groups
        # hold one or two positions, so plain loops beat comprehensions here.
        key = tile.signature << 12
        for constraint, positions in self.by_constraint.items():
            fits = _rotations(tile, key, constraint)
            for x, y in positions:
                for rotation in fits:
                    append((x, y, rotation))
        return found

    def fits_somewhere(self, tile: TileType) -> bool:
        key = tile.signature << 12
        return any(_rotations(tile, key, constraint) for constraint in self.by_constraint)

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
        sides = self.sides
        sides.pop(pos, None)
        self.surrounded.discard(pos)

        x, y = pos
        codes = orientation.edge_codes
        for edge in range(4):
            dx, dy = EDGE_OFFSETS[edge]
            q = (x + dx, y + dy)
            other = at.get(q)
            if other is None:
                self._set_open(q, open_.get(q, 0) | (codes[edge] << (EDGE_BITS * ((edge + 2) & 3))))
                n = sides[q] = sides.get(q, 0) + 1
                if n == 4:
                    self.surrounded.add(q)
            else:
                self._join(placed, other, edge)

        ring = self.cloister_ring
        closed: list[int] = []
        for cloister in self.watched.pop(pos, ()):
            ring[cloister] += 1
            if ring[cloister] == 8:
                closed.append(self.cloister_segment[cloister])
        if tile.cloister_segment >= 0:
            self.cloister_segment[pos] = base + tile.cloister_segment
            ring[pos] = self.cloister_neighbours(pos)
            if ring[pos] == 8:
                closed.append(base + tile.cloister_segment)
            watched = self.watched
            for dx, dy in RING_OFFSETS:
                q = (x + dx, y + dy)
                if q not in at:
                    watched.setdefault(q, []).append(pos)
        if closed:
            self.ring_closed[pos] = closed
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
        mine_halves, their_halves = placed.orientation.half_segment, other.orientation.half_segment
        for half in EDGE_HALVES[edge]:
            mine = mine_halves[half]
            if mine >= 0:
                theirs = their_halves[HALF_OPPOSITE[half]]
                if theirs >= 0:
                    graph.union(placed.base + mine, other.base + theirs)
        mine = placed.edge_segment[edge]
        theirs = other.edge_segment[(edge + 2) & 3]
        # A segment against nothing (a mismatch a part's extra segment mends) stays open here.
        if mine >= 0 and theirs >= 0:
            graph.join_edge(mine, theirs)
        # A wildcard edge closes the road or city that meets it.
        elif theirs >= 0 and placed.edge_codes[edge] == WILD_EDGE:
            graph.close(theirs)
        elif mine >= 0 and other.edge_codes[(edge + 2) & 3] == WILD_EDGE:
            graph.close(mine)

    def cloister_neighbours(self, pos: Pos) -> int:
        x, y = pos
        at = self.at
        return sum(1 for dx, dy in RING_OFFSETS if (x + dx, y + dy) in at)

    def cloisters_completed_by(self, pos: Pos) -> list[int]:
        """Segment ids of the cloisters whose ring the tile at `pos` closed (R-BASE-5)."""
        return self.ring_closed.get(pos, [])

    def add_segment(self, pos: Pos, kind: Kind, edges: tuple[int, ...], code: int, name: str) -> int:
        """A part lays a segment of `kind` on the placed tile at `pos` reaching `edges`, which the
        board then shows as `code`; it joins what continues it across those edges. Trusts its
        input like `place`. Returns the new segment's id."""
        placed = self.at[pos]
        sid = self.graph.add_segment(kind, placed.index, len(edges))
        placed.extra.append((name, sid, kind))
        placed.located = None
        for edge in edges:
            placed.edge_segment[edge] = sid
            placed.edge_codes[edge] = code
            q = neighbour(pos, edge)
            other = self.at.get(q)
            if other is None:
                shift = EDGE_BITS * opposite(edge)
                self._set_open(q, (self.open[q] & ~(EDGE_MASK << shift)) | (code << shift))
            else:
                self.graph.join_edge(sid, other.edge_segment[opposite(edge)])
        return sid
