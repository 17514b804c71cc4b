"""JCloisterZone's names of places on a tile, both ways: its feature pointers and our locations.

Positions use the same axes (x east, y south) and both name locations in board orientation, so
only the words differ: JCloisterZone names edges by letters (`NW`, `_N` for all but north) and a
field by its half-edges, each edge's halves left and right as seen from the tile's centre.
"""

from __future__ import annotations

from typing import Any

from domain.geometry import EDGE_BY_NAME, EDGE_NAMES, HALF_BY_NAME, HALF_NAMES
from domain.state import GameState
from domain.tiles import Kind
from replays.jcz_format import JczExportError, JczPointer

# Half-edges: JCloisterZone names each edge's halves left/right as seen from the tile centre.
JCZ_HALVES = {"NL": "Nw", "NR": "Ne", "EL": "En", "ER": "Es", "SL": "Se", "SR": "Sw", "WL": "Ws", "WR": "Wn"}
_OUR_HALF = {ours: theirs for theirs, ours in JCZ_HALVES.items()}
_FIELD_ATOMS = ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")  # JCloisterZone's order
# JCloisterZone's names of edge sets: one edge, two, all but one, all four.
_EDGE_SETS = {
    frozenset("N"): "N",
    frozenset("E"): "E",
    frozenset("S"): "S",
    frozenset("W"): "W",
    frozenset("NW"): "NW",
    frozenset("SW"): "SW",
    frozenset("SE"): "SE",
    frozenset("NE"): "NE",
    frozenset("WE"): "WE",
    frozenset("NS"): "NS",
    frozenset("NWSE"): "NWSE",
    **{frozenset("NESW") - {edge}: f"_{edge}" for edge in "NESW"},
}
FEATURES = {Kind.CITY: "City", Kind.ROAD: "Road", Kind.FIELD: "Field", Kind.CLOISTER: "Monastery"}


def location_name(pointer: JczPointer) -> str:
    """Our name for a JCloisterZone feature location (both in board orientation)."""
    where = pointer.location
    if pointer.feature == "Monastery" or where == "CLOISTER":
        return "cloister"
    if where == "II":  # a second field touching no edge
        return "inner2"
    if where == "I":  # a field touching no edge
        return "inner"
    if pointer.feature == "Field" or any(c in where for c in "LR"):  # only half-edges say L/R
        halves = sorted(HALF_BY_NAME[JCZ_HALVES[token]] for token in where.split("."))
        return "+".join(HALF_NAMES[h] for h in halves)
    if where.startswith("_"):  # every edge but one
        edges = [e for e, name in enumerate(EDGE_NAMES) if name != where[1]]
    else:
        edges = sorted(EDGE_BY_NAME[c] for c in where)
    return "+".join(EDGE_NAMES[e] for e in edges)


def jcz_location(location: str) -> str:
    """JCloisterZone's name for one of our segment locations (both board-oriented)."""
    if location in ("cloister", "inner"):
        return "I"
    if location == "inner2":
        return "II"
    tokens = location.split("+")
    if all(t in HALF_BY_NAME for t in tokens):
        atoms = {_OUR_HALF[t] for t in tokens}
        return ".".join(a for a in _FIELD_ATOMS if a in atoms)
    if all(t in EDGE_BY_NAME for t in tokens):
        return _EDGE_SETS[frozenset(tokens)]
    raise JczExportError(f"no JCloisterZone name for the location {location}")


def segment_pointer(state: GameState, x: int, y: int, location: str) -> dict[str, Any]:
    """A feature pointer to a segment of the tile at (x, y): position, location, kind of feature."""
    placed = state.board.at[(x, y)]
    kind = next(k for name, _, k in placed.locations() if name == location)
    if kind not in FEATURES:
        raise JczExportError(f"no JCloisterZone feature for {location} of {(x, y)}")
    return {"position": [x, y], "location": jcz_location(location), "feature": FEATURES[kind]}


def meeple_pointer(where: dict[str, Any], meeple: str) -> dict[str, Any]:
    """A pointer to one figure on a feature, as moves of neutral figures and captures name it."""
    return {"featurePointer": where, "meepleId": meeple}


def owner_of(meeple: str) -> int:
    """The seat a meeple id (`seat.kind.n`) belongs to."""
    return int(meeple.split(".")[0])
