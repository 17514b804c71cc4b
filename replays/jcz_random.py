"""JCloisterZone 5.x's random generator (`reference/jcz/oracle-natural/README.md`, "The generator"):
what its tile draws and every set's draws of chance take their ints from."""

from __future__ import annotations

import struct
from typing import Final, NamedTuple

_MASK48: Final = (1 << 48) - 1
_MULTIPLIER: Final = 25214903917
_DOUBLE: Final = struct.Struct("<d")
_BITS: Final = struct.Struct("<Q")


class JczRandom:
    """JCloisterZone's generator: a double in [0, 1), advanced after every int it yields."""

    __slots__ = ("r",)

    def __init__(self, r: float) -> None:
        self.r = r

    def next_int(self, n: int) -> int:
        """floor(r * n), then the state steps on from the low 48 bits of r's bit pattern."""
        k = int(self.r * n)
        x = _BITS.unpack(_DOUBLE.pack(self.r))[0] & _MASK48
        self.r = ((_MULTIPLIER * x + 11) & _MASK48) / (1 << 48)  # exact: x < 2^48
        return k


class Seeded(NamedTuple):
    """JCloisterZone's generator as a message comes, for the sets' draws of chance: the message
    that last re-seeded it (-1: `initialRandom`), that `random`, and the ints the walk's tile
    draws have taken since. The sets' own draws are not counted: the reader makes them, in
    order after the seed, among those tile draws (a set's draw after a COMMIT, then the next tile)."""

    seed: int
    random: float
    tile_ints: int
