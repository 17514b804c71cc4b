"""Traders & Builders in JCloisterZone's saves: the builder and the pig as figures, the goods."""

from __future__ import annotations

from replays.jcz_mapping import Element, JczSet


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


MAPPING = TradersBuilders()
