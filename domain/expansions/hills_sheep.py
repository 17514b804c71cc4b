"""Hills & Sheep (R-HS-1..12): hills, vineyards and the shepherd with his flock.

* Hills (`hills`, element `hill`): a tile tagged ``hill`` hides one more tile of the pile under
  it as it is placed, while the pile has one (R-HS-2): the pile's last, so the draws to come are
  the same and the game only ends sooner. Of the players tied for a feature's majority, those
  with a follower on a hill tile of it win the tie alone (R-HS-3); V-HS-HILL-COUNT counts those
  followers instead, the most winning.
* Vineyards (`vineyards`, element `vineyard`): a completed cloister scores 3 more per tile tagged
  ``vineyard`` among the eight around it (R-HS-4).
* The shepherd (`shepherd`, element `shepherd`): a figure of each player's that goes on a field
  of the tile just placed instead of a follower, on no field with a shepherd already (R-HS-5).
  Its flock is a list of sheep tokens drawn from a bag of 18 (four of one sheep, five of two,
  five of three, two of four, two wolves), those in flocks on the board left out: a draw of
  chance (`FlockDrawn`, R-HS-7). Deployed, it draws at once (R-HS-6); when a later tile of its
  owner's extends its field, the owner grows the flock (another draw) or scores it (R-HS-8,
  `Flock`). A wolf sends every shepherd of that field home and their sheep back to the bag
  (R-HS-9). Scoring gives each player with a shepherd on the field the sheep of all the flocks
  there, and sends those shepherds home (R-HS-10). Flocks left at the end score nothing (R-HS-11).
  Under JCloisterZone's reading a field closed all round scores its flocks by itself
  (JCZ-HS-CLOSED-FIELD, `FlocksPenned`).
* A city that shares an edge with another city of its tile (``shares=N``, tile HS/CC!.v) joins
  whatever city meets that edge (R-HS-12): the part `shared_edge`, in play with the set's tiles.
"""

from __future__ import annotations

from typing import Final, Literal

from domain import events as ev
from domain.board import PlacedTile
from domain.commands import Command
from domain.errors import RuleViolation
from domain.events import Event
from domain.features import Feature
from domain.geometry import EDGE_BY_NAME, RING_OFFSETS, neighbour, opposite, rotate_edge
from domain.moves import Decision, action_open
from domain.part import FigureKind, Part, ext, part_options
from domain.rules import Options
from domain.scoring import Parts
from domain.state import GameState, Phase, credit, lift_figure, segment_location, to_supply
from domain.tiles import Kind
from domain.view import OWNER, FigureLook, Mark, MarkKind, MarkStyle, PartView, Shape

HILLS: Final = "hills"
VINEYARDS: Final = "vineyards"
SHEPHERD: Final = "shepherd"
SHARED: Final = "shared_edge"
HILL: Final = "hill"  # the tile tags
VINEYARD: Final = "vineyard"
SHARES: Final = "shares="  # a segment flag: the edge it also reaches
FIGURE: Final = "shepherd"
STEP: Final = "flock"  # grow or score the flock
VINEYARD_POINTS: Final = 3
# The bag (R-HS-7), in the order JCloisterZone lists it: tokens of one sheep to four, then the
# wolves (0 sheep).
BAG: Final = ((1, 4), (2, 5), (3, 5), (4, 2), (0, 2))
WOLF: Final = 0
Choice = Literal["expand", "score"]
CHOICES: Final[tuple[Choice, ...]] = ("expand", "score")
Place = tuple[int, int, str]  # x, y, location of a shepherd


# ---------------------------------------------------------------- hills


class HillOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    hill_count: bool = False
    """V-HS-HILL-COUNT: a tie goes to the tied players with the most followers on hill tiles of
    the feature; off, to those with at least one there (R-HS-3)."""


def _hill_settings(state: GameState) -> HillOptions:
    found: HillOptions = part_options(state, HILLS)
    return found


class Hills:
    __slots__ = ("hidden",)

    def __init__(self) -> None:
        self.hidden: dict[tuple[int, int], str] = {}  # hill tile position -> the tile under it


def hills(state: GameState) -> Hills:
    found: Hills = ext(state, HILLS)
    return found


class HillPart(Part):
    name = HILLS
    rank = 5
    options = HillOptions
    switches = {"V-HS-HILL-COUNT": "hill_count"}
    mark_styles = {
        "hill": MarkStyle(
            shape=Shape(tag="circle", r=7, fill="#8a9a5b", stroke="#4b5320", stroke_width=1.5),
            at=(0.15, 0.15),
        )
    }

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[HILLS] = Hills()

    def tile_placed(self, state: GameState, placed: PlacedTile) -> None:
        """A hill hides the pile's last tile under it, if the pile has one (R-HS-2)."""
        if HILL not in placed.tile.tags or state.pile_left == 0:
            return
        order = state.draw_order
        hills(state).hidden[placed.pos] = order[-1]
        state.draw_order = order[:-1]

    def tie_break(self, state: GameState, feature: Feature, players: list[int]) -> list[int]:
        """Those of the tied players with a follower on a hill tile of the feature (R-HS-3), or
        with the most followers there (V-HS-HILL-COUNT); all of them when nobody has one."""
        board = state.board
        counting = _hill_settings(state).hill_count
        heights: dict[int, int] = dict.fromkeys(players, 0)
        for player, sid, _ in state.followers(feature):
            if player in heights and HILL in board.tiles[board.graph.segment_tile[sid]].tile.tags:
                heights[player] = heights[player] + 1 if counting else 1
        best = max(heights.values())
        return [p for p in players if heights[p] == best]

    def view(self, state: GameState) -> PartView:
        """A small disc on each hill tile (``^`` on the text board)."""
        return PartView(
            marks=tuple(
                Mark(kind=MarkKind.DISC, style="hill", x=x, y=y, label="H", text="^")
                for (x, y) in sorted(_tagged(state, HILL))
            )
        )


def _tagged(state: GameState, tag: str) -> list[tuple[int, int]]:
    return [placed.pos for placed in state.board.tiles if tag in placed.tile.tags]


# ---------------------------------------------------------------- vineyards


class VineyardPart(Part):
    name = VINEYARDS
    rank = 6
    mark_styles = {
        "vineyard": MarkStyle(
            shape=Shape(tag="circle", r=7, fill="#6d2c5e", stroke="#3b1532", stroke_width=1.5),
            at=(0.85, 0.15),
        )
    }

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[VINEYARDS] = None

    def value(
        self, state: GameState, feature: Feature, completed: bool, value: int, parts: Parts
    ) -> tuple[int, Parts]:
        """A completed cloister: 3 more per vineyard on the eight tiles around it (R-HS-4)."""
        if not completed or feature.kind != Kind.CLOISTER:
            return value, parts
        board = state.board
        x, y = board.tiles[min(feature.tiles)].pos
        count = 0
        for dx, dy in RING_OFFSETS:
            placed = board.at.get((x + dx, y + dy))
            if placed is not None and VINEYARD in placed.tile.tags:
                count += 1
        if not count:
            return value, parts
        return value + VINEYARD_POINTS * count, (*parts, ("vineyards", count))

    def view(self, state: GameState) -> PartView:
        """A small disc on each vineyard tile (``v`` on the text board)."""
        return PartView(
            marks=tuple(
                Mark(kind=MarkKind.DISC, style="vineyard", x=x, y=y, label="V", text="v")
                for (x, y) in sorted(_tagged(state, VINEYARD))
            )
        )


# ---------------------------------------------------------------- the shepherd


class FlockDrawn(Event, frozen=True, kw_only=True):
    """A token drawn from the bag for the flock of the shepherd at `location` of the tile at (x, y):
    `sheep` sheep, or a wolf (0) (R-HS-7)."""

    player: int
    x: int
    y: int
    location: str
    sheep: int


class FlockChosen(Event, frozen=True, kw_only=True):
    """The player whose tile extended their shepherd's field grows the flock or scores it (R-HS-8)."""

    player: int
    value: Choice


class FlocksPenned(Event, frozen=True, kw_only=True):
    """The field of the shepherd at `location` of the tile at (x, y) is closed all round: its
    flocks score (JCZ-HS-CLOSED-FIELD)."""

    x: int
    y: int
    location: str


class ShepherdOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    flock_closed_field: bool = False
    """JCZ-HS-CLOSED-FIELD: a field with shepherds that no empty square borders any more scores
    its flocks by itself, once the action of a turn part is over (R-HS-10 as if chosen); off, as
    the printed rules say nothing of it, those flocks wait for the end and score nothing (R-HS-11)."""


def _shepherd_settings(state: GameState) -> ShepherdOptions:
    found: ShepherdOptions = part_options(state, SHEPHERD)
    return found


def closed(state: GameState, field: Feature) -> bool:
    """Whether no empty square borders the field: every side of every tile its segments reach
    has a tile (a field inside one tile alone is closed)."""
    board = state.board
    graph = board.graph
    root = field.id
    reached = 0
    for index in field.tiles:
        placed = board.tiles[index]
        for _, sid, kind in placed.locations():
            if kind != Kind.FIELD or graph.find(sid) != root:
                continue
            reached += 1
            for half, segment in enumerate(placed.orientation.half_segment):
                if placed.base + segment == sid and neighbour(placed.pos, half // 2) not in board.at:
                    return False
    return reached > 0


class Flock(Command, frozen=True, kw_only=True):
    """Grow the flock (`expand`: a token from the bag) or score it (`score`)."""

    value: Choice


class Sheep:
    __slots__ = ("flocks", "growing", "resolved")

    def __init__(self) -> None:
        self.flocks: dict[Place, list[int]] = {}  # each shepherd's sheep tokens, by its place
        self.growing: Place | None = None  # the flock that draws now
        self.resolved = False  # the shepherd's step of this turn part is over


def sheep(state: GameState) -> Sheep:
    found: Sheep = ext(state, SHEPHERD)
    return found


def shepherds(state: GameState) -> list[tuple[Place, int, Feature]]:
    """Every shepherd on the board: its place, its owner, its field."""
    board = state.board
    found = []
    for feature in board.graph.figured():
        for player, sid, kind in feature.figures:
            if kind == FIGURE:
                found.append((segment_location(board, sid), player, feature))
    return sorted(found, key=lambda f: f[:2])


def bag(state: GameState) -> list[int]:
    """The tokens in the bag, in JCloisterZone's order: every token but those in the flocks of
    the shepherds on the board (R-HS-7)."""
    out: dict[int, int] = {}
    standing = {place for place, _, _ in shepherds(state)}
    for place, tokens in sheep(state).flocks.items():
        if place in standing:
            for token in tokens:
                out[token] = out.get(token, 0) + 1
    return [token for token, count in BAG for _ in range(max(0, count - out.get(token, 0)))]


def _own_shepherd(state: GameState) -> tuple[Place, Feature] | None:
    """The current player's shepherd on the board, with its field."""
    me = state.current
    return next(((place, field) for place, owner, field in shepherds(state) if owner == me), None)


def _just_deployed(state: GameState) -> Place | None:
    """The current player's shepherd, deployed on the tile just placed: it draws at once (R-HS-6)."""
    placed = state.placed
    own = sheep(state)
    if placed is None or own.resolved or state.phase != Phase.ACTION_DONE:
        return None
    mine = _own_shepherd(state)
    if mine is None or (mine[0][0], mine[0][1]) != placed.pos:
        return None
    return mine[0]


def _extended(state: GameState) -> Place | None:
    """The current player's shepherd whose field the tile just placed extended (R-HS-8)."""
    placed = state.placed
    if placed is None or sheep(state).resolved:
        return None
    mine = _own_shepherd(state)
    if mine is None or (mine[0][0], mine[0][1]) == placed.pos:
        return None
    graph = state.board.graph
    root = mine[1].id
    if any(kind == Kind.FIELD and graph.find(sid) == root for _, sid, kind in placed.locations()):
        return mine[0]
    return None


def _send_home(state: GameState, field: Feature) -> list[tuple[Place, int]]:
    """Every shepherd of the field goes home, its flock back in the bag."""
    gone = [(place, owner) for place, owner, f in shepherds(state) if f is field]
    own = sheep(state)
    for place, owner in gone:
        lift_figure(state, place[0], place[1], place[2], owner, FIGURE)
        to_supply(state, owner, FIGURE)
        own.flocks.pop(place, None)
    return gone


class ShepherdPart(Part):
    name = SHEPHERD
    options = ShepherdOptions
    switches = {"JCZ-HS-CLOSED-FIELD": "flock_closed_field"}
    # After the action (the flier's landing, 25) and the ferries (27), before the dragon's move
    # (30), as in JCloisterZone's phases.
    rank = 28
    events = (FlockDrawn, FlockChosen, FlocksPenned)
    commands = (Flock,)
    figures = {
        FIGURE: FigureKind(
            follower=False,
            strength=0,
            rule="R-HS-5",
            stays=True,
            look=FigureLook(
                glyphs="stuxyz",
                shape=Shape(tag="rect", width=10, height=16, fill=OWNER, stroke="#fff", stroke_width=2),
            ),
        )
    }
    steps = {STEP: "R-HS-8"}
    step_names = {STEP: "the flock grown or scored"}
    closed_steps = (STEP,)
    command_steps = {Flock: ((STEP,), "R-HS-8")}
    command_names = {Flock: "grow or score the flock"}
    rules_of = {FlockDrawn: "R-HS-7", FlockChosen: "R-HS-8", FlocksPenned: "JCZ-HS-CLOSED-FIELD"}
    engine_rules = {FlockDrawn: "R-HS-7", FlocksPenned: "JCZ-HS-CLOSED-FIELD"}
    decisions = {FlockChosen: (lambda e: (e.player, Flock(value=e.value)), "R-HS-8")}
    mark_styles = {
        "flock": MarkStyle(
            shape=Shape(tag="circle", r=8, fill="#f5f5f0", stroke="#555", stroke_width=1.5), at=(0.5, 0.85)
        )
    }

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[SHEPHERD] = Sheep()
        state.ext["figures"][FIGURE] = [1] * len(event.players)

    def begin_part(self, state: GameState) -> None:
        own = sheep(state)
        own.growing = None
        own.resolved = False

    def deployments(self, state: GameState, figure: str) -> list[str]:
        """A field of the tile just placed with no shepherd on it, followers there or not (R-HS-5)."""
        placed = state.placed
        if placed is None or state.ext["figures"][FIGURE][state.current] == 0:
            return []
        graph = state.board.graph
        return [
            name
            for name, sid, kind in placed.locations()
            if kind == Kind.FIELD and not any(k == FIGURE for _, _, k in graph.feature(sid).figures)
        ]

    def why_not(self, state: GameState, figure: str, location: str) -> str:
        return f"a shepherd goes on a field without a shepherd, not {location}"

    def chance(self, state: GameState) -> tuple[Event, ...]:
        """A token for a shepherd just deployed (R-HS-6), or for a flock its owner grows (R-HS-8)."""
        own = sheep(state)
        place = own.growing or _just_deployed(state)
        if place is None:
            return ()
        gid, version = state.id, state.version + 1
        return tuple(
            FlockDrawn(
                originator_id=gid,
                originator_version=version,
                player=state.current,
                x=place[0],
                y=place[1],
                location=place[2],
                sheep=token,
            )
            for token in bag(state)
        )

    def automatic(self, state: GameState) -> Event | None:
        """A closed field's flocks score once the action is over, but the field of the flock
        whose owner is still to choose (JCZ-HS-CLOSED-FIELD)."""
        if not _shepherd_settings(state).flock_closed_field or state.placed is None:
            return None
        phase = state.phase
        if phase not in (Phase.ACTION, Phase.ACTION_DONE) or (phase == Phase.ACTION and action_open(state)):
            return None
        if sheep(state).growing is not None:
            return None
        asked = _extended(state)
        board = state.board
        waiting = None if asked is None else board.graph.feature(board.at[asked[:2]].segment(asked[2]))
        for place, _, field in shepherds(state):
            if field is not waiting and closed(state, field):
                return FlocksPenned(
                    originator_id=state.id,
                    originator_version=state.version + 1,
                    x=place[0],
                    y=place[1],
                    location=place[2],
                )
        return None

    def pending(self, state: GameState) -> Decision | None:
        """Grow or score, when the player's tile extended their shepherd's field (R-HS-8): once
        the action is over, before the turn part scores; it cannot be passed."""
        if state.phase not in (Phase.ACTION, Phase.ACTION_DONE) or sheep(state).growing is not None:
            return None
        if state.phase == Phase.ACTION and action_open(state):
            return None
        if _extended(state) is None:
            return None
        return Decision(STEP, state.current)

    def command_options(self, state: GameState, step: str) -> list[Command]:
        return [Flock(value=value) for value in CHOICES]

    def decide(self, state: GameState, player: int, command: Command, step: str) -> list[Event]:
        assert isinstance(command, Flock)
        if command.value not in CHOICES:
            raise RuleViolation(
                "R-HS-8", f"the flock is grown (expand) or scored (score), not {command.value!r}"
            )
        return [
            FlockChosen(
                originator_id=state.id,
                originator_version=state.version + 1,
                player=player,
                value=command.value,
            )
        ]

    def apply(self, state: GameState, event: Event) -> None:
        own = sheep(state)
        # Asked with nothing left to deploy, the action is over: a shepherd sent home by the
        # flock is not deployed again in this turn part.
        state.phase = Phase.ACTION_DONE
        if isinstance(event, FlocksPenned):
            self._score(
                state, (event.x, event.y, event.location), event.originator_version, "JCZ-HS-CLOSED-FIELD"
            )
            return
        if isinstance(event, FlockChosen):
            place = _extended(state)
            assert place is not None
            if event.value == "expand":
                own.growing = place
                return
            own.resolved = True
            self._score(state, place, event.originator_version)
            return
        assert isinstance(event, FlockDrawn)
        own.growing = None
        own.resolved = True
        place = (event.x, event.y, event.location)
        if event.sheep == WOLF:  # R-HS-9
            board = state.board
            _send_home(state, board.graph.feature(board.at[(event.x, event.y)].segment(event.location)))
            return
        own.flocks.setdefault(place, []).append(event.sheep)

    def _score(self, state: GameState, place: Place, version: int, rule: str = "R-HS-10") -> None:
        """Every flock of the shepherd's field, to each player with a shepherd there (R-HS-10)."""
        own = sheep(state)
        board = state.board
        field = board.graph.feature(board.at[(place[0], place[1])].segment(place[2]))
        tokens = [t for p, _, f in shepherds(state) if f is field for t in own.flocks.get(p, [])]
        points = sum(tokens)
        gone = _send_home(state, field)
        for player in sorted({owner for _, owner in gone}):
            credit(state, player, points, "flock", rule, (("sheep", points),), field.id, version)

    def final_scoring(self, state: GameState, version: int) -> None:
        """Flocks left on the board score nothing; the shepherds go home (R-HS-11)."""
        for place, owner, _ in shepherds(state):
            lift_figure(state, place[0], place[1], place[2], owner, FIGURE)
            to_supply(state, owner, FIGURE)
        sheep(state).flocks.clear()

    def view(self, state: GameState) -> PartView:
        """Each shepherd's flock: a disc on its tile with its sheep counted."""
        own = sheep(state)
        return PartView(
            marks=tuple(
                Mark(
                    kind=MarkKind.DISC,
                    style="flock",
                    x=place[0],
                    y=place[1],
                    location=place[2],
                    owners=(owner,),
                    label=str(sum(own.flocks.get(place, []))),
                    text="s",
                )
                for place, owner, _ in shepherds(state)
            )
        )


# ---------------------------------------------------------------- the shared edge


class SharedEdgePart(Part):
    """R-HS-12: a city segment flagged ``shares=E`` also reaches edge E of its tile, where another
    city of the tile lies: it joins whatever city meets that edge, and stays open until one does."""

    name = SHARED
    rank = 1

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[SHARED] = None

    def tile_placed(self, state: GameState, placed: PlacedTile) -> None:
        board = state.board
        graph = board.graph
        for sid, edge in _shared(placed):
            if board.at.get(neighbour(placed.pos, edge)) is None:
                graph.feature(sid).open += 1  # the shared edge is open until a city meets it
            else:
                graph.union(sid, placed.edge_segment[edge])
        for edge in range(4):
            other = board.at.get(neighbour(placed.pos, edge))
            if other is None:
                continue
            for sid, shared in _shared(other):
                if shared == opposite(edge):
                    graph.feature(sid).open -= 1
                    graph.union(sid, other.edge_segment[shared])


def _shared(placed: PlacedTile) -> list[tuple[int, int]]:
    """(segment id, board edge) of each segment of the tile that also reaches an edge it shares."""
    found = []
    for offset, segment in enumerate(placed.tile.segments):
        for flag in segment.flags:
            if flag.startswith(SHARES):
                edge = rotate_edge(EDGE_BY_NAME[flag[len(SHARES) :]], placed.orientation.rotation // 90)
                found.append((placed.base + offset, edge))
    return found


PARTS = (HillPart(), VineyardPart(), ShepherdPart(), SharedEdgePart())
