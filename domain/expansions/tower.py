"""The Tower (R-TOWER-*): tower pieces raise the towers printed on tiles; a piece placed lets its
player capture a follower within the tower's reach; prisoners are exchanged or ransomed; a
follower on top of a tower closes it.
"""

from __future__ import annotations

from typing import Final

from domain import events as ev
from domain.commands import Command
from domain.errors import RuleViolation
from domain.events import Event
from domain.geometry import Pos
from domain.moves import Decision, expected_step, legal_deployments, sealed_roots
from domain.part import Part, Standing, ext, part_options
from domain.rules import Options
from domain.state import GameState, Phase, credit, lift_figure, to_supply
from domain.view import Mark, MarkKind, MarkStyle, PartView, Shape, Supply

NAME: Final = "tower"
TAG: Final = "tower"  # tiles with a tower foundation
ON_TOWER: Final = "tower"  # the location of a follower standing on a tower
RANSOM: Final = 3  # R-TOWER-7
# Tower pieces each player has, by the number of players (R-TOWER-2).
PIECES: Final = {1: 10, 2: 10, 3: 9, 4: 7, 5: 6, 6: 5}


class TowerPiecePlaced(Event, frozen=True, kw_only=True):
    """A tower piece on the tower at (x, y), instead of deploying (R-TOWER-3)."""

    player: int
    x: int
    y: int


class FollowerCaptured(Event, frozen=True, kw_only=True):
    """The player who raised a tower takes a follower within its reach prisoner (R-TOWER-4);
    their own goes back to their supply. `location` is ``tower`` for one standing on a tower."""

    player: int
    x: int
    y: int
    location: str
    owner: int
    figure: str


class PrisonersExchanged(Event, frozen=True, kw_only=True):
    """Two players held each other's followers: both go home (R-TOWER-6). `figure` is the kind of
    the capturer's (`player`) follower that comes back, `other_figure` the one just captured;
    with several kinds of the capturer's held, the capturer chose `figure`."""

    player: int
    figure: str
    other: int
    other_figure: str


class TowerGuarded(Event, frozen=True, kw_only=True):
    """A follower on top of the tower at (x, y) closes it for good (R-TOWER-8)."""

    player: int
    x: int
    y: int
    figure: str


class RansomPaid(Event, frozen=True, kw_only=True):
    """The player pays 3 points to `jailer` to have a follower of theirs back (R-TOWER-7)."""

    player: int
    jailer: int
    figure: str


class PlaceTowerPiece(Command, frozen=True, kw_only=True):
    x: int
    y: int


class CaptureFollower(Command, frozen=True, kw_only=True):
    x: int
    y: int
    location: str
    owner: int
    figure: str = "follower"


class GuardTower(Command, frozen=True, kw_only=True):
    x: int
    y: int
    figure: str = "follower"


class PayRansom(Command, frozen=True, kw_only=True):
    jailer: int
    figure: str = "follower"


class ExchangePrisoner(Command, frozen=True, kw_only=True):
    """Which kind of one's own followers comes back in an exchange, when the other player holds
    several kinds (R-TOWER-6)."""

    figure: str


class Towers:
    __slots__ = ("capture_at", "exchange", "guards", "heights", "pieces", "prisoners", "ransom_sitting")

    def __init__(self, players: int) -> None:
        self.heights: dict[Pos, int] = {}  # every tower on the board, by position
        self.guards: dict[Pos, tuple[int, str]] = {}  # closed towers: the follower on top
        self.pieces = [PIECES[players]] * players
        # By jailer, in the order they were taken: an exchange or a ransom frees the first taken
        # of its owner and kind (as JCloisterZone does).
        self.prisoners: list[list[tuple[int, str]]] = [[] for _ in range(players)]
        self.capture_at: Pos | None = None  # the tower raised in this turn part, capture pending
        # A capture whose exchange waits for the capturer's choice: (capturer, owner, figure taken).
        self.exchange: tuple[int, int, str] | None = None
        # The turn of the last ransom, as `ransom_sitting` counts turns (JCZ-TOWER-RANSOM-LIMITS).
        self.ransom_sitting = -1


def towers(state: GameState) -> Towers:
    found: Towers = ext(state, NAME)
    return found


Target = tuple[int, int, str, int, str]  # x, y, location, owner, figure


def targets(state: GameState, pos: Pos) -> list[Target]:
    """Followers the tower at `pos` reaches: in its row or column, no farther than its height,
    on any feature but a castle, or on top of another tower (R-TOWER-4)."""
    own = towers(state)
    height = own.heights[pos]
    board = state.board
    graph = board.graph
    found: list[Target] = []
    sealed = sealed_roots(state)
    for feature in graph.figured():
        if feature.id in sealed:
            continue
        for player, sid, figure in state.followers(feature):
            x, y = board.tiles[graph.segment_tile[sid]].pos
            if (x == pos[0] or y == pos[1]) and abs(x - pos[0]) + abs(y - pos[1]) <= height:
                found.append((x, y, board.tiles[graph.segment_tile[sid]].location(sid), player, figure))
    for (x, y), (player, figure) in own.guards.items():
        if (x == pos[0] or y == pos[1]) and abs(x - pos[0]) + abs(y - pos[1]) <= height:
            found.append((x, y, ON_TOWER, player, figure))
    return sorted(found)


def _before_a_turn(state: GameState, step: str) -> bool:
    """Whether `step` is asked before a turn begins (an abbey offered before a turn, or at the
    game's end), so belongs to the turn to come."""
    return any(part.asks_before_turn(state, step) for part in state.hooks["asks_before_turn"])


def _in_action(state: GameState, step: str) -> bool:
    """Whether `step` is a part's step within the turn's action (a knight the princess owes)."""
    return any(step in part.action_steps for part in state.parts)


def ransom_sitting(state: GameState, step: str) -> int:
    """The turn a ransom paid now, at `step`, falls in, for JCloisterZone's one a turn:
    `state.sitting` (a builder's second part goes on its turn, a bazaar tile's part is a turn of
    its own), but an abbey offered before a turn, or at the game's end, already belongs to the
    turn to come."""
    if _before_a_turn(state, step):
        return state.part_count + 1
    return state.sitting


def _ransom_refused(state: GameState, payer: int, step: str) -> str | None:
    """Why `payer` may pay no ransom now, under JCZ-TOWER-RANSOM-LIMITS (JCloisterZone: one
    ransom a turn, whoever pays it, and none with a score below the ransom); None when they may."""
    if not _settings(state).ransom_limited:
        return None
    if towers(state).ransom_sitting == ransom_sitting(state, step):
        return "a ransom was paid in this turn already"
    score = state.scores[payer]
    if state.pile_left > 0 and _before_a_turn(state, step):
        # JCloisterZone opens the turn with what it gives as a turn opens (the fairy's point),
        # then asks what it asks before the turn (the abbey).
        score += sum(part.turn_points(state, payer) for part in state.hooks["turn_points"])
    if score < RANSOM:
        return f"a score of {score} cannot pay a ransom of {RANSOM}"
    return None


def _exchangeable(own: Towers, capturer: int, owner: int) -> list[str]:
    """Kinds of the capturer's followers the captured follower's owner holds (R-TOWER-6)."""
    return sorted({figure for held, figure in own.prisoners[owner] if held == capturer})


def _ransoms(state: GameState, me: int, step: str) -> list[Command]:
    """Every ransom `me` may pay at `step`: each jailer, each kind of follower of theirs held."""
    if _ransom_refused(state, me, step) is not None:
        return []
    return [
        PayRansom(jailer=jailer, figure=figure)
        for jailer, held in enumerate(towers(state).prisoners)
        for figure in sorted({f for owner, f in held if owner == me})
    ]


class TowerOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    ransom_alone: bool = True
    """A ransom may be paid in the turn's action step even when nothing else can be done there
    (R-TOWER-7); JCloisterZone offers it only beside another action (JCZ-TOWER-RANSOM)."""

    ransom_limited: bool = False
    """JCZ-TOWER-RANSOM-LIMITS: at most one ransom a turn (a builder's second part included), and
    none by a player whose score is below the ransom; R-TOWER-7 sets neither limit."""

    ransom_any_step: bool = False
    """JCZ-RANSOM-ANY-STEP: a ransom may be paid by the player asked for any decision (a tile to
    place, an abbey, a dragon step, a bid…), in their turn or another's, the decision staying
    open; R-TOWER-7 lets it be paid during the turn's action only."""


def _settings(state: GameState) -> TowerOptions:
    found: TowerOptions = part_options(state, NAME)
    return found


class TowerPart(Part):
    name = NAME
    rank = 20
    options = TowerOptions
    switches = {
        "JCZ-TOWER-RANSOM": "ransom_alone",
        "JCZ-TOWER-RANSOM-LIMITS": "ransom_limited",
        "JCZ-RANSOM-ANY-STEP": "ransom_any_step",
    }
    events = (TowerPiecePlaced, FollowerCaptured, PrisonersExchanged, TowerGuarded, RansomPaid)
    commands = (PlaceTowerPiece, CaptureFollower, GuardTower, PayRansom, ExchangePrisoner)
    steps = {"capture": "R-TOWER-4", "exchange": "R-TOWER-6"}
    step_names = {"capture": "a capture or a pass", "exchange": "the prisoner to exchange"}
    pass_steps = {"capture": "capture"}
    command_steps = {
        PlaceTowerPiece: (("action",), "R-TOWER-3"),
        GuardTower: (("action",), "R-TOWER-8"),
        # While V-PRINCESS-MUST's knight is owed the turn's action goes on (JCloisterZone's action
        # phase): a ransom may be paid then too.
        PayRansom: (("action",), "R-TOWER-7"),
        CaptureFollower: (("capture",), "R-TOWER-4"),
        ExchangePrisoner: (("exchange",), "R-TOWER-6"),
    }
    command_names = {
        PlaceTowerPiece: "place a tower piece",
        GuardTower: "put a follower on a tower",
        PayRansom: "pay a ransom",
        CaptureFollower: "capture a follower",
        ExchangePrisoner: "choose the prisoner to exchange",
    }
    rules_of = {
        TowerPiecePlaced: "R-TOWER-3",
        FollowerCaptured: "R-TOWER-4",
        PrisonersExchanged: "R-TOWER-6",
        TowerGuarded: "R-TOWER-8",
        RansomPaid: "R-TOWER-7",
    }
    decisions = {
        TowerPiecePlaced: (lambda e: (e.player, PlaceTowerPiece(x=e.x, y=e.y)), "R-TOWER-3"),
        FollowerCaptured: (
            lambda e: (
                e.player,
                CaptureFollower(x=e.x, y=e.y, location=e.location, owner=e.owner, figure=e.figure),
            ),
            "R-TOWER-4",
        ),
        TowerGuarded: (lambda e: (e.player, GuardTower(x=e.x, y=e.y, figure=e.figure)), "R-TOWER-8"),
        RansomPaid: (lambda e: (e.player, PayRansom(jailer=e.jailer, figure=e.figure)), "R-TOWER-7"),
        # Only when the capturer chose; with one kind held it is one more event of the capture.
        PrisonersExchanged: (lambda e: (e.player, ExchangePrisoner(figure=e.figure)), "R-TOWER-6"),
    }

    mark_styles = {
        "tower": MarkStyle(shape=Shape(tag="circle", r=10, fill="#666", stroke="#222", stroke_width=None)),
        "guard": MarkStyle(at=(0.5 + 10 / 64, 0.5 - 10 / 64)),  # beside the tower's top, not hiding it
    }

    def figures_off(self, state: GameState) -> list[Standing]:
        """The followers on towers' tops (R-TOWER-8)."""
        return [(x, y, ON_TOWER, owner, kind) for (x, y), (owner, kind) in towers(state).guards.items()]

    def take_off(self, state: GameState, x: int, y: int, location: str) -> None:
        """A follower taken off a tower's top: the tower is open again (R-TOWER-8)."""
        del towers(state).guards[(x, y)]

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[NAME] = Towers(len(event.players))

    def view(self, state: GameState) -> PartView:
        """Each tower a disc with its height (a digit on the text board, ``T`` once closed) and the
        follower on top of a closed one; the pieces left and the prisoners each player holds."""
        own = towers(state)
        marks = []
        for (x, y), height in own.heights.items():
            guard = own.guards.get((x, y))
            text = "T" if guard is not None else str(min(height, 9))
            marks.append(
                Mark(
                    kind=MarkKind.DISC,
                    style="tower",
                    x=x,
                    y=y,
                    label=str(height),
                    closed=guard is not None,
                    text=text,
                )
            )
            if guard is not None:
                owner, figure = guard
                marks.append(
                    Mark(
                        kind=MarkKind.FIGURE,
                        style="guard",
                        x=x,
                        y=y,
                        location=ON_TOWER,
                        owners=(owner,),
                        figure=figure,
                    )
                )
        return PartView(
            marks=tuple(marks),
            supplies=(
                Supply("tower pieces", tuple(own.pieces)),
                Supply("prisoners", tuple(len(held) for held in own.prisoners)),
            ),
        )

    def begin_part(self, state: GameState) -> None:
        towers(state).capture_at = None

    def tile_placed(self, state: GameState, placed: object) -> None:
        tile = state.placed
        assert tile is not None
        if TAG in tile.tile.tags:
            towers(state).heights[tile.pos] = 0

    def action_commands(self, state: GameState) -> list[Command]:
        own = towers(state)
        me = state.current
        found: list[Command] = []
        open_towers = [pos for pos in own.heights if pos not in own.guards]
        if own.pieces[me] > 0:
            found += [PlaceTowerPiece(x=x, y=y) for x, y in open_towers]  # R-TOWER-3
        for figure in self._follower_kinds(state):
            found += [GuardTower(x=x, y=y, figure=figure) for x, y in open_towers if own.heights[(x, y)] > 0]
        if _settings(state).ransom_alone or found or legal_deployments(state):
            # JCZ-TOWER-RANSOM: JCloisterZone skips a turn's action step when nothing else is
            # offered there, a ransom notwithstanding.
            found += _ransoms(state, me, "action")
        return found

    def places_from_afar(self, state: GameState, figure: str, pos: Pos) -> list[str]:
        """The top of an open tower with a piece, for a follower or the large one brought from
        another tile (R-TOWER-8)."""
        own = towers(state)
        if figure in state.tables.plain and own.heights.get(pos, 0) > 0 and pos not in own.guards:
            return [ON_TOWER]
        return []

    def put_from_afar(self, state: GameState, player: int, pos: Pos, location: str, figure: str) -> bool:
        """A follower brought from another tile closes the tower it lands on (R-TOWER-8)."""
        if location != ON_TOWER:
            return False
        self._guard(state, player, pos, figure)
        return True

    @staticmethod
    def _guard(state: GameState, player: int, pos: Pos, figure: str) -> None:
        towers(state).guards[pos] = (player, figure)
        if figure == "follower":
            state.supply[player] -= 1
        else:
            state.ext["figures"][figure][player] -= 1

    def step_commands(self, state: GameState, step: str) -> list[Command]:
        if not (_settings(state).ransom_any_step or _in_action(state, step)):
            return []
        due = expected_step(state)
        return [] if due is None else _ransoms(state, due.player, step)

    def answers_any_step(self, state: GameState, command: Command) -> bool:
        if not isinstance(command, PayRansom):
            return False
        if _settings(state).ransom_any_step:  # JCZ-RANSOM-ANY-STEP
            return True
        due = expected_step(state)  # R-TOWER-7: during the action, a step within it included
        return due is not None and _in_action(state, due.step)

    @staticmethod
    def _follower_kinds(state: GameState) -> list[str]:
        """Followers the current player may put on a tower: the follower, or one that may stand
        wherever it may (the large one, the ringmaster), not the mayor or the wagon (R-TOWER-8)."""
        me = state.current
        figures = state.ext["figures"]
        return [
            kind
            for kind in state.tables.plain
            if (state.supply[me] if kind == "follower" else figures[kind][me]) > 0
        ]

    def pending(self, state: GameState) -> Decision | None:
        if state.phase != Phase.ACTION_DONE:
            return None
        own = towers(state)
        if own.exchange is not None:
            return Decision("exchange", own.exchange[0])
        if own.capture_at is not None and targets(state, own.capture_at):
            return Decision("capture", state.current)
        return None

    def passed(self, state: GameState, step: str) -> None:
        towers(state).capture_at = None

    def apply(self, state: GameState, event: Event) -> None:
        own = towers(state)
        if isinstance(event, TowerPiecePlaced):
            pos = (event.x, event.y)
            own.heights[pos] += 1
            own.pieces[event.player] -= 1
            own.capture_at = pos
            state.phase = Phase.ACTION_DONE
        elif isinstance(event, TowerGuarded):
            self._guard(state, event.player, (event.x, event.y), event.figure)
            state.phase = Phase.ACTION_DONE
        elif isinstance(event, FollowerCaptured):
            own.capture_at = None
            self._capture(state, event)
            if event.owner != event.player and len(_exchangeable(own, event.player, event.owner)) > 1:
                own.exchange = (event.player, event.owner, event.figure)  # the capturer chooses
        elif isinstance(event, PrisonersExchanged):
            own.exchange = None
            own.prisoners[event.player].remove((event.other, event.other_figure))
            own.prisoners[event.other].remove((event.player, event.figure))
            to_supply(state, event.other, event.other_figure)
            to_supply(state, event.player, event.figure)
        else:
            assert isinstance(event, RansomPaid)
            due = expected_step(state)  # the step it was paid at: the state is still the one before
            own.ransom_sitting = ransom_sitting(state, "" if due is None else due.step)
            own.prisoners[event.jailer].remove((event.player, event.figure))
            to_supply(state, event.player, event.figure)
            version = event.originator_version
            credit(state, event.player, -RANSOM, "ransom", "R-TOWER-7", (("ransom", RANSOM),), -1, version)
            credit(state, event.jailer, RANSOM, "ransom", "R-TOWER-7", (("ransom", RANSOM),), -1, version)

    @staticmethod
    def _capture(state: GameState, event: FollowerCaptured) -> None:
        own = towers(state)
        pos = (event.x, event.y)
        if event.location == ON_TOWER:
            del own.guards[pos]
        else:
            lift_figure(state, event.x, event.y, event.location, event.owner, event.figure)
        if event.owner == event.player:  # one's own follower goes home (R-TOWER-5)
            to_supply(state, event.owner, event.figure)
        else:
            own.prisoners[event.player].append((event.owner, event.figure))

    def final_scoring(self, state: GameState, version: int) -> None:
        """Followers on towers and prisoners score nothing; those on towers go home (R-TOWER-9)."""
        own = towers(state)
        for player, figure in own.guards.values():
            to_supply(state, player, figure)
        own.guards = {}

    def decide(self, state: GameState, player: int, command: Command, step: str) -> list[Event]:
        own = towers(state)
        gid, version = state.id, state.version + 1
        if isinstance(command, PlaceTowerPiece):
            pos = (command.x, command.y)
            if own.pieces[player] == 0:
                raise RuleViolation("R-TOWER-2", "no tower piece left in supply")
            if pos not in own.heights:
                raise RuleViolation("R-TOWER-3", f"there is no tower at {pos}")
            if pos in own.guards:
                raise RuleViolation("R-TOWER-8", f"the tower at {pos} is closed by a follower")
            return [
                TowerPiecePlaced(
                    originator_id=gid, originator_version=version, player=player, x=pos[0], y=pos[1]
                )
            ]
        if isinstance(command, GuardTower):
            pos = (command.x, command.y)
            if command.figure not in self._follower_kinds(state):
                raise RuleViolation("R-TOWER-8", f"no {command.figure} in supply to put on a tower")
            if own.heights.get(pos, 0) == 0 or pos in own.guards:
                raise RuleViolation("R-TOWER-8", f"no open tower with a piece at {pos}")
            return [
                TowerGuarded(
                    originator_id=gid,
                    originator_version=version,
                    player=player,
                    x=pos[0],
                    y=pos[1],
                    figure=command.figure,
                )
            ]
        if isinstance(command, PayRansom):
            jailer = command.jailer
            if not 0 <= jailer < len(own.prisoners) or (player, command.figure) not in own.prisoners[jailer]:
                raise RuleViolation("R-TOWER-7", f"seat {command.jailer} holds no {command.figure} of yours")
            refused = _ransom_refused(state, player, step)
            if refused is not None:
                raise RuleViolation("JCZ-TOWER-RANSOM-LIMITS", refused)
            return [
                RansomPaid(
                    originator_id=gid,
                    originator_version=version,
                    player=player,
                    jailer=command.jailer,
                    figure=command.figure,
                )
            ]
        if isinstance(command, ExchangePrisoner):
            assert own.exchange is not None
            _, owner, taken = own.exchange
            kinds = _exchangeable(own, player, owner)
            if command.figure not in kinds:
                raise RuleViolation(
                    "R-TOWER-6",
                    f"seat {owner} holds no {command.figure} of yours; choose one of {', '.join(kinds)}",
                )
            return [
                PrisonersExchanged(
                    originator_id=gid,
                    originator_version=version,
                    player=player,
                    figure=command.figure,
                    other=owner,
                    other_figure=taken,
                )
            ]
        assert isinstance(command, CaptureFollower)
        assert own.capture_at is not None
        wanted = (command.x, command.y, command.location, command.owner, command.figure)
        if wanted not in targets(state, own.capture_at):
            raise RuleViolation(
                "R-TOWER-4",
                f"no {command.figure} of seat {command.owner} at {command.location} of "
                f"{(command.x, command.y)} within the tower's reach",
            )
        captured = FollowerCaptured(
            originator_id=gid,
            originator_version=version,
            player=player,
            x=command.x,
            y=command.y,
            location=command.location,
            owner=command.owner,
            figure=command.figure,
        )
        kinds = _exchangeable(own, player, command.owner) if command.owner != player else []
        if len(kinds) != 1:
            return [captured]  # none to exchange, or several kinds: the capturer chooses which
        # Prisoners of the capturer held by the other player, all of one kind: swapped at once
        # (R-TOWER-6).
        return [
            captured,
            PrisonersExchanged(
                originator_id=gid,
                originator_version=version + 1,
                player=player,
                figure=kinds[0],
                other=command.owner,
                other_figure=command.figure,
            ),
        ]

    def command_options(self, state: GameState, step: str) -> list[Command]:
        own = towers(state)
        if step == "exchange":
            assert own.exchange is not None
            capturer, owner, _ = own.exchange
            return [ExchangePrisoner(figure=figure) for figure in _exchangeable(own, capturer, owner)]
        assert own.capture_at is not None
        return [
            CaptureFollower(x=x, y=y, location=location, owner=owner, figure=figure)
            for x, y, location, owner, figure in targets(state, own.capture_at)
        ]


PART = TowerPart()
PARTS = (PART,)
