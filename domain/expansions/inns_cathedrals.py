"""Inns & Cathedrals (R-IC-*): inns on roads, cathedrals in cities, the large follower.

Three separable parts (JCloisterZone switches each on and off): a road with an inn scores 2 a
tile when completed and nothing at the end; a city with a cathedral scores 3 a tile and 3 a
pennant when completed and nothing at the end; the large follower counts as two followers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Final

import msgspec

from domain import events as ev
from domain.features import Feature
from domain.moves import unoccupied_locations
from domain.part import FigureKind, Part, part_options
from domain.rules import Options
from domain.scoring import Parts
from domain.state import GameState
from domain.tiles import Kind
from domain.view import FigureLook, FlagStyle, Shape

BIG: Final = "big"  # the large follower's figure


class MarkedFeature(Part):
    """A road or city holding a marked segment (an inn, a cathedral) is worth `per` more when
    completed, for each tile and what `counted` adds, and nothing when unfinished at the end."""

    def __init__(
        self, name: str, rank: int, kind: Kind, mark: str, counted: Callable[[Feature], int], colour: str
    ) -> None:
        self.name = name  # type: ignore[misc]  # one class, two parts: each names itself
        self.rank = rank  # type: ignore[misc]
        self.kind = kind
        self.mark = mark
        self.counted = counted
        # A square beside its segment, in the part's colour.
        self.flag_styles = {  # type: ignore[misc]
            mark: FlagStyle(
                shape=Shape(tag="rect", width=8, height=8, fill=colour, stroke=None, stroke_width=None),
                at=(0.0, 0.12),
            )
        }

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[self.name] = None

    def value(
        self, state: GameState, feature: Feature, completed: bool, value: int, parts: Parts
    ) -> tuple[int, Parts]:
        if feature.kind != self.kind or not feature.marks.get(self.mark):
            return value, parts
        if not completed:
            return 0, ((self.mark, 0),)
        extra = self.counted(feature)
        return value + extra, (*parts, (self.mark, extra))


class BigFollowerOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    big_followers: Annotated[int, msgspec.Meta(ge=0, le=5)] = 1
    """Large followers each player has with Inns & Cathedrals (R-IC-5)."""


def _settings(state: GameState) -> BigFollowerOptions:
    found: BigFollowerOptions = part_options(state, "big_follower")
    return found


class BigFollowerPart(Part):
    name = "big_follower"
    rank = 130
    options = BigFollowerOptions
    figures = {
        BIG: FigureKind(
            follower=True,
            strength=2,
            rule="R-IC-5",
            plain=True,
            look=FigureLook(glyphs="UVWXYZ", shape=Shape(tag="circle", r=9)),  # a follower's, bigger
        )
    }

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[self.name] = None
        state.ext["figures"][BIG] = [_settings(state).big_followers] * len(event.players)

    def deployments(self, state: GameState, figure: str) -> list[str]:
        """Wherever a follower may go (R-IC-5)."""
        if state.ext["figures"][BIG][state.current] == 0:
            return []
        return unoccupied_locations(state)

    def why_not(self, state: GameState, figure: str, location: str) -> str:
        return f"the feature at {location} already holds a follower"


# R-IC-2, R-IC-3: an inn's road, one more a tile; R-IC-4: a cathedral's city, one more a tile and a pennant.
INNS = MarkedFeature("inns", 110, Kind.ROAD, "inn", lambda road: len(road.tiles), "#e67e22")
CATHEDRALS = MarkedFeature(
    "cathedrals", 120, Kind.CITY, "cathedral", lambda city: len(city.tiles) + city.pennants, "#4b2e83"
)
BIG_FOLLOWER = BigFollowerPart()
PARTS = (INNS, CATHEDRALS, BIG_FOLLOWER)
