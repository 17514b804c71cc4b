"""Board geometry: edges, half-edges, rotation and neighbours.

Coordinates follow JCloisterZone so its saved games map one to one: x grows east, y grows
south, rotations are quarter turns clockwise.
"""

from __future__ import annotations

from typing import Final

Pos = tuple[int, int]

N: Final = 0
E: Final = 1
S: Final = 2
W: Final = 3
EDGE_NAMES: Final = ("N", "E", "S", "W")
EDGE_BY_NAME: Final = {name: i for i, name in enumerate(EDGE_NAMES)}

# Offsets to the neighbour across each edge (y grows south).
EDGE_OFFSETS: Final = ((0, -1), (1, 0), (0, 1), (-1, 0))

# Fields meet at half-edges: each edge split in two, numbered clockwise from the
# north edge's western half, so a quarter turn adds 2.
HALF_NAMES: Final = ("Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn")
HALF_BY_NAME: Final = {name: i for i, name in enumerate(HALF_NAMES)}
# The half-edge of the neighbouring tile that touches each half-edge.
HALF_OPPOSITE: Final = (5, 4, 7, 6, 1, 0, 3, 2)

# The eight surrounding positions (for cloisters).
RING_OFFSETS: Final = (
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
)

ROTATIONS: Final = (0, 90, 180, 270)


def opposite(edge: int) -> int:
    return (edge + 2) & 3


def rotate_edge(edge: int, quarters: int) -> int:
    return (edge + quarters) & 3


def rotate_half(half: int, quarters: int) -> int:
    return (half + 2 * quarters) & 7


def neighbour(pos: Pos, edge: int) -> Pos:
    dx, dy = EDGE_OFFSETS[edge]
    return (pos[0] + dx, pos[1] + dy)
