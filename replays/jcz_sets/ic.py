"""Inns & Cathedrals in JCloisterZone's saves: the large follower, and the elements that switch
inns and cathedrals on (without them, they score as plain roads and cities)."""

from __future__ import annotations

from replays.jcz_mapping import Element, JczSet


class InnsCathedrals(JczSet):
    code = "ic"
    tile_set = "inns-and-cathedrals"
    elements = {
        "big-follower": Element(part="big_follower", number="big_followers"),
        "cathedral": Element(part="cathedrals"),
        "inn": Element(part="inns"),
    }
    figures = {"big": "big"}


MAPPING = InnsCathedrals()
