"""The rule set: every switch a game is played under, carried by its first event.

A recorded game names its rules, so the same log can be re-checked and re-scored under another
reading by replaying it with a different `RuleSet`.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Annotated, Final, Literal

import msgspec

Order = Literal["hig", "builder-first", "facedown", "jcz"]
ORDERS: Final[tuple[Order, ...]] = ("hig", "builder-first", "facedown", "jcz")
ORDER_VARIANTS: Final[dict[Order, str]] = {
    "hig": "V-ORDER-HIG",
    "builder-first": "V-ORDER-BUILDER-FIRST",
    "facedown": "V-ORDER-FACEDOWN",
    "jcz": "V-ORDER-JCZ",
}


class RuleSet(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    followers: Annotated[int, msgspec.Meta(ge=1, le=30)] = 7
    """Followers each player starts with (R-BASE-1)."""

    farmers: bool = True
    """Followers may be put on fields and fields score at the end (R-BASE-4, R-BASE-8)."""

    builders: Annotated[int, msgspec.Meta(ge=0, le=5)] = 1
    """Builders each player has with Traders & Builders (R-TB-1)."""

    pigs: Annotated[int, msgspec.Meta(ge=0, le=5)] = 1
    """Pigs each player has with Traders & Builders (R-TB-1)."""

    order: Order = "hig"
    """Which of builder tile and bazaar comes first (V-ORDER-*, RULES.md section 6)."""

    castle_ends: bool = False
    """V-CASTLE-ENDS: any two one-edge city ends may become a castle, not only semicircles."""

    castle_same_turn: bool = True
    """V-CASTLE-SAME-TURN: a castle made in a double turn's first part may score in its second."""

    bazaar_no_credit: bool = False
    """V-BAZAAR-NOCREDIT: no bid above the bidder's score; nobody pays below zero."""

    bazaar_no_auction: bool = False
    """V-BAZAAR-NOAUCTION: each player in turn picks a revealed tile for free."""

    bazaar_zero_scores: bool = False
    """V-BAZAAR-ZEROSCORES: the no-auction bazaar is used while every score is 0."""

    castle_farm_value: Annotated[int, msgspec.Meta(ge=0, le=20)] = 4
    """What a castle beside a farm is worth to it (R-CASTLE-10: 4; one more with the pig).
    A scoring-only reading: the audit re-scores a game with castles counted like cities (3)."""

    without: tuple[str, ...] = ()
    """Parts of the sets in play switched off, by name (`domain.expansions.PARTS`): JCloisterZone
    lets a game leave out, say, the inns of Inns & Cathedrals, which then score as plain roads."""

    barns: Annotated[int, msgspec.Meta(ge=0, le=5)] = 1
    """Barns each player has with Abbey & Mayor (R-AM-6)."""

    wagons: Annotated[int, msgspec.Meta(ge=0, le=5)] = 1
    """Wagons each player has with Abbey & Mayor (R-AM-5)."""

    mayors: Annotated[int, msgspec.Meta(ge=0, le=5)] = 1
    """Mayors each player has with Abbey & Mayor (R-AM-4)."""

    big_followers: Annotated[int, msgspec.Meta(ge=0, le=5)] = 1
    """Large followers each player has with Inns & Cathedrals (R-IC-5)."""

    solo: bool = False
    """One player may play alone: not a reading of the rules (R-BASE-1 wants 2 to 6) but what
    JCloisterZone's own rule tests do, so their saves can be imported and checked."""

    bridge_on_neighbours: bool = True
    """A voluntary bridge may go on a tile beside the one just placed (R-BRIDGE-2); JCloisterZone
    offers it only on the tile just placed (JCZ-4)."""

    builder_on_completed: bool = True
    """A builder may go on a road or city the tile just completed (R-TB-2 does not forbid it;
    it returns at once); JCloisterZone does not offer it."""

    ransom_alone: bool = True
    """A ransom may be paid in the turn's action step even when nothing else can be done there
    (R-TOWER-7); JCloisterZone offers it only beside another action (JCZ-TOWER-RANSOM)."""

    castle_turn_order: bool = False
    """JCloisterZone's castle offer (JCZ-CASTLE-OFFER): only a city holding exactly one follower,
    its owner asked; players asked round the table from the tile's placer, one castle each; a
    pass ends the asking for everyone. Off: each majority holder decides for each city (R-CASTLE-3)."""

    ransom_limited: bool = False
    """JCZ-TOWER-RANSOM-LIMITS: at most one ransom a turn (a builder's second part included), and
    none by a player whose score is below the ransom; R-TOWER-7 sets neither limit."""

    ransom_any_step: bool = False
    """JCZ-RANSOM-ANY-STEP: a ransom may be paid by the player asked for any decision (a tile to
    place, an abbey, a dragon step, a bid…), in their turn or another's, the decision staying
    open; R-TOWER-7 lets it be paid during the turn's action only."""

    bazaar_choice_moves_on: bool = False
    """JCloisterZone's reading: after a sale the next chooser is the player after the seller,
    not the seller again (R-BAZAAR-6 says the seller chooses again)."""

    tiny_city: bool = False
    """V-TINY-CITY: a completed city of exactly two tiles scores as if unfinished, 1 a tile and 1 a
    pennant (the older reading; JCloisterZone's rule `tiny-city-scoring` = 2), not 2 each
    (R-BASE-5)."""

    princess_must: bool = False
    """V-PRINCESS-MUST: a princess tile whose city holds a knight obliges its player to send one
    home, instead of merely letting them (R-PD-6); JCloisterZone's `princess-action` = must."""

    fairy_on_tile: bool = False
    """V-FAIRY-ON-TILE: the fairy goes onto a tile holding a follower of the player, not beside
    one follower (R-PD-5); JCloisterZone's `fairy-placement` = on-tile."""

    dragon_after_scoring: bool = False
    """V-DRAGON-AFTER-SCORING: the dragon moves once the turn part's features scored (and its
    wagons moved), not before castles and scoring (R-PD-4); JCloisterZone's `dragon-move` =
    after-scoring."""

    wagon_connected: bool = False
    """V-WAGON-C1: a wagon whose feature scored moves only to a feature linked to that one (a road
    running into it on one tile, an abbey closing it), not to any on the nine tiles around
    (R-AM-5); JCloisterZone's `wagon-move` = C1."""

    abbey_end_rounds: bool = False
    """JCZ-ABBEY-END-ROUNDS: at the game's end the asking goes on from the player after the last
    one asked and stops at the player of the last turn only when they hold no abbey: while they
    hold one, everyone holding one is asked again, round after round. Off: each holder is asked
    once (R-AM-2)."""

    barn_occupied: bool = False
    """V-BARN-OCCUPIED: a barn may go on a field that already has a barn (R-AM-6 forbids it);
    JCloisterZone's `barn-placement` = occupied."""


# The variant switches a user can flip, by their RULES.md id (orders aside): the audit replays a
# game under each flipped, and `carc play` takes them as options.
VARIANTS: Final[dict[str, str]] = {
    "V-CASTLE-ENDS": "castle_ends",
    "V-CASTLE-SAME-TURN": "castle_same_turn",
    "V-BAZAAR-NOCREDIT": "bazaar_no_credit",
    "V-BAZAAR-NOAUCTION": "bazaar_no_auction",
    "V-BAZAAR-ZEROSCORES": "bazaar_zero_scores",
    "V-TINY-CITY": "tiny_city",
    "V-PRINCESS-MUST": "princess_must",
    "V-FAIRY-ON-TILE": "fairy_on_tile",
    "V-DRAGON-AFTER-SCORING": "dragon_after_scoring",
    "V-WAGON-C1": "wagon_connected",
    "V-BARN-OCCUPIED": "barn_occupied",
    "JCZ-BAZAAR-CHOOSER": "bazaar_choice_moves_on",
    "JCZ-BRIDGE-PLACED-TILE": "bridge_on_neighbours",
    "JCZ-BUILDER-COMPLETED": "builder_on_completed",
    "JCZ-TOWER-RANSOM": "ransom_alone",
    "JCZ-TOWER-RANSOM-LIMITS": "ransom_limited",
    "JCZ-RANSOM-ANY-STEP": "ransom_any_step",
    "JCZ-CASTLE-OFFER": "castle_turn_order",
    "JCZ-ABBEY-END-ROUNDS": "abbey_end_rounds",
}


# The part (`domain.expansions.PARTS`) a variant changes the play of: with that part out of the
# game, flipping it changes nothing, and the audit may leave it out.
VARIANT_PARTS: Final[dict[str, str]] = {
    "V-CASTLE-ENDS": "castles",
    "V-CASTLE-SAME-TURN": "castles",
    "V-BAZAAR-NOCREDIT": "bazaars",
    "V-BAZAAR-NOAUCTION": "bazaars",
    "V-BAZAAR-ZEROSCORES": "bazaars",
    "JCZ-BAZAAR-CHOOSER": "bazaars",
    "JCZ-BRIDGE-PLACED-TILE": "bridges",
    "JCZ-BUILDER-COMPLETED": "builders",
    "JCZ-TOWER-RANSOM": "tower",
    "V-PRINCESS-MUST": "princess",
    "V-FAIRY-ON-TILE": "fairy",
    "V-DRAGON-AFTER-SCORING": "dragon",
    "V-WAGON-C1": "wagon",
    "V-BARN-OCCUPIED": "barn",
    "JCZ-TOWER-RANSOM-LIMITS": "tower",
    "JCZ-RANSOM-ANY-STEP": "tower",
    "JCZ-CASTLE-OFFER": "castles",
    "JCZ-ABBEY-END-ROUNDS": "abbey",
}


def audit_variants(rules: RuleSet, parts: Collection[str] | None = None) -> dict[str, RuleSet]:
    """Every other reading a recorded game can be re-checked under, by name; given the parts in
    play (`parts`), the variants of parts out of the game are left out."""
    found: dict[str, RuleSet] = {}
    if parts is None or "bazaars" in parts:  # the orders place a bazaar against a builder's tile
        for order in ORDERS:
            if order != rules.order:
                found[ORDER_VARIANTS[order]] = msgspec.structs.replace(rules, order=order)
    for name, field in VARIANTS.items():
        if parts is not None and VARIANT_PARTS.get(name, "") not in (*parts, ""):
            continue
        flipped = not getattr(rules, field)
        found[f"{name}={'on' if flipped else 'off'}"] = msgspec.structs.replace(rules, **{field: flipped})
    if parts is None or "castles" in parts:
        other_value = 3 if rules.castle_farm_value != 3 else 4
        found[f"castle-farm-value={other_value}"] = msgspec.structs.replace(
            rules, castle_farm_value=other_value
        )
    found[f"farmers={'off' if rules.farmers else 'on'}"] = msgspec.structs.replace(
        rules, farmers=not rules.farmers
    )
    return found


def checked(rules: RuleSet) -> RuleSet:
    """`rules` if every switch is within its bounds; msgspec.ValidationError naming the one that is not.

    Decoding (files, HTTP bodies) checks the bounds already; a rule set built in code is checked here.
    """
    return msgspec.convert(msgspec.to_builtins(rules), RuleSet)
