"""The shrines of Cult Places (R-CULT-1..8): a shrine is a cloister by another name, but a shrine
and a cloister that touch are rivals. A tile with either may not go where it would give a shrine
more than one cloister around it, or a cloister more than one shrine (R-CULT-3, R-CULT-4); and
when one of a touching pair is completed and scored, the other, still unfinished, loses: its
followers go home with nothing (the challenge, R-CULT-5..8).

"Cloister" here is any cloister segment of the catalogue, the abbey of Abbey & Mayor included:
the placement test runs wherever a tile is placed (`domain.moves.placement_refusal`), an abbey
put into a hole too. A wagon sent home by a lost challenge may roll on under JCloisterZone's
reading (JCZ-CULT-WAGON), through the core's `freed`.
"""

from __future__ import annotations

from typing import Final

from domain import events as ev
from domain.board import Board
from domain.errors import RuleViolation
from domain.features import Feature
from domain.geometry import RING_OFFSETS, Pos
from domain.part import Part, ext, part_options
from domain.rules import Options
from domain.state import GameState, credit, freed, return_followers
from domain.tiles import Kind, TileType
from domain.view import NOTHING_SHOWN, Mark, MarkKind, MarkStyle, PartView, Shape

NAME: Final = "shrines"
SHRINE: Final = "shrine"  # the flag of a cloister segment that is a shrine, and what it scores as
CHALLENGED: Final = ".challenged"  # the 0-point award of the challenge's loser, after its kind
CLOISTER: Final = "cloister"
CHALLENGE_PART: Final = "shrine-challenge"  # the award's one part, named as JCloisterZone does


def is_shrine(tile: TileType) -> bool:
    """A tile whose cloister is a shrine (R-CULT-1)."""
    return tile.cloister and SHRINE in tile.segments[tile.cloister_segment].flags


def _shrine_at(board: Board, pos: Pos) -> bool:
    return is_shrine(board.at[pos].tile)


def cloisters_around(board: Board, pos: Pos) -> list[Pos]:
    """The squares among the eight around `pos` holding a cloister or a shrine."""
    x, y = pos
    segments = board.cloister_segment
    return [q for dx, dy in RING_OFFSETS if (q := (x + dx, y + dy)) in segments]


class ShrineOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    challenge_wagon: bool = False
    """JCZ-CULT-WAGON: a wagon sent home by a lost challenge may roll on as if its feature had
    scored (R-AM-5's destinations), as JCloisterZone moves every wagon that left the board in a
    turn part's scoring. Off: it just goes home, as the printed rules move only a scored wagon."""

    shrine_occupied_only: bool = False
    """V-CULT-OCCUPIED-ONLY: the placement limits (R-CULT-3, R-CULT-4) count only the cloisters
    and shrines that hold a follower, not all of them."""


def _settings(state: GameState) -> ShrineOptions:
    found: ShrineOptions = part_options(state, NAME)
    return found


class Shrines:
    __slots__ = ("won",)

    def __init__(self) -> None:
        # The cloisters and shrines completed and scored, by at least one player, in this turn part.
        self.won: list[Feature] = []


def shrines(state: GameState) -> Shrines:
    found: Shrines = ext(state, NAME)
    return found


def _counted(state: GameState, board: Board, around: list[Pos]) -> list[Pos]:
    """Of these cloister squares, those the placement limits count: all, or under
    V-CULT-OCCUPIED-ONLY those holding a follower."""
    if not _settings(state).shrine_occupied_only:
        return around
    graph = board.graph
    return [q for q in around if state.occupied(graph.feature(board.cloister_segment[q]))]


def _names(board: Board, squares: list[Pos]) -> str:
    return " and ".join(f"the {'shrine' if _shrine_at(board, q) else 'cloister'} at {q}" for q in squares)


class ShrinePart(Part):
    name = NAME
    rank = 200  # the challenge comes after every completion, barn and castle has scored
    options = ShrineOptions
    switches = {"JCZ-CULT-WAGON": "challenge_wagon", "V-CULT-OCCUPIED-ONLY": "shrine_occupied_only"}

    mark_styles = {
        # A small temple over the cloister the tile draws: a pediment on a pillared hall.
        SHRINE: MarkStyle(
            shape=Shape(
                tag="polygon",
                points=((-10, -2), (0, -10), (10, -2), (7, -2), (7, 9), (-7, 9), (-7, -2)),
                fill="#7b5ea7",
                stroke="#fff",
                stroke_width=1.2,
            )
        )
    }

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[NAME] = Shrines()

    def view(self, state: GameState) -> PartView:
        """Each shrine a building on its tile (``S`` at its centre on the text board, where a
        cloister shows ``o``), done with once its ring of tiles is complete."""
        board = state.board
        shrines_on = sorted(pos for pos in board.cloister_segment if _shrine_at(board, pos))
        if not shrines_on:
            return NOTHING_SHOWN
        return PartView(
            marks=tuple(
                Mark(
                    kind=MarkKind.DISC,
                    style=SHRINE,
                    x=x,
                    y=y,
                    closed=board.cloister_ring[(x, y)] == 8,
                    text="S",
                )
                for x, y in shrines_on
            )
        )

    def begin_part(self, state: GameState) -> None:
        shrines(state).won = []

    def category(self, state: GameState, feature: Feature) -> str | None:
        """A shrine scores as a shrine, completed or not (R-CULT-2)."""
        return SHRINE if feature.kind == Kind.CLOISTER and SHRINE in feature.marks else None

    # ---- placement (R-CULT-3, R-CULT-4)

    def may_refuse(self, state: GameState, held: TileType) -> bool:
        return held.cloister

    def refusal(
        self, state: GameState, held: TileType, x: int, y: int, rotation: int
    ) -> RuleViolation | None:
        """A shrine touching more than one cloister, or a cloister more than one shrine, is refused
        (R-CULT-3); so is one touching a single rival that already touches one of its own kind
        (R-CULT-4). Under V-CULT-OCCUPIED-ONLY only occupied ones count."""
        board = state.board
        shrine = is_shrine(held)
        mine, theirs = ("shrine", "cloister") if shrine else ("cloister", "shrine")
        occupied_only = _settings(state).shrine_occupied_only
        rivals = [
            q
            for q in _counted(state, board, cloisters_around(board, (x, y)))
            if _shrine_at(board, q) != shrine
        ]
        if len(rivals) > 1:
            return RuleViolation(
                "V-CULT-OCCUPIED-ONLY" if occupied_only else "R-CULT-3",
                f"a {mine} may touch at most one {theirs}: {(x, y)} touches {_names(board, rivals)}",
            )
        if rivals:
            rival = rivals[0]
            kin = [
                q
                for q in _counted(state, board, cloisters_around(board, rival))
                if _shrine_at(board, q) == shrine
            ]
            if kin:
                return RuleViolation(
                    "V-CULT-OCCUPIED-ONLY" if occupied_only else "R-CULT-4",
                    f"the {theirs} at {rival} already touches {_names(board, kin)}: "
                    f"a {theirs} may touch at most one {mine}",
                )
        return None

    # ---- the challenge (R-CULT-5..8)

    def feature_scored(self, state: GameState, feature: Feature) -> None:
        if feature.kind == Kind.CLOISTER and state.majority(feature):
            shrines(state).won.append(feature)

    def after_scoring(self, state: GameState, version: int) -> None:
        """Each cloister or shrine completed and scored in this turn part challenges the rivals
        around it: one still unfinished with a follower loses, and its followers go home without
        points, the owner of its first one told so by a 0 (R-CULT-5). A rival completed in the
        same part scored already (R-CULT-6)."""
        own = shrines(state)
        won, own.won = own.won, []
        if not won:
            return
        board = state.board
        lost: list[Pos] = []
        for feature in won:
            pos = board.tiles[next(iter(feature.tiles))].pos
            shrine = _shrine_at(board, pos)
            for q in cloisters_around(board, pos):
                if _shrine_at(board, q) != shrine and board.cloister_ring[q] < 8 and q not in lost:
                    lost.append(q)
        wagons_roll = _settings(state).challenge_wagon
        for q in lost:
            feature = board.graph.feature(board.cloister_segment[q])
            followers = state.followers(feature)
            if not followers:
                continue
            kind = (SHRINE if _shrine_at(board, q) else CLOISTER) + CHALLENGED
            parts = ((CHALLENGE_PART, 0),)
            credit(state, followers[0][0], 0, kind, "R-CULT-5", parts, feature.id, version)
            if wagons_roll:
                freed(state, feature)  # JCZ-CULT-WAGON
            return_followers(state, feature)


PART = ShrinePart()
PARTS = (PART,)
