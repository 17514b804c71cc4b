"""The Flying Machines (R-FLIER-1..11): a tile with a flying machine lets its player, instead of
deploying as usual, send a follower from their supply flying. A die (1-3) says how many tiles it
flies in the machine's direction (straight or diagonal, as the tile is turned); on the tile it
reaches it must land on an unfinished road, city or cloister of the player's choice, occupied or
not, never a field. With no tile there, or nothing it may land on, it goes back to the supply.

The flight is three events: the player's `FlierLaunched` (the command `Fly`), the die's
`FlierRolled` (a draw of chance, `Part.chance`), and when the tile reached offers a place, the
player's `FlierLanded` (the command `Land`, a decision that cannot be passed). The landing places
are fixed as the die falls, as JCloisterZone fixes them. Another part's place that is no segment
(a tower's top) is a landing place where that part offers it (`Part.places_from_afar`) and the
reading allows it (JCZ-FLIER-NO-TOWER off).
"""

from __future__ import annotations

from typing import Final

from domain import events as ev
from domain.commands import Command
from domain.errors import RuleViolation
from domain.events import Event
from domain.geometry import Pos
from domain.moves import Decision, tile_blocked
from domain.part import Part, ext, part_options
from domain.rules import Options
from domain.state import GameState, Phase, deploy
from domain.tiles import Kind, TileType
from domain.view import Mark, MarkKind, MarkStyle, PartView, Shape

NAME: Final = "flier"
MACHINE: Final = "flier"  # the location (an edgeless segment) of a tile's flying machine
STEP: Final = "flier"  # the landing decision
FACES: Final = (1, 2, 3)  # the die shows 1, 1, 2, 2, 3, 3: each distance as likely (R-FLIER-1)
# The eight directions clockwise from north, each one step's offset (y grows south): a quarter
# turn of the tile moves the arrow two places on.
DIRECTIONS: Final = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
STEPS: Final = {
    "N": (0, -1),
    "NE": (1, -1),
    "E": (1, 0),
    "SE": (1, 1),
    "S": (0, 1),
    "SW": (-1, 1),
    "W": (-1, 0),
    "NW": (-1, -1),
}
# The arrow as the text board shows it (a diagonal one by its slant).
ARROWS: Final = {"N": "^", "NE": "/", "E": ">", "SE": "\\", "S": "v", "SW": "/", "W": "<", "NW": "\\"}
# Where a kind of follower may land (R-FLIER-8): a mayor in a city only; any other on a road, a
# city or a cloister (never a field: R-FLIER-5).
FEATURES: Final = (Kind.ROAD, Kind.CITY, Kind.CLOISTER)
_KINDS: Final = {"mayor": (Kind.CITY,), "wagon": FEATURES}

Landing = tuple[int, int, str]  # x, y, location


class FlierLaunched(Event, frozen=True, kw_only=True):
    """A follower of `figure`'s kind from the player's supply takes off from the flying machine
    of the tile just placed, at (x, y), instead of a deployment (R-FLIER-2). It stays in the
    supply until it lands."""

    player: int
    figure: str
    x: int
    y: int


class FlierRolled(Event, frozen=True, kw_only=True):
    """The die says how many tiles the flier flies (R-FLIER-3): a draw of chance."""

    player: int
    distance: int


class FlierLanded(Event, frozen=True, kw_only=True):
    """The flier lands on `location` of the tile at (x, y), the player's choice (R-FLIER-4)."""

    player: int
    x: int
    y: int
    location: str
    figure: str


class Fly(Command, frozen=True, kw_only=True):
    """Send a follower of this kind flying from the flying machine of the tile just placed."""

    figure: str = "follower"


class Land(Command, frozen=True, kw_only=True):
    """Where the flier lands: a location of the tile at (x, y) the die brought it to."""

    x: int
    y: int
    location: str


class Flights:
    __slots__ = ("flying", "landings", "machines", "rolled", "used")

    def __init__(self) -> None:
        self.machines: dict[Pos, str] = {}  # every flying machine on the board: its direction
        self.flying: tuple[int, str] | None = None  # (player, figure) in the air in this turn part
        self.rolled = 0  # the die, once cast for it
        self.landings: list[Landing] = []  # where it may land, fixed as the die fell
        self.used = False  # the machine of the tile just placed flew someone (R-FLIER-9)


def flights(state: GameState) -> Flights:
    found: Flights = ext(state, NAME)
    return found


class FlierOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    no_tower: bool = False
    """JCZ-FLIER-NO-TOWER: a flier never lands on top of a tower; the printed rules let it land
    on any unfinished feature, an open tower's top among them (where The Tower is played)."""


def _settings(state: GameState) -> FlierOptions:
    found: FlierOptions = part_options(state, NAME)
    return found


def direction(tile: TileType, rotation: int) -> str | None:
    """Where the flying machine of `tile` turned by `rotation` points, if it has one: its arrow
    (`to=`, in the unturned tile) turned clockwise with the tile."""
    for segment in tile.segments:
        if segment.kind == Kind.OTHER and segment.name == MACHINE:
            arrow = next(f[3:] for f in segment.flags if f.startswith("to="))
            return DIRECTIONS[(DIRECTIONS.index(arrow) + 2 * (rotation // 90)) % 8]
    return None


def target(pos: Pos, heading: str, distance: int) -> Pos:
    """The square `distance` tiles from `pos` towards `heading` (R-FLIER-3)."""
    dx, dy = STEPS[heading]
    return pos[0] + distance * dx, pos[1] + distance * dy


def _flying_kinds(state: GameState) -> list[str]:
    """The kinds of follower the current player may send flying: those in supply (R-FLIER-8)."""
    me = state.current
    kinds = ["follower"] if state.supply[me] > 0 else []
    figures = state.ext["figures"]
    for figure, owner in state.figure_owners.items():
        if owner.figures[figure].follower and figures[figure][me] > 0:
            kinds.append(figure)
    return kinds


def _unfinished(state: GameState, pos: Pos, sid: int, kind: Kind) -> bool:
    """Whether the feature of segment `sid` (on the tile at `pos`) is unfinished now, the tile
    just placed counted (R-FLIER-6)."""
    if kind == Kind.CLOISTER:
        return state.board.cloister_ring.get(pos, 0) < 8
    if kind in (Kind.ROAD, Kind.CITY):
        return state.board.graph.feature(sid).open > 0
    return True  # a field is never finished


def landings(state: GameState, figure: str, at: Pos) -> list[Landing]:
    """Where a flier of `figure`'s kind may land on the square `at`: an unfinished road, city or
    cloister as its kind allows, followers on it or not (R-FLIER-4..8), and the places of other
    parts that take it; nowhere on an empty square or a tile no figure may go to (R-FLIER-11)."""
    placed = state.board.at.get(at)
    if placed is None or tile_blocked(state, at):
        return []
    kinds = _KINDS.get(figure, FEATURES)
    found = [
        (at[0], at[1], name)
        for name, sid, kind in placed.locations()
        if kind in kinds and _unfinished(state, at, sid, kind)
    ]
    if not _settings(state).no_tower:
        for part in state.hooks["places_from_afar"]:
            found += [(at[0], at[1], name) for name in part.places_from_afar(state, figure, at)]
    return found


class FlierPart(Part):
    name = NAME
    # The landing is part of the turn's action: it comes before the dragon (30) and whatever
    # follows the action.
    rank = 25
    options = FlierOptions
    switches = {"JCZ-FLIER-NO-TOWER": "no_tower"}
    events = (FlierLaunched, FlierRolled, FlierLanded)
    commands = (Fly, Land)
    steps = {STEP: "R-FLIER-4"}
    step_names = {STEP: "the flier's landing place"}
    # Nothing else is done while the flier lands: no ransom either (JCloisterZone's ransom there
    # would start the turn's action again, the landing forgotten).
    closed_steps = (STEP,)
    command_steps = {Fly: (("action",), "R-FLIER-2"), Land: ((STEP,), "R-FLIER-4")}
    command_names = {Fly: "send a follower flying", Land: "land the flier"}
    rules_of = {FlierLaunched: "R-FLIER-2", FlierRolled: "R-FLIER-3", FlierLanded: "R-FLIER-4"}
    engine_rules = {FlierRolled: "R-FLIER-3"}
    decisions = {
        FlierLaunched: (lambda e: (e.player, Fly(figure=e.figure)), "R-FLIER-2"),
        FlierLanded: (lambda e: (e.player, Land(x=e.x, y=e.y, location=e.location)), "R-FLIER-4"),
    }
    mark_styles = {
        "flier": MarkStyle(shape=Shape(tag="circle", r=11, fill="#5b7fa6", stroke="#fff", stroke_width=1.5))
    }

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[NAME] = Flights()

    def view(self, state: GameState) -> PartView:
        """Each flying machine, its direction as the tile lies (an arrow on the text board)."""
        return PartView(
            marks=tuple(
                Mark(kind=MarkKind.DISC, style="flier", x=x, y=y, label=heading, text=ARROWS[heading])
                for (x, y), heading in sorted(flights(state).machines.items())
            )
        )

    def begin_part(self, state: GameState) -> None:
        own = flights(state)
        own.flying = None
        own.rolled = 0
        own.landings = []
        own.used = False

    def tile_placed(self, state: GameState, placed: object) -> None:
        tile = state.placed
        assert tile is not None
        heading = direction(tile.tile, tile.orientation.rotation)
        if heading is not None:
            flights(state).machines[tile.pos] = heading

    def _may_fly(self, state: GameState) -> bool:
        """The tile just placed has a flying machine not used yet, and figures may go on it."""
        placed = state.placed
        return (
            state.phase == Phase.ACTION
            and placed is not None
            and placed.pos in flights(state).machines
            and not flights(state).used
            and not tile_blocked(state, placed.pos)
        )

    def action_commands(self, state: GameState) -> list[Command]:
        """A follower of each kind in supply may fly instead of a deployment (R-FLIER-2, R-FLIER-8)."""
        if not self._may_fly(state):
            return []
        return [Fly(figure=figure) for figure in _flying_kinds(state)]

    def check_early(self, state: GameState, player: int, command: Command, step: str) -> None:
        if isinstance(command, Fly) and state.has(NAME) and flights(state).used:
            raise RuleViolation("R-FLIER-9", "the flying machine of this tile has flown a follower already")

    def decide(self, state: GameState, player: int, command: Command, step: str) -> list[Event]:
        if not state.has(NAME):
            raise RuleViolation("R-FLIER-1", "this game is played without flying machines")
        gid, version = state.id, state.version + 1
        own = flights(state)
        if isinstance(command, Fly):
            placed = state.placed
            if not self._may_fly(state) or placed is None:
                raise RuleViolation("R-FLIER-2", "the tile just placed has no flying machine to fly from")
            if command.figure not in _flying_kinds(state):
                raise RuleViolation("R-FLIER-8", f"no {command.figure} in supply that may fly")
            return [
                FlierLaunched(
                    originator_id=gid,
                    originator_version=version,
                    player=player,
                    figure=command.figure,
                    x=placed.pos[0],
                    y=placed.pos[1],
                )
            ]
        assert isinstance(command, Land)
        assert own.flying is not None
        if (command.x, command.y, command.location) not in own.landings:
            shown = ", ".join(f"{loc} of {(x, y)}" for x, y, loc in own.landings)
            raise RuleViolation("R-FLIER-4", f"the flier lands on one of {shown}")
        return [
            FlierLanded(
                originator_id=gid,
                originator_version=version,
                player=player,
                x=command.x,
                y=command.y,
                location=command.location,
                figure=own.flying[1],
            )
        ]

    def chance(self, state: GameState) -> tuple[Event, ...]:
        """The die, once a follower took off (R-FLIER-3)."""
        own = flights(state)
        if own.flying is None or own.rolled:
            return ()
        gid, version = state.id, state.version + 1
        player = own.flying[0]
        return tuple(
            FlierRolled(originator_id=gid, originator_version=version, player=player, distance=d)
            for d in FACES
        )

    def pending(self, state: GameState) -> Decision | None:
        """The landing, when the tile reached offers a place: it cannot be passed (R-FLIER-4)."""
        own = flights(state)
        if own.flying is not None and own.landings:
            return Decision(STEP, own.flying[0])
        return None

    def command_options(self, state: GameState, step: str) -> list[Command]:
        return [Land(x=x, y=y, location=location) for x, y, location in flights(state).landings]

    def apply(self, state: GameState, event: Event) -> None:
        own = flights(state)
        if isinstance(event, FlierLaunched):
            own.flying = (event.player, event.figure)
            own.used = True
            state.phase = Phase.ACTION_DONE  # the flight is the turn's deployment (R-FLIER-2)
        elif isinstance(event, FlierRolled):
            assert own.flying is not None and state.placed is not None
            own.rolled = event.distance
            at = target(state.placed.pos, own.machines[state.placed.pos], event.distance)
            # Nowhere to land: it stays in the supply, and nothing else is deployed (R-FLIER-7).
            own.landings = landings(state, own.flying[1], at)
        else:
            assert isinstance(event, FlierLanded)
            own.flying = None
            own.landings = []
            placed = state.board.at[(event.x, event.y)]
            try:
                sid = placed.segment(event.location)
            except KeyError:  # another part's place (a tower's top)
                for part in state.hooks["put_from_afar"]:
                    if part.put_from_afar(
                        state, event.player, (event.x, event.y), event.location, event.figure
                    ):
                        return
                raise
            deploy(state, event.player, sid, event.figure)


PART = FlierPart()
PARTS = (PART,)
