"""The registry: every set a game can be played with, one line each, in one list.

A set (what users name with `--expansions`) is its rules modules in `domain/expansions/` (each
exposing `PARTS`, its `domain.part.Part`s), its tile file `domain/catalogue/<code>.tiles` and its
JCloisterZone mapping `replays/jcz_sets/<code>.py`; the rest of the code finds all three from
this list. Importing it costs nothing: the modules load when a game needs them
(`domain.expansions`), so `carc --help` lists the sets without reading any tile.

The order is the order tiles are listed in (a seeded shuffle of the pile stays the same as sets
are added) and the order sets are shown in; the order the core calls the parts' hooks in is
each part's `rank`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, NamedTuple


class SetEntry(NamedTuple):
    code: str  # what users type, and the name of its tile and mapping files
    title: str
    modules: tuple[str, ...]  # its rules modules in domain/expansions/ (the base game has none)


SETS: Final[tuple[SetEntry, ...]] = (
    SetEntry("base", "Carcassonne", ()),
    SetEntry("bcb", "Bridges, Castles and Bazaars", ("bridges", "castles", "bazaars")),
    SetEntry("tb", "Traders & Builders", ("builders", "pigs", "goods")),
    SetEntry("ic", "Inns & Cathedrals", ("inns_cathedrals",)),
    SetEntry("river", "The River", ("river",)),
    SetEntry("am", "Abbey & Mayor", ("abbey", "mayor", "wagon", "barn")),
    SetEntry("pd", "Princess & Dragon", ("fairy", "dragon", "portal_princess")),
    SetEntry("tower", "The Tower", ("tower",)),
    SetEntry("cult", "Cult Places", ("shrines",)),
    SetEntry("festival", "The Festival", ("festival",)),
    SetEntry("tunnel", "The Tunnel", ("tunnel",)),
    SetEntry("gold", "The Goldmines", ("gold",)),
    SetEntry("kr", "King & Robber", ("king_robber",)),
    SetEntry("mw", "Mage & Witch", ("magic",)),
    SetEntry("flier", "The Flying Machines", ("flier",)),
    SetEntry("corn", "Corn Circles", ("corn",)),
    SetEntry("hs", "Hills & Sheep", ("hills_sheep",)),
)

SET_CODES: Final[tuple[str, ...]] = tuple(entry.code for entry in SETS)
BASE: Final = "base"  # the base game: the core itself, in every game


def game_sets(codes: Iterable[str]) -> tuple[str, ...]:
    """The sets a game is played with, from the codes a user names: the one rule of the command
    line (`--expansions`), the Python API (`carc.new_game`) and the HTTP API (`expansions`). The
    base game comes first, named or not (it is the core of every game); then the others in the
    order named, each once. An unknown code is refused (R-BASE-2)."""
    from domain.errors import RuleViolation  # here: importing the registry loads nothing else

    named = tuple(codes)
    unknown = [code for code in named if code not in SET_CODES]
    if unknown:
        names = ", ".join(map(repr, unknown))
        raise RuleViolation("R-BASE-2", f"unknown expansion(s) {names}; choose from {', '.join(SET_CODES)}")
    return tuple(dict.fromkeys((BASE, *named)))
