"""The mayor (Abbey & Mayor, R-AM-4): a follower for cities whose strength is its city's pennants."""

from __future__ import annotations

from typing import Final

from domain import events as ev
from domain.features import Feature
from domain.moves import unoccupied_locations
from domain.part import FigureKind, Part
from domain.state import GameState
from domain.tiles import Kind
from domain.view import FigureLook, Shape

NAME: Final = "mayor"
FIGURE: Final = "mayor"


def _strength(city: Feature) -> int:
    return city.pennants


class MayorPart(Part):
    name = NAME
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
        state.ext["figures"][FIGURE] = [event.rules.mayors] * len(event.players)

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
