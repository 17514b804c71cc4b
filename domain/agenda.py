"""Turn parts still to come, and the one planning rule behind all four orderings (RULES.md 6).

A turn is a sequence of parts: the normal part, builder parts (R-TB-3), a bazaar's auction and
the parts in which its tiles are played (R-BAZAAR-4..7), deferred bazaars. What follows a part
is planned when it ends, as items pushed to the front of the agenda; the sequencer turns the first
live item into its event. The orderings differ only in three switches of `OrderPolicy`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final, NamedTuple

from domain.rules import Order


class Item(StrEnum):
    GRANT = "grant"  # BuilderTurnGranted
    BUILDER = "builder"  # BuilderTurnTaken: the player's extra tile
    AUCTION = "auction"  # BazaarOpened
    FACEDOWN = "facedown"  # BazaarTilesTakenFaceDown
    REVEAL = "reveal"  # BazaarRevealed
    TILE = "tile"  # BazaarTileTaken: a player plays the tile they got
    ROUND_END = "round-end"  # BazaarResumed, if a deferred bazaar waits
    DEFER = "defer"  # BazaarDeferred
    DROP = "drop"  # BazaarDropped


class Entry(NamedTuple):
    item: Item
    player: int


# Items that belong to a bazaar round: while one is pending, a new bazaar cannot start now.
ROUND_ITEMS: Final = frozenset({Item.AUCTION, Item.FACEDOWN, Item.REVEAL, Item.TILE, Item.ROUND_END})


class OrderPolicy(NamedTuple):
    bazaar_first: bool  # the auction comes before the host's builder tile (V-ORDER-HIG)
    face_down: bool  # the bazaar's tiles leave the pile before the builder tile (V-ORDER-FACEDOWN)
    drop_in_round: bool  # a bazaar arising inside a round is dropped, not deferred (V-ORDER-JCZ)


POLICIES: Final[dict[Order, OrderPolicy]] = {
    "hig": OrderPolicy(bazaar_first=True, face_down=False, drop_in_round=False),
    "builder-first": OrderPolicy(bazaar_first=False, face_down=False, drop_in_round=False),
    "facedown": OrderPolicy(bazaar_first=False, face_down=True, drop_in_round=False),
    "jcz": OrderPolicy(bazaar_first=False, face_down=False, drop_in_round=True),
}


def plan_part_end(
    policy: OrderPolicy, player: int, bazaar: bool, builder: bool, in_round: bool
) -> list[Entry]:
    """What comes right after a part by `player` that placed a bazaar tile and/or earned a builder tile."""
    plan: list[Entry] = []
    if builder:
        plan.append(Entry(Item.GRANT, player))
    if bazaar and in_round:
        plan.insert(0, Entry(Item.DROP if policy.drop_in_round else Item.DEFER, player))
        bazaar = False
    if not bazaar:
        if builder:
            plan.append(Entry(Item.BUILDER, player))
        return plan
    if policy.bazaar_first:
        plan.append(Entry(Item.AUCTION, player))
        if builder:
            plan.append(Entry(Item.BUILDER, player))
    elif policy.face_down and builder:
        # Face down only matters when a builder tile comes between taking and revealing; without
        # one the bazaar is held as any other, so a log without the conflict reads the same.
        plan.append(Entry(Item.FACEDOWN, player))
        plan.append(Entry(Item.BUILDER, player))
        plan.append(Entry(Item.REVEAL, player))
    else:
        if builder:
            plan.append(Entry(Item.BUILDER, player))
        plan.append(Entry(Item.AUCTION, player))
    return plan


def round_parts(host: int, players: int) -> list[Entry]:
    """After an auction: each player plays their tile, from the host's left (R-BAZAAR-7)."""
    return [Entry(Item.TILE, (host + k) % players) for k in range(1, players + 1)] + [
        Entry(Item.ROUND_END, host)
    ]
