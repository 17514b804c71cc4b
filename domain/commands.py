"""What players ask for. Each command becomes exactly one event, or a RuleViolation."""

from __future__ import annotations

import msgspec


class Command(msgspec.Struct, frozen=True, kw_only=True, tag=True, forbid_unknown_fields=True):
    pass


class PlaceTile(Command, frozen=True, kw_only=True):
    x: int
    y: int
    rotation: int
    tile: str | None = None  # if given, must be the tile the player holds


class Deploy(Command, frozen=True, kw_only=True):
    location: str  # board-oriented segment name on the tile just placed, e.g. "N+W"


class Pass(Command, frozen=True, kw_only=True):
    pass


AnyCommand = PlaceTile | Deploy | Pass
