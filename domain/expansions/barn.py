"""The barn (Abbey & Mayor, R-AM-6): placed on a corner where four fields meet, it sends the
farmers of its field home with their points, later farmers joining it home with a point a city,
and scores 4 a city for its owner at the end. A field holds one barn, or under V-BARN-OCCUPIED
as many as players put there.
"""

from __future__ import annotations

from typing import Annotated, Final

import msgspec

from domain import events as ev
from domain.board import Board
from domain.features import Feature
from domain.part import FigureKind, Part, part_options
from domain.rules import Options
from domain.scoring import Parts
from domain.state import GameState, award, credit, farm_value, return_figures, return_followers, scored
from domain.tiles import Kind
from domain.view import FigureLook, Shape

NAME: Final = "barn"
FIGURE: Final = "barn"
# The half-edges meeting at each corner of a tile, and where a corner lies: the corner of the
# tile at (x, y) is the crossing at (x + dx, y + dy), counted as the top-left of a square.
_CORNER_HALVES: Final = {"NW": (0, 7), "NE": (1, 2), "SE": (3, 4), "SW": (5, 6)}
_CORNER_AT: Final = {"NW": (0, 0), "NE": (1, 0), "SW": (0, 1), "SE": (1, 1)}
# Around a crossing at (x, y): each tile and the corner of it that touches the crossing.
_AROUND: Final = (((-1, -1), "SE"), ((0, -1), "SW"), ((-1, 0), "NE"), ((0, 0), "NW"))


def corner_field(board: Board, pos: tuple[int, int], corner: str) -> int:
    """The segment id of the field of the tile at `pos` covering `corner`, -1 if none."""
    placed = board.at.get(pos)
    if placed is None:
        return -1
    first, second = (placed.half_segment(h) for h in _CORNER_HALVES[corner])
    return first if first >= 0 and first == second else -1


def crossing_field(board: Board, crossing: tuple[int, int]) -> int:
    """The field all four tiles around a crossing share there, -1 unless each has one there."""
    found = -1
    for (dx, dy), corner in _AROUND:
        sid = corner_field(board, (crossing[0] + dx, crossing[1] + dy), corner)
        if sid < 0:
            return -1
        found = sid
    return found


def _has_barn(feature: Feature) -> bool:
    return any(kind == FIGURE for _, _, kind in feature.figures)


def _counts(parts: Parts) -> tuple[int, int]:
    named = dict(parts)
    return named.get("cities", 0), named.get("castles", 0)


def _send_home(state: GameState, field: Feature) -> None:
    """Every figure of the field but barns and those that stay goes home (its farmers with their
    points already)."""
    return_followers(state, field)
    staying = state.tables.staying
    for kind in {k for _, _, k in field.figures if k != FIGURE and k not in staying}:
        return_figures(state, field, kind)


class BarnOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    barns: Annotated[int, msgspec.Meta(ge=0, le=5)] = 1
    """Barns each player has with Abbey & Mayor (R-AM-6)."""

    barn_occupied: bool = False
    """V-BARN-OCCUPIED: a barn may go on a field that already has a barn (R-AM-6 forbids it);
    JCloisterZone's `barn-placement` = occupied."""


def _settings(state: GameState) -> BarnOptions:
    found: BarnOptions = part_options(state, NAME)
    return found


class BarnPart(Part):
    name = NAME
    rank = 180
    options = BarnOptions
    switches = {"V-BARN-OCCUPIED": "barn_occupied"}
    figures = {
        FIGURE: FigureKind(
            follower=False,
            strength=0,
            rule="R-AM-6",
            occupies=True,
            look=FigureLook(glyphs="MNOPQR", shape=Shape(tag="polygon", points=((0, -8), (8, 6), (-8, 6)))),
        )
    }
    unblockable = True  # JCloisterZone lets a barn go even on the dragon's tile

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[NAME] = None
        state.ext["figures"][FIGURE] = [_settings(state).barns] * len(event.players)

    def deployments(self, state: GameState, figure: str) -> list[str]:
        """Fields of the tile just placed with a corner where four fields meet, none with a barn
        (R-AM-6) or, under V-BARN-OCCUPIED, with a barn or not."""
        placed = state.placed
        if placed is None or state.ext["figures"][FIGURE][state.current] == 0:
            return []
        board = state.board
        any_field = _settings(state).barn_occupied
        found = []
        for corner, (dx, dy) in _CORNER_AT.items():
            sid = crossing_field(board, (placed.pos[0] + dx, placed.pos[1] + dy))
            mine = corner_field(board, placed.pos, corner)
            if sid >= 0 and mine >= 0 and (any_field or not _has_barn(board.graph.feature(mine))):
                name = placed.location(mine)
                if name not in found:
                    found.append(name)
        return found

    def why_not(self, state: GameState, figure: str, location: str) -> str:
        if _settings(state).barn_occupied:
            return f"a barn goes on a corner where four fields meet, not on {location}"
        return f"a barn goes on a corner where four fields meet, none of them with a barn, not on {location}"

    def after_scoring(self, state: GameState, version: int) -> None:
        """The farmers of a field a barn was just put in score it and go home; farmers of a field
        the tile joined to a barn's score 1 a city (2 a castle) and go home (R-AM-6)."""
        placed = state.placed
        barns = _settings(state).barns
        if placed is None or all(n == barns for n in state.ext["figures"][FIGURE]):
            return  # no barn on the board yet (a barn never leaves it before the end)
        graph = state.board.graph
        own_segments = range(placed.base, placed.base + len(placed.tile.segments))
        fields = {graph.find(sid) for name, sid, kind in placed.locations() if kind == Kind.FIELD}
        for root in sorted(fields):
            field = graph.feature(root)
            new_barn = any(k == FIGURE and sid in own_segments for _, sid, k in field.figures)
            if new_barn and state.occupied(field):
                value, parts = farm_value(state, field)
                award(state, field, value, parts, "R-AM-6", version, final=False, kind="farm.barn-placed")
                scored(state, field)
                _send_home(state, field)
            elif _has_barn(field) and state.followers(field):
                self._connected(state, field, version, final=False)

    @staticmethod
    def _connected(state: GameState, field: Feature, version: int, *, final: bool) -> None:
        cities, castles = _counts(farm_value(state, field)[1])
        parts: Parts = (("cities", cities), ("castles", castles)) if castles else (("cities", cities),)
        award(
            state,
            field,
            cities + 2 * castles,
            parts,
            "R-AM-6",
            version,
            final=final,
            kind="farm.barn-connected",
        )
        if not final:  # at the end the fairy counts it itself (`FairyPart.final_feature`)
            scored(state, field)
        _send_home(state, field)

    def final_feature(self, state: GameState, feature: Feature, version: int) -> bool:
        """A barn's field pays its barns' owners 4 a city, 5 a castle, pigs aside (R-AM-6)."""
        if feature.kind != Kind.FIELD or not _has_barn(feature):
            return False
        if state.followers(feature):
            self._connected(state, feature, version, final=True)
        cities, castles = _counts(farm_value(state, feature)[1])
        parts: Parts = (("cities", cities), ("castles", castles)) if castles else (("cities", cities),)
        for player in sorted({p for p, _, k in feature.figures if k == FIGURE}):
            credit(
                state, player, 4 * cities + 5 * castles, "farm", "R-AM-6", parts, feature.id, version, True
            )
        return_figures(state, feature, FIGURE)
        return True


PART = BarnPart()
PARTS = (PART,)
