"""Builder and bazaar in the same turn: the one planning rule behind all four orderings (RULES.md 6).

When a turn part ends having earned a builder tile (R-TB-3) and/or placed a bazaar tile
(R-BAZAAR-2), what follows is planned here, as agenda items of the builder and bazaar parts.
The orderings differ only in three switches of `OrderPolicy`.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from domain.agenda import Entry
from domain.expansions import bazaars as bz, builders as bd
from domain.part import Part
from domain.rules import Order
from domain.state import GameState


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
        plan.append(Entry(bd.GRANT, player))
    if bazaar and in_round:
        plan.insert(0, Entry(bz.DROP if policy.drop_in_round else bz.DEFER, player))
        bazaar = False
    if not bazaar:
        if builder:
            plan.append(Entry(bd.TAKE, player))
        return plan
    if policy.bazaar_first:
        plan.append(Entry(bz.AUCTION, player))
        if builder:
            plan.append(Entry(bd.TAKE, player))
    elif policy.face_down and builder:
        # Face down only matters when a builder tile comes between taking and revealing; without
        # one the bazaar is held as any other, so a log without the conflict reads the same.
        plan.append(Entry(bz.FACEDOWN, player))
        plan.append(Entry(bd.TAKE, player))
        plan.append(Entry(bz.REVEAL, player))
    else:
        if builder:
            plan.append(Entry(bd.TAKE, player))
        plan.append(Entry(bz.AUCTION, player))
    return plan


class OrderingsPart(Part):
    name = "orderings"

    def start(self, state: GameState, event: object) -> None:
        state.ext[self.name] = None

    def plan(self, state: GameState) -> list[Entry]:
        builder = bd.earned(state)
        bazaar = bz.placed_bazaar(state)
        if not (builder or bazaar):
            return []
        return plan_part_end(POLICIES[state.rules.order], state.current, bazaar, builder, bz.in_round(state))


PART = OrderingsPart()
