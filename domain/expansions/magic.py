"""The mage and the witch (Mage & Witch, R-MW-*): two neutral figures on roads and cities.

Placing a tile with the magic symbol, the player must first put one of them onto, or move it to,
a segment of an unfinished road or city holding neither (R-MW-2); they never share a feature, so
a tile that joins theirs makes its player move one at once (R-MW-3); with nowhere to go, one
leaves the board (R-MW-4). The mage adds a point a tile to its feature's value (R-MW-5), the
witch halves it, rounding up (R-MW-6); a figure whose feature is completed leaves after it
scored (R-MW-8).

Under JCZ-MW-LATE-JOIN a join is seen only in the step right after the tile (and the bridge its
placement needs) lies, before anything else happens: a join made later in the turn part waits
for the next tile placed, and the feature scores with both figures meanwhile.
"""

from __future__ import annotations

from typing import Final, Literal

from domain import events as ev
from domain.board import Board, PlacedTile
from domain.commands import Command
from domain.errors import RuleViolation
from domain.events import Event
from domain.features import Feature
from domain.geometry import neighbour, opposite
from domain.moves import Decision
from domain.part import Part, ext, part_options
from domain.rules import Options
from domain.scoring import Parts
from domain.state import GameState, Phase, segment_location
from domain.tiles import WILD_EDGE, Kind
from domain.view import NOTHING_SHOWN, Mark, MarkKind, MarkStyle, PartView, Shape, Spot as ViewSpot

NAME: Final = "magic"
Figure = Literal["mage", "witch"]
MAGE: Final = "mage"
WITCH: Final = "witch"
FIGURES: Final[tuple[Figure, ...]] = (MAGE, WITCH)
TAG: Final = "magic"  # the tile tag of the magic symbol (R-MW-1)
SKIPPED: Final = "abbey"  # the tag of a tile placed without the magic step (no road, no city)
MOVE: Final = "magic"  # the decision steps
REMOVE: Final = "magic-remove"
_TARGETS: Final = (Kind.ROAD, Kind.CITY)

Spot = tuple[int, int, str]  # x, y, location of a segment


class MagicFigureMoved(Event, frozen=True, kw_only=True):
    """The mage or the witch onto `location` of the tile at (x, y), from off the board or from
    where it stood (R-MW-2, R-MW-3)."""

    player: int
    figure: str
    x: int
    y: int
    location: str


class MagicFigureRemoved(Event, frozen=True, kw_only=True):
    """The mage or the witch off the board: nowhere is left to move it (R-MW-4). The player's
    choice with both on the board; the engine's own step with one."""

    player: int
    figure: str


class MoveMagicFigure(Command, frozen=True, kw_only=True):
    figure: Figure
    x: int
    y: int
    location: str


class RemoveMagicFigure(Command, frozen=True, kw_only=True):
    figure: Figure


class Magic:
    """Where the two figures stand, and this turn part's magic step."""

    __slots__ = ("at", "owed", "window")

    def __init__(self) -> None:
        self.at: dict[str, int] = {}  # figure -> the segment it stands on; off the board: absent
        self.owed = False  # the tile placed in this part shows the magic symbol, and no figure moved yet
        # The last version of this part's magic step: the tile's, or the bridge's its placement
        # needs; any other event ends it. -1: no step in this part (an abbey, or no tile yet).
        self.window = -1


def magic(state: GameState) -> Magic:
    found: Magic = ext(state, NAME)
    return found


class MagicOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    magic_late_join: bool = False
    """JCZ-MW-LATE-JOIN: a join of the mage's and the witch's features is seen only right after a
    tile (and the bridge its placement needs) lies; one made later in the turn part (by a piece
    that links features after the tile: a tunnel, a ferry) is dealt with by whoever places the
    next tile, and the feature scores with both meanwhile. Off: whoever joins them moves one at
    once, before scoring (R-MW-3)."""


def _settings(state: GameState) -> MagicOptions:
    found: MagicOptions = part_options(state, NAME)
    return found


def features(state: GameState) -> dict[str, Feature]:
    """The feature each figure on the board stands on (R-MW-2)."""
    graph = state.board.graph
    return {figure: graph.feature(sid) for figure, sid in magic(state).at.items()}


def joined(state: GameState) -> bool:
    """Both figures stand on one feature (R-MW-3)."""
    found = features(state)
    return len(found) == 2 and found[MAGE] is found[WITCH]


def targets(state: GameState) -> list[Spot]:
    """Every segment of an unfinished road or city holding neither figure, on any tile: where
    either figure may go (R-MW-2). Once a state version."""
    found: list[Spot] = state.memoized("magic targets", lambda: _targets(state))
    return found


def _targets(state: GameState) -> list[Spot]:
    board = state.board
    graph = board.graph
    taken = {feature.id for feature in features(state).values()}
    found = []
    for placed in board.tiles:
        x, y = placed.pos
        for name, sid, kind in placed.locations():
            if kind in _TARGETS:
                feature = graph.feature(sid)
                if feature.open > 0 and feature.id not in taken:
                    found.append((x, y, name))
    return found


def _in_window(state: GameState) -> bool:
    """This part's magic step is still on: a tile lies, and nothing happened since it (and the
    bridge its placement needs) but the step itself."""
    return state.version <= magic(state).window


def due(state: GameState) -> bool:
    """A figure must move now (R-MW-2, R-MW-3): the magic symbol on the tile just placed, or the
    two figures on one feature (under JCZ-MW-LATE-JOIN only in the step right after a tile)."""
    if state.phase != Phase.ACTION and state.phase != Phase.ACTION_DONE:
        return False
    in_window = _in_window(state)
    if magic(state).owed and in_window:
        return True
    return (in_window or not _settings(state).magic_late_join) and joined(state)


def removable(state: GameState) -> list[Figure]:
    """Figures standing on a feature, one of which leaves the board when a figure must move and
    nowhere is left (R-MW-4)."""
    return [figure for figure in FIGURES if figure in features(state)]


def _mismatched(board: Board, placed: PlacedTile) -> bool:
    """The tile meets a neighbour's edge of another kind: the placement brings a bridge."""
    for edge in range(4):
        other = board.at.get(neighbour(placed.pos, edge))
        if other is None:
            continue
        mine, theirs = placed.edge_codes[edge], other.edge_codes[opposite(edge)]
        if mine != theirs and WILD_EDGE not in (mine, theirs):
            return True
    return False


class MagicPart(Part):
    # After the inns and cathedrals (their values come first, R-MW-5, R-MW-6) and after the
    # castles (a castle scores a completed feature's value with the figures still on it, R-MW-9).
    name = NAME
    rank = 125
    options = MagicOptions
    switches = {"JCZ-MW-LATE-JOIN": "magic_late_join"}
    events = (MagicFigureMoved, MagicFigureRemoved)
    commands = (MoveMagicFigure, RemoveMagicFigure)
    steps = {MOVE: "R-MW-2", REMOVE: "R-MW-4"}
    step_names = {
        MOVE: "a move of the mage or the witch",
        REMOVE: "the mage or the witch taken off the board",
    }
    command_steps = {
        MoveMagicFigure: ((MOVE,), "R-MW-2"),
        RemoveMagicFigure: ((REMOVE,), "R-MW-4"),
    }
    command_names = {
        MoveMagicFigure: "move the mage or the witch",
        RemoveMagicFigure: "remove the mage or the witch",
    }
    rules_of = {MagicFigureMoved: "R-MW-2", MagicFigureRemoved: "R-MW-4"}
    engine_rules = {MagicFigureRemoved: "R-MW-4"}  # with one figure on the board, nothing to choose
    decisions = {
        MagicFigureMoved: (
            lambda e: (e.player, MoveMagicFigure(figure=e.figure, x=e.x, y=e.y, location=e.location)),
            "R-MW-2",
        ),
        MagicFigureRemoved: (lambda e: (e.player, RemoveMagicFigure(figure=e.figure)), "R-MW-4"),
    }

    mark_styles = {
        # Pointed hats over the players' figures, beside where a follower on the feature stands.
        MAGE: MarkStyle(
            shape=Shape(
                tag="polygon",
                points=((0, -10), (6, 5), (-6, 5)),
                fill="#2e6fd8",
                stroke="#fff",
                stroke_width=1.2,
            ),
            at=(0.5 + 8 / 64, 0.5 - 6 / 64),
        ),
        WITCH: MarkStyle(
            shape=Shape(
                tag="polygon",
                points=((0, -10), (4, 3), (9, 5), (-9, 5), (-4, 3)),
                fill="#3d1a4f",
                stroke="#fff",
                stroke_width=1.2,
            ),
            at=(0.5 + 8 / 64, 0.5 - 6 / 64),
        ),
    }
    _TEXT: Final = {MAGE: "m", WITCH: "w"}

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[NAME] = Magic()

    def view(self, state: GameState) -> PartView:
        """The mage and the witch on the segment each stands on (``m`` and ``w`` on its edges on
        the text board)."""
        at = magic(state).at
        if not at:
            return NOTHING_SHOWN
        board = state.board
        marks = []
        for figure in FIGURES:
            if figure in at:
                x, y, location = segment_location(board, at[figure])
                spot = ViewSpot(x, y, location)
                marks.append(
                    Mark(kind=MarkKind.TOKEN, style=figure, x=x, y=y, spots=(spot,), text=self._TEXT[figure])
                )
        return PartView(marks=tuple(marks))

    def begin_part(self, state: GameState) -> None:
        own = magic(state)
        own.owed = False
        own.window = -1

    def tile_placed(self, state: GameState, placed: PlacedTile) -> None:
        """The magic step follows every tile placed but an abbey (R-MW-2, R-MW-3), and the bridge
        its placement needs; it lasts until anything else happens."""
        if SKIPPED in placed.tile.tags:
            return
        own = magic(state)
        own.owed = TAG in placed.tile.tags
        placement = state.version + 1  # the TilePlaced being applied
        own.window = placement + (1 if _mismatched(state.board, placed) else 0)

    # ---- the magic step: before the action step and every other decision
    def before_action(self, state: GameState) -> Decision | None:
        if not due(state):
            return None
        if targets(state):
            return Decision(MOVE, state.current)
        if len(removable(state)) == 2:
            return Decision(REMOVE, state.current)
        return None

    def automatic(self, state: GameState) -> Event | None:
        """With one figure on a feature and nowhere to move, it leaves the board by itself (R-MW-4)."""
        if not due(state) or targets(state):
            return None
        found = removable(state)
        if len(found) != 1:
            return None
        version = state.version + 1
        return MagicFigureRemoved(
            originator_id=state.id, originator_version=version, player=state.current, figure=found[0]
        )

    def command_options(self, state: GameState, step: str) -> list[Command]:
        if step == REMOVE:
            return [RemoveMagicFigure(figure=figure) for figure in removable(state)]
        spots = targets(state)
        return [MoveMagicFigure(figure=f, x=x, y=y, location=loc) for f in FIGURES for x, y, loc in spots]

    def decide(self, state: GameState, player: int, command: Command, step: str) -> list[Event]:
        version = state.version + 1
        if isinstance(command, RemoveMagicFigure):
            if command.figure not in removable(state):
                raise RuleViolation("R-MW-4", f"the {command.figure} is on no feature to remove it from")
            return [
                MagicFigureRemoved(
                    originator_id=state.id, originator_version=version, player=player, figure=command.figure
                )
            ]
        assert isinstance(command, MoveMagicFigure)
        if command.figure not in FIGURES:
            raise RuleViolation(
                "R-MW-2", f"the magic figures are the mage and the witch, not {command.figure!r}"
            )
        if (command.x, command.y, command.location) not in targets(state):
            raise RuleViolation(
                "R-MW-2",
                f"the {command.figure} cannot go to {command.location} of {(command.x, command.y)}: it goes "
                "onto an unfinished road or city holding neither the mage nor the witch",
            )
        return [
            MagicFigureMoved(
                originator_id=state.id,
                originator_version=version,
                player=player,
                figure=command.figure,
                x=command.x,
                y=command.y,
                location=command.location,
            )
        ]

    def apply(self, state: GameState, event: Event) -> None:
        own = magic(state)
        if isinstance(event, MagicFigureMoved):
            own.at[event.figure] = state.board.at[(event.x, event.y)].segment(event.location)
        else:
            assert isinstance(event, MagicFigureRemoved)
            del own.at[event.figure]
        own.owed = False

    # ---- scoring
    def value(
        self, state: GameState, feature: Feature, completed: bool, value: int, parts: Parts
    ) -> tuple[int, Parts]:
        """The mage adds 1 a tile (R-MW-5); then the witch halves the whole, rounding up
        (R-MW-6): what is taken off is half, rounded down, named as a negative part."""
        if not magic(state).at or feature.kind not in _TARGETS:
            return value, parts
        on = features(state)
        if on.get(MAGE) is feature:
            tiles = len(feature.tiles)
            value, parts = value + tiles, (*parts, (MAGE, tiles))
        if on.get(WITCH) is feature:
            half = value // 2 if value >= 0 else -(-value // 2)
            value, parts = value - half, (*parts, (WITCH, -half))
        return value, parts

    def after_scoring(self, state: GameState, version: int) -> None:
        """A figure whose feature was completed in this part leaves the board once it scored,
        anybody's or nobody's, or once it was made a castle instead (R-MW-8)."""
        own = magic(state)
        if not own.at:
            return
        completed = {feature.id for feature in state.completions()}
        for figure, feature in features(state).items():
            if feature.id in completed:
                del own.at[figure]


def spots(state: GameState) -> dict[str, Spot]:
    """Where each figure on the board stands, as (x, y, location): what a board shows."""
    board = state.board
    return {figure: segment_location(board, sid) for figure, sid in magic(state).at.items()}


PART = MagicPart()
PARTS = (PART,)
