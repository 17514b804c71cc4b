"""The magic portal and the princess (Princess & Dragon, R-PD-6, R-PD-7): a tile with a portal lets
its player deploy a follower on any unfinished, unoccupied feature of the board; a tile with a
princess lets its player send a knight of the city it joins home instead of deploying (under
V-PRINCESS-MUST, obliges them to: that is then the only thing they may do with the tile).
"""

from __future__ import annotations

from typing import Final, cast

from domain import events as ev
from domain.commands import Command
from domain.errors import RuleViolation
from domain.events import Event
from domain.features import Feature
from domain.moves import Decision, sealed_roots, tile_blocked
from domain.part import Part, part_options
from domain.rules import Options, RuleSet
from domain.state import GameState, Phase, lift_figure, segment_location, to_supply
from domain.tiles import Kind

PORTAL: Final = "portal"  # tile tag
PRINCESS: Final = "princess"  # city flag
# Where each kind of follower may go through a portal (the large follower and plain ones anywhere).
_KINDS: Final = {
    "mayor": (Kind.CITY,),
    "wagon": (Kind.ROAD, Kind.CITY, Kind.CLOISTER),
}


def _open(state: GameState, feature: Feature) -> bool:
    if feature.kind == Kind.CLOISTER:
        pos = state.board.tiles[next(iter(feature.tiles))].pos
        return state.board.cloister_ring.get(pos) != 8
    return feature.kind == Kind.FIELD or feature.open > 0


class PortalPart(Part):
    name = "portal"
    rank = 40

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[self.name] = None

    def remote_deployments(self, state: GameState, figure: str) -> list[tuple[int, int, str]]:
        """Through a portal: any unfinished, unoccupied feature on another tile, the dragon's
        aside (R-PD-7)."""
        placed = state.placed
        if placed is None or PORTAL not in placed.tile.tags or figure not in state.tables.strength:
            return []
        if (state.supply if figure == "follower" else state.ext["figures"][figure])[state.current] == 0:
            return []
        kinds = _KINDS.get(figure, (Kind.ROAD, Kind.CITY, Kind.CLOISTER, Kind.FIELD))
        if not state.rules.farmers:
            kinds = tuple(k for k in kinds if k != Kind.FIELD)
        sealed = sealed_roots(state)
        graph = state.board.graph
        found = []
        for tile in state.board.tiles:
            if tile is placed or tile_blocked(state, tile.pos):
                continue
            for name, sid, kind in tile.locations():
                feature = graph.feature(sid)
                if (
                    kind in kinds
                    and feature.id not in sealed
                    and not state.occupied(feature)
                    and _open(state, feature)
                ):
                    found.append((tile.pos[0], tile.pos[1], name))
        return found


class KnightRemoved(Event, frozen=True, kw_only=True):
    """The princess sends `owner`'s knight at `location` of the tile at (x, y) home (R-PD-6)."""

    player: int
    x: int
    y: int
    location: str
    owner: int
    figure: str


class RemoveKnight(Command, frozen=True, kw_only=True):
    x: int
    y: int
    location: str
    owner: int
    figure: str = "follower"


def _knights(state: GameState) -> list[tuple[int, int, str, int, str]]:
    """Knights of the cities the princess of the tile just placed belongs to."""
    placed = state.placed
    if placed is None:
        return []
    graph = state.board.graph
    found = []
    for index, seg in enumerate(placed.tile.segments):
        if seg.kind == Kind.CITY and PRINCESS in seg.flags:
            for owner, sid, figure in state.followers(graph.feature(placed.base + index)):
                found.append((*segment_location(state.board, sid), owner, figure))
    return sorted(set(found))


def _removals(state: GameState) -> list[Command]:
    return [
        RemoveKnight(x=x, y=y, location=location, owner=owner, figure=figure)
        for x, y, location, owner, figure in _knights(state)
    ]


MUST: Final = "princess"  # the decision step V-PRINCESS-MUST makes of the princess


class Princess:
    __slots__ = ("owed",)

    def __init__(self) -> None:
        self.owed = False  # V-PRINCESS-MUST: the tile just placed obliges its player to remove a knight


class PrincessOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    princess_must: bool = False
    """V-PRINCESS-MUST: a princess tile whose city holds a knight obliges its player to send one
    home, instead of merely letting them (R-PD-6); JCloisterZone's `princess-action` = must."""


def _settings(state: GameState) -> PrincessOptions:
    found: PrincessOptions = part_options(state, "princess")
    return found


class PrincessPart(Part):
    name = "princess"
    rank = 50
    options = PrincessOptions
    switches = {"V-PRINCESS-MUST": "princess_must"}
    events = (KnightRemoved,)
    commands = (RemoveKnight,)
    steps = {MUST: "V-PRINCESS-MUST"}
    action_steps = (MUST,)
    step_names = {MUST: "a knight sent home by the princess"}
    command_steps = {RemoveKnight: (("action", MUST), "R-PD-6")}
    command_names = {RemoveKnight: "send a knight home"}
    rules_of = {KnightRemoved: "R-PD-6"}
    decisions = {
        KnightRemoved: (
            lambda e: (
                e.player,
                RemoveKnight(x=e.x, y=e.y, location=e.location, owner=e.owner, figure=e.figure),
            ),
            "R-PD-6",
        )
    }

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[self.name] = Princess()

    def begin_part(self, state: GameState) -> None:
        state.ext[self.name].owed = False

    def tile_placed(self, state: GameState, placed: object) -> None:
        """V-PRINCESS-MUST: with a knight to send home, the player may do nothing else with the
        tile: no deployment, no other action, no pass (JCloisterZone's `princess-action` = must)."""
        if _settings(state).princess_must and _knights(state):
            state.ext[self.name].owed = True
            state.phase = Phase.ACTION_DONE  # the action step is over: only this decision is left

    def pending(self, state: GameState) -> Decision | None:
        if state.phase == Phase.ACTION_DONE and state.ext[self.name].owed:
            return Decision(MUST, state.current)
        return None

    def command_options(self, state: GameState, step: str) -> list[Command]:
        return _removals(state)

    def rule_of(self, event: Event, rules: RuleSet) -> str:
        return "V-PRINCESS-MUST" if cast(PrincessOptions, self.options_of(rules)).princess_must else "R-PD-6"

    def action_commands(self, state: GameState) -> list[Command]:
        return _removals(state) if state.phase == Phase.ACTION else []

    def decide(self, state: GameState, player: int, command: Command, step: str) -> list[Event]:
        assert isinstance(command, RemoveKnight)
        wanted = (command.x, command.y, command.location, command.owner, command.figure)
        if wanted not in _knights(state):
            raise RuleViolation(
                "R-PD-6", "the princess sends home a knight of the city she joins, and no other"
            )
        return [
            KnightRemoved(
                originator_id=state.id,
                originator_version=state.version + 1,
                player=player,
                x=command.x,
                y=command.y,
                location=command.location,
                owner=command.owner,
                figure=command.figure,
            )
        ]

    def apply(self, state: GameState, event: Event) -> None:
        assert isinstance(event, KnightRemoved)
        lift_figure(state, event.x, event.y, event.location, event.owner, event.figure)
        to_supply(state, event.owner, event.figure)
        state.ext[self.name].owed = False
        state.phase = Phase.ACTION_DONE


PORTAL_PART = PortalPart()
PRINCESS_PART = PrincessPart()
PARTS = (PORTAL_PART, PRINCESS_PART)
