"""The tile catalogue against the fact table in shared/reference/tiles.md, and tile invariants.

EXPECTED below is our own transcription of that table (unrotated tiles), in a compact form:
count, edges N E S W, city segments, road segments, field segments, and flags. Segments are
separated by ";"; a segment's edges or halves are joined by "+"; a field lists after ">" the
city segments it borders, separated by ","; "inner" is a field that touches no edge.
Flags: "P" a pennant, "L" cloister, "B" bazaar, "inn@S" an inn on road S, "wine@N+W" goods
on city N+W, "angular@W" a one-edge city that is not a semicircle.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

import pytest

from domain.catalogue import START_TILE
from domain.geometry import (
    EDGE_NAMES,
    HALF_NAMES,
    HALF_OPPOSITE,
    ROTATIONS,
    opposite,
    rotate_edge,
    rotate_half,
)
from domain.tiles import (
    EDGE_CODE,
    TILES,
    Kind,
    Segment,
    TileType,
    draw_pile,
    segment_name,
    tiles_of,
)


class Row(NamedTuple):
    copies: int
    edges: str
    cities: str
    roads: str
    fields: str
    flags: str = ""


ALL8 = "Nw+Ne+En+Es+Se+Sw+Ws+Wn"

EXPECTED: dict[str, Row] = {
    # base game (R-BASE-2: one BA/RCr is the start tile)
    "BA/L": Row(4, "FFFF", "", "", ALL8, "L"),
    "BA/LR": Row(2, "FFRF", "", "S", ALL8, "L"),
    "BA/RCr": Row(4, "CRFR", "N", "E+W", "En+Wn>N; Es+Se+Sw+Ws"),
    "BA/Cccc+": Row(1, "CCCC", "N+E+S+W", "", "", "P"),
    "BA/CccR+": Row(2, "CCRC", "N+E+W", "S", "Se>N+E+W; Sw>N+E+W", "P"),
    "BA/CccR": Row(1, "CCRC", "N+E+W", "S", "Se>N+E+W; Sw>N+E+W"),
    "BA/CFc+": Row(2, "FCFC", "E+W", "", "Nw+Ne>E+W; Se+Sw>E+W", "P"),
    "BA/CFc.1": Row(1, "FCFC", "E+W", "", "Nw+Ne>E+W; Se+Sw>E+W"),
    "BA/Cc.1": Row(3, "CFFC", "N+W", "", "En+Es+Se+Sw>N+W"),
    "BA/Cc+": Row(2, "CFFC", "N+W", "", "En+Es+Se+Sw>N+W", "P"),
    "BA/CcRr": Row(3, "CRRC", "N+W", "E+S", "En+Sw>N+W; Es+Se"),
    "BA/CcRr+": Row(2, "CRRC", "N+W", "E+S", "En+Sw>N+W; Es+Se", "P"),
    "BA/Ccc": Row(3, "CCFC", "N+E+W", "", "Se+Sw>N+E+W"),
    "BA/Ccc+": Row(1, "CCFC", "N+E+W", "", "Se+Sw>N+E+W", "P"),
    "BA/CRr": Row(3, "CRRF", "N", "E+S", "En+Sw+Ws+Wn>N; Es+Se"),
    "BA/RrC": Row(3, "CFRR", "N", "S+W", "Wn+En+Es+Se>N; Ws+Sw"),
    "BA/CRRR": Row(3, "CRRR", "N", "E; S; W", "Wn+En>N; Ws+Sw; Es+Se"),
    "BA/C": Row(5, "CFFF", "N", "", "En+Es+Se+Sw+Ws+Wn>N"),
    "BA/CFC.2": Row(3, "CFCF", "N; S", "", "En+Es+Ws+Wn>N,S"),
    "BA/CC.2": Row(2, "CFFC", "N; W", "", "En+Es+Se+Sw>N,W"),
    "BA/RRRR": Row(1, "RRRR", "", "N; E; S; W", "Wn+Nw; Ne+En; Es+Se; Sw+Ws"),
    "BA/RRR": Row(4, "FRRR", "", "E; S; W", "Wn+Nw+Ne+En; Es+Se; Sw+Ws"),
    "BA/Rr": Row(9, "FFRR", "", "S+W", "Wn+Nw+Ne+En+Es+Se; Sw+Ws"),
    "BA/RFr": Row(8, "FRFR", "", "E+W", "Wn+Nw+Ne+En; Es+Se+Sw+Ws"),
    # Bridges, Castles & Bazaars
    "BB/Cccc.b": Row(2, "CCCC", "N+E+S+W", "", "", "B"),
    "BB/CFc.b": Row(1, "FCFC", "E+W", "", "Nw+Ne>E+W; Se+Sw>E+W", "B"),
    "BB/CFR.b": Row(1, "CFRF", "N", "S", "En+Es+Se+Sw+Ws+Wn>N", "B"),
    "BB/F.b": Row(1, "FFFF", "", "", ALL8, "B"),
    "BB/R.bi": Row(1, "FFRF", "", "S", ALL8, "B inn@S"),
    "BB/RFR.b": Row(1, "RFRF", "", "N; S", "Sw+Ws+Wn+Nw; Ne+En+Es+Se", "B"),
    "BB/RFR.bi": Row(1, "RFRF", "", "N; S", "Sw+Ws+Wn+Nw; Ne+En+Es+Se", "B inn@S"),
    "BB/CCCR": Row(1, "CCRC", "W; N; E", "S", "Sw>W,N,E; Se>E"),
    "BB/CFR!": Row(1, "FRFC", "W", "E", "Nw+Ne>W; En>W; Es+Se+Sw>W", "angular@W"),
    "BB/LCFc": Row(1, "FCFC", "E+W", "", "Nw+Ne>E+W; Se+Sw>E+W", "L"),
    "BB/LRFr": Row(1, "FRFR", "", "E+W", "Wn+Nw+Ne+En; Es+Se+Sw+Ws", "L"),
    # Traders & Builders
    "TB/Cc.g": Row(1, "CFFC", "N+W", "", "En+Es+Se+Sw>N+W", "grain@N+W"),
    "TB/Cc.w": Row(1, "CFFC", "N+W", "", "En+Es+Se+Sw>N+W", "wine@N+W"),
    "TB/Ccc.g": Row(1, "CCFC", "N+E+W", "", "Se+Sw>N+E+W", "grain@N+E+W"),
    "TB/CFc.w": Row(1, "FCFC", "E+W", "", "Nw+Ne>E+W; Se+Sw>E+W", "wine@E+W"),
    "TB/CCc.c": Row(1, "FCCC", "E+W; S", "", "Nw+Ne>E+W; inner>E+W,S", "cloth@E+W"),
    "TB/CCc.w": Row(1, "FCCC", "E+W; S", "", "Nw+Ne>E+W; inner>E+W,S", "wine@E+W"),
    "TB/CcCC.c": Row(1, "CCCC", "N+W; S; E", "", "inner>N+W,E,S", "cloth@N+W"),
    "TB/CcCc.w": Row(1, "CCCC", "N+W; E+S", "", "inner>N+W,E+S", "wine@N+W"),
    "TB/CcRR.w": Row(1, "CRRC", "N+W", "E; S", "Sw>N+W; Se+Es>N+W; En>N+W", "wine@N+W"),
    "TB/CcRR!.c": Row(1, "CRRC", "N+W", "E; S", "Sw>N+W; Se>N+W; Es>N+W; En>N+W", "cloth@N+W"),
    "TB/CcRC.c": Row(1, "CRCC", "N+W; S", "E", "En>N+W; Es>N+W,S", "cloth@N+W"),
    "TB/CcRC.g": Row(1, "CRCC", "N+W; S", "E", "En>N+W; Es>N+W,S", "grain@N+W"),
    "TB/CcR.c": Row(1, "CRFC", "N+W", "E", "En>N+W; Es+Se+Sw>N+W", "cloth@N+W"),
    "TB/CcR!.w": Row(1, "CRFC", "N+W", "E", "En>N+W; Es>N+W; Se+Sw>N+W", "wine@N+W"),
    "TB/CccR.w": Row(1, "CCRC", "N+E+W", "S", "Sw>N+E+W; Se>N+E+W", "wine@N+E+W"),
    "TB/CRc.g": Row(1, "FCRC", "E+W", "S", "Nw+Ne>E+W; Sw>E+W; Se>E+W", "grain@E+W"),
    "TB/CRc.w": Row(1, "FCRC", "E+W", "S", "Nw+Ne>E+W; Sw>E+W; Se>E+W", "wine@E+W"),
    "TB/CRcR.w": Row(1, "RCRC", "E+W", "N; S", "Nw>E+W; Ne>E+W; Se>E+W; Sw>E+W", "wine@E+W"),
    "TB/RCc.g": Row(1, "CFRC", "N+W", "S", "Sw>N+W; Se+En+Es>N+W", "grain@N+W"),
    "TB/RCc!.g": Row(1, "CFRC", "N+W", "S", "Sw>N+W; Se>N+W; En+Es>N+W", "grain@N+W"),
    "TB/CR": Row(1, "CRFF", "N", "E", "En>N; Es+Se+Sw+Ws+Wn>N"),
    "TB/RRC": Row(1, "CFRR", "N", "W; S", "Wn>N; Ws+Sw; En+Es+Se>N"),
    "TB/LRRR": Row(1, "FRRR", "", "E; S; W", "Wn+Nw+Ne+En; Es+Se; Ws+Sw", "L"),
    "TB/RRrr": Row(1, "RRRR", "", "N+S; E+W", "Wn+Nw; Ne+En; Es+Se; Sw+Ws"),
}

ALL_IDS = sorted(EXPECTED)  # the three sets this table covers

EdgeSet = frozenset[str]


def _parts(text: str) -> list[str]:
    return [p.strip() for p in text.split(";") if p.strip()]


def _names(text: str) -> EdgeSet:
    return frozenset() if text == "inner" else frozenset(text.split("+"))


Segments = tuple[set[EdgeSet], set[EdgeSet], set[tuple[EdgeSet, frozenset[EdgeSet]]]]


def expected_segments(row: Row) -> Segments:
    cities = {_names(c) for c in _parts(row.cities)}
    roads = {_names(r) for r in _parts(row.roads)}
    fields = set()
    for f in _parts(row.fields):
        halves, _, borders = f.partition(">")
        fields.add((_names(halves), frozenset(_names(b) for b in borders.split(",") if b)))
    return cities, roads, fields


def _edges(seg: Segment) -> EdgeSet:
    return frozenset(EDGE_NAMES[e] for e in seg.edges)


def actual_segments(t: TileType) -> Segments:
    cities = {_edges(s) for s in t.segments if s.kind == Kind.CITY}
    roads = {_edges(s) for s in t.segments if s.kind == Kind.ROAD}
    fields = {
        (
            frozenset(HALF_NAMES[h] for h in s.halves),
            frozenset(_edges(t.segments[b]) for b in s.borders),
        )
        for s in t.segments
        if s.kind == Kind.FIELD
    }
    return cities, roads, fields


# ---------------------------------------------------------------- counts


def _copies(expansion: str) -> int:
    return sum(t.count for t in TILES.values() if t.expansion == expansion)


def test_catalogue_holds_exactly_the_expected_tile_types() -> None:
    assert {t for t in TILES if TILES[t].expansion in ("base", "bcb", "tb")} == set(EXPECTED)
    by_set = Counter(t.expansion for t in TILES.values())
    assert {code: by_set[code] for code in ("base", "bcb", "tb")} == {"base": 24, "bcb": 11, "tb": 24}


def test_base_set_has_72_tiles_including_the_start_tile() -> None:
    assert _copies("base") == 72
    assert len(tiles_of(("base",))) == 72
    assert START_TILE == "BA/RCr"
    assert TILES[START_TILE].expansion == "base"


def _goods(segment: Segment) -> str:
    return next((f.split("=", 1)[1] for f in segment.flags if f.startswith("goods=")), "")


def test_bcb_set_has_12_tiles_8_of_them_bazaars() -> None:
    assert _copies("bcb") == 12
    assert sum(t.count for t in TILES.values() if "bazaar" in t.tags) == 8
    assert all(t.expansion == "bcb" for t in TILES.values() if "bazaar" in t.tags)


def test_tb_set_has_24_tiles_and_goods_wine_9_grain_6_cloth_5() -> None:
    assert _copies("tb") == 24
    goods: Counter[str] = Counter()
    tiles_with_goods = 0
    for t in TILES.values():
        kinds = [_goods(s) for s in t.segments if _goods(s)]
        if kinds:
            assert t.expansion == "tb", t.id
            tiles_with_goods += t.count
        for kind in kinds:
            goods[kind] += t.count
    assert goods == {"wine": 9, "grain": 6, "cloth": 5}
    assert tiles_with_goods == 20


def test_ten_base_tiles_carry_one_pennant_each() -> None:
    first_three = [t for t in TILES.values() if t.expansion in ("base", "bcb", "tb")]
    with_pennant = [t for t in first_three if any(s.pennants for s in t.segments)]
    assert sum(t.count for t in with_pennant) == 10
    assert all(t.expansion == "base" for t in with_pennant)
    assert all(sum(s.pennants for s in t.segments) == 1 for t in with_pennant)


@pytest.mark.parametrize(("expansion", "cloisters"), [("base", 6), ("bcb", 2), ("tb", 1)])
def test_cloister_counts(expansion: str, cloisters: int) -> None:
    tiles = [t for t in TILES.values() if t.expansion == expansion and t.cloister]
    assert sum(t.count for t in tiles) == cloisters


@pytest.mark.parametrize(
    ("expansions", "size"),
    [(("base",), 71), (("base", "bcb"), 83), (("base", "tb"), 95), (("base", "bcb", "tb"), 107)],
)
def test_draw_pile_is_every_tile_but_one_start_tile(expansions: tuple[str, ...], size: int) -> None:
    # R-BASE-2: the start tile is on the board, the rest is the pile.
    pile = draw_pile(expansions)
    assert len(pile) == size
    everything = Counter(tiles_of(expansions))
    everything[START_TILE] -= 1
    assert Counter(pile) == everything


# ---------------------------------------------------------------- per tile type: the table


@pytest.mark.parametrize("tile_id", ALL_IDS)
def test_tile_matches_the_reference_table(tile_id: str) -> None:
    t, row = TILES[tile_id], EXPECTED[tile_id]
    flags = row.flags.split()
    assert t.count == row.copies
    assert t.edges == row.edges
    assert actual_segments(t) == expected_segments(row)
    assert t.cloister == ("L" in flags)
    assert ("bazaar" in t.tags) == ("B" in flags)
    assert sum(s.pennants for s in t.segments) == flags.count("P")
    goods = {f"{_goods(s)}@{'+'.join(sorted(_edges(s), key='NESW'.index))}" for s in t.segments if _goods(s)}
    assert goods == {f for f in flags if f.split("@")[0] in ("wine", "grain", "cloth")}
    inns = {f"inn@{'+'.join(sorted(_edges(s)))}" for s in t.segments if "inn" in s.flags}
    assert inns == {f for f in flags if f.startswith("inn@")}
    angular = {
        f"angular@{'+'.join(sorted(_edges(s)))}"
        for s in t.segments
        if s.kind == Kind.CITY and "angular" in s.flags
    }
    assert angular == {f for f in flags if f.startswith("angular@")}


# ---------------------------------------------------------------- per tile type: structure


@pytest.mark.parametrize("tile_id", ALL_IDS)
def test_tile_structure_is_consistent(tile_id: str) -> None:
    t = TILES[tile_id]
    assert len(t.edges) == 4 and set(t.edges) <= set("CRF")
    cities = [s for s in t.segments if s.kind == Kind.CITY]
    roads = [s for s in t.segments if s.kind == Kind.ROAD]
    fields = [s for s in t.segments if s.kind == Kind.FIELD]
    for e, letter in enumerate(t.edges):
        reached_by_city = sum(e in s.edges for s in cities)
        reached_by_road = sum(e in s.edges for s in roads)
        halves = (2 * e, 2 * e + 1)
        field_halves = [sum(h in s.halves for s in fields) for h in halves]
        if letter == "C":
            assert (reached_by_city, reached_by_road, field_halves) == (1, 0, [0, 0]), EDGE_NAMES[e]
        elif letter == "R":
            assert (reached_by_city, reached_by_road, field_halves) == (0, 1, [1, 1]), EDGE_NAMES[e]
        else:
            assert (reached_by_city, reached_by_road, field_halves) == (0, 0, [1, 1]), EDGE_NAMES[e]

    # A road running through the tile parts the fields: the two halves of each of its edges
    # lie in different fields (R-BASE-9). A dead end need not (BA/LR, BB/CFR.b).
    def field_at(half: int) -> int:
        return next(i for i, s in enumerate(t.segments) if half in s.halves)

    for road in roads:
        if len(road.edges) == 2:
            for e in road.edges:
                assert field_at(2 * e) != field_at(2 * e + 1), EDGE_NAMES[e]
    for s in t.segments:
        if s.kind in (Kind.CITY, Kind.ROAD):
            assert s.edges and len(set(s.edges)) == len(s.edges)
            assert not s.halves and not s.borders
        if s.kind == Kind.FIELD:
            assert len(set(s.halves)) == len(s.halves)
            for b in s.borders:
                assert 0 <= b < len(t.segments)
                assert t.segments[b].kind == Kind.CITY, f"field border {b} is not a city"
        if s.kind != Kind.CITY:
            assert s.pennants == 0 and not _goods(s)
    assert sum(s.kind == Kind.CLOISTER for s in t.segments) == (1 if t.cloister else 0)
    assert t.count >= 1


@pytest.mark.parametrize("tile_id", ALL_IDS)
def test_every_orientation_has_distinct_location_names(tile_id: str) -> None:
    for o in TILES[tile_id].orientations:
        assert len(set(o.names)) == len(o.names), o.names
        assert o.by_name == {name: i for i, name in enumerate(o.names)}


# ---------------------------------------------------------------- rotation

# Our own clockwise quarter turn of location names (independent of domain.geometry).
_TURN = {
    "N": "E",
    "E": "S",
    "S": "W",
    "W": "N",
    "Nw": "En",
    "Ne": "Es",
    "En": "Se",
    "Es": "Sw",
    "Se": "Ws",
    "Sw": "Wn",
    "Ws": "Nw",
    "Wn": "Ne",
    "cloister": "cloister",
    "inner": "inner",
}


def turned(name: str, quarters: int) -> frozenset[str]:
    parts = name.split("+")
    for _ in range(quarters):
        parts = [_TURN[p] for p in parts]
    return frozenset(parts)


def test_rotating_four_times_is_the_identity() -> None:
    for e in range(4):
        assert rotate_edge(rotate_edge(rotate_edge(rotate_edge(e, 1), 1), 1), 1) == e
        assert rotate_edge(e, 4) == e
        assert opposite(opposite(e)) == e
    for h in range(8):
        once = h
        for _ in range(4):
            once = rotate_half(once, 1)
        assert once == h
        assert HALF_OPPOSITE[HALF_OPPOSITE[h]] == h
    for name in _TURN:
        assert turned(name, 4) == frozenset([name])
    for t in TILES.values():
        for seg in t.segments:
            assert segment_name(seg, 4) == segment_name(seg, 0)


@pytest.mark.parametrize("tile_id", ALL_IDS)
def test_orientation_edges_are_the_unrotated_edges_shifted(tile_id: str) -> None:
    t = TILES[tile_id]
    assert [o.rotation for o in t.orientations] == list(ROTATIONS)
    for o in t.orientations:
        q = o.rotation // 90
        assert t.orientation(o.rotation) is o
        for e in range(4):
            # Unrotated edge e faces (e + q) mod 4 after q clockwise quarter turns.
            assert o.edge_codes[(e + q) % 4] == EDGE_CODE[t.edges[e]]
        assert o.code == sum(c << (3 * e) for e, c in enumerate(o.edge_codes))
        for index, seg in enumerate(t.segments):
            for e in seg.edges:
                assert o.edge_segment[(e + q) % 4] == index
            for h in seg.halves:
                assert o.half_segment[(h + 2 * q) % 8] == index
            # The board-oriented name is the unrotated name turned q times.
            assert frozenset(o.names[index].split("+")) == turned(t.orientations[0].names[index], q)


def test_start_tile_names_in_board_orientation() -> None:
    o = TILES[START_TILE].orientation(0)
    assert o.names == ("N", "E+W", "En+Wn", "Es+Se+Sw+Ws")
    turned_90 = TILES[START_TILE].orientation(90)
    assert turned_90.names == ("E", "N+S", "Ne+Se", "Nw+Sw+Ws+Wn")
    assert "".join("?CRF"[c] for c in turned_90.edge_codes) == "RCRF"
