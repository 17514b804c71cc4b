"""The dragon (Princess & Dragon, R-PD-2..4): it lands on each volcano placed and, when a dragon tile
is placed, moves six steps, the players moving it in turn, eating the figures where it goes.

It moves once the turn's action is decided, before castles and scoring; under
V-DRAGON-AFTER-SCORING it moves once the turn part has scored and its wagons have moved, before
whatever comes next (a builder's second tile, a bazaar).
"""

from __future__ import annotations

from typing import Final, cast

from domain import events as ev
from domain.commands import Command
from domain.errors import RuleViolation
from domain.events import Event
from domain.geometry import EDGE_OFFSETS, Pos
from domain.moves import Decision
from domain.part import Part, ext, part_options
from domain.rules import Options, RuleSet
from domain.state import GameState, Phase, followers_gone, to_supply
from domain.tiles import TILES
from domain.view import NOTHING_SHOWN, Mark, MarkKind, MarkStyle, PartView, Shape

NAME: Final = "dragon"
VOLCANO: Final = "volcano"  # tile tags
TRIGGER: Final = "dragon"
STEPS: Final = 6  # R-PD-4
# Figures the dragon leaves alone (R-PD-4): barns; followers in a castle stay too.
_INEDIBLE: Final = frozenset({"barn"})


class DragonMoved(Event, frozen=True, kw_only=True):
    """One step of the dragon, onto the tile at (x, y), decided by `player` (R-PD-4)."""

    player: int
    x: int
    y: int


class MoveDragon(Command, frozen=True, kw_only=True):
    x: int
    y: int


class Dragon:
    __slots__ = ("at", "moving", "visited")

    def __init__(self) -> None:
        self.at: Pos | None = None  # where the dragon is, once a volcano lies on the board
        self.moving = False  # a dragon tile was placed in this turn part
        self.visited: list[Pos] = []  # the squares it left in this move


def dragon(state: GameState) -> Dragon:
    found: Dragon = ext(state, NAME)
    return found


def steps(state: GameState) -> list[Pos]:
    """Where the dragon may step now: a placed tile beside it, not visited in this move, not the
    fairy's (R-PD-4)."""
    own = dragon(state)
    if not own.moving or own.at is None or len(own.visited) >= STEPS:
        return []
    fairy_at = state.ext["fairy"].at if state.has("fairy") else None
    found = []
    for dx, dy in EDGE_OFFSETS:
        pos = (own.at[0] + dx, own.at[1] + dy)
        if pos in state.board.at and pos not in own.visited and pos != fairy_at:
            found.append(pos)
    return sorted(found)


def _eat(state: GameState, pos: Pos) -> None:
    """Every figure deployed on the tile at `pos` goes home, but barns and castles' knights (R-PD-4)."""
    board = state.board
    graph = board.graph
    castles = state.ext["castles"].roots if state.has("castles") else set()
    placed = board.at[pos]
    touched = []
    for _, sid, _ in placed.locations():
        feature = graph.feature(sid)
        if feature.id in castles:
            continue
        eaten = [
            f for f in feature.figures if graph.segment_tile[f[1]] == placed.index and f[2] not in _INEDIBLE
        ]
        if eaten:
            feature.figures = [f for f in feature.figures if f not in eaten]
            for player, _, kind in eaten:
                to_supply(state, player, kind)
            touched.append(feature)
    for feature in touched:
        followers_gone(state, feature)
    if state.has("tower"):
        guard = state.ext["tower"].guards.pop(pos, None)
        if guard is not None:
            to_supply(state, *guard)


class DragonOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    dragon_after_scoring: bool = False
    """V-DRAGON-AFTER-SCORING: the dragon moves once the turn part's features scored (and its
    wagons moved), not before castles and scoring (R-PD-4); JCloisterZone's `dragon-move` =
    after-scoring."""


def _settings(state: GameState) -> DragonOptions:
    found: DragonOptions = part_options(state, NAME)
    return found


class DragonPart(Part):
    name = NAME
    rank = 30
    options = DragonOptions
    switches = {"V-DRAGON-AFTER-SCORING": "dragon_after_scoring"}
    yields_to = ("wagon",)  # after scoring, the scored features' wagons move first (JCloisterZone's order)
    events = (DragonMoved,)
    commands = (MoveDragon,)
    steps = {"dragon": "R-PD-4"}
    step_names = {"dragon": "a step of the dragon"}
    command_steps = {MoveDragon: (("dragon",), "R-PD-4")}
    command_names = {MoveDragon: "move the dragon"}
    rules_of = {DragonMoved: "R-PD-4"}
    decisions = {DragonMoved: (lambda e: (e.player, MoveDragon(x=e.x, y=e.y)), "R-PD-4")}

    mark_styles = {
        "dragon": MarkStyle(
            shape=Shape(tag="circle", r=8, fill="#b22222", stroke="#000", stroke_width=None), at=(0.8, 0.2)
        )
    }

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[NAME] = Dragon()

    def view(self, state: GameState) -> PartView:
        """The dragon, ``D`` on the text board, once a volcano brought it."""
        at = dragon(state).at
        if at is None:
            return NOTHING_SHOWN
        return PartView(marks=(Mark(kind=MarkKind.TOKEN, style="dragon", x=at[0], y=at[1], text="D"),))

    def held_back(self, state: GameState, tile: str) -> bool:
        """A dragon tile while no volcano is on the board (R-PD-2): one may still be waiting in a
        bazaar's supply, or have been discarded, when the pile reaches the tiles after it."""
        return dragon(state).at is None and TRIGGER in TILES[tile].tags

    def arrange(self, pile: list[str]) -> None:
        """A dragon tile drawn before any volcano goes back (R-PD-2): in a shuffled pile, the dragon
        tiles ahead of the first volcano move to just after it."""
        first = next((i for i, t in enumerate(pile) if VOLCANO in TILES[t].tags), None)
        if first is None:
            return
        early = [t for t in pile[:first] if TRIGGER in TILES[t].tags]
        rest = [t for t in pile[:first] if TRIGGER not in TILES[t].tags]
        pile[: first + 1] = [*rest, pile[first], *early]

    def begin_part(self, state: GameState) -> None:
        own = dragon(state)
        own.moving = False
        own.visited = []

    def tile_placed(self, state: GameState, placed: object) -> None:
        tile = state.placed
        assert tile is not None
        own = dragon(state)
        if VOLCANO in tile.tile.tags:
            own.at = tile.pos  # R-PD-3
        elif TRIGGER in tile.tile.tags and own.at is not None:
            own.moving = True

    def blocks_deployment(self, state: GameState) -> bool:
        """No figure goes on the dragon's tile (R-PD-3)."""
        placed = state.placed
        return placed is not None and dragon(state).at == placed.pos

    def blocks_deployment_at(self, state: GameState, pos: Pos) -> bool:
        """Nor does a figure brought from another tile go on the dragon's (R-PD-3)."""
        return dragon(state).at == pos

    def pending(self, state: GameState) -> Decision | None:
        after = _settings(state).dragon_after_scoring
        # Before scoring, the dragon moves once the action is done, or at once when the player had
        # nothing to do in it (the action step skipped, as JCloisterZone does).
        phases = (Phase.PART_OVER,) if after else (Phase.ACTION, Phase.ACTION_DONE)
        if state.phase not in phases or not steps(state):
            return None
        mover = (state.current + len(dragon(state).visited)) % len(state.players)
        return Decision("dragon", mover)

    def command_options(self, state: GameState, step: str) -> list[Command]:
        return [MoveDragon(x=x, y=y) for x, y in steps(state)]

    def rule_of(self, event: Event, rules: RuleSet) -> str:
        after = cast(DragonOptions, self.options_of(rules)).dragon_after_scoring
        return "V-DRAGON-AFTER-SCORING" if after else "R-PD-4"

    def decide(self, state: GameState, player: int, command: Command, step: str) -> list[Event]:
        assert isinstance(command, MoveDragon)
        if (command.x, command.y) not in steps(state):
            raise RuleViolation(
                "R-PD-4",
                f"the dragon cannot step to {(command.x, command.y)}: it goes to a placed tile beside it, "
                "not back where it was in this move, nor onto the fairy",
            )
        return [
            DragonMoved(
                originator_id=state.id,
                originator_version=state.version + 1,
                player=player,
                x=command.x,
                y=command.y,
            )
        ]

    def apply(self, state: GameState, event: Event) -> None:
        assert isinstance(event, DragonMoved)
        own = dragon(state)
        assert own.at is not None
        own.visited.append(own.at)
        own.at = (event.x, event.y)
        if state.phase == Phase.ACTION:  # the player had nothing to do: that step is over for good
            state.phase = Phase.ACTION_DONE
        _eat(state, own.at)


PART = DragonPart()
PARTS = (PART,)
