"""The wagon (Abbey & Mayor, R-AM-5): a follower for roads, cities and cloisters that, when its
feature scores, may roll on to an unfinished, unoccupied one nearby instead of going home.
"""

from __future__ import annotations

from typing import Final

from domain import events as ev
from domain.commands import Command
from domain.errors import RuleViolation
from domain.events import Event
from domain.features import Feature
from domain.geometry import RING_OFFSETS, Pos
from domain.moves import Decision, unoccupied_locations
from domain.part import FigureKind, Part, ext
from domain.state import GameState, Phase, deploy
from domain.tiles import Kind

NAME: Final = "wagon"
FIGURE: Final = "wagon"
_KINDS: Final = (Kind.ROAD, Kind.CITY, Kind.CLOISTER)


class WagonMoved(Event, frozen=True, kw_only=True):
    """A wagon whose feature scored rolls on to `location` of the tile at (x, y) (R-AM-5)."""

    player: int
    x: int
    y: int
    location: str


class MoveWagon(Command, frozen=True, kw_only=True):
    x: int
    y: int
    location: str


class Wagons:
    __slots__ = ("waiting",)

    def __init__(self) -> None:
        # Wagons whose feature scored in this turn part: (owner, the tile they stood on), in order.
        self.waiting: list[tuple[int, Pos]] = []


def wagons(state: GameState) -> Wagons:
    found: Wagons = ext(state, NAME)
    return found


def destinations(state: GameState, source: Pos) -> list[tuple[int, int, str]]:
    """Unfinished, unoccupied roads, cities and cloisters on the wagon's tile and the eight
    around it (R-AM-5; JCloisterZone's default reading), castles excluded."""
    board = state.board
    graph = board.graph
    castles = state.ext["castles"].roots if state.has("castles") else set()
    found = []
    for dx, dy in ((0, 0), *RING_OFFSETS):
        placed = board.at.get((source[0] + dx, source[1] + dy))
        if placed is None:
            continue
        for name, sid, kind in placed.locations():
            if kind not in _KINDS:
                continue
            feature = graph.feature(sid)
            if feature.occupied() or feature.id in castles or _completed(state, feature):
                continue
            found.append((placed.pos[0], placed.pos[1], name))
    return sorted(found)


def _completed(state: GameState, feature: Feature) -> bool:
    if feature.kind == Kind.CLOISTER:
        pos = state.board.tiles[next(iter(feature.tiles))].pos
        return state.board.cloister_ring.get(pos) == 8
    return feature.open == 0


def _next(state: GameState) -> tuple[int, int, Pos] | None:
    """(queue index, owner, source) of the first waiting wagon that has somewhere to go."""
    for index, (player, source) in enumerate(wagons(state).waiting):
        if destinations(state, source):
            return index, player, source
    return None


class WagonPart(Part):
    name = NAME
    events = (WagonMoved,)
    commands = (MoveWagon,)
    figures = {FIGURE: FigureKind(follower=True, strength=1, rule="R-AM-5")}
    steps = {"wagon": "R-AM-5"}
    step_names = {"wagon": "a wagon's move or a pass"}
    pass_steps = {"wagon": "wagon"}
    command_steps = {MoveWagon: (("wagon",), "R-AM-5")}
    command_names = {MoveWagon: "move a wagon"}
    rules_of = {WagonMoved: "R-AM-5"}
    decisions = {WagonMoved: (lambda e: (e.player, MoveWagon(x=e.x, y=e.y, location=e.location)), "R-AM-5")}

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[NAME] = Wagons()
        state.ext["figures"][FIGURE] = [event.rules.wagons] * len(event.players)

    def begin_part(self, state: GameState) -> None:
        wagons(state).waiting = []

    def deployments(self, state: GameState, figure: str) -> list[str]:
        """An unoccupied road, city or cloister of the tile just placed (R-AM-5)."""
        placed = state.placed
        if placed is None or state.ext["figures"][FIGURE][state.current] == 0:
            return []
        allowed = {name for name, _, kind in placed.locations() if kind in _KINDS}
        return [name for name in unoccupied_locations(state) if name in allowed]

    def why_not(self, state: GameState, figure: str, location: str) -> str:
        return f"a wagon goes on an unoccupied road, city or cloister, not on {location}"

    def feature_scored(self, state: GameState, feature: Feature) -> None:
        board = state.board
        for player, sid, kind in feature.figures:
            if kind == FIGURE:
                wagons(state).waiting.append((player, board.tiles[board.graph.segment_tile[sid]].pos))

    def pending(self, state: GameState) -> Decision | None:
        if state.phase != Phase.PART_OVER or not wagons(state).waiting:
            return None
        found = _next(state)
        return None if found is None else Decision("wagon", found[1])

    def passed(self, state: GameState, step: str) -> None:
        found = _next(state)
        assert found is not None
        del wagons(state).waiting[: found[0] + 1]

    def apply(self, state: GameState, event: Event) -> None:
        assert isinstance(event, WagonMoved)
        found = _next(state)
        assert found is not None
        del wagons(state).waiting[: found[0] + 1]
        deploy(state, event.player, state.board.at[(event.x, event.y)].segment(event.location), FIGURE)

    def command_options(self, state: GameState, step: str) -> list[Command]:
        found = _next(state)
        assert found is not None
        return [MoveWagon(x=x, y=y, location=loc) for x, y, loc in destinations(state, found[2])]

    def decide(self, state: GameState, player: int, command: Command, step: str) -> list[Event]:
        assert isinstance(command, MoveWagon)
        found = _next(state)
        assert found is not None
        wanted = (command.x, command.y, command.location)
        if wanted not in destinations(state, found[2]):
            raise RuleViolation(
                "R-AM-5",
                f"the wagon cannot roll to {command.location} of {(command.x, command.y)}: it goes to an "
                "unfinished, unoccupied road, city or cloister on its tile or one of the eight around it",
            )
        return [
            WagonMoved(
                originator_id=state.id,
                originator_version=state.version + 1,
                player=player,
                x=command.x,
                y=command.y,
                location=command.location,
            )
        ]


PART = WagonPart()
