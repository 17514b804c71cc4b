"""`decide`: a player's command checked against the state, giving one event or a RuleViolation.

All checks live here; `evolve` trusts what this returns.
"""

from __future__ import annotations

from domain import events as ev
from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.geometry import EDGE_NAMES, EDGE_OFFSETS, ROTATIONS, opposite
from domain.moves import legal_deployments
from domain.state import GameState, Phase
from domain.tiles import TILES, Kind, TileType

_EDGE_KIND_NAMES = {1: "city", 2: "road", 3: "field"}
_EXPECTED = {
    Phase.PLACE: "a tile placement",
    Phase.ACTION: "a deployment or a pass",
}


def decide(state: GameState, player: int, command: Command) -> ev.Event:
    _check_turn(state, player)
    if isinstance(command, PlaceTile):
        return _place(state, player, command)
    if isinstance(command, Deploy):
        return _deploy(state, player, command)
    if isinstance(command, Pass):
        _expect(state, Phase.ACTION, "pass")
        return ev.Passed(
            originator_id=state.id,
            originator_version=state.version + 1,
            player=player,
            step="deploy",
        )
    raise RuleViolation("R-BASE-3", f"unknown command {type(command).__name__}")


def _check_turn(state: GameState, player: int) -> None:
    if state.phase == Phase.OVER:
        raise RuleViolation("R-BASE-8", "the game is over")
    if not 0 <= player < len(state.players):
        raise RuleViolation("R-BASE-1", f"there is no seat {player} in a {len(state.players)}-player game")
    if player != state.current:
        raise RuleViolation(
            "R-BASE-3",
            f"it is {state.players[state.current]}'s turn, not {state.players[player]}'s",
        )


def _expect(state: GameState, phase: Phase, what: str) -> None:
    if state.phase != phase:
        expected = _EXPECTED.get(state.phase, "no move from a player")
        raise RuleViolation("R-BASE-3", f"cannot {what} now: the game expects {expected}")


def _place(state: GameState, player: int, command: PlaceTile) -> ev.Event:
    _expect(state, Phase.PLACE, "place a tile")
    held = state.tile
    assert held is not None
    if command.tile is not None and command.tile != held.id:
        if command.tile not in TILES:
            raise RuleViolation("R-BASE-3", f"unknown tile id {command.tile!r}")
        raise RuleViolation("R-BASE-3", f"the tile drawn is {held.id}, not {command.tile}")
    if command.rotation not in ROTATIONS:
        raise RuleViolation("R-BASE-3", f"rotation must be 0, 90, 180 or 270, not {command.rotation}")
    pos = (command.x, command.y)
    board = state.board
    if pos in board.at:
        raise RuleViolation("R-BASE-3", f"position {pos} is already occupied")
    if pos not in board.open:
        raise RuleViolation("R-BASE-3", f"position {pos} touches no placed tile")
    if command.rotation not in board.rotations_at(held, pos):
        raise RuleViolation("R-BASE-3", _mismatch(state, held, pos, command.rotation))
    return ev.TilePlaced(
        originator_id=state.id,
        originator_version=state.version + 1,
        player=player,
        tile=held.id,
        x=command.x,
        y=command.y,
        rotation=command.rotation,
    )


def _mismatch(state: GameState, held: TileType, pos: tuple[int, int], rotation: int) -> str:
    codes = held.orientation(rotation).edge_codes
    for edge in range(4):
        dx, dy = EDGE_OFFSETS[edge]
        other = state.board.at.get((pos[0] + dx, pos[1] + dy))
        if other is None:
            continue
        theirs = other.orientation.edge_codes[opposite(edge)]
        if theirs != codes[edge]:
            return (
                f"{held.id} at {pos} rotated {rotation}: its {EDGE_NAMES[edge]} edge is "
                f"{_EDGE_KIND_NAMES[codes[edge]]} but the neighbour shows "
                f"{_EDGE_KIND_NAMES[theirs]}"
            )
    return f"{held.id} does not fit at {pos} rotated {rotation}"


def _deploy(state: GameState, player: int, command: Deploy) -> ev.Event:
    _expect(state, Phase.ACTION, "deploy")
    placed = state.placed
    assert placed is not None
    if state.supply[player] == 0:
        raise RuleViolation("R-BASE-4", "no follower left in supply")
    names = placed.orientation.names
    if command.location not in placed.orientation.by_name:
        raise RuleViolation(
            "R-BASE-4",
            f"{placed.tile.id} at {placed.pos} has no location {command.location!r}; "
            f"it has {', '.join(names)}",
        )
    if command.location not in legal_deployments(state):
        index = placed.orientation.by_name[command.location]
        if placed.tile.segments[index].kind == Kind.FIELD and not state.rules.farmers:
            raise RuleViolation("R-BASE-4", "this game is played without farmers")
        raise RuleViolation("R-BASE-4", f"the feature at {command.location} already holds a follower")
    return ev.FollowerDeployed(
        originator_id=state.id,
        originator_version=state.version + 1,
        player=player,
        x=placed.pos[0],
        y=placed.pos[1],
        location=command.location,
    )
