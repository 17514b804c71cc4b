"""The Festival (R-FESTIVAL-*): a player who places a festival tile may, instead of deploying a
figure, take one of their own figures back from anywhere on the board into their supply. The
figure scores nothing; what stays only beside a follower leaves with it (the core's
`lift_figure`). Under V-FESTIVAL-FOLLOWERS only followers may be taken back; under
JCZ-FESTIVAL-FOLLOWERS-NONE that reading offers nothing at all, as JCloisterZone plays it.
"""

from __future__ import annotations

from typing import Final, cast

from domain import events as ev
from domain.commands import Command
from domain.errors import RuleViolation
from domain.events import Event
from domain.part import Part, part_options
from domain.rules import Options, RuleSet
from domain.state import GameState, Phase, board_figures, lift_figure, to_supply
from domain.view import NOTHING_SHOWN, Mark, MarkKind, MarkStyle, PartView, Shape, Spot as ViewSpot

NAME: Final = "festival"
TAG: Final = "festival"  # the tiles with a festival square

Spot = tuple[int, int, str, str]  # x, y, location, kind of figure
CORNER: Final = "Wn"  # where a festival tile's flag is put: its north-west corner as it lies


class FigureTakenBack(Event, frozen=True, kw_only=True):
    """The player, having placed a festival tile, takes their `figure` at `location` of the tile
    at (x, y) back into their supply instead of deploying (R-FESTIVAL-2)."""

    player: int
    x: int
    y: int
    location: str
    figure: str


class TakeBackFigure(Command, frozen=True, kw_only=True):
    """Take one of one's own figures off the board, having placed a festival tile (R-FESTIVAL-2).
    `location` is a segment's name, or a part's own place (``tower`` for a tower's top)."""

    x: int
    y: int
    location: str
    figure: str = "follower"


class FestivalOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    festival_followers_only: bool = False
    """V-FESTIVAL-FOLLOWERS: only followers (a follower, a large follower, a mayor, a wagon) may
    be taken back, not a builder, a pig or a barn (R-FESTIVAL-3 allows any figure of one's own);
    JCloisterZone's `festival-return` = follower."""

    festival_followers_none: bool = False
    """JCZ-FESTIVAL-FOLLOWERS-NONE: under V-FESTIVAL-FOLLOWERS nothing may be taken back at all, a
    festival tile being an ordinary tile (JCloisterZone 5.12 never finds a follower among the
    figures it offers under that reading)."""


def _settings(state: GameState) -> FestivalOptions:
    found: FestivalOptions = part_options(state, NAME)
    return found


def festival_tile(state: GameState) -> bool:
    """The tile placed in this turn part has a festival square."""
    placed = state.placed
    return placed is not None and TAG in placed.tile.tags


def returnable(state: GameState, player: int) -> list[Spot]:
    """The figures `player` may take back now, having placed a festival tile: every figure of
    theirs on the board, wherever it stands (R-FESTIVAL-3), only followers under
    V-FESTIVAL-FOLLOWERS, none under JCZ-FESTIVAL-FOLLOWERS-NONE. Prisoners are in no one's hands
    on the board, and neutral figures belong to nobody: neither is among them."""
    options = _settings(state)
    if options.festival_followers_only and options.festival_followers_none:
        return []
    found = board_figures(state, player)
    if options.festival_followers_only:
        strength = state.tables.strength
        found = [spot for spot in found if spot[3] in strength]
    return found


class FestivalPart(Part):
    name = NAME
    rank = 55  # beside the princess: another figure sent home instead of deploying
    options = FestivalOptions
    switches = {
        "V-FESTIVAL-FOLLOWERS": "festival_followers_only",
        "JCZ-FESTIVAL-FOLLOWERS-NONE": "festival_followers_none",
    }
    events = (FigureTakenBack,)
    commands = (TakeBackFigure,)
    command_steps = {TakeBackFigure: (("action",), "R-FESTIVAL-2")}
    command_names = {TakeBackFigure: "take a figure back"}
    rules_of = {FigureTakenBack: "R-FESTIVAL-2"}
    decisions = {
        FigureTakenBack: (
            lambda e: (e.player, TakeBackFigure(x=e.x, y=e.y, location=e.location, figure=e.figure)),
            "R-FESTIVAL-2",
        )
    }

    mark_styles = {
        TAG: MarkStyle(
            shape=Shape(
                tag="polygon",
                points=((-5, 8), (-5, -8), (7, -4), (-3, 0), (-3, 8)),  # a pennant on its pole
                fill="#e0457b",
                stroke="#fff",
                stroke_width=1,
            )
        )
    }

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[NAME] = None  # nothing to remember: the tile just placed says it all

    def view(self, state: GameState) -> PartView:
        """Each festival tile flagged in its north-west corner (``!`` on the text board)."""
        flagged = sorted(placed.pos for placed in state.board.tiles if TAG in placed.tile.tags)
        if not flagged:
            return NOTHING_SHOWN
        return PartView(
            marks=tuple(
                Mark(kind=MarkKind.DISC, style=TAG, x=x, y=y, spots=(ViewSpot(x, y, CORNER),), text="!")
                for x, y in flagged
            )
        )

    def action_commands(self, state: GameState) -> list[Command]:
        """One figure of one's own taken back, beside the deployments, after a festival tile
        (R-FESTIVAL-2); a part's tile of any kind (a builder's second tile, a bazaar's) alike
        (R-FESTIVAL-6)."""
        if state.phase != Phase.ACTION or not festival_tile(state):
            return []
        return [
            TakeBackFigure(x=x, y=y, location=location, figure=figure)
            for x, y, location, figure in returnable(state, state.current)
        ]

    def decide(self, state: GameState, player: int, command: Command, step: str) -> list[Event]:
        assert isinstance(command, TakeBackFigure)
        if not state.has(NAME):
            raise RuleViolation("R-FESTIVAL-1", "this game is played without The Festival")
        if not festival_tile(state):
            raise RuleViolation(
                "R-FESTIVAL-2", "only the player who just placed a festival tile may take a figure back"
            )
        wanted = (command.x, command.y, command.location, command.figure)
        where = f"{command.location} of {(command.x, command.y)}"
        if wanted not in board_figures(state, player):
            raise RuleViolation(
                "R-FESTIVAL-3", f"no {command.figure} of yours stands at {where}: only your own come back"
            )
        options = _settings(state)
        if options.festival_followers_only and options.festival_followers_none:
            raise RuleViolation(
                "JCZ-FESTIVAL-FOLLOWERS-NONE",
                "JCloisterZone lets no figure be taken back when only followers may be",
            )
        if wanted not in returnable(state, player):
            raise RuleViolation(
                "V-FESTIVAL-FOLLOWERS", f"only a follower may be taken back, and the {command.figure} is none"
            )
        return [
            FigureTakenBack(
                originator_id=state.id,
                originator_version=state.version + 1,
                player=player,
                x=command.x,
                y=command.y,
                location=command.location,
                figure=command.figure,
            )
        ]

    def apply(self, state: GameState, event: Event) -> None:
        """Off the board, nothing scored (R-FESTIVAL-4); the action is used (R-FESTIVAL-6)."""
        assert isinstance(event, FigureTakenBack)
        lift_figure(state, event.x, event.y, event.location, event.player, event.figure)
        to_supply(state, event.player, event.figure)
        state.phase = Phase.ACTION_DONE

    def rule_of(self, event: Event, rules: RuleSet) -> str:
        options = cast(FestivalOptions, self.options_of(rules))
        return "V-FESTIVAL-FOLLOWERS" if options.festival_followers_only else "R-FESTIVAL-2"


PART = FestivalPart()
PARTS = (PART,)
