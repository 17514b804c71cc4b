"""The River in JCloisterZone's saves: its tiles, drawn from pack groups of their own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.tiles import TileType
from replays.jcz_format import JczSave
from replays.jcz_mapping import Element, JczSet

if TYPE_CHECKING:
    from replays.jcz_draws import JczPack

# JCloisterZone's pack groups of the river: the river first, then the lake, then the rest.
SPRING, RIVER, LAKE, DEFAULT = "river-spring", "river", "river-lake", "default"


class River(JczSet):
    code = "river"
    tile_set = "river/1"
    elements = {"river": Element(part="river")}
    # JCloisterZone's river.xml limits the spring and the lake to one copy (`max="1"`), however
    # many copies of the river set are in play.
    one_per_game = frozenset({"spring", "lake"})

    def unsupported(self, save: JczSave) -> str | None:
        setup = save.setup
        tiles = any(key.split(":")[0] == self.tile_set and copies > 0 for key, copies in setup.sets.items())
        if tiles and setup.elements and "river" not in setup.elements:
            # JCloisterZone then shuffles the river into the pile, unchecked (its engine can fail on it)
            return "river tiles without the river element"
        return None

    def pack_group(self, tile: TileType, save: JczSave) -> str | None:
        if "spring" in tile.tags:
            return SPRING
        if "lake" in tile.tags:
            return LAKE
        return RIVER if any(seg.name == "river" for seg in tile.segments) else None

    def arrange_pack(self, pack: JczPack, save: JczSave) -> None:
        pack.groups.pop(SPRING, None)  # springs beyond the start are not played
        if RIVER in pack.groups or LAKE in pack.groups:
            pack.active -= {DEFAULT, LAKE}
            pack.successor |= {RIVER: LAKE, LAKE: DEFAULT}
            if RIVER not in pack.groups:
                pack.active.add(LAKE)


MAPPING = River()
