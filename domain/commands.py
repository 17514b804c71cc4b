"""What players ask for. Each command becomes one or two events, or a RuleViolation."""

from __future__ import annotations

from typing import Literal

import msgspec


class Command(msgspec.Struct, frozen=True, kw_only=True, tag=True, forbid_unknown_fields=True):
    pass


class BridgeSpot(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    x: int
    y: int
    axis: Literal["NS", "EW"]


class PlaceTile(Command, frozen=True, kw_only=True):
    x: int
    y: int
    rotation: int
    tile: str | None = None  # if given, must be the tile the player holds
    bridge: BridgeSpot | None = None  # the bridge this placement needs (R-BRIDGE-4)


class PlaceBridge(Command, frozen=True, kw_only=True):
    """A voluntary bridge, before deploying (R-BRIDGE-2, R-BRIDGE-6)."""

    x: int
    y: int
    axis: Literal["NS", "EW"]


class Deploy(Command, frozen=True, kw_only=True):
    location: str  # board-oriented segment name on the tile just placed, e.g. "N+W"
    figure: Literal["follower", "builder", "pig"] = "follower"


class Pass(Command, frozen=True, kw_only=True):
    """Decline the current optional step: bridge and deployment, a castle, or a bid; or, holding a
    tile that fits only with a bridge, the bridge, which discards the tile (R-BRIDGE-7)."""


class ChooseCastle(Command, frozen=True, kw_only=True):
    """Convert the completed city at `location` of the tile at (x, y) into a castle (R-CASTLE-3)."""

    x: int
    y: int
    location: str


class ChooseCastleTarget(Command, frozen=True, kw_only=True):
    """Which completed feature a castle scores when several complete at once (R-CASTLE-7)."""

    x: int
    y: int
    location: str


class ChooseBazaarTile(Command, frozen=True, kw_only=True):
    """Pick revealed tile `index` and open with `bid` (R-BAZAAR-4; 0 without an auction)."""

    index: int
    bid: int = 0


class Bid(Command, frozen=True, kw_only=True):
    amount: int


class Buy(Command, frozen=True, kw_only=True):
    pass


class Sell(Command, frozen=True, kw_only=True):
    pass


AnyCommand = (
    PlaceTile
    | PlaceBridge
    | Deploy
    | Pass
    | ChooseCastle
    | ChooseCastleTarget
    | ChooseBazaarTile
    | Bid
    | Buy
    | Sell
)
