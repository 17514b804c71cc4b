"""The base game's events: decisions and draws, never scores.

Each event is a frozen msgspec Struct tagged with its class name; with the parts' own events
(`domain.expansions`) their union is both what the event store keeps and what a recorded-game
file holds, one event per line.
"""

from __future__ import annotations

import hashlib
from uuid import UUID

import msgspec

from domain.catalogue import START_TILE
from domain.rules import RuleSet


class Event(msgspec.Struct, frozen=True, kw_only=True, tag=True):
    originator_id: UUID
    originator_version: int


class GameStarted(Event, frozen=True, kw_only=True):
    """Players in seat order, the sets in play, the rule set and the whole draw order (R-BASE-2).

    The draw order is hidden information: where players must not see it (the service), the game
    carries a secret `pile_salt` and `pile_commitment`, the SHA-256 of salt and order
    (`pile_commitment` below), which players see instead; once the order and salt are revealed
    (the game over), anyone can check that the pile was fixed at the start.
    """

    players: tuple[str, ...]
    expansions: tuple[str, ...]
    rules: RuleSet
    draw_order: tuple[str, ...] = ()
    start_tile: str = START_TILE
    seed: int | None = None
    pile_salt: str = ""
    pile_commitment: str = ""


def pile_commitment(salt: str, draw_order: tuple[str, ...]) -> str:
    """The SHA-256 (hex) that fixes a draw order without showing it, while `salt` is secret."""
    return hashlib.sha256(f"{salt}\n{' '.join(draw_order)}".encode()).hexdigest()


class TileDrawn(Event, frozen=True, kw_only=True):
    """A normal turn's tile from the top of the pile (R-BASE-3); also the redraw after a discard."""

    player: int
    tile: str


class TileDiscarded(Event, frozen=True, kw_only=True):
    """The tile fits nowhere (or is declined where a part allows it) and leaves the game (R-BASE-3)."""

    player: int
    tile: str


class TilePlaced(Event, frozen=True, kw_only=True):
    player: int
    tile: str
    x: int
    y: int
    rotation: int


class FollowerDeployed(Event, frozen=True, kw_only=True):
    """A figure onto `location` (board-oriented name, e.g. ``N+W``) of the tile just placed.

    `figure` is ``follower`` (R-BASE-4) or a kind of figure a part brings.
    """

    player: int
    x: int
    y: int
    location: str
    figure: str = "follower"


class Passed(Event, frozen=True, kw_only=True):
    """The player declines an optional step (`step` names it: ``deploy``, or a part's step)."""

    player: int
    step: str


class TurnEnded(Event, frozen=True, kw_only=True):
    """End of a turn part: completed features score now (R-BASE-5)."""

    player: int


class GameEnded(Event, frozen=True, kw_only=True):
    """The pile is exhausted; final scoring follows (R-BASE-8)."""


CORE_EVENTS: tuple[type[Event], ...] = (
    GameStarted,
    TileDrawn,
    TileDiscarded,
    TilePlaced,
    FollowerDeployed,
    Passed,
    TurnEnded,
    GameEnded,
)
"""The events of the base game; each part adds its own (`domain.expansions.EVENT_TYPES` is all of them)."""
