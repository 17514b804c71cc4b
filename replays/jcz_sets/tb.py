"""Traders & Builders in JCloisterZone's saves: the builder and the pig as figures, the goods."""

from __future__ import annotations

from typing import TYPE_CHECKING

from replays.jcz_format import JczMessage
from replays.jcz_mapping import Element, JczSet

if TYPE_CHECKING:
    from replays.jcz_draws import DrawWalk

SECOND = "tb.second"  # the walk's note: the part being played is a builder's second part


class TradersBuilders(JczSet):
    code = "tb"
    tile_set = "traders-and-builders"
    legacy_name = "TRADERS_AND_BUILDERS"
    elements = {
        "builder": Element(part="builders", number="builders"),
        "pig": Element(part="pigs", number="pigs"),
        "traders": Element(part="goods"),
        # The pig herd of a tile none of our sets has: without that tile, no effect.
        "pig-herd": Element(written=False),
    }
    figures = {"builder": "builder", "pig": "pig"}
    reading = {"builder_on_completed": False}  # JCZ-BUILDER-COMPLETED
    score_names = {"goods": "trade-goods"}
    final_only = frozenset({"goods"})

    def walk_start(self, walk: DrawWalk) -> None:
        walk.ext[SECOND] = False

    def extra_part(self, walk: DrawWalk, index: int, following: JczMessage | None) -> bool:
        """The same player placing again right after the COMMIT is a builder's second part, before
        any auction (4.x saves name no elements: their builders play)."""
        builders = bool(walk.elements.get("builder")) or not walk.elements
        if (
            builders
            and not walk.ext[SECOND]
            and walk.players > 1
            and following is not None
            and following.player == walk.current
            and following.type in ("PLACE_TILE", "PASS")
        ):
            walk.ext[SECOND] = True
            walk.tile_step(walk.current, "builder", index)
            return True
        walk.ext[SECOND] = False
        return False


MAPPING = TradersBuilders()
