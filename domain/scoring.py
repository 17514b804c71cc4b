"""Pure scoring: what a feature is worth and who scores it. Every award names its parts and rule."""

from __future__ import annotations

import msgspec

from domain.board import Board
from domain.features import Feature
from domain.tiles import KIND_NAMES, Kind

GOODS_KINDS = ("wine", "grain", "cloth")

Parts = tuple[tuple[str, int], ...]


class Award(msgspec.Struct, frozen=True, kw_only=True):
    """Points one player receives, with what they were for."""

    player: int
    points: int
    category: str  # road, city, cloister, farm
    rule: str
    parts: Parts
    feature: int  # the feature's id (-1 when the award is not for one feature)
    turn: int
    version: int  # the event whose application produced it
    part: int = 0  # the turn part (global count) it was scored in
    final: bool = False


def majority(feature: Feature) -> list[int]:
    """Players with the most followers on the feature; all of them score it (R-BASE-6)."""
    counts: dict[int, int] = {}
    for player, _ in feature.meeples:
        counts[player] = counts.get(player, 0) + 1
    if not counts:
        return []
    best = max(counts.values())
    return sorted(p for p, n in counts.items() if n == best)


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


def farm_value(board: Board, field: Feature, castle_value: int, pig: bool = False) -> tuple[int, Parts]:
    """3 per completed city the field touches, 4 per castle; one more each with the pig.

    (R-BASE-8, R-CASTLE-10, R-TB-6)
    """
    graph = board.graph
    roots = {graph.find(sid) for sid in field.borders}
    cities = castles = 0
    for root in roots:
        feature = graph.features[root]
        if feature is None:
            continue
        if feature.castle:
            castles += 1
        elif feature.open == 0:
            cities += 1
    bonus = 1 if pig else 0
    value = (3 + bonus) * cities + (castle_value + bonus) * castles
    parts: Parts = (("cities", cities),)
    if castles:
        parts += (("castles", castles),)
    if pig:
        parts += (("pig", 1),)
    return value, parts


def goods_majorities(goods: list[dict[str, int]]) -> list[tuple[int, str, int]]:
    """(player, kind, tokens) for everyone holding the most of a kind of trade goods: each
    scores 10 for it, ties included (R-TB-7)."""
    found = []
    for kind in GOODS_KINDS:
        best = max((held.get(kind, 0) for held in goods), default=0)
        if best:
            found += [(player, kind, best) for player, held in enumerate(goods) if held.get(kind, 0) == best]
    return found


def category(feature: Feature) -> str:
    return "farm" if feature.kind == Kind.FIELD else KIND_NAMES[feature.kind]
