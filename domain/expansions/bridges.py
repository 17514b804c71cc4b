"""Bridges (Bridges, Castles and Bazaars; R-BRIDGE-*): a road laid across a tile's two field edges.

A bridge is an extra road segment on a placed tile (`Board.add_segment`). It may be what makes a
placement legal (R-BRIDGE-4): such placements come with the bridge they need (`PlaceTile.bridge`),
and a tile that fits only that way may be declined (R-BRIDGE-7). After placing, one voluntary
bridge may go on the tile just placed or a neighbour (R-BRIDGE-2; JCZ-4 only the tile just placed).
"""

from __future__ import annotations

from typing import Final, Literal

from domain import events as ev
from domain.commands import BridgeSpot, Command, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.events import Event
from domain.features import Feature
from domain.geometry import E, N, Pos, S, W, neighbour, opposite
from domain.moves import Decision, Placement
from domain.part import Part, ext, part_options
from domain.rules import Options
from domain.state import GameState, Phase, extended
from domain.tiles import EDGE_BITS, EDGE_MASK, FIELD_EDGE, ROAD_EDGE, Kind, Orientation, TileType
from domain.view import Mark, MarkKind, MarkStyle, PartView, Shape, Supply

NAME: Final = "bridges"
AXES: Final = {"NS": (N, S), "EW": (E, W)}
# A bridge's location name: the road it makes runs between these two edges (never a printed
# segment's name, since both its edges were field).
LOCATION: Final = {"NS": "N+S", "EW": "E+W"}

Spot = tuple[int, int, str]  # (x, y, axis)


class BridgePlaced(Event, frozen=True, kw_only=True):
    """A bridge across the tile at (x, y), ``NS`` or ``EW`` (R-BRIDGE-2..4)."""

    player: int
    x: int
    y: int
    axis: str


class PlaceBridge(Command, frozen=True, kw_only=True):
    """A voluntary bridge, before deploying (R-BRIDGE-2, R-BRIDGE-6)."""

    x: int
    y: int
    axis: Literal["NS", "EW"]


class Bridges:
    """This game's bridges: each player's supply, the axis on each bridged tile, this part's bridge."""

    __slots__ = ("axis", "laid", "left")

    def __init__(self, players: int) -> None:
        self.left = [3 if players <= 4 else 2] * players  # R-BRIDGE-1
        self.axis: dict[Pos, str] = {}
        self.laid = -1  # segment of the bridge laid in this turn part (R-BRIDGE-2: one at most)


def bridges(state: GameState) -> Bridges:
    found: Bridges = ext(state, NAME)
    return found


def segment_of(state: GameState, pos: Pos) -> int:
    """Segment id of the bridge on the tile at `pos`, -1 without one."""
    axis = bridges(state).axis.get(pos) if state.has(NAME) else None
    return -1 if axis is None else state.board.at[pos].edge_segment[AXES[axis][0]]


# bridge_needs(tile, constraint) cache, keyed like _FITS.
_BRIDGE_NEEDS: dict[int, tuple[tuple[int, str, int], ...]] = {}
_AXIS_OF_EDGES: Final = {
    frozenset({0}): "NS",
    frozenset({2}): "NS",
    frozenset({0, 2}): "NS",
    frozenset({1}): "EW",
    frozenset({3}): "EW",
    frozenset({1, 3}): "EW",
}


def _bridgeable(o: Orientation, axis: str, constraint: int) -> bool:
    """A bridge on the new tile along `axis`: both its ends on field (R-BRIDGE-3), each facing a
    road or an empty space (R-BRIDGE-4). The constraint says what each neighbour shows."""
    for edge in (0, 2) if axis == "NS" else (1, 3):
        their = (constraint >> (EDGE_BITS * edge)) & EDGE_MASK
        if o.edge_codes[edge] != FIELD_EDGE or their not in (0, ROAD_EDGE):
            return False
    return True


def needs(tile_type: TileType, constraint: int) -> tuple[tuple[int, str, int], ...]:
    """For each rotation that mismatches only where a bridge could help: (rotation, axis of a
    bridge on the new tile or "", edge whose neighbour needs the bridge or -1) (R-BRIDGE-4).
    A bridge on the new tile is known to be possible from the constraint alone; one on a
    neighbour still needs that neighbour checked (`Board.bridge_for`).

    A field edge against a neighbour's road needs a bridge on the new tile, along that edge's
    axis; a road edge against a neighbour's field needs one on that neighbour; a city never fits.
    """
    key = (tile_type.orientations[0].code << 12) | constraint
    found = _BRIDGE_NEEDS.get(key)
    if found is None:
        needs = []
        for o in tile_type.orientations:
            own: set[int] = set()
            theirs: list[int] = []
            for edge in range(4):
                their = (constraint >> (EDGE_BITS * edge)) & EDGE_MASK
                mine = o.edge_codes[edge]
                if their == 0 or their == mine:
                    continue
                if mine == FIELD_EDGE and their == ROAD_EDGE:
                    own.add(edge)
                elif mine == ROAD_EDGE and their == FIELD_EDGE:
                    theirs.append(edge)
                else:
                    own, theirs = set(), [-1, -1]  # not fixable
                    break
            axis = _AXIS_OF_EDGES.get(frozenset(own), "")
            if axis and not theirs and _bridgeable(o, axis, constraint):
                needs.append((o.rotation, axis, -1))
            elif len(theirs) == 1 and not own:
                needs.append((o.rotation, "", theirs[0]))
        found = tuple(needs)
        _BRIDGE_NEEDS[key] = found
    return found


def allowed(state: GameState, axes: dict[Pos, str], pos: Pos, axis: str) -> bool:
    """A bridge on the placed tile at `pos`: both ends on field, no other bridge, each end
    facing a road or an empty space (R-BRIDGE-3, R-BRIDGE-4), and no other part's figure in the
    way (`Part.holds_tile`: an occupied acrobat space, R-BIGTOP-13)."""
    if pos in axes:
        return False
    board = state.board
    if any(part.holds_tile(state, pos) for part in state.hooks["holds_tile"]):
        return False
    placed = board.at[pos]
    for edge in AXES[axis]:
        if placed.edge_codes[edge] != FIELD_EDGE:
            return False
        other = board.at.get(neighbour(pos, edge))
        if other is not None and other.edge_codes[opposite(edge)] != ROAD_EDGE:
            return False
    return True


def spot_for(state: GameState, axes: dict[Pos, str], pos: Pos, axis: str, edge: int) -> Spot | None:
    """Whether the bridge `needs` names can be laid: on the new tile along `axis`, or on the
    neighbour across `edge`."""
    if axis:  # checked against the neighbours already, through the constraint
        return (pos[0], pos[1], axis)
    # On the neighbour across `edge`, along that edge's axis. The new tile is not on the board
    # yet, so the end facing it counts as facing an empty space; its road meets it.
    q = neighbour(pos, edge)
    axis = "NS" if edge in (N, S) else "EW"
    return (q[0], q[1], axis) if allowed(state, axes, q, axis) else None


def fix(state: GameState, held: TileType, pos: Pos, rotation: int) -> Spot | None:
    """The one bridge that makes an otherwise mismatching placement legal, if any (R-BRIDGE-4)."""
    board = state.board
    constraint = board.open.get(pos)
    if constraint is None:
        return None
    for r, axis, edge in needs(held, constraint):
        if r == rotation:
            return spot_for(state, bridges(state).axis, pos, axis, edge)
    return None


def in_play(state: GameState) -> bool:
    return state.has(NAME) and bridges(state).left[state.current] > 0


def spots(state: GameState) -> list[Spot]:
    """Voluntary bridges the current player may lay now (R-BRIDGE-1, R-BRIDGE-2)."""
    placed = state.placed
    if state.phase != Phase.ACTION or placed is None or bridges(state).laid >= 0 or not in_play(state):
        return []
    board = state.board
    axes = bridges(state).axis
    pos = placed.pos
    around = (neighbour(pos, edge) for edge in range(4)) if _settings(state).bridge_on_neighbours else ()
    found: list[Spot] = []
    for q in (pos, *around):
        if q in board.at:
            found.extend((q[0], q[1], axis) for axis in AXES if allowed(state, axes, q, axis))
    return found


def lay(state: GameState, pos: Pos, axis: str) -> int:
    """A road segment across the tile joining its two field edges (R-BRIDGE-4)."""
    bridges(state).axis[pos] = axis
    return state.board.add_segment(pos, Kind.ROAD, AXES[axis], ROAD_EDGE, LOCATION[axis])


class BridgeOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    bridge_on_neighbours: bool = True
    """A voluntary bridge may go on a tile beside the one just placed (R-BRIDGE-2); JCloisterZone
    offers it only on the tile just placed (JCZ-4)."""


def _settings(state: GameState) -> BridgeOptions:
    found: BridgeOptions = part_options(state, NAME)
    return found


class BridgesPart(Part):
    name = NAME
    rank = 10
    options = BridgeOptions
    switches = {"JCZ-BRIDGE-PLACED-TILE": "bridge_on_neighbours"}
    events = (BridgePlaced,)
    commands = (PlaceBridge,)
    command_steps = {PlaceBridge: (("action",), "R-BRIDGE-6")}
    command_names = {PlaceBridge: "lay a bridge"}
    rules_of = {BridgePlaced: "R-BRIDGE-2"}
    decisions = {
        # A tile declined rather than placed with a bridge (R-BRIDGE-7).
        ev.TileDiscarded: (lambda e: (e.player, Pass()), "R-BRIDGE-7"),
        BridgePlaced: (
            lambda e: (e.player, PlaceBridge(x=e.x, y=e.y, axis=e.axis)),
            "R-BRIDGE-2",
        ),
    }

    mark_styles = {"bridge": MarkStyle(shape=Shape(tag="line", fill=None, stroke="#7a4a1c", stroke_width=8))}

    def spans_tile(self, state: GameState, pos: Pos) -> bool:
        return pos in bridges(state).axis

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[NAME] = Bridges(len(event.players))

    def view(self, state: GameState) -> PartView:
        """Each bridge a line across its tile, ``H`` or ``=`` on the text board; the bridges left."""
        own = bridges(state)
        return PartView(
            marks=tuple(
                Mark(
                    kind=MarkKind.LINE,
                    style="bridge",
                    x=x,
                    y=y,
                    location=LOCATION[axis],
                    text="H" if axis == "NS" else "=",
                )
                for (x, y), axis in own.axis.items()
            ),
            supplies=(Supply("bridges", tuple(own.left)),),
        )

    def begin_part(self, state: GameState) -> None:
        bridges(state).laid = -1

    def apply(self, state: GameState, event: Event) -> None:
        assert isinstance(event, BridgePlaced)
        own = bridges(state)
        sid = lay(state, (event.x, event.y), event.axis)
        own.laid = sid
        own.left[event.player] -= 1
        placed = state.placed
        if placed is not None and placed.pos == (event.x, event.y):
            extended(state, [sid])

    def completions(self, state: GameState, found: list[Feature]) -> None:
        laid = bridges(state).laid
        if laid >= 0:
            road = state.board.graph.feature(laid)
            if road.open == 0 and all(f is not road for f in found):
                found.append(road)

    def placements(self, state: GameState, held: TileType, found: list[Placement]) -> None:
        if not in_play(state):
            return
        board = state.board
        axes = bridges(state).axis
        for constraint, positions in board.by_constraint.items():
            wanted = needs(held, constraint)
            if wanted:
                for pos in positions:
                    for rotation, axis, edge in wanted:
                        spot = spot_for(state, axes, pos, axis, edge)
                        if spot is not None:
                            bridge = BridgeSpot(x=spot[0], y=spot[1], axis=spot[2])  # type: ignore[arg-type]
                            command = PlaceTile(x=pos[0], y=pos[1], rotation=rotation, bridge=bridge)
                            found.append((pos[0], pos[1], rotation, command))

    def place(
        self, state: GameState, player: int, command: PlaceTile, placed: ev.TilePlaced, fits: bool
    ) -> list[Event] | None:
        spec = command.bridge
        if fits:
            if spec is None:
                return None
            raise RuleViolation(
                "R-BRIDGE-4", "this placement needs no bridge; lay a voluntary bridge after placing"
            )
        assert state.tile is not None
        needed = fix(state, state.tile, (command.x, command.y), command.rotation) if in_play(state) else None
        if needed is None:
            return None
        if spec is not None and (spec.x, spec.y, spec.axis) != needed:
            raise RuleViolation(
                "R-BRIDGE-4",
                f"this placement needs the bridge {needed[2]} at {needed[:2]}, "
                f"not {spec.axis} at {(spec.x, spec.y)}",
            )
        return [
            placed,
            BridgePlaced(
                originator_id=state.id,
                originator_version=placed.originator_version + 1,
                player=player,
                x=needed[0],
                y=needed[1],
                axis=needed[2],
            ),
        ]

    def action_commands(self, state: GameState) -> list[Command]:
        return [PlaceBridge(x=x, y=y, axis=axis) for x, y, axis in spots(state)]  # type: ignore[arg-type]

    def decide(self, state: GameState, player: int, command: Command, step: str) -> list[Event]:
        assert isinstance(command, PlaceBridge)
        x, y, axis = command.x, command.y, command.axis
        if not state.has(NAME):
            raise RuleViolation("R-BRIDGE-1", "this game is played without Bridges, Castles and Bazaars")
        own = bridges(state)
        if own.left[player] == 0:
            raise RuleViolation("R-BRIDGE-1", "no bridge left in supply")
        if own.laid >= 0:
            raise RuleViolation("R-BRIDGE-2", "one bridge per turn, and one was laid already")
        if axis not in AXES:
            raise RuleViolation("R-BRIDGE-2", f"a bridge runs NS or EW, not {axis!r}")
        placed = state.placed
        assert placed is not None
        if (x, y) not in state.board.at or abs(x - placed.pos[0]) + abs(y - placed.pos[1]) > 1:
            raise RuleViolation("R-BRIDGE-2", "a bridge goes on the tile just placed or a tile beside it")
        if (x, y, axis) not in spots(state):
            raise RuleViolation(
                "R-BRIDGE-3",
                f"no bridge {axis} at {(x, y)}: both ends must be field edges, facing a road or an empty "
                "space, and bridges may not cross",
            )
        return [
            BridgePlaced(
                originator_id=state.id,
                originator_version=state.version + 1,
                player=player,
                x=x,
                y=y,
                axis=axis,
            )
        ]

    def pending(self, state: GameState) -> Decision | None:
        return None


PART = BridgesPart()
PARTS = (PART,)
