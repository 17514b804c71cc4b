"""The tile files of the eleven sets after the first eight, before they are registered.

Each new ``.tiles`` file is read line by line with the catalogue's own parser. The counts are
the ones JCloisterZone's tile sets select (the set ids its setup names, e.g. ``cult/6``); the
symbols are checked one word at a time; the saves of ``oracle-wave2`` must only place tiles we
know, with edges that give exactly the placements JCloisterZone listed as legal, and every
follower or token they put on a new tile must land on one of our segments. When a mirror of
JCloisterZone-Client is on this machine, every line is also re-derived from its XML.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import xml.etree.ElementTree as ET
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from domain.geometry import EDGE_NAMES, EDGE_OFFSETS, HALF_NAMES, Pos
from domain.tiles import KIND_NAMES, TILES, Kind, Segment, TileType, _parse_line
from tests.reference import jcz_files, require

CATALOGUE = Path(__file__).resolve().parents[1] / "domain" / "catalogue"
WAVE2 = ("hs", "kr", "mw", "tunnel", "cult", "gold", "corn", "bigtop", "ferries", "festival", "flier")
# our code -> (JCloisterZone's tile set, id prefix, tile types, copies), as derived from the XML
SETS: dict[str, tuple[str, str, int, int]] = {
    "hs": ("hills-and-sheep:1", "HS/", 16, 18),
    "kr": ("king-and-robber:1", "KR/", 5, 5),
    "mw": ("mage-and-witch:1", "MW/", 8, 8),
    "tunnel": ("tunnel", "TU/", 4, 4),
    "cult": ("cult/6", "CU/", 6, 6),
    "gold": ("goldmines", "GO/", 8, 8),
    "corn": ("corn-circles/1", "CC.1/", 6, 6),
    "bigtop": ("under-the-big-top:1", "BT/", 16, 20),
    "ferries": ("ferries", "FR/", 3, 8),
    "festival": ("festival", "FE/", 10, 10),
    "flier": ("flier:1", "FL/", 8, 8),
}
SAVES = jcz_files("oracle-wave2")


def _lines(code: str) -> list[str]:
    text = (CATALOGUE / f"{code}.tiles").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


@cache
def new_tiles(code: str) -> tuple[TileType, ...]:
    return tuple(_parse_line(line, code) for line in _lines(code))


@cache
def every_tile() -> dict[str, TileType]:
    """The registered sets and the new files together, by id."""
    found = dict(TILES)
    for code in WAVE2:
        found.update((t.id, t) for t in new_tiles(code))
    return found


def _copies_with(word: str) -> int:
    """Copies of new tiles carrying `word` as a tile tag or as a segment flag."""
    return sum(
        t.count
        for code in WAVE2
        for t in new_tiles(code)
        if word in t.tags or any(word in s.flags for s in t.segments)
    )


def _edges(s: Segment) -> str:
    return "+".join(EDGE_NAMES[e] for e in s.edges)


def describe(t: TileType) -> list[str]:
    """Each segment as it reads in a file: kind or name, place, flags (pennants included)."""
    out: list[str] = []
    for s in t.segments:
        if s.kind == Kind.FIELD:
            place = s.name or "+".join(HALF_NAMES[h] for h in s.halves)
            borders = ",".join(_edges(t.segments[b]) for b in s.borders)
            out.append(f"field {place}" + (f">{borders}" if borders else ""))
            continue
        head = s.name if s.kind == Kind.OTHER else KIND_NAMES[s.kind]
        place = "" if s.kind == Kind.CLOISTER else f" {_edges(s) or '-'}"
        words = ["pennant"] * s.pennants + list(s.flags)
        out.append(head + place + "".join(f" {w}" for w in words))
    return out


# ---------------------------------------------------------------- the files


@pytest.mark.parametrize("code", WAVE2)
def test_set_sizes_and_headers(code: str) -> None:
    tile_set, prefix, types, copies = SETS[code]
    tiles = new_tiles(code)
    assert len(tiles) == types
    assert sum(t.count for t in tiles) == copies
    assert all(t.id.startswith(prefix) and t.count >= 1 for t in tiles)
    header = (CATALOGUE / f"{code}.tiles").read_text(encoding="utf-8").splitlines()[0]
    match = re.match(r"# .+ \(JCloisterZone's (\S+)\): (\d+) tiles", header)
    assert match is not None and match.groups() == (tile_set, str(copies)), header


def test_all_eleven_sets_hold_101_tiles_with_new_ids() -> None:
    assert sum(t.count for code in WAVE2 for t in new_tiles(code)) == 101
    ids = [t.id for code in WAVE2 for t in new_tiles(code)]
    assert len(ids) == len(set(ids))
    # None of them shadows a tile of another set (as each is registered, its own are in TILES).
    assert not set(ids) & {i for i, t in TILES.items() if t.expansion not in WAVE2}


@pytest.mark.parametrize("code", WAVE2)
def test_tile_structure_is_consistent(code: str) -> None:
    for t in new_tiles(code):
        assert len(t.edges) == 4 and set(t.edges) <= set("CRF"), t.id
        for e, letter in enumerate(t.edges):
            reaching = Counter(s.kind for s in t.segments if e in s.edges)
            halves = [
                sum(h in s.halves for s in t.segments if s.kind == Kind.FIELD) for h in (2 * e, 2 * e + 1)
            ]
            expected = {"C": ({Kind.CITY: 1}, [0, 0]), "R": ({Kind.ROAD: 1}, [1, 1]), "F": ({}, [1, 1])}
            assert (dict(reaching), halves) == expected[letter], (t.id, EDGE_NAMES[e])
        for s in t.segments:
            if s.kind == Kind.OTHER:  # the new features sit in the tile's middle
                assert s.name in ("acrobats", "flier") and not s.edges, t.id
            if s.kind == Kind.FIELD:
                assert all(t.segments[b].kind == Kind.CITY for b in s.borders), t.id
        assert sum(s.kind == Kind.CLOISTER for s in t.segments) == (1 if t.cloister else 0)
        for o in t.orientations:
            assert len(set(o.names)) == len(o.names), (t.id, o.names)


# ---------------------------------------------------------------- the new words


def test_how_many_tiles_carry_each_word() -> None:
    words = {
        "hill": 8,
        "vineyard": 8,
        "magic": 8,
        "tunnel": 4,  # tiles with at least one tunnel mouth
        "shrine": 6,
        "gold": 8,
        "corn=city": 2,
        "corn=road": 2,
        "corn=field": 2,
        "circus": 12,
        "ferry": 8,
        "lake": 8,
        "festival": 10,
        "to=W": 5,
        "to=NW": 3,
    }
    assert {word: _copies_with(word) for word in words} == words
    acrobats = sum(t.count for t in new_tiles("bigtop") if any(s.name == "acrobats" for s in t.segments))
    assert acrobats == 8 and acrobats + _copies_with("circus") == 20  # every Big Top tile is one or the other
    ends = Counter[str]()
    for code in ("tunnel", "ferries"):
        for t in new_tiles(code):
            for s in t.segments:
                for flag in ("tunnel", "lake"):
                    if flag in s.flags:  # a road end, never a road running through
                        assert s.kind == Kind.ROAD and len(s.edges) == 1, t.id
                        ends[flag] += t.count
    assert ends == {"tunnel": 10, "lake": 25}


# One tile per new word, as the parser reads it back: count, edges, tags, then each segment.
EXACT = {
    "HS/RR.h": "1 FFRR hill; road W wagon=a; road S wagon=a; field Nw+Ne+En+Es+Se+Wn; field Sw+Ws",
    "HS/C!.v": "2 CFFF vineyard; city N angular; field Sw+Ws+Wn>N; field En+Es+Se>N",
    "HS/CC!.v": "2 CCFC vineyard; city N+W; city E shares=N; field Se+Sw>N+W,E",
    "KR/CCcc": "1 CCCC city E+W; city N+S; field inner>E+W,N+S; field inner2>E+W,N+S",
    "MW/CRcR": (
        "1 RCRC magic; city E+W wagon=a wagon=b; road N wagon=a; road S wagon=b;"
        " field Nw>E+W; field Ne>E+W; field Se>E+W; field Sw>E+W"
    ),
    "TU/RRRR": (
        "1 RRRR road N; road W tunnel; road E tunnel; road S tunnel;"
        " field Nw+Ne+En+Wn; field Es+Se; field Sw+Ws"
    ),
    "CU/SRFR": (
        "1 RFRF cloister shrine wagon=a wagon=b; road N wagon=a; road S wagon=b;"
        " field Nw+Sw+Ws+Wn; field Ne+En+Es+Se"
    ),
    "GO/LRrRr": "1 RRRR gold; cloister; road N+E; road S+W; field Ne+En; field Sw+Ws; field Nw+Es+Se+Wn",
    "CC.1/RRR": "1 RFRR corn=road; road N; road W; road S; field Ne+En+Es+Se; field Sw+Ws; field Nw+Wn",
    "BT/crrc.bt": "1 CRRC circus; city N+W; road E; road S; field En>N+W; field Es+Se; field Sw>N+W",
    "BT/rrrf.ac": "1 RRRF acrobats -; road N; road E; road S; field Nw+Sw+Ws+Wn; field Ne+En; field Es+Se",
    "FR/CRRR": (
        "3 CRRR ferry; city N; road W lake; road S lake; road E lake; field En+Wn>N; field Es+Se; field Sw+Ws"
    ),
    "FE/CCc": "1 FCCC festival; city E+W; city S; field Nw+Ne>E+W; field inner>E+W,S",
    "FL/Rr.NW.o": "1 RFFR flier - to=W; road N+W; field Nw+Wn; field Ne+En+Es+Se+Sw+Ws",
}


@pytest.mark.parametrize("tile_id", EXACT)
def test_one_tile_per_new_word(tile_id: str) -> None:
    t = every_tile()[tile_id]
    assert f"{t.count} {t.edges} " + "; ".join(sorted(t.tags) + describe(t)) == EXACT[tile_id]


def test_a_follower_on_the_new_middle_features_is_named_by_it() -> None:
    flier = next(t for t in new_tiles("flier") if t.id == "FL/F.d")
    assert [o.names for o in flier.orientations] == [("flier", "Nw+Ne+En+Es+Se+Sw+Ws+Wn")] * 4
    acrobats = next(t for t in new_tiles("bigtop") if t.id == "BT/ffrr.ac")
    assert acrobats.orientations[1].names == ("acrobats", "W", "N", "Ne+En+Es+Se+Sw+Ws", "Nw+Wn")


# ---------------------------------------------------------------- against the reference games


@cache
def _save(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(require(path).read_text(encoding="utf-8"))
    return document


def _quarters(rotation: str | int) -> int:
    degrees = int(rotation[1:]) if isinstance(rotation, str) else rotation
    return degrees // 90


@pytest.mark.parametrize("path", SAVES, ids=lambda p: p.stem)
def test_every_tile_the_saves_place_is_known(path: Path) -> None:
    placed = {m["payload"]["tileId"] for m in _save(path)["replay"] if m["type"] == "PLACE_TILE"}
    assert placed and not placed - set(every_tile())


def test_the_saves_place_every_new_tile_type() -> None:
    placed = {
        m["payload"]["tileId"] for path in SAVES for m in _save(path)["replay"] if m["type"] == "PLACE_TILE"
    }
    ours = {t.id for code in WAVE2 for t in new_tiles(code)}
    assert not ours - placed, sorted(ours - placed)


def _cloister_kind(t: TileType) -> bool | None:
    """None without a cloister; else whether it is a shrine."""
    return "shrine" in t.segments[t.cloister_segment].flags if t.cloister else None


def _ring(pos: Pos) -> list[Pos]:
    return [(pos[0] + dx, pos[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]


def _legal(
    t: TileType, board: dict[Pos, tuple[int, ...]], cloisters: dict[Pos, bool]
) -> set[tuple[int, int, int]]:
    """Where `t` fits by its edges, under Cult Places' rule that a cloister and a shrine may face
    each other only one to one: a new one may have at most one of the other kind around it, and
    that one must have none of the new one's kind around it yet."""
    empty = {(x + dx, y + dy) for (x, y) in board for dx, dy in EDGE_OFFSETS} - set(board)
    found: set[tuple[int, int, int]] = set()
    for pos in empty:
        for o in t.orientations:
            if all(
                (nb := board.get((pos[0] + dx, pos[1] + dy))) is None or nb[(e + 2) % 4] == o.edge_codes[e]
                for e, (dx, dy) in enumerate(EDGE_OFFSETS)
            ):
                found.add((pos[0], pos[1], o.rotation))
    mine = _cloister_kind(t)
    if mine is None:
        return found

    def allowed(pos: Pos) -> bool:
        others = [p for p in _ring(pos) if cloisters.get(p, mine) != mine]
        return not others or (len(others) == 1 and all(cloisters.get(p) != mine for p in _ring(others[0])))

    return {p for p in found if allowed((p[0], p[1]))}


WITHOUT_BRIDGES = [p for p in SAVES if not p.name.startswith("every_set")]


@pytest.mark.parametrize("path", WITHOUT_BRIDGES, ids=lambda p: p.stem)
def test_edges_give_exactly_the_placements_jcloisterzone_listed(path: Path) -> None:
    """Every tile decision of the saves without BCB and the River (bridges widen JCZ's lists, the
    river's course narrows them): our edges give exactly the placements JCZ listed."""
    document = _save(path)
    tiles = every_tile()
    board: dict[Pos, tuple[int, ...]] = {}
    cloisters: dict[Pos, bool] = {}
    for start in document["setup"]["start"]:
        board[(start["x"], start["y"])] = (
            tiles[start["tile"]].orientations[_quarters(start["rotation"])].edge_codes
        )
    decisions = {d["index"]: d for d in document["oracle"]["decisions"] if "placements" in d}
    checked = 0
    for index, message in enumerate(document["replay"]):
        if message["type"] != "PLACE_TILE":
            continue
        payload = message["payload"]
        t = tiles[payload["tileId"]]
        decision = decisions.get(index)
        if decision is not None and decision["tile"] == t.id:
            jcz = {(x, y, r) for x, y, r in decision["placements"]}
            assert _legal(t, board, cloisters) == jcz, (index, t.id)
            checked += 1
        pos = (payload["position"][0], payload["position"][1])
        board[pos] = t.orientations[_quarters(payload["rotation"])].edge_codes
        kind = _cloister_kind(t)
        if kind is not None:
            cloisters[pos] = kind
    assert checked >= 60


_HALVES = {"NL": "Nw", "NR": "Ne", "EL": "En", "ER": "Es", "SL": "Se", "SR": "Sw", "WL": "Ws", "WR": "Wn"}
_MIDDLE = {"Monastery": "cloister", "FlyingMachine": "flier", "Acrobats": "acrobats"}


def our_location(feature: str, location: str) -> str:
    """A JCZ feature pointer's location as our segment name in board orientation."""
    if feature == "Field":
        if location in ("I", "II"):
            return "inner" if location == "I" else "inner2"
        return "+".join(sorted((_HALVES[h] for h in location.split(".")), key=HALF_NAMES.index))
    if location == "I":
        return _MIDDLE[feature]
    return "+".join(sorted(location, key=EDGE_NAMES.index))


@pytest.mark.parametrize("path", SAVES, ids=lambda p: p.stem)
def test_what_lands_on_a_new_tile_lands_on_one_of_our_segments(path: Path) -> None:
    """Followers deployed, tunnel tokens on tunnel mouths, ferries joining two lake ends."""
    tiles = every_tile()
    new = {t.id for code in WAVE2 for t in new_tiles(code)}
    placed: dict[Pos, tuple[TileType, int]] = {}
    landed = Counter[str]()
    for message in _save(path)["replay"]:
        payload = message["payload"]
        if message["type"] == "PLACE_TILE":
            pos = (payload["position"][0], payload["position"][1])
            placed[pos] = (tiles[payload["tileId"]], _quarters(payload["rotation"]))
            continue
        pointer = payload.get("pointer")
        if message["type"] not in ("DEPLOY_MEEPLE", "PLACE_TOKEN") or not isinstance(pointer, dict):
            continue
        t, quarters = placed[(pointer["position"][0], pointer["position"][1])]
        if t.id not in new:
            continue
        o = t.orientations[quarters]
        token = payload.get("token", "")
        if token == "FERRY":
            ends = {o.names[i] for i, s in enumerate(t.segments) if "lake" in s.flags}
            assert len(pointer["location"]) == 2 and set(pointer["location"]) <= ends, (t.id, pointer)
        else:
            index = o.by_name.get(our_location(pointer["feature"], pointer["location"]))
            assert index is not None, (t.id, quarters, pointer, o.names)
            if token.startswith("TUNNEL"):
                assert "tunnel" in t.segments[index].flags, (t.id, pointer)
        landed[token or pointer["feature"]] += 1
    assert landed or not path.name.startswith(("basic_tunnel", "basic_ferries", "basic_bigtop"))


# ---------------------------------------------------------------- against JCloisterZone's XML

CLIENT = Path(os.environ.get("CARC_JCZ_CLIENT", "/work/.mirror/farin+JCloisterZone-Client/repo"))
XML = {
    "hs": "hills_and_sheep.xml",
    "kr": "king_and_robber.xml",
    "mw": "mage_and_witch.xml",
    "tunnel": "tunnel.xml",
    "cult": "cult.xml",
    "gold": "goldmines.xml",
    "corn": "corn_circles.xml",
    "bigtop": "under_the_big_top.xml",
    "ferries": "ferries.xml",
    "festival": "festival.xml",
    "flier": "flier.xml",
}
# Elements that are tile tags of ours, by what they are called in the XML.
_TAGS = {
    "hill": "hill",
    "vineyard": "vineyard",
    "mage": "magic",
    "goldmine": "gold",
    "circus": "circus",
    "ferry": "ferry",
    "festival": "festival",
}
Part = tuple[str, frozenset[str], frozenset[str]]  # kind or name, place, words (borders for fields)


def _xml(name: str) -> ET.Element:
    if not (CLIENT / "HEAD").exists():
        pytest.skip(f"no JCloisterZone-Client mirror at {CLIENT}")
    shown = subprocess.run(
        ["git", "-C", str(CLIENT), "show", f"HEAD:src/extraResources/expansions/{name}"],
        capture_output=True,
        check=True,
    )
    return ET.fromstring(shown.stdout)


def _xml_parts(tile: ET.Element) -> tuple[set[str], Counter[Part]]:
    tags = {_TAGS[child.tag] for child in tile if child.tag in _TAGS}
    ferry = tile.find("ferry") is not None
    parts = Counter[Part]()
    cities = [frozenset((c.text or "").split()) for c in tile.findall("city")]
    for child in tile:
        sides = frozenset((child.text or "").split())
        words = {f"wagon={w}" for w in child.get("wagon-move", "").split()}
        if child.tag == "corn-circle":
            tags.add(f"corn={child.get('type', '').lower()}")
        elif child.tag == "acrobats":
            parts[("acrobats", frozenset(), frozenset())] += 1
        elif child.tag == "flying-machine":
            parts[("flier", frozenset(), frozenset({f"to={child.get('direction')}"}))] += 1
        elif child.tag == "monastery":
            shrine = {"shrine"} if child.get("shrine") == "true" else set()
            parts[("cloister", frozenset(), frozenset(words | shrine))] += 1
        elif child.tag == "city":
            words |= {f"pennant{child.get('pennants')}"} if child.get("pennants") else set()
            words |= {"angular"} if child.get("castle-base") == "false" else set()
            words |= {f"shares={child.get('multi-edge')}"} if child.get("multi-edge") else set()
            parts[("city", sides, frozenset(words))] += 1
        elif child.tag == "road":
            words |= {"tunnel"} if child.get("tunnel") == "true" else set()
            words |= {"lake"} if ferry else set()
            parts[("road", sides, frozenset(words))] += 1
        elif child.tag == "field":
            names = (child.text or "").split()
            place = {"I": "inner", "II": "inner2"}.get(" ".join(names))
            halves = frozenset({place} if place else {_HALVES[h] for h in names})
            borders = {next(c for c in cities if side in c) for side in child.get("city", "").split()}
            parts[("field", halves, frozenset("+".join(sorted(c)) for c in borders))] += 1
        elif child.tag not in _TAGS:
            raise AssertionError(f"{tile.get('id')}: no reading for <{child.tag}>")
    return tags, parts


def _our_parts(t: TileType) -> tuple[set[str], Counter[Part]]:
    parts = Counter[Part]()
    for s in t.segments:
        if s.kind == Kind.FIELD:
            place = frozenset({s.name} if s.name else {HALF_NAMES[h] for h in s.halves})
            borders = frozenset(
                "+".join(sorted(EDGE_NAMES[e] for e in t.segments[b].edges)) for b in s.borders
            )
            parts[("field", place, borders)] += 1
            continue
        words = set(s.flags) | ({f"pennant{s.pennants}"} if s.pennants else set())
        head = s.name if s.kind == Kind.OTHER else KIND_NAMES[s.kind]
        parts[(head, frozenset(EDGE_NAMES[e] for e in s.edges), frozenset(words))] += 1
    return set(t.tags), parts


@pytest.mark.parametrize("code", WAVE2)
def test_catalogue_matches_jcloisterzone_xml(code: str) -> None:
    root = _xml(XML[code])
    definitions = {t.get("id"): t for t in root.iter("tile")}
    chosen = next(s for s in root.iter("tile-set") if s.get("id") == SETS[code][0])
    assert not chosen.findall("remove")
    counts = {str(ref.get("tile")): int(ref.get("count", "1")) for ref in chosen.findall("ref")}
    ours = {t.id: t for t in new_tiles(code)}
    assert {i: t.count for i, t in ours.items()} == counts
    for tile_id, t in ours.items():
        definition = definitions[tile_id]
        assert definition.get("max") is None, tile_id
        assert _our_parts(t) == _xml_parts(definition), tile_id
        cities = [frozenset((c.text or "").split()) for c in definition.findall("city")]
        roads = [frozenset((r.text or "").split()) for r in definition.findall("road")]
        letters = "".join(
            "C" if any(side in c for c in cities) else "R" if any(side in r for r in roads) else "F"
            for side in EDGE_NAMES
        )
        assert t.edges == letters, tile_id
