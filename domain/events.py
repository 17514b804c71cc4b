"""Every event a game records: decisions and draws, never scores.

Each event is a frozen msgspec Struct tagged with its class name; their union is both what
the event store keeps and what a recorded-game file holds, one event per line.
"""

from __future__ import annotations

from typing import get_args
from uuid import UUID

import msgspec

from domain.catalogue import START_TILE
from domain.rules import RuleSet


class Event(msgspec.Struct, frozen=True, kw_only=True, tag=True):
    originator_id: UUID
    originator_version: int


class GameStarted(Event, frozen=True, kw_only=True):
    """Players in seat order, the sets in play, the rule set and the whole draw order (R-BASE-2)."""

    players: tuple[str, ...]
    expansions: tuple[str, ...]
    rules: RuleSet
    draw_order: tuple[str, ...]
    start_tile: str = START_TILE
    seed: int | None = None


class TileDrawn(Event, frozen=True, kw_only=True):
    player: int
    tile: str


class TileDiscarded(Event, frozen=True, kw_only=True):
    """The drawn tile fits nowhere and leaves the game (R-BASE-3)."""

    player: int
    tile: str


class TilePlaced(Event, frozen=True, kw_only=True):
    player: int
    tile: str
    x: int
    y: int
    rotation: int


class FollowerDeployed(Event, frozen=True, kw_only=True):
    """A follower onto `location` (board-oriented name, e.g. ``N+W``) of the tile just placed."""

    player: int
    x: int
    y: int
    location: str


class Passed(Event, frozen=True, kw_only=True):
    """The player declines an optional step (`step` names it, e.g. ``deploy``)."""

    player: int
    step: str


class TurnEnded(Event, frozen=True, kw_only=True):
    """End of a turn: completed features score now (R-BASE-5)."""

    player: int


class GameEnded(Event, frozen=True, kw_only=True):
    """The pile is exhausted; final scoring follows (R-BASE-8)."""


GameEvent = (
    GameStarted | TileDrawn | TileDiscarded | TilePlaced | FollowerDeployed | Passed | TurnEnded | GameEnded
)

EVENT_TYPES: dict[str, type[Event]] = {cls.__name__: cls for cls in get_args(GameEvent)}
