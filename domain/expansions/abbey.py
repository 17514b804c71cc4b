"""The abbey (Abbey & Mayor, R-AM-1..3): each player's abbey tile, placed instead of drawing into a
hole of the board, its edges matching anything and closing what meets them; at the game's end
those who still hold theirs may place it. As in JCloisterZone, it is also offered at the start of a
builder's second part, instead of the builder's tile (JCZ-ABBEY-BUILDER).
"""

from __future__ import annotations

from typing import Final

from domain import events as ev
from domain.commands import Command
from domain.errors import RuleViolation
from domain.events import Event
from domain.geometry import ROTATIONS, Pos
from domain.moves import Decision, placement_refusal
from domain.part import Part, ext, part_options
from domain.rules import Options
from domain.state import FINAL_PART, GameState, Phase, begin_part, begin_turn
from domain.tiles import TILES, TileType
from domain.turns import first_live, queued_part

NAME: Final = "abbey"
TILE: Final = next(t.id for t in TILES.values() if "abbey" in t.tags)


class AbbeyPlayed(Event, frozen=True, kw_only=True):
    """The player places their abbey at (x, y) instead of drawing (R-AM-2); the placement follows."""

    player: int
    x: int
    y: int
    rotation: int


class PlaceAbbey(Command, frozen=True, kw_only=True):
    """Place one's abbey into the hole at (x, y) instead of drawing a tile (R-AM-2)."""

    x: int
    y: int
    rotation: int = 0


class Abbeys:
    __slots__ = ("asked", "asked_part", "final", "held", "last_asked")

    def __init__(self, players: int) -> None:
        self.held = [True] * players  # R-AM-1: one abbey each, in hand
        self.asked = -1  # the turn after which the next player declined their abbey
        self.asked_part = -1  # the turn part after which a builder's player declined theirs
        self.final: set[int] = set()  # players who decided at the game's end
        self.last_asked: int | None = None  # the last of them (JCZ-ABBEY-END-ROUNDS)


def abbeys(state: GameState) -> Abbeys:
    found: Abbeys = ext(state, NAME)
    return found


def holes(state: GameState) -> list[Pos]:
    """Empty squares with a placed tile on all four sides (R-AM-2)."""
    return sorted(state.board.surrounded)


def offers(state: GameState) -> list[tuple[int, int, int]]:
    """(x, y, rotation) where the abbey may go now: a hole (R-AM-2) where no part in play forbids
    the tile (another set's rule on placements, asked as for a drawn tile). Without any, the
    abbey is not offered."""
    found: list[tuple[int, int, int]] = state.memoized(
        "abbey offers",
        lambda: [
            (x, y, r)
            for x, y in holes(state)
            for r in ROTATIONS
            if placement_refusal(state, TILES[TILE], x, y, r) is None
        ],
    )
    return found


def _builder_offer(state: GameState) -> int | None:
    """The player whose builder's second part starts now, if their abbey is to be offered in it
    instead of the builder's tile: JCloisterZone starts that part as a turn, abbey first, even with
    the pile empty (JCZ-ABBEY-BUILDER)."""
    if state.phase != Phase.PART_OVER:
        return None
    queued = queued_part(state)
    if queued is None:
        return None
    due = queued[1]
    own = abbeys(state)
    if state.pile_left == 0 and own.final:
        return None  # the end's asking has begun: no builder's part comes back
    if own.asked_part != state.part_count and own.held[due.player] and offers(state):
        return due.player
    return None


def _next_to_decide(state: GameState) -> int | None:
    """Whose abbey decision is due before the next turn part (a builder's second part, a turn, or,
    the pile empty, the end)."""
    builder = _builder_offer(state)
    if builder is not None:
        return builder
    if state.phase not in (Phase.START, Phase.PART_OVER) or first_live(state) is not None:
        return None
    own = abbeys(state)
    n = len(state.players)
    if state.pile_left > 0:
        player = (state.turn_player + 1) % n
        if own.asked != state.turn and own.held[player] and offers(state):
            return player
        return None
    if not offers(state):
        return None
    if _settings(state).abbey_end_rounds:
        return _asked_again(state, own, n)
    for k in range(1, n + 1):  # from the player after the last turn's, round the table
        player = (state.turn_player + k) % n
        if player not in own.final and own.held[player]:
            return player
    return None


def offered_before_a_turn(state: GameState) -> bool:
    """With the abbey's step due (it is named after the part): whether the abbey is offered
    before a turn begins, or at the game's end, not at a builder's second part, which goes on
    its turn (JCZ-ABBEY-BUILDER)."""
    return _builder_offer(state) is None


def _asked_again(state: GameState, own: Abbeys, n: int) -> int | None:
    """JCZ-ABBEY-END-ROUNDS: from the player after the last one asked (at first, after the last
    turn's player) round the table, up to the last turn's player: passing them by ends the asking
    only when they hold no abbey."""
    end = state.turn_player
    start = end if own.last_asked is None else own.last_asked
    for k in range(1, n + 1):
        player = (start + k) % n
        if own.held[player]:
            return player
        if player == end:
            return None
    return None


class AbbeyOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    abbey_end_rounds: bool = False
    """JCZ-ABBEY-END-ROUNDS: at the game's end the asking goes on from the player after the last
    one asked and stops at the player of the last turn only when they hold no abbey: while they
    hold one, everyone holding one is asked again, round after round. Off: each holder is asked
    once (R-AM-2)."""


def _settings(state: GameState) -> AbbeyOptions:
    found: AbbeyOptions = part_options(state, NAME)
    return found


class AbbeyPart(Part):
    name = NAME
    rank = 190
    options = AbbeyOptions
    switches = {"JCZ-ABBEY-END-ROUNDS": "abbey_end_rounds"}
    events = (AbbeyPlayed,)
    commands = (PlaceAbbey,)
    steps = {"abbey": "R-AM-2"}
    step_names = {"abbey": "an abbey or a pass"}
    pass_steps = {"abbey": "abbey"}
    command_steps = {PlaceAbbey: (("abbey",), "R-AM-2")}
    command_names = {PlaceAbbey: "place an abbey"}
    rules_of = {AbbeyPlayed: "R-AM-2"}
    decisions = {AbbeyPlayed: (lambda e: (e.player, PlaceAbbey(x=e.x, y=e.y, rotation=e.rotation)), "R-AM-2")}

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[NAME] = Abbeys(len(event.players))

    def pending(self, state: GameState) -> Decision | None:
        player = _next_to_decide(state)
        return None if player is None else Decision("abbey", player)

    def passed(self, state: GameState, step: str) -> None:
        own = abbeys(state)
        if _builder_offer(state) is not None:
            own.asked_part = state.part_count  # the builder's tile follows (or, none left, the end)
        elif state.pile_left > 0:
            own.asked = state.turn
        else:
            player = _next_to_decide(state)
            assert player is not None
            own.final.add(player)
            own.last_asked = player

    def apply(self, state: GameState, event: Event) -> None:
        assert isinstance(event, AbbeyPlayed)
        own = abbeys(state)
        queued = queued_part(state) if _builder_offer(state) is not None else None
        own.held[event.player] = False
        if queued is not None:
            queued[0].begin_queued(state, queued[1], TILE, False)  # JCZ-ABBEY-BUILDER
        elif state.pile_left > 0:
            begin_turn(state, event.player, TILE, False)
        else:
            own.final.add(event.player)
            own.last_asked = event.player
            begin_part(state, event.player, FINAL_PART, TILE, False)

    def asks_before_turn(self, state: GameState, step: str) -> bool:
        return step == NAME and offered_before_a_turn(state)

    def may_refuse(self, state: GameState, held: TileType) -> bool:
        return held.id == TILE

    def refusal(
        self, state: GameState, held: TileType, x: int, y: int, rotation: int
    ) -> RuleViolation | None:
        if (x, y) in holes(state):
            return None
        return RuleViolation(
            "R-AM-2", f"an abbey goes into a hole, a square with tiles on all four sides; {(x, y)} is none"
        )

    def command_options(self, state: GameState, step: str) -> list[Command]:
        return [PlaceAbbey(x=x, y=y, rotation=r) for x, y, r in offers(state)]

    def decide(self, state: GameState, player: int, command: Command, step: str) -> list[Event]:
        assert isinstance(command, PlaceAbbey)
        pos = (command.x, command.y)
        if pos not in holes(state):
            raise RuleViolation(
                "R-AM-2", f"an abbey goes into a hole, a square with tiles on all four sides; {pos} is none"
            )
        if command.rotation not in ROTATIONS:
            raise RuleViolation("R-BASE-3", f"rotation must be 0, 90, 180 or 270, not {command.rotation}")
        refused = placement_refusal(state, TILES[TILE], command.x, command.y, command.rotation)
        if refused is not None:
            raise refused
        played = AbbeyPlayed(
            originator_id=state.id,
            originator_version=state.version + 1,
            player=player,
            x=command.x,
            y=command.y,
            rotation=command.rotation,
        )
        placed = ev.TilePlaced(
            originator_id=state.id,
            originator_version=state.version + 2,
            player=player,
            tile=TILE,
            x=command.x,
            y=command.y,
            rotation=command.rotation,
        )
        return [played, placed]


PART = AbbeyPart()
PARTS = (PART,)
