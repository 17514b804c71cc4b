"""Pure scoring: what a feature is worth and who scores it. Every award names its parts and rule."""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from domain.board import Board
from domain.features import Feature
from domain.tiles import KIND_NAMES, Kind

Parts = tuple[tuple[str, int], ...]


class Award(msgspec.Struct, frozen=True, kw_only=True):
    """Points one player receives, with what they were for."""

    player: int
    points: int
    category: str  # road, city, cloister, farm, or what a part scores
    rule: str
    parts: Parts
    feature: int  # the feature's id (-1 when the award is not for one feature)
    turn: int
    version: int  # the event whose application produced it
    part: int = 0  # the turn part (global count) it was scored in
    final: bool = False


def majority(feature: Feature, strength: dict[str, int | Callable[[Feature], int]]) -> list[int]:
    """Players with the greatest follower strength on the feature; all of them score it (R-BASE-6).
    Nobody does when no follower there has any strength (R-AM-4). `strength`: each kind of
    follower's, a number or a function of the feature."""
    counts: dict[int, int] = {}
    for player, _, kind in feature.figures:
        if kind in strength:
            each = strength[kind]
            counts[player] = counts.get(player, 0) + (each if isinstance(each, int) else each(feature))
    best = max(counts.values(), default=0)
    return sorted(p for p, n in counts.items() if n == best) if best else []


def completed_value(feature: Feature) -> tuple[int, Parts]:
    """Value of a completed road, city or cloister (R-BASE-5)."""
    kind = feature.kind
    tiles = len(feature.tiles)
    if kind == Kind.ROAD:
        return tiles, (("tiles", tiles),)
    if kind == Kind.CITY:
        return 2 * tiles + 2 * feature.pennants, (("tiles", tiles), ("pennants", feature.pennants))
    return 9, (("tiles", 9),)


def incomplete_value(board: Board, feature: Feature) -> tuple[int, Parts]:
    """Value of an unfinished road, city or cloister at the end of the game (R-BASE-8)."""
    kind = feature.kind
    tiles = len(feature.tiles)
    if kind == Kind.ROAD:
        return tiles, (("tiles", tiles),)
    if kind == Kind.CITY:
        return tiles + feature.pennants, (("tiles", tiles), ("pennants", feature.pennants))
    pos = board.tiles[next(iter(feature.tiles))].pos
    around = board.cloister_neighbours(pos)
    return 1 + around, (("tiles", 1 + around),)


def category(feature: Feature) -> str:
    return "farm" if feature.kind == Kind.FIELD else KIND_NAMES[feature.kind]
