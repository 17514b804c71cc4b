"""The mayor (Abbey & Mayor, R-AM-4): a follower for cities whose strength is its city's pennants."""

from __future__ import annotations

from typing import Annotated, Final

import msgspec

from domain import events as ev
from domain.features import Feature
from domain.moves import unoccupied_locations
from domain.part import FigureKind, Part, part_options
from domain.rules import Options
from domain.state import GameState
from domain.tiles import Kind
from domain.view import FigureLook, Shape

NAME: Final = "mayor"
FIGURE: Final = "mayor"


def _strength(city: Feature) -> int:
    return city.pennants


class MayorOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    mayors: Annotated[int, msgspec.Meta(ge=0, le=5)] = 1
    """Mayors each player has with Abbey & Mayor (R-AM-4)."""


def _settings(state: GameState) -> MayorOptions:
    found: MayorOptions = part_options(state, NAME)
    return found


class MayorPart(Part):
    name = NAME
    rank = 150
    options = MayorOptions
    figures = {
        FIGURE: FigureKind(
            follower=True,
            strength=_strength,
            rule="R-AM-4",
            look=FigureLook(
                glyphs="GHIJKL", shape=Shape(tag="polygon", points=((0, -8), (7, 0), (0, 8), (-7, 0)))
            ),
        )
    }

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[NAME] = None
        state.ext["figures"][FIGURE] = [_settings(state).mayors] * len(event.players)

    def deployments(self, state: GameState, figure: str) -> list[str]:
        """An unoccupied city of the tile just placed (R-AM-4)."""
        placed = state.placed
        if placed is None or state.ext["figures"][FIGURE][state.current] == 0:
            return []
        cities = {name for name, _, kind in placed.locations() if kind == Kind.CITY}
        return [name for name in unoccupied_locations(state) if name in cities]

    def why_not(self, state: GameState, figure: str, location: str) -> str:
        return f"a mayor goes on a city that holds no follower, not on {location}"


PART = MayorPart()
PARTS = (PART,)
