"""The tile sets as data, one file per set: `<code>.tiles` beside this module.

Each line is one tile type, unrotated: its JCloisterZone id (kept so that saved games import),
how many copies the set has, its edges N E S W and its clauses. Edge letters: ``C`` city,
``R`` road, ``F`` field, ``W`` water, ``*`` an edge that matches anything and closes
what meets it. Clauses, separated by ``;``:

* ``city N+W`` one city touching the listed edges; ``road E+W`` one road through the listed
  edges (``road S`` ends inside the tile); ``cloister``;
* ``field Nw+Ne>E+W,S`` one field touching the listed half-edges (``inner`` if none) and,
  after ``>``, the city segments of this tile it borders, named by their edges (a second field
  touching no edge is ``inner2``);
* ``NAME N+S`` any other feature, named by a set: a segment that takes no follower unless a
  set's rules say so;
* after a segment's place, its flags: ``pennant`` (counted by the base game) and any words a
  set reads, a word alone or ``word=value`` (segments of a tile carrying the same value of a word
  are linked for the set that reads it);
* a clause of one word is a tag of the whole tile, which a set reads.

The sets' codes are what users type (`--expansions base,bcb,tb`); the registry's order
(`domain.sets`) is the order tiles are listed in, so a seeded shuffle of the pile stays the same
as sets are added.
Blank lines and lines starting with ``#`` are ignored.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from domain.sets import SET_CODES

START_TILE: Final = "BA/RCr"


_HERE = Path(__file__).parent


def _read() -> dict[str, str]:
    found = {}
    for code in SET_CODES:
        path = _HERE / f"{code}.tiles"
        if path.exists():
            found[code] = path.read_text(encoding="utf-8")
    return found


SETS: Final[dict[str, str]] = _read()
