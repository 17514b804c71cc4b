"""The Ferries (R-FERRY-*): lakes where roads end, and a ferry on each joining two of those ends.

Each road of a lake tile ends at its lake: a plain road with one edge, closed at the lake (the
catalogue's flag `lake`). Once a lake tile lies and its player has decided on a follower, they
put a ferry on the lake joining two of its road ends (R-FERRY-3): the two roads become one
(`FeatureGraph.link` through ends closed already). A later tile that extends a road reaching a
ferry lets its player move the first ferry met along that road in each direction to another pair
of ends of its lake (R-FERRY-5): the graph undoes the old join (`FeatureGraph.unlink`, which
splits the road where nothing else holds it together) and makes the new one. Followers stay on
the segments they stand on (R-FERRY-6); roads a move completes score with the turn (R-FERRY-7).

As JCloisterZone asks it: the ferry after the follower (and a tunnel token), then the moves, one
lake after the other, each lake at most once a turn (a turn part under JCZ-FERRY-PER-PART),
until the player passes or no ferry is within reach.
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

from domain import events as ev
from domain.commands import Command
from domain.errors import RuleViolation
from domain.events import Event
from domain.features import Feature
from domain.geometry import EDGE_BY_NAME
from domain.moves import Decision
from domain.part import Part, ext, part_options
from domain.rules import Options
from domain.state import GameState, Phase, followers_gone
from domain.tiles import Kind
from domain.view import Mark, MarkKind, MarkStyle, PartView, Shape

NAME: Final = "ferries"
LAKE: Final = "lake"  # a road's flag in the catalogue: it ends at the tile's lake
PLACE_STEP: Final = "ferry"  # the new lake's ferry (JCloisterZone's PlaceFerryPhase)
MOVE_STEP: Final = "ferry-move"  # moving a ferry within reach (its ChangeFerriesPhase)

Pair = tuple[int, int]  # the two road ends (segment ids) a ferry joins, the lower first


class FerryPlaced(Event, frozen=True, kw_only=True):
    """`player` puts a ferry on the lake of the tile at (x, y) joining the road ends `location`
    names ("E+W"): the two roads become one (R-FERRY-3)."""

    player: int
    x: int
    y: int
    location: str


class FerryMoved(Event, frozen=True, kw_only=True):
    """`player` moves the ferry of the lake at (x, y) from the ends `origin` names to those
    `location` names (R-FERRY-5)."""

    player: int
    x: int
    y: int
    origin: str
    location: str


class PlaceFerry(Command, frozen=True, kw_only=True):
    """Put the new lake's ferry, or move one within reach, so that it joins the two road ends
    `location` names ("N+E", in board orientation) on the tile at (x, y)."""

    x: int
    y: int
    location: str


class FerryOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    ferry_per_part: bool = False
    """JCZ-FERRY-PER-PART: a lake's ferry may be moved once in each turn part, so once more in a
    builder's second part, not once in the whole turn (R-FERRY-5)."""


class Ferries:
    """This game's lakes and ferries."""

    __slots__ = ("changes", "declined", "ferry", "lakes")

    def __init__(self) -> None:
        self.lakes: dict[int, tuple[int, ...]] = {}  # a lake tile's index -> its road ends
        self.ferry: dict[int, Pair] = {}  # a lake tile's index -> the ends its ferry joins
        # Every move: the lake tile, the ends before and after, the turn part, the turn.
        self.changes: list[tuple[int, Pair, Pair, int, int]] = []
        self.declined = 0  # the turn part whose moves the player ended by passing


def ferries(state: GameState) -> Ferries:
    found: Ferries = ext(state, NAME)
    return found


def _settings(state: GameState) -> FerryOptions:
    found: FerryOptions = part_options(state, NAME)
    return found


def _pair(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


def ends_name(state: GameState, tile: int, pair: Pair) -> str:
    """The location naming two road ends of a lake tile: their edges, in N, E, S, W order."""
    placed = state.board.tiles[tile]
    names = sorted((placed.location(sid) for sid in pair), key=lambda n: EDGE_BY_NAME[n])
    return "+".join(names)


def _ends_at(state: GameState, x: int, y: int, location: str) -> tuple[int, Pair] | None:
    """The lake tile (index) at (x, y) and the two of its road ends `location` names, if it
    names two distinct ones."""
    placed = state.board.at.get((x, y))
    if placed is None or placed.index not in ferries(state).lakes:
        return None
    names = location.split("+")
    if len(names) != 2 or names[0] == names[1]:
        return None
    ends = ferries(state).lakes[placed.index]
    found = []
    for name in names:
        sid = next((s for s in ends if placed.location(s) == name), -1)
        if sid < 0:
            return None
        found.append(sid)
    return placed.index, _pair(found[0], found[1])


def _unferried(state: GameState) -> int | None:
    """The tile just placed, if it has a lake still waiting for its ferry."""
    placed = state.placed
    if placed is None:
        return None
    own = ferries(state)
    return placed.index if placed.index in own.lakes and placed.index not in own.ferry else None


def _moved_now(state: GameState) -> set[int]:
    """The lakes whose ferry was moved in this turn (this turn part under JCZ-FERRY-PER-PART)."""
    per_part = _settings(state).ferry_per_part
    found: set[int] = set()
    for tile, _, _, part, sitting in reversed(ferries(state).changes):
        if (part != state.part_count) if per_part else (sitting != state.sitting):
            break
        found.add(tile)
    return found


def within_reach(state: GameState) -> list[int]:
    """The lakes (tile indices) whose ferry the current player may move now (R-FERRY-5): along
    each road of the tile just placed, the first ferry met in each direction on another tile,
    the road followed across tile edges and every link (ferries, tunnels); a lake whose ferry was
    moved in this turn already is left out."""
    placed = state.placed
    if placed is None:
        return []
    own = ferries(state)
    if not own.ferry:
        return []
    graph = state.board.graph
    ends = {sid: tile for tile, pair in own.ferry.items() if tile != placed.index for sid in pair}
    starts = [sid for _, sid, kind in placed.locations() if kind == Kind.ROAD]
    if not starts:
        return []
    roots = {graph.find(sid) for sid in starts}
    if not any(graph.find(sid) in roots for sid in ends):  # no ferry on the tile's roads: the usual
        return []
    members = {sid for sid in range(len(graph.parent)) if graph.find(sid) in roots}
    near: dict[int, list[int]] = {}
    for a, b in graph.joins:
        if a in members and b in members:
            near.setdefault(a, []).append(b)
            near.setdefault(b, []).append(a)
    found: list[int] = []
    seen = set(starts)
    queue = list(starts)
    while queue:
        sid = queue.pop()
        tile = ends.get(sid)
        if tile is not None:  # the first ferry this way: the road is followed no further
            if tile not in found:
                found.append(tile)
            continue
        for other in near.get(sid, ()):
            if other not in seen:
                seen.add(other)
                queue.append(other)
    moved = _moved_now(state)
    return sorted(tile for tile in found if tile not in moved)


def _options(state: GameState, step: str) -> list[Command]:
    """Every ferry the current player may put down (the new lake's, any two of its ends) or
    move (to any other two ends of its lake) now. Once a state version."""

    def compute() -> list[Command]:
        own = ferries(state)
        board = state.board
        if step == PLACE_STEP:
            tile = _unferried(state)
            lakes = [] if tile is None else [tile]
        else:
            lakes = within_reach(state)
        found: list[Command] = []
        for tile in lakes:
            x, y = board.tiles[tile].pos
            for a, b in combinations(own.lakes[tile], 2):
                pair = _pair(a, b)
                if pair != own.ferry.get(tile):
                    found.append(PlaceFerry(x=x, y=y, location=ends_name(state, tile, pair)))
        return found

    found: list[Command] = state.memoized(f"{NAME} {step}", compute)
    return found


class FerriesPart(Part):
    name = NAME
    rank = 27  # after a tunnel token (25), before the dragon and the castles, as JCloisterZone asks
    yields_to = ("princess",)  # V-PRINCESS-MUST's knight is the turn's action: the ferry comes after
    options = FerryOptions
    switches = {"JCZ-FERRY-PER-PART": "ferry_per_part"}
    events = (FerryPlaced, FerryMoved)
    commands = (PlaceFerry,)
    steps = {PLACE_STEP: "R-FERRY-3", MOVE_STEP: "R-FERRY-5"}
    step_names = {PLACE_STEP: "the new lake's ferry", MOVE_STEP: "a ferry to move or a pass"}
    pass_steps = {MOVE_STEP: MOVE_STEP}
    command_steps = {PlaceFerry: ((PLACE_STEP, MOVE_STEP), "R-FERRY-3")}
    command_names = {PlaceFerry: "place or move a ferry"}
    rules_of = {FerryPlaced: "R-FERRY-3", FerryMoved: "R-FERRY-5"}
    decisions = {
        FerryPlaced: (lambda e: (e.player, PlaceFerry(x=e.x, y=e.y, location=e.location)), "R-FERRY-3"),
        FerryMoved: (lambda e: (e.player, PlaceFerry(x=e.x, y=e.y, location=e.location)), "R-FERRY-5"),
    }
    mark_styles = {
        "ferry": MarkStyle(shape=Shape(tag="line", fill=None, stroke="#6b3f1d", stroke_width=4.0)),
    }

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[NAME] = Ferries()

    def tile_placed(self, state: GameState, placed: object) -> None:
        tile = state.placed
        assert tile is not None
        segments = enumerate(tile.tile.segments)
        ends = tuple(tile.base + i for i, s in segments if s.kind == Kind.ROAD and LAKE in s.flags)
        if len(ends) >= 2:
            ferries(state).lakes[tile.index] = ends

    def pending(self, state: GameState) -> Decision | None:
        """The new lake's ferry once the action is decided (R-FERRY-3), then the moves of the
        ferries within reach (R-FERRY-5) until the player passes."""
        if state.phase not in (Phase.ACTION, Phase.ACTION_DONE):
            return None
        if _unferried(state) is not None:
            return Decision(PLACE_STEP, state.current)
        if ferries(state).declined == state.part_count:
            return None
        return Decision(MOVE_STEP, state.current) if _options(state, MOVE_STEP) else None

    def check_early(self, state: GameState, player: int, command: Command, step: str) -> None:
        if step == "action" and isinstance(command, PlaceFerry) and _unferried(state) is not None:
            raise RuleViolation("R-FERRY-3", "the new lake's ferry goes down once the follower is decided")

    def command_options(self, state: GameState, step: str) -> list[Command]:
        return _options(state, step)

    def passed(self, state: GameState, step: str) -> None:
        ferries(state).declined = state.part_count

    def decide(self, state: GameState, player: int, command: Command, step: str) -> list[Event]:
        assert isinstance(command, PlaceFerry)
        if not state.has(NAME):
            raise RuleViolation("R-FERRY-3", "this game is played without The Ferries")
        where = (command.x, command.y)
        found = _ends_at(state, command.x, command.y, command.location)
        own = ferries(state)
        gid, version = state.id, state.version + 1
        if step == PLACE_STEP:
            if found is None or found[0] != _unferried(state):
                raise RuleViolation(
                    "R-FERRY-3",
                    f"a ferry joins two road ends of the lake just placed, not {command.location} of {where}",
                )
            return [
                FerryPlaced(
                    originator_id=gid,
                    originator_version=version,
                    player=player,
                    x=command.x,
                    y=command.y,
                    location=ends_name(state, *found),
                )
            ]
        if found is None:
            raise RuleViolation("R-FERRY-5", f"no two road ends of a lake at {command.location} of {where}")
        tile, pair = found
        if tile not in within_reach(state):
            raise RuleViolation(
                "R-FERRY-5", f"the ferry at {where} is not the first along a road this tile extends"
            )
        if own.ferry[tile] == pair:
            raise RuleViolation("R-FERRY-5", f"the ferry at {where} joins {command.location} already")
        return [
            FerryMoved(
                originator_id=gid,
                originator_version=version,
                player=player,
                x=command.x,
                y=command.y,
                origin=ends_name(state, tile, own.ferry[tile]),
                location=ends_name(state, tile, pair),
            )
        ]

    def apply(self, state: GameState, event: Event) -> None:
        """The ferry joins its two roads into one (R-FERRY-3); a moved one first lets go of the
        ends it joined, which split where nothing else holds them together (R-FERRY-6), and a
        figure that stays only beside its owner's follower (a builder) leaves a road it let go
        that holds none of theirs now (R-FERRY-9)."""
        assert isinstance(event, (FerryPlaced, FerryMoved))
        found = _ends_at(state, event.x, event.y, event.location)
        assert found is not None
        tile, pair = found
        own = ferries(state)
        graph = state.board.graph
        old = own.ferry.get(tile)
        if old is not None:
            graph.unlink(*old)
            own.changes.append((tile, old, pair, state.part_count, state.sitting))
        own.ferry[tile] = pair
        graph.link(*pair, closes=False)
        for sid in old or ():  # a figure that stays only beside a follower may go
            if sid not in pair:
                followers_gone(state, graph.feature(sid))

    def completions(self, state: GameState, found: list[Feature]) -> None:
        """Roads a ferry moved in this turn part completed (R-FERRY-7): those of the ends it let
        go, and the one it joins now."""
        graph = state.board.graph
        for _, old, new, part, _ in reversed(ferries(state).changes):
            if part != state.part_count:
                return
            left = [sid for sid in old if sid not in new]
            joined = [sid for sid in new if sid not in old][:1]
            for sid in (*left, *joined):
                road = graph.feature(sid)
                if road.open == 0 and all(f is not road for f in found):
                    found.append(road)

    def view(self, state: GameState) -> PartView:
        """Each ferry, a line across its lake joining the two ends it joins."""
        own = ferries(state)
        board = state.board
        marks = []
        for tile, pair in own.ferry.items():
            x, y = board.tiles[tile].pos
            where = ends_name(state, tile, pair)
            marks.append(Mark(kind=MarkKind.LINE, style="ferry", x=x, y=y, location=where, text="~"))
        return PartView(marks=tuple(sorted(marks)))


PART = FerriesPart()
PARTS = (PART,)
