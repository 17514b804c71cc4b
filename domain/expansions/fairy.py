"""The fairy (Princess & Dragon, R-PD-5): instead of deploying, a player moves the fairy next to one
of their followers; its owner scores 1 at the start of each of their turns and 3 when that
follower's feature scores.
"""

from __future__ import annotations

from typing import Final

from domain import events as ev
from domain.commands import Command
from domain.errors import RuleViolation
from domain.events import Event
from domain.expansions.abbey import FINAL
from domain.features import Feature
from domain.part import Part, ext
from domain.state import GameState, Phase, credit, segment_location

NAME: Final = "fairy"
TURN: Final = "fairy.turn"  # the award categories, named as JCloisterZone names them
COMPLETED: Final = "fairy.completed"

Spot = tuple[int, int, str, int, str]  # x, y, location, player, figure: the follower it stands by


class FairyMoved(Event, frozen=True, kw_only=True):
    """The fairy now stands next to the player's `figure` at `location` of the tile at (x, y)."""

    player: int
    x: int
    y: int
    location: str
    figure: str


class MoveFairy(Command, frozen=True, kw_only=True):
    x: int
    y: int
    location: str
    figure: str = "follower"


class Fairy:
    __slots__ = ("by",)

    def __init__(self) -> None:
        self.by: Spot | None = None  # the follower the fairy stands next to, None once it left


def fairy(state: GameState) -> Fairy:
    found: Fairy = ext(state, NAME)
    return found


def _followers(state: GameState, player: int) -> list[Spot]:
    """The player's followers on the board, on towers too."""
    board = state.board
    found = []
    # Most of a big board holds no figure: skip it before anything else.
    for feature in [f for f in board.graph.features if f is not None and f.figures]:
        for owner, sid, figure in feature.followers():
            if owner == player:
                found.append((*segment_location(board, sid), owner, figure))
    if state.has("tower"):
        for (x, y), (owner, figure) in state.ext["tower"].guards.items():
            if owner == player:
                found.append((x, y, "tower", owner, figure))
    return sorted(found)


def _still_there(state: GameState, by: Spot) -> bool:
    """The follower the fairy stands by is still where it was."""
    x, y, location, player, figure = by
    if location == "tower":
        return state.has("tower") and state.ext["tower"].guards.get((x, y)) == (player, figure)
    placed = state.board.at[(x, y)]
    feature = state.board.graph.feature(placed.segment(location))
    return any(
        p == player and k == figure and state.board.graph.segment_tile[sid] == placed.index
        for p, sid, k in feature.figures
    )


class FairyPart(Part):
    name = NAME
    events = (FairyMoved,)
    commands = (MoveFairy,)
    command_steps = {MoveFairy: (("action",), "R-PD-5")}
    command_names = {MoveFairy: "move the fairy"}
    rules_of = {FairyMoved: "R-PD-5"}
    decisions = {
        FairyMoved: (
            lambda e: (e.player, MoveFairy(x=e.x, y=e.y, location=e.location, figure=e.figure)),
            "R-PD-5",
        )
    }

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[NAME] = Fairy()

    def begin_part(self, state: GameState) -> None:
        """Its follower's owner scores 1 as a turn of theirs starts (R-PD-5): a part that begins a
        run of parts, a bazaar tile's included, but no abbey placed after the last tile."""
        by = fairy(state).by
        if by is not None and not _still_there(state, by):
            fairy(state).by = by = None  # its follower left the board
        first = state.sitting == state.part_count and state.part != FINAL
        if first and by is not None and by[3] == state.current:
            credit(state, by[3], 1, TURN, "R-PD-5", (("fairy", 1),), -1, state.version)

    def action_commands(self, state: GameState) -> list[Command]:
        by = fairy(state).by
        return [
            MoveFairy(x=x, y=y, location=location, figure=figure)
            for x, y, location, player, figure in _followers(state, state.current)
            if (x, y, location, player, figure) != by
        ]

    def decide(self, state: GameState, player: int, command: Command, step: str) -> list[Event]:
        assert isinstance(command, MoveFairy)
        wanted = (command.x, command.y, command.location, player, command.figure)
        if wanted not in _followers(state, player) or wanted == fairy(state).by:
            raise RuleViolation("R-PD-5", "the fairy moves next to another follower of your own")
        return [
            FairyMoved(
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
        assert isinstance(event, FairyMoved)
        fairy(state).by = (event.x, event.y, event.location, event.player, event.figure)
        state.phase = Phase.ACTION_DONE

    def _bonus(self, state: GameState, feature: Feature, version: int, final: bool) -> None:
        """The fairy's follower on a scored feature: 3 for its owner (R-PD-5)."""
        by = fairy(state).by
        if by is None:
            return
        board = state.board
        for player, sid, figure in feature.followers():
            if (*segment_location(board, sid), player, figure) == by:
                credit(state, player, 3, COMPLETED, "R-PD-5", (("fairy", 3),), feature.id, version, final)
                return

    def feature_scored(self, state: GameState, feature: Feature) -> None:
        self._bonus(state, feature, state.version + 1, final=False)

    def final_feature(self, state: GameState, feature: Feature, version: int) -> bool:
        if feature.occupied():
            self._bonus(state, feature, version, final=True)
        return False

    def followers_left(self, state: GameState, feature: Feature) -> None:
        """The follower went home: the fairy stays where it was, next to nobody."""
        own = fairy(state)
        if own.by is None:
            return
        board = state.board
        at = board.at.get(own.by[:2])
        if at is None:
            return
        try:
            sid = at.segment(own.by[2])
        except KeyError:
            return
        if board.graph.find(sid) == feature.id and not any(
            (*segment_location(board, s), p, f) == own.by for p, s, f in feature.followers()
        ):
            own.by = None


PART = FairyPart()
