"""What players ask for in the base game. Each command becomes one or two events, or a RuleViolation.

The parts of the sets add their own commands (`domain.expansions.AnyCommand` is all of them).
`PlaceTile.bridge` is the one field of a set here: a placement a bridge makes possible carries
it, and keeping it on `PlaceTile` keeps one command for every placement (R-BRIDGE-4)."""

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


class Deploy(Command, frozen=True, kw_only=True):
    location: str  # board-oriented segment name on the tile just placed, e.g. "N+W"
    figure: str = "follower"  # or a kind of figure a part of a set in play brings
    # Another tile than the one just placed, where a part allows it; None: the tile just placed.
    x: int | None = None
    y: int | None = None


class Pass(Command, frozen=True, kw_only=True):
    """Decline the current optional step (a deployment, or a part's optional decision); or, holding
    a tile that fits only through a part's own placement (a bridge), decline that and discard the
    tile (R-BRIDGE-7)."""
