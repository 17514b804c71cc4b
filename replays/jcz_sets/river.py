"""The River in JCloisterZone's saves: its tiles, drawn from pack groups of their own."""

from __future__ import annotations

from replays.jcz_format import JczSave
from replays.jcz_mapping import Element, JczSet


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


MAPPING = River()
