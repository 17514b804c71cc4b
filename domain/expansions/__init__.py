"""The parts of every set in the registry (`domain.sets`), loaded: the order the core calls them
in, their events and commands, and the parts a game with given sets plays.

Each rules module of a set exposes `PARTS`; a part reaches the core only, never another part
(what parts share is the core's: its hooks, its agenda, its state). This module imports them all,
so code that only needs the sets' codes reads `domain.sets` instead.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Final, Union

from domain import events as ev
from domain.catalogue import START_TILE
from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.part import Part
from domain.sets import SETS as _ENTRIES


def _load(module: str) -> tuple[Part, ...]:
    parts: tuple[Part, ...] = importlib.import_module(f"domain.expansions.{module}").PARTS
    return parts


_MODULES: Final = tuple(dict.fromkeys(m for entry in _ENTRIES for m in entry.modules))
_BY_MODULE: Final = {module: _load(module) for module in _MODULES}

# Hooks run in this order (each part's rank).
PARTS: Final[tuple[Part, ...]] = tuple(
    sorted((part for parts in _BY_MODULE.values() for part in parts), key=lambda part: part.rank)
)

# Set code -> the names of the parts it brings. The base game is the core itself.
SETS: Final[dict[str, tuple[str, ...]]] = {
    entry.code: tuple(part.name for module in entry.modules for part in _BY_MODULE[module])
    for entry in _ENTRIES
}

BY_NAME: Final = {part.name: part for part in PARTS}


def parts_for(expansions: tuple[str, ...], without: tuple[str, ...] = ()) -> tuple[Part, ...]:
    """The parts a game with these sets plays, in the registry's order, less those switched off."""
    wanted = {name for code in expansions for name in SETS.get(code, ())} - set(without)
    return tuple(part for part in PARTS if part.name in wanted)


def start_tile_of(expansions: tuple[str, ...]) -> str:
    """The tile the game starts with: the base game's, unless a part brings its own (R-BASE-2)."""
    return next((t for part in parts_for(expansions) if (t := part.start_tile())), START_TILE)


def arrange_pile(expansions: tuple[str, ...], pile: list[str]) -> None:
    """A shuffled pile put in the order the parts' rules want."""
    for part in parts_for(expansions):
        part.arrange(pile)


EVENT_TYPES: Final[dict[str, type[ev.Event]]] = {
    cls.__name__: cls for cls in (*ev.CORE_EVENTS, *(t for part in PARTS for t in part.events))
}
COMMAND_TYPES: Final[tuple[type[Command], ...]] = (
    PlaceTile,
    Deploy,
    Pass,
    *dict.fromkeys(t for part in PARTS for t in part.commands),
)

if TYPE_CHECKING:
    GameEvent = ev.Event
    AnyCommand = Command
else:  # the tagged unions msgspec decodes: the file format, the store and the service's schema
    GameEvent = Union[tuple(EVENT_TYPES.values())]  # noqa: UP007
    AnyCommand = Union[COMMAND_TYPES]  # noqa: UP007
"""Every event a game can record, and every command a player can give."""
