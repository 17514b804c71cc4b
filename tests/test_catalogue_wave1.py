"""The catalogue of Inns & Cathedrals, The River, Abbey & Mayor, Princess & Dragon and The Tower.

The counts and symbols are the published ones; the structure checks are the invariants of
tests/test_catalogue.py, widened to river (``W``) and wildcard (``*``) edges. When a mirror of
JCloisterZone-Client is on this machine (never in CI), every tile of all eight sets is also
re-derived from its XML at test time and compared in full: that is where our lines come from.
"""

from __future__ import annotations

import os
import subprocess
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from domain.geometry import EDGE_NAMES, HALF_NAMES
from domain.sets import SET_CODES as SET_ORDER
from domain.tiles import TILES, Kind, Segment, TileType, draw_pile

WAVE1 = ("ic", "river", "am", "pd", "tower")
WAVE1_IDS = sorted(t.id for t in TILES.values() if t.expansion in WAVE1)
TUNNELS = ("AM/CRcr+", "DG/CRcr.d")  # road N+S under the city E+W (`tunnel="true"` in JCZ)


def _copies(expansion: str) -> int:
    return sum(t.count for t in TILES.values() if t.expansion == expansion)


def _tiles_with(word: str) -> int:
    """Copies of tiles carrying `word` as a tile tag or as a segment flag."""
    return sum(t.count for t in TILES.values() if word in t.tags or any(word in s.flags for s in t.segments))


# ---------------------------------------------------------------- counts


@pytest.mark.parametrize(
    ("expansion", "types", "copies"),
    [("ic", 17, 18), ("river", 10, 12), ("am", 13, 12), ("pd", 29, 30), ("tower", 17, 18)],
)
def test_set_sizes(expansion: str, types: int, copies: int) -> None:
    assert sum(t.expansion == expansion for t in TILES.values()) == types
    assert _copies(expansion) == copies


def test_ids_keep_jcloisterzone_prefixes() -> None:
    prefixes = {"ic": ("IC/",), "river": ("RI/", "RI.1/"), "am": ("AM/",), "pd": ("DG/",), "tower": ("TO/",)}
    for t in TILES.values():
        if t.expansion in prefixes:
            assert t.id.startswith(prefixes[t.expansion]), t.id


def test_inns_and_cathedrals_symbols() -> None:
    assert _tiles_with("cathedral") == 2
    assert _tiles_with("inn") == 6 + 2  # six I&C inns and BCB's two
    assert all(s.kind == Kind.ROAD for t in TILES.values() for s in t.segments if "inn" in s.flags)
    assert all(s.kind == Kind.CITY for t in TILES.values() for s in t.segments if "cathedral" in s.flags)


def test_river_has_one_spring_and_one_lake() -> None:
    springs = [t.id for t in TILES.values() if "spring" in t.tags]
    lakes = [t.id for t in TILES.values() if "lake" in t.tags]
    assert springs == ["RI/s"] and lakes == ["RI.1/I.e"]
    assert TILES["RI/s"].count == TILES["RI.1/I.e"].count == 1
    river = [t for t in TILES.values() if t.expansion == "river"]
    # Every river tile carries water; the spring and the lake end it, the rest run through.
    for t in river:
        rivers = [s for s in t.segments if s.kind == Kind.OTHER and s.name == "river"]
        assert len(rivers) == 1, t.id
        assert len(rivers[0].edges) == (1 if t.tags & {"spring", "lake"} else 2), t.id


def test_abbey_is_held_by_players_not_drawn() -> None:
    abbey = TILES["AM/A"]
    assert abbey.count == 0  # each player holds one (AbbeyCapability), never in the pile
    assert abbey.edges == "****"
    assert abbey.cloister and "abbey" in abbey.tags
    assert [s.kind for s in abbey.segments] == [Kind.CLOISTER]
    assert "AM/A" not in draw_pile(("base", "am"))


def test_princess_and_dragon_symbols() -> None:
    # The published distribution: 6 volcanoes, 12 dragon tiles, 6 magic portals, 6 princesses.
    assert _tiles_with("volcano") == 6
    assert _tiles_with("dragon") == 12
    assert _tiles_with("portal") == 6
    assert _tiles_with("princess") == 6
    assert all(s.kind == Kind.CITY for t in TILES.values() for s in t.segments if "princess" in s.flags)
    for t in TILES.values():  # no tile is two of these at once
        assert len(t.tags & {"volcano", "dragon", "portal"}) <= 1, t.id


def test_every_tower_tile_has_a_foundation() -> None:
    assert _tiles_with("tower") == 18
    assert all("tower" in t.tags for t in TILES.values() if t.expansion == "tower")


def test_pennants_and_cloisters_of_the_new_sets() -> None:
    pennants = Counter[str]()
    cloisters = Counter[str]()
    for t in TILES.values():
        pennants[t.expansion] += t.count * sum(s.pennants for s in t.segments)
        cloisters[t.expansion] += t.count * t.cloister
    assert {code: pennants[code] for code in WAVE1} == {"ic": 3, "river": 0, "am": 6, "pd": 3, "tower": 1}
    assert {code: cloisters[code] for code in WAVE1} == {"ic": 1, "river": 1, "am": 1, "pd": 2, "tower": 1}


# ---------------------------------------------------------------- per tile type: structure


def _in_fields(t: TileType, half: int) -> int:
    return sum(half in s.halves for s in t.segments if s.kind == Kind.FIELD)


@pytest.mark.parametrize("tile_id", WAVE1_IDS)
def test_tile_structure_is_consistent(tile_id: str) -> None:
    t = TILES[tile_id]
    assert len(t.edges) == 4 and set(t.edges) <= set("CRFW*")
    for e, letter in enumerate(t.edges):
        reaching = Counter(
            (s.kind, s.name) for s in t.segments if e in s.edges
        )  # a field reaches half-edges, never whole edges
        halves = [_in_fields(t, 2 * e), _in_fields(t, 2 * e + 1)]
        expected = {
            "C": ({(Kind.CITY, ""): 1}, [0, 0]),
            "R": ({(Kind.ROAD, ""): 1}, [1, 1]),
            "F": ({}, [1, 1]),
            "W": ({(Kind.OTHER, "river"): 1}, [1, 1]),
            "*": ({}, [0, 0]),  # the abbey: nothing crosses its edges
        }[letter]
        assert (dict(reaching), halves) == expected, EDGE_NAMES[e]

    def field_at(half: int) -> int:
        return next(i for i, s in enumerate(t.segments) if half in s.halves)

    # A road or river running through the tile parts the fields on either side of it, except a
    # road JCZ marks as a tunnel under a city: its fields are as JCZ joins them.
    for s in t.segments:
        if s.kind in (Kind.ROAD, Kind.OTHER) and len(s.edges) == 2 and tile_id not in TUNNELS:
            for e in s.edges:
                assert field_at(2 * e) != field_at(2 * e + 1), (s.name or "road", EDGE_NAMES[e])
    for s in t.segments:
        if s.kind in (Kind.CITY, Kind.ROAD):
            assert s.edges and len(set(s.edges)) == len(s.edges)
            assert not s.halves and not s.borders
        if s.kind == Kind.FIELD:
            assert len(set(s.halves)) == len(s.halves)
            assert all(t.segments[b].kind == Kind.CITY for b in s.borders)
        if s.kind != Kind.CITY:
            assert s.pennants == 0
    assert sum(s.kind == Kind.CLOISTER for s in t.segments) == (1 if t.cloister else 0)
    assert t.count >= (0 if "abbey" in t.tags else 1)


@pytest.mark.parametrize("tile_id", WAVE1_IDS)
def test_every_orientation_has_distinct_location_names(tile_id: str) -> None:
    for o in TILES[tile_id].orientations:
        assert len(set(o.names)) == len(o.names), o.names


# ---------------------------------------------------------------- against JCloisterZone's XML

CLIENT = Path(os.environ.get("CARC_JCZ_CLIENT", "/work/.mirror/farin+JCloisterZone-Client/repo"))
XML: dict[str, tuple[str, str]] = {  # our set -> (XML file, the tile set JCZ's setup names)
    "base": ("basic.xml", "basic:1"),
    "bcb": ("bridges_castles_and_bazaars.xml", "bridges-castles-and-bazaars:1"),
    "tb": ("traders_and_builders.xml", "traders-and-builders:1"),
    "ic": ("inns_and_cathedrals.xml", "inns-and-cathedrals:1"),
    "river": ("river.xml", "river/1:1"),
    "am": ("abbey_and_mayor.xml", "abbey-and-mayor:1"),
    "pd": ("princess_and_dragon.xml", "princess-and-dragon:1"),
    "tower": ("tower.xml", "tower:1"),
    "cult": ("cult.xml", "cult/6"),
    "festival": ("festival.xml", "festival"),
    "tunnel": ("tunnel.xml", "tunnel"),
    "gold": ("goldmines.xml", "goldmines"),
    "kr": ("king_and_robber.xml", "king-and-robber:1"),
    "mw": ("mage_and_witch.xml", "mage-and-witch:1"),
    "flier": ("flier.xml", "flier:1"),
    "corn": ("corn_circles.xml", "corn-circles/1"),
    "hs": ("hills_and_sheep.xml", "hills-and-sheep:1"),
    "bigtop": ("under_the_big_top.xml", "under-the-big-top:1"),
    "ferries": ("ferries.xml", "ferries"),
}
_HALVES = {"NL": "Nw", "NR": "Ne", "EL": "En", "ER": "Es", "SL": "Se", "SR": "Sw", "WL": "Ws", "WR": "Wn"}
# Tile elements that are one-word tags of ours (a monastery is our cloister segment).
_TAGS = {
    "volcano": "volcano",
    "dragon": "dragon",
    "portal": "portal",
    "tower": "tower",
    "bazaar": "bazaar",
    "festival": "festival",
    "goldmine": "gold",
    "mage": "magic",  # the magic symbol that moves the mage or the witch
    "hill": "hill",
    "vineyard": "vineyard",
}

Edges = frozenset[str]
Facts = dict[str, object]


def _xml(name: str) -> ET.Element:
    if not (CLIENT / "HEAD").exists():
        pytest.skip(f"no JCloisterZone-Client mirror at {CLIENT}")
    shown = subprocess.run(
        ["git", "-C", str(CLIENT), "show", f"HEAD:src/extraResources/expansions/{name}"],
        capture_output=True,
        check=True,
    )
    return ET.fromstring(shown.stdout)


def _sides(element: ET.Element) -> Edges:
    return frozenset((element.text or "").split())


def _city_words(element: ET.Element, sides: str) -> set[str]:
    words = set()
    if element.get("pennants"):
        words.add(f"pennant{element.get('pennants')}@{sides}")
    for attribute in ("cathedral", "princess"):
        if element.get(attribute) == "true":
            words.add(f"{attribute}@{sides}")
    if element.get("castle-base") == "false":
        words.add(f"angular@{sides}")
    if element.get("resource"):
        words.add(f"goods={element.get('resource')}@{sides}")
    return words


def xml_facts(tile: ET.Element) -> Facts:
    """What a JCZ tile definition says, in terms our catalogue can be compared with."""
    cities = [_sides(c) for c in tile.findall("city")]
    roads = [_sides(r) for r in tile.findall("road")]
    rivers = [_sides(r) for r in tile.findall("river")]
    fields = set()
    for f in tile.findall("field"):
        names = (f.text or "").split()
        halves = frozenset() if names in (["I"], ["II"]) else frozenset(_HALVES[h] for h in names)
        # A field names each city it borders by one of that city's edges.
        borders = frozenset(next(c for c in cities if side in c) for side in f.get("city", "").split())
        fields.add((halves, borders))
    edges = "".join(
        "C"
        if any(side in c for c in cities)
        else "R"
        if any(side in r for r in roads)
        else "W"
        if any(side in r for r in rivers)
        else "F"
        for side in "NESW"
    )
    words: set[str] = set()
    for c in tile.findall("city"):
        words |= _city_words(c, "+".join(sorted(_sides(c))))
    for r in tile.findall("road"):
        if r.get("inn") == "true":
            words.add(f"inn@{'+'.join(sorted(_sides(r)))}")
    for machine in tile.findall("flying-machine"):
        words.add(f"flier to={machine.get('direction')}")
    tags = {_TAGS[child.tag] for child in tile if child.tag in _TAGS}
    if tile.find("monastery") is not None:
        tags.add("cloister")
    return {
        "edges": edges,
        "cities": Counter(cities),
        "roads": Counter(roads),
        "rivers": Counter(rivers),
        "fields": fields,
        "words": words,
        "tags": tags,
    }


def _edges(s: Segment) -> Edges:
    return frozenset(EDGE_NAMES[e] for e in s.edges)


def our_facts(t: TileType) -> Facts:
    words: set[str] = set()
    for s in t.segments:
        sides = "+".join(sorted(_edges(s)))
        if s.pennants:
            words.add(f"pennant{s.pennants}@{sides}")
        words |= {
            f"{flag}@{sides}" for flag in s.flags if flag in ("cathedral", "princess", "angular", "inn")
        }
        words |= {f"{flag}@{sides}" for flag in s.flags if flag.startswith("goods=")}
        if s.kind == Kind.OTHER and s.name == "flier":
            words |= {f"flier {flag}" for flag in s.flags}
    tags = set(t.tags) & set(_TAGS.values())
    if t.cloister:
        tags.add("cloister")
    return {
        "edges": t.edges,
        "cities": Counter(_edges(s) for s in t.segments if s.kind == Kind.CITY),
        "roads": Counter(_edges(s) for s in t.segments if s.kind == Kind.ROAD),
        "rivers": Counter(_edges(s) for s in t.segments if s.kind == Kind.OTHER and s.name == "river"),
        "fields": {
            (frozenset(HALF_NAMES[h] for h in s.halves), frozenset(_edges(t.segments[b]) for b in s.borders))
            for s in t.segments
            if s.kind == Kind.FIELD
        },
        "words": words,
        "tags": tags,
    }


def test_the_comparison_covers_every_set() -> None:
    assert set(XML) == set(SET_ORDER)


@pytest.mark.parametrize("expansion", SET_ORDER)
def test_catalogue_matches_jcloisterzone_xml(expansion: str) -> None:
    name, tile_set = XML[expansion]
    root = _xml(name)
    definitions = {t.get("id"): t for t in root.iter("tile")}
    chosen = next(s for s in root.iter("tile-set") if s.get("id") == tile_set)
    counts = {str(ref.get("tile")): int(ref.get("count", "1")) for ref in chosen.findall("ref")}
    ours = {t.id: t for t in TILES.values() if t.expansion == expansion and t.count > 0}
    assert set(ours) == set(counts)
    for tile_id, count in counts.items():
        definition = definitions[tile_id]
        limit = definition.get("max")
        assert ours[tile_id].count == min(count, int(limit) if limit else count), tile_id
        assert our_facts(ours[tile_id]) == xml_facts(definition), tile_id
