"""Trade goods (Traders & Builders; R-TB-7): whoever completes a city takes its goods; the most of
each kind scores 10 at the end.
"""

from __future__ import annotations

from typing import Final

from domain import events as ev
from domain.features import Feature
from domain.part import Part, ext
from domain.state import GameState, credit
from domain.tiles import Kind
from domain.view import FlagStyle, PartView, Shape, Supply

NAME: Final = "goods"
KINDS: Final = ("wine", "grain", "cloth")
_FLAG: Final = "goods="


def goods(state: GameState) -> list[dict[str, int]]:
    """The goods tokens each player holds, by kind."""
    found: list[dict[str, int]] = ext(state, NAME)
    return found


def majorities(held: list[dict[str, int]]) -> list[tuple[int, str, int]]:
    """(player, kind, tokens) for everyone holding the most of a kind: each scores 10 for it,
    ties included (R-TB-7)."""
    found = []
    for kind in KINDS:
        best = max((h.get(kind, 0) for h in held), default=0)
        if best:
            found += [(player, kind, best) for player, h in enumerate(held) if h.get(kind, 0) == best]
    return found


class GoodsPart(Part):
    name = NAME
    rank = 100
    # A diamond beside its city, coloured by its kind.
    flag_styles = {
        "goods": FlagStyle(
            shape=Shape(
                tag="polygon",
                points=((0, -5), (5, 0), (0, 5), (-5, 0)),
                fill="#333",
                stroke=None,
                stroke_width=None,
            ),
            at=(0.15, 0.0),
            fills={"wine": "#7b2d8b", "grain": "#e0c020", "cloth": "#2a6fb0"},
        )
    }

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[NAME] = [{} for _ in event.players]

    def view(self, state: GameState) -> PartView:
        """The tokens of each kind each player holds."""
        held = goods(state)
        return PartView(supplies=tuple(Supply(kind, tuple(h.get(kind, 0) for h in held)) for kind in KINDS))

    def feature_scored(self, state: GameState, feature: Feature) -> None:
        """Whoever completes the city takes its goods, owner or not (R-TB-7)."""
        if feature.kind != Kind.CITY or not feature.marks:
            return
        holder = goods(state)[state.current]
        for flag, n in feature.marks.items():
            if flag.startswith(_FLAG):
                kind = flag[len(_FLAG) :]
                holder[kind] = holder.get(kind, 0) + n

    def final_scoring(self, state: GameState, version: int) -> None:
        for player, kind, held in majorities(goods(state)):  # R-TB-7
            credit(state, player, 10, "goods", "R-TB-7", ((kind, held),), -1, version, True)


PART = GoodsPart()
PARTS = (PART,)
