"""Tile types, their segments and their four orientations, all computed once at import.

Placement is matched with small integers: each edge kind has a 2-bit code and a tile
orientation packs its four edges into one byte, so an open board position's constraint (the
edges its placed neighbours impose, 0 where nobody does) is matched by a mask and a compare.
"""

from __future__ import annotations

from collections import Counter
from enum import IntEnum
from typing import Final

import msgspec

from domain.catalogue import SETS, START_TILE
from domain.geometry import (
    EDGE_BY_NAME,
    EDGE_NAMES,
    HALF_BY_NAME,
    HALF_NAMES,
    rotate_edge,
    rotate_half,
)


class Kind(IntEnum):
    CITY = 0
    ROAD = 1
    FIELD = 2
    CLOISTER = 3
    OTHER = 4  # a feature a set defines: named by `Segment.name`


KIND_NAMES: Final = ("city", "road", "field", "cloister", "other")
_BASE_KINDS: Final = {"city": Kind.CITY, "road": Kind.ROAD, "field": Kind.FIELD, "cloister": Kind.CLOISTER}

# 3-bit codes of edge kinds in placement constraints; 0 means "no constraint". A wildcard edge
# (``*``) has code 0 too: it matches anything, so a tile's wildcard edges are left out of the match.
EDGE_BITS: Final = 3
EDGE_MASK: Final = (1 << EDGE_BITS) - 1
EDGE_CODE: Final = {"C": 1, "R": 2, "F": 3, "W": 4, "*": 0}
CITY_EDGE: Final = 1
ROAD_EDGE: Final = 2
FIELD_EDGE: Final = 3
WATER_EDGE: Final = 4
WILD_EDGE: Final = 0


class Segment(msgspec.Struct, frozen=True):
    """One feature part printed on a tile, in the tile's unrotated orientation."""

    kind: Kind
    edges: tuple[int, ...] = ()  # cities, roads and other features: the edges they reach
    halves: tuple[int, ...] = ()  # fields: the half-edges they reach
    borders: tuple[int, ...] = ()  # fields: indices of the tile's city segments they touch
    pennants: int = 0
    flags: tuple[str, ...] = ()  # words a set reads (see `domain.catalogue`)
    name: str = ""  # Kind.OTHER: what feature it is


class Orientation(msgspec.Struct, frozen=True):
    """A tile type turned by `rotation` degrees clockwise, with look-ups for placing it."""

    tile_id: str
    rotation: int
    code: int  # the four edge codes packed, edge e at bits 3e..3e+2
    edge_codes: tuple[int, int, int, int]
    edge_segment: tuple[int, int, int, int]  # segment index reaching each edge, -1 for fields
    half_segment: tuple[int, ...]  # field segment index at each half-edge, -1 where none
    names: tuple[str, ...]  # each segment's location name in board orientation
    by_name: dict[str, int]


FeatureSeed = tuple[Kind, int, int, tuple[int, ...], dict[str, int] | None]


class TileType(msgspec.Struct, frozen=True):
    id: str
    expansion: str
    count: int
    edges: str  # unrotated edge kinds, e.g. "CRFR"
    segments: tuple[Segment, ...]
    cloister_segment: int  # index of the cloister segment, -1 if none
    tags: frozenset[str]  # one-word clauses a set reads
    orientations: tuple[Orientation, Orientation, Orientation, Orientation]
    # What each segment's feature starts with on the board: kind, open edges, pennants, the
    # indices of the cities a field touches, its flags counted (None without any).
    seeds: tuple[FeatureSeed, ...] = ()

    @property
    def cloister(self) -> bool:
        return self.cloister_segment >= 0

    @property
    def signature(self) -> int:
        return self.orientations[0].code

    def orientation(self, rotation: int) -> Orientation:
        return self.orientations[rotation // 90]


def _parse_segment(clause: str, cities: list[tuple[str, int]]) -> Segment:
    words = clause.split()
    head = words[0]
    kind = _BASE_KINDS.get(head, Kind.OTHER)
    if kind == Kind.CLOISTER:
        return Segment(kind=kind, flags=tuple(words[1:]))
    where, flags = words[1], words[2:]
    pennants = flags.count("pennant")
    rest = tuple(f for f in flags if f != "pennant")
    if kind == Kind.FIELD:
        halves_text, _, borders_text = where.partition(">")
        inner = halves_text.startswith("inner")  # a field touching no edge: inner, inner2…
        halves = () if inner else tuple(HALF_BY_NAME[h] for h in halves_text.split("+"))
        city_index = dict(cities)
        borders = tuple(city_index[c] for c in borders_text.split(",")) if borders_text else ()
        return Segment(
            kind=kind, halves=halves, borders=borders, flags=rest, name=halves_text if inner else ""
        )
    edges = () if where == "-" else tuple(EDGE_BY_NAME[e] for e in where.split("+"))
    return Segment(
        kind=kind, edges=edges, pennants=pennants, flags=rest, name="" if kind != Kind.OTHER else head
    )


def segment_name(segment: Segment, quarters: int) -> str:
    """Location name of a segment in board orientation, e.g. ``N+W``, ``Sw+Ws``, ``cloister``."""
    if segment.kind == Kind.CLOISTER:
        return "cloister"
    if segment.kind == Kind.OTHER and not segment.edges:
        return segment.name
    if segment.kind == Kind.FIELD:
        if not segment.halves:
            return segment.name
        return "+".join(HALF_NAMES[h] for h in sorted(rotate_half(h, quarters) for h in segment.halves))
    return "+".join(EDGE_NAMES[e] for e in sorted(rotate_edge(e, quarters) for e in segment.edges))


def _orient(tile_id: str, edges: str, segments: tuple[Segment, ...], quarters: int) -> Orientation:
    edge_codes = [0, 0, 0, 0]
    edge_segment = [-1, -1, -1, -1]
    half_segment = [-1] * 8
    for e, letter in enumerate(edges):
        edge_codes[rotate_edge(e, quarters)] = EDGE_CODE[letter]
    for index, seg in enumerate(segments):
        for e in seg.edges:
            edge_segment[rotate_edge(e, quarters)] = index
        for h in seg.halves:
            half_segment[rotate_half(h, quarters)] = index
    names = tuple(segment_name(seg, quarters) for seg in segments)
    code = sum(c << (EDGE_BITS * e) for e, c in enumerate(edge_codes))
    return Orientation(
        tile_id=tile_id,
        rotation=quarters * 90,
        code=code,
        edge_codes=(edge_codes[0], edge_codes[1], edge_codes[2], edge_codes[3]),
        edge_segment=(edge_segment[0], edge_segment[1], edge_segment[2], edge_segment[3]),
        half_segment=tuple(half_segment),
        names=names,
        by_name={name: i for i, name in enumerate(names)},
    )


def _parse_line(line: str, expansion: str) -> TileType:
    tile_id, count, edges, rest = line.split(None, 3)
    segments: list[Segment] = []
    cities: list[tuple[str, int]] = []
    tags: set[str] = set()
    for clause in (c.strip() for c in rest.split(";")):
        if " " not in clause and clause not in _BASE_KINDS:
            tags.add(clause)
            continue
        seg = _parse_segment(clause, cities)
        if seg.kind == Kind.CITY:
            cities.append((clause.split()[1], len(segments)))
        segments.append(seg)
    return tile_type(tile_id, expansion, int(count), edges, tuple(segments), frozenset(tags))


def tile_type(
    tile_id: str,
    expansion: str,
    count: int,
    edges: str,
    segments: tuple[Segment, ...],
    tags: frozenset[str],
) -> TileType:
    """A tile type from its parts, its four orientations and its features' seeds computed: a line
    of the catalogue, or a part's own version of a tile (`domain.part.Part.tile_as`)."""
    cloister_segment = max((i for i, seg in enumerate(segments) if seg.kind == Kind.CLOISTER), default=-1)
    o0, o1, o2, o3 = (_orient(tile_id, edges, segments, q) for q in range(4))
    return TileType(
        id=tile_id,
        expansion=expansion,
        count=count,
        edges=edges,
        segments=segments,
        cloister_segment=cloister_segment,
        tags=tags,
        orientations=(o0, o1, o2, o3),
        seeds=tuple(
            (seg.kind, len(seg.edges), seg.pennants, seg.borders, dict(Counter(seg.flags)) or None)
            for seg in segments
        ),
    )


def _load() -> dict[str, TileType]:
    tiles: dict[str, TileType] = {}
    for expansion, text in SETS.items():
        for line in text.strip().splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            tile = _parse_line(line, expansion)
            tiles[tile.id] = tile
    return tiles


TILES: Final[dict[str, TileType]] = _load()
EXPANSIONS: Final = tuple(SETS)


def tile(tile_id: str) -> TileType:
    """The tile type with this JCloisterZone id; KeyError names unknown ids."""
    try:
        return TILES[tile_id]
    except KeyError:
        raise KeyError(f"unknown tile id {tile_id!r}") from None


def tiles_of(expansions: tuple[str, ...]) -> list[str]:
    """Every tile copy of the given sets, in a stable order, the start tile included."""
    ids: list[str] = []
    for t in TILES.values():
        if t.expansion in expansions:
            ids.extend([t.id] * t.count)
    return ids


def draw_pile(expansions: tuple[str, ...], start: str = START_TILE) -> list[str]:
    """The tiles to shuffle into the draw pile: every copy except one start tile (R-BASE-2)."""
    pile = tiles_of(expansions)
    if start in pile:
        pile.remove(start)
    return pile


# fits(tile, constraint) cache: key = tile signature << 12 | constraint. Tile types with the
# same edges share entries, and only the constraints that occur get computed.
FITS: dict[int, tuple[int, ...]] = {}


def rotations_fitting(tile_type: TileType, constraint: int) -> tuple[int, ...]:
    """Rotations (degrees) in which `tile_type` matches every edge fixed by `constraint`."""
    key = (tile_type.signature << 12) | constraint
    found = FITS.get(key)
    if found is None:
        found = tuple(o.rotation for o in tile_type.orientations if _matches(o, constraint))
        FITS[key] = found
    return found


def _matches(o: Orientation, constraint: int) -> bool:
    """Every edge the constraint fixes shows the same kind, or is a wildcard of the tile."""
    for edge in range(4):
        theirs = (constraint >> (EDGE_BITS * edge)) & EDGE_MASK
        mine = o.edge_codes[edge]
        if theirs and mine != WILD_EDGE and mine != theirs:
            return False
    return True
