"""Inns & Cathedrals (R-IC-*): inns on roads, cathedrals in cities, the large follower.

Three separable parts (JCloisterZone switches each on and off): a road with an inn scores 2 a
tile when completed and nothing at the end; a city with a cathedral scores 3 a tile and 3 a
pennant when completed and nothing at the end; the large follower counts as two followers.
"""

from __future__ import annotations

from typing import Final

from domain import events as ev
from domain.features import Feature
from domain.part import FigureKind, Part
from domain.scoring import Parts
from domain.state import GameState
from domain.tiles import Kind

BIG: Final = "big"  # the large follower's figure


class InnsPart(Part):
    name = "inns"

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[self.name] = None

    def value(
        self, state: GameState, feature: Feature, completed: bool, value: int, parts: Parts
    ) -> tuple[int, Parts]:
        """R-IC-2: a completed road with an inn, one more a tile; R-IC-3: unfinished, nothing."""
        if feature.kind != Kind.ROAD or not feature.marks.get("inn"):
            return value, parts
        if not completed:
            return 0, (("inn", 0),)
        tiles = len(feature.tiles)
        return value + tiles, (*parts, ("inn", tiles))


class CathedralsPart(Part):
    name = "cathedrals"

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[self.name] = None

    def value(
        self, state: GameState, feature: Feature, completed: bool, value: int, parts: Parts
    ) -> tuple[int, Parts]:
        """R-IC-4: a completed city with a cathedral, one more a tile and a pennant; unfinished, nothing."""
        if feature.kind != Kind.CITY or not feature.marks.get("cathedral"):
            return value, parts
        if not completed:
            return 0, (("cathedral", 0),)
        extra = len(feature.tiles) + feature.pennants
        return value + extra, (*parts, ("cathedral", extra))


class BigFollowerPart(Part):
    name = "big_follower"
    figures = {BIG: FigureKind(follower=True, strength=2, rule="R-IC-5")}

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[self.name] = None
        state.ext["figures"][BIG] = [event.rules.big_followers] * len(event.players)

    def deployments(self, state: GameState, figure: str) -> list[str]:
        """Wherever a follower may go (R-IC-5)."""
        if state.ext["figures"][BIG][state.current] == 0:
            return []
        placed = state.placed
        assert placed is not None
        graph = state.board.graph
        farmers = state.rules.farmers
        return [
            name
            for name, sid, kind in placed.locations()
            if (farmers or kind != Kind.FIELD) and not graph.feature(sid).occupied()
        ]

    def why_not(self, state: GameState, figure: str, location: str) -> str:
        return f"the feature at {location} already holds a follower"


INNS = InnsPart()
CATHEDRALS = CathedralsPart()
BIG_FOLLOWER = BigFollowerPart()
