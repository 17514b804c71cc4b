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
    """A normal turn's tile from the top of the pile (R-BASE-3); also the redraw after a discard."""

    player: int
    tile: str


class TileDiscarded(Event, frozen=True, kw_only=True):
    """The tile fits nowhere, bridges considered, and leaves the game (R-BASE-3, JCZ-5)."""

    player: int
    tile: str


class TilePlaced(Event, frozen=True, kw_only=True):
    player: int
    tile: str
    x: int
    y: int
    rotation: int


class BridgePlaced(Event, frozen=True, kw_only=True):
    """A bridge across the tile at (x, y), ``NS`` or ``EW`` (R-BRIDGE-2..4)."""

    player: int
    x: int
    y: int
    axis: str


class FollowerDeployed(Event, frozen=True, kw_only=True):
    """A figure onto `location` (board-oriented name, e.g. ``N+W``) of the tile just placed.

    `figure` is ``follower`` (R-BASE-4), ``builder`` (R-TB-2) or ``pig`` (R-TB-5).
    """

    player: int
    x: int
    y: int
    location: str
    figure: str = "follower"


class Passed(Event, frozen=True, kw_only=True):
    """The player declines an optional step (`step` names it: ``deploy``, ``castle``, ``bid``)."""

    player: int
    step: str


class TurnEnded(Event, frozen=True, kw_only=True):
    """End of a turn part: completed features score now (R-BASE-5)."""

    player: int


class CastleBuilt(Event, frozen=True, kw_only=True):
    """The city completed at `location` of the tile at (x, y) becomes its owner's castle (R-CASTLE-3)."""

    player: int
    x: int
    y: int
    location: str


class CastleTargetChosen(Event, frozen=True, kw_only=True):
    """The castle owner picks which of several fief completions the castle scores (R-CASTLE-7).

    The castle is named by a tile it lies on, the feature by a tile and location.
    """

    player: int
    castle_x: int
    castle_y: int
    x: int
    y: int
    location: str


class BuilderTurnGranted(Event, frozen=True, kw_only=True):
    """The tile just placed extended the player's builder feature: a second tile is due (R-TB-3)."""

    player: int


class BuilderTurnTaken(Event, frozen=True, kw_only=True):
    """The builder's extra tile, from the top of the pile (R-TB-3)."""

    player: int
    tile: str


class BazaarOpened(Event, frozen=True, kw_only=True):
    """A bazaar's tiles come off the pile, face up (R-BAZAAR-4)."""

    host: int
    tiles: tuple[str, ...]


class BazaarTilesTakenFaceDown(Event, frozen=True, kw_only=True):
    """V-ORDER-FACEDOWN: the bazaar's tiles leave the pile before the host's builder tile."""

    host: int
    tiles: tuple[str, ...]


class BazaarRevealed(Event, frozen=True, kw_only=True):
    """V-ORDER-FACEDOWN: the face-down tiles are turned up and the auction starts."""

    host: int


class BazaarDeferred(Event, frozen=True, kw_only=True):
    """A bazaar tile placed while a bazaar is pending: its bazaar waits its turn (V-ORDER-*)."""

    host: int


class BazaarResumed(Event, frozen=True, kw_only=True):
    """A deferred bazaar is now held (V-ORDER-HIG, -BUILDER-FIRST, -FACEDOWN)."""

    host: int
    tiles: tuple[str, ...]


class BazaarDropped(Event, frozen=True, kw_only=True):
    """V-ORDER-JCZ: a bazaar tile placed while a bazaar round runs holds no bazaar (JCZ-1)."""

    host: int


class BazaarTileChosen(Event, frozen=True, kw_only=True):
    """The chooser picks revealed tile `index` and opens with `bid` points (R-BAZAAR-4)."""

    player: int
    index: int
    bid: int


class BidRaised(Event, frozen=True, kw_only=True):
    player: int
    bid: int


class TileBought(Event, frozen=True, kw_only=True):
    """The chooser takes the tile, paying `price` to `payee` (None: their own bid, paid to nobody)."""

    player: int
    price: int
    payee: int | None


class TileSold(Event, frozen=True, kw_only=True):
    """The chooser sells the tile to `buyer`, who pays the chooser `price` (R-BAZAAR-5)."""

    player: int
    buyer: int
    price: int


class BazaarTileAssigned(Event, frozen=True, kw_only=True):
    """The last revealed tile goes free to the last player without one (R-BAZAAR-6),
    or, without an auction, the tile a player picked (V-BAZAAR-NOAUCTION)."""

    player: int
    index: int


class BazaarTileTaken(Event, frozen=True, kw_only=True):
    """A player starts the turn part in which they play the tile they got at the bazaar (R-BAZAAR-7)."""

    player: int
    tile: str


class GameEnded(Event, frozen=True, kw_only=True):
    """The pile is exhausted; final scoring follows (R-BASE-8)."""


GameEvent = (
    GameStarted
    | TileDrawn
    | TileDiscarded
    | TilePlaced
    | BridgePlaced
    | FollowerDeployed
    | Passed
    | TurnEnded
    | CastleBuilt
    | CastleTargetChosen
    | BuilderTurnGranted
    | BuilderTurnTaken
    | BazaarOpened
    | BazaarTilesTakenFaceDown
    | BazaarRevealed
    | BazaarDeferred
    | BazaarResumed
    | BazaarDropped
    | BazaarTileChosen
    | BidRaised
    | TileBought
    | TileSold
    | BazaarTileAssigned
    | BazaarTileTaken
    | GameEnded
)

EVENT_TYPES: dict[str, type[Event]] = {cls.__name__: cls for cls in get_args(GameEvent)}
