"""The pig (Traders & Builders; R-TB-5, R-TB-6): beside its owner's farmer, it adds one point per
city to the farm's value for that player.
"""

from __future__ import annotations

from typing import Annotated, Final

import msgspec

from domain import events as ev
from domain.features import Feature
from domain.moves import own_follower_locations
from domain.part import FigureKind, Part, part_options
from domain.rules import Options
from domain.scoring import Parts
from domain.state import GameState, return_figures, return_stranded
from domain.tiles import Kind
from domain.view import OWNER, FigureLook, Shape

NAME: Final = "pigs"
FIGURE: Final = "pig"


class PigOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    pigs: Annotated[int, msgspec.Meta(ge=0, le=5)] = 1
    """Pigs each player has with Traders & Builders (R-TB-1)."""


def _settings(state: GameState) -> PigOptions:
    found: PigOptions = part_options(state, NAME)
    return found


class PigsPart(Part):
    name = NAME
    rank = 90
    options = PigOptions
    figures = {
        FIGURE: FigureKind(
            follower=False,
            strength=0,
            rule="R-TB-5",
            # Pink whoever owns it, the owner's colour round it: a pig, not a follower of theirs.
            look=FigureLook(
                glyphs="ABCDEF",
                shape=Shape(tag="ellipse", rx=8, ry=5, fill="#f4a6b8", stroke=OWNER, stroke_width=2.5),
                beneath=True,
            ),
        )
    }

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[NAME] = None
        state.ext["figures"][FIGURE] = [_settings(state).pigs] * len(event.players)

    def deployments(self, state: GameState, figure: str) -> list[str]:
        """A field of the tile just placed holding one of the player's farmers (R-TB-5)."""
        return own_follower_locations(state, FIGURE, (Kind.FIELD,))

    def why_not(self, state: GameState, figure: str, location: str) -> str:
        return f"a pig goes on a field holding your own farmer, not {location}"

    def followers_left(self, state: GameState, feature: Feature) -> None:
        """A pig without its owner's farmer beside it goes home (R-TB-5a): the dragon ate the
        farmer, a tower took it."""
        return_stranded(state, feature, FIGURE)

    def award(
        self, state: GameState, feature: Feature, player: int, value: int, parts: Parts, rule: str
    ) -> tuple[int, Parts, str]:
        """One more for each counted city (and castle) with the player's pig in the farm (R-TB-6)."""
        if feature.kind != Kind.FIELD or not any(p == player and k == FIGURE for p, _, k in feature.figures):
            return value, parts, rule
        return value + sum(n for _, n in parts), (*parts, ("pig", 1)), "R-TB-6"

    def final_scoring(self, state: GameState, version: int) -> None:
        for feature in state.board.graph.figured():
            return_figures(state, feature, FIGURE)


PART = PigsPart()
PARTS = (PART,)
