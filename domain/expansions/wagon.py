"""The wagon (Abbey & Mayor, R-AM-5): a follower for roads, cities and cloisters that, when its
feature scores, may roll on to an unfinished, unoccupied one nearby instead of going home: one on
its tile or the eight around it, or, under V-WAGON-C1, one linked to the feature that scored.

The links of V-WAGON-C1 are catalogue data: segments of one tile that share a ``wagon=X`` flag
(a road running into a cloister or a city on that tile, roads meeting at a crossing) are linked,
and a road or city is linked to an abbey that closes one of its ends.
"""

from __future__ import annotations

from typing import Annotated, Final, cast

import msgspec

from domain import events as ev
from domain.commands import Command
from domain.errors import RuleViolation
from domain.events import Event
from domain.features import Feature
from domain.geometry import RING_OFFSETS, Pos, neighbour
from domain.moves import Decision, sealed_roots, tile_blocked, unoccupied_locations
from domain.part import FigureKind, Part, ext, part_options
from domain.rules import Options, RuleSet
from domain.state import GameState, Phase, deploy
from domain.tiles import Kind
from domain.view import FigureLook, Shape

NAME: Final = "wagon"
FIGURE: Final = "wagon"
_KINDS: Final = (Kind.ROAD, Kind.CITY, Kind.CLOISTER)
LINK: Final = "wagon="  # V-WAGON-C1: segment flags linking the segments of a tile that share one
ABBEY: Final = "abbey"  # the tag of the abbey tile (Abbey & Mayor)


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
    __slots__ = ("segments", "waiting")

    def __init__(self) -> None:
        # Wagons whose feature scored in this turn part: (owner, the tile they stood on), in order,
        # and the segment each stood on.
        self.waiting: list[tuple[int, Pos]] = []
        self.segments: list[int] = []


def wagons(state: GameState) -> Wagons:
    found: Wagons = ext(state, NAME)
    return found


def destinations(state: GameState, source: Pos, segment: int = -1) -> list[tuple[int, int, str]]:
    """Unfinished, unoccupied roads, cities and cloisters on the wagon's tile and the eight
    around it (R-AM-5; JCloisterZone's default reading), or under V-WAGON-C1 those linked to the
    feature of `segment`; sealed features and blocked tiles (a castle, the dragon's) excluded."""
    board = state.board
    graph = board.graph
    sealed = sealed_roots(state)
    if _settings(state).wagon_connected:
        spots = linked(state, segment)
    else:
        spots = []
        for dx, dy in ((0, 0), *RING_OFFSETS):
            placed = board.at.get((source[0] + dx, source[1] + dy))
            if placed is not None:
                spots += [(placed.pos, name, sid, kind) for name, sid, kind in placed.locations()]
    found = []
    for pos, name, sid, kind in spots:
        if kind not in _KINDS or tile_blocked(state, pos):  # no figure goes on the dragon's tile (R-PD-3)
            continue
        feature = graph.feature(sid)
        if state.occupied(feature) or feature.id in sealed or _completed(state, feature):
            continue
        found.append((pos[0], pos[1], name))
    return sorted(set(found))


def linked(state: GameState, segment: int) -> list[tuple[Pos, str, int, Kind]]:
    """V-WAGON-C1: (tile, location, segment id, kind) of what the feature of `segment` is linked
    to: the segments sharing a ``wagon=`` flag with one of its segments on that segment's tile,
    and the abbey closing one of its road or city ends."""
    if segment < 0:
        return []
    board = state.board
    graph = board.graph
    root = graph.find(segment)
    found = []
    for index in sorted(graph.feature(root).tiles):
        placed = board.tiles[index]
        segments = placed.tile.segments
        mine = [i for i in range(len(segments)) if graph.find(placed.base + i) == root]
        links = {flag for i in mine for flag in segments[i].flags if flag.startswith(LINK)}
        if links:
            for i, seg in enumerate(segments):
                if i not in mine and links.intersection(seg.flags):
                    found.append((placed.pos, placed.location(placed.base + i), placed.base + i, seg.kind))
        for edge, sid in enumerate(placed.edge_segment):
            if sid < 0 or graph.find(sid) != root:
                continue
            other = board.at.get(neighbour(placed.pos, edge))
            if other is not None and ABBEY in other.tile.tags and other.tile.cloister:
                cloister = other.base + other.tile.cloister_segment
                found.append((other.pos, other.location(cloister), cloister, Kind.CLOISTER))
    return found


def _completed(state: GameState, feature: Feature) -> bool:
    if feature.kind == Kind.CLOISTER:
        pos = state.board.tiles[next(iter(feature.tiles))].pos
        return state.board.cloister_ring.get(pos) == 8
    return feature.open == 0


def _next(state: GameState) -> tuple[int, int, Pos, int] | None:
    """(queue index, owner, source tile, source segment) of the first waiting wagon that has
    somewhere to go."""
    own = wagons(state)
    for index, (player, source) in enumerate(own.waiting):
        if destinations(state, source, own.segments[index]):
            return index, player, source, own.segments[index]
    return None


def _done(state: GameState, index: int) -> None:
    """The wagons up to `index` in the queue moved or stay where they are."""
    own = wagons(state)
    del own.waiting[: index + 1]
    del own.segments[: index + 1]


class WagonOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    wagons: Annotated[int, msgspec.Meta(ge=0, le=5)] = 1
    """Wagons each player has with Abbey & Mayor (R-AM-5)."""

    wagon_connected: bool = False
    """V-WAGON-C1: a wagon whose feature scored moves only to a feature linked to that one (a road
    running into it on one tile, an abbey closing it), not to any on the nine tiles around
    (R-AM-5); JCloisterZone's `wagon-move` = C1."""


def _settings(state: GameState) -> WagonOptions:
    found: WagonOptions = part_options(state, NAME)
    return found


class WagonPart(Part):
    name = NAME
    rank = 160
    options = WagonOptions
    switches = {"V-WAGON-C1": "wagon_connected"}
    events = (WagonMoved,)
    commands = (MoveWagon,)
    figures = {
        FIGURE: FigureKind(
            follower=True,
            strength=1,
            rule="R-AM-5",
            look=FigureLook(glyphs="ghijkl", shape=Shape(tag="rect", width=18, height=8, rx=3)),
        )
    }
    steps = {"wagon": "R-AM-5"}
    step_names = {"wagon": "a wagon's move or a pass"}
    pass_steps = {"wagon": "wagon"}
    command_steps = {MoveWagon: (("wagon",), "R-AM-5")}
    command_names = {MoveWagon: "move a wagon"}
    rules_of = {WagonMoved: "R-AM-5"}
    decisions = {WagonMoved: (lambda e: (e.player, MoveWagon(x=e.x, y=e.y, location=e.location)), "R-AM-5")}

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[NAME] = Wagons()
        state.ext["figures"][FIGURE] = [_settings(state).wagons] * len(event.players)

    def begin_part(self, state: GameState) -> None:
        wagons(state).waiting = []
        wagons(state).segments = []

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
        """Its wagons wait to move: those of the turn part's player first (who placed the tile),
        then round the table from them, each player's in the order their features scored (R-AM-5)."""
        if feature.id in sealed_roots(state):
            return  # a wagon in a castle goes home when it scores (JCloisterZone skips castles)
        self._wait(state, feature)

    def freed(self, state: GameState, feature: Feature) -> None:
        """A wagon sent home unscored by another part's rule in the scoring waits to move as if
        its feature had scored, where that part's reading says so (as JCloisterZone moves every
        wagon that left the board in the scoring)."""
        self._wait(state, feature)

    @staticmethod
    def _wait(state: GameState, feature: Feature) -> None:
        board = state.board
        own = wagons(state)
        n, first = len(state.players), state.current
        for player, sid, kind in feature.figures:
            if kind == FIGURE:
                seat = (player - first) % n
                later = (i for i, (p, _) in enumerate(own.waiting) if (p - first) % n > seat)
                at = next(later, len(own.waiting))
                own.waiting.insert(at, (player, board.tiles[board.graph.segment_tile[sid]].pos))
                own.segments.insert(at, sid)

    def pending(self, state: GameState) -> Decision | None:
        if state.phase != Phase.PART_OVER or not wagons(state).waiting:
            return None
        found = _next(state)
        return None if found is None else Decision("wagon", found[1])

    def passed(self, state: GameState, step: str) -> None:
        found = _next(state)
        assert found is not None
        _done(state, found[0])

    def apply(self, state: GameState, event: Event) -> None:
        assert isinstance(event, WagonMoved)
        found = _next(state)
        assert found is not None
        _done(state, found[0])
        deploy(state, event.player, state.board.at[(event.x, event.y)].segment(event.location), FIGURE)

    def command_options(self, state: GameState, step: str) -> list[Command]:
        found = _next(state)
        assert found is not None
        return [MoveWagon(x=x, y=y, location=loc) for x, y, loc in destinations(state, found[2], found[3])]

    def rule_of(self, event: Event, rules: RuleSet) -> str:
        return "V-WAGON-C1" if cast(WagonOptions, self.options_of(rules)).wagon_connected else "R-AM-5"

    def decide(self, state: GameState, player: int, command: Command, step: str) -> list[Event]:
        assert isinstance(command, MoveWagon)
        found = _next(state)
        assert found is not None
        wanted = (command.x, command.y, command.location)
        if wanted not in destinations(state, found[2], found[3]):
            if _settings(state).wagon_connected:
                raise RuleViolation(
                    "V-WAGON-C1",
                    f"the wagon cannot roll to {command.location} of {(command.x, command.y)}: it goes to an "
                    "unfinished, unoccupied road, city or cloister linked to the feature that scored",
                )
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
PARTS = (PART,)
