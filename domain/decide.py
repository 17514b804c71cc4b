"""`decide`: a player's command checked against the state, giving its events or a RuleViolation.

All checks live here and in the parts' `decide` hooks; `evolve` trusts what they return.
"""

from __future__ import annotations

from domain import events as ev
from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.expansions import PARTS
from domain.geometry import EDGE_NAMES, ROTATIONS, neighbour, opposite
from domain.moves import (
    closed_step,
    expected_step,
    figure_owner,
    legal_deployments,
    may_decline,
    placement_refusal,
    remote_deployments,
    step_owner,
)
from domain.part import Part
from domain.state import GameState, Phase
from domain.tiles import TILES, Kind, TileType

_EDGE_KIND_NAMES = {1: "city", 2: "road", 3: "field", 4: "water"}
_STEP_NAMES = {"place": "a tile placement", "action": "an action, a deployment or a pass"}
# The base game's commands: the steps each answers, and the rule behind the step.
_COMMAND_STEPS: dict[type[Command], tuple[tuple[str, ...], str]] = {
    PlaceTile: (("place",), "R-BASE-3"),
    Deploy: (("action",), "R-BASE-4"),
    Pass: (("place", "action"), "R-BASE-4"),
}
_COMMAND_NAMES: dict[type[Command], str] = {PlaceTile: "place a tile", Deploy: "deploy", Pass: "pass"}


def decide(state: GameState, player: int, command: Command) -> list[ev.Event]:
    step, owner = _check_turn(state, player, command)
    if owner is not None:
        return owner.decide(state, player, command, step)
    if isinstance(command, PlaceTile):
        return _place(state, player, command)
    if isinstance(command, Deploy):
        return [_deploy(state, player, command)]
    assert isinstance(command, Pass)
    if step == "place":
        return [_decline_tile(state, player)]
    recorded = "deploy" if step == "action" else step_owner(state, step).pass_steps[step]
    return [
        ev.Passed(originator_id=state.id, originator_version=state.version + 1, player=player, step=recorded)
    ]


def _command_owner(command: Command) -> Part | None:
    """The part whose command this is, in play or not (it then refuses it, naming its rule)."""
    return _COMMAND_OWNERS.get(type(command))


# Each command's part: the first in the registry's order that owns it (later entries win, so reversed).
_COMMAND_OWNERS: dict[type[Command], Part] = {
    command: part for part in reversed(PARTS) for command in part.command_steps
}


def _check_turn(state: GameState, player: int, command: Command) -> tuple[str, Part | None]:
    """The step the command answers, and the part that decides it (None: the base game)."""
    if state.phase == Phase.OVER:
        raise RuleViolation("R-BASE-8", "the game is over")
    if not 0 <= player < len(state.players):
        raise RuleViolation("R-BASE-1", f"there is no seat {player} in a {len(state.players)}-player game")
    owner = _command_owner(command)
    if owner is not None:
        steps, rule = owner.command_steps[type(command)]
        name = owner.command_names.get(type(command), type(command).__name__)
    elif type(command) in _COMMAND_STEPS:
        steps, rule = _COMMAND_STEPS[type(command)]
        name = _COMMAND_NAMES[type(command)]
        if isinstance(command, Pass):
            steps = steps + tuple(s for part in state.parts for s in part.pass_steps)
    else:
        raise RuleViolation("R-BASE-3", f"{type(command).__name__} is no command of this game")
    decision = expected_step(state)
    if decision is None:
        raise RuleViolation("R-BASE-3", "no decision is due: the game moves on by itself")
    if owner is not None and decision.player == player:
        owner.check_early(state, player, command, decision.step)
    if decision.step not in steps and not (
        owner is not None and not closed_step(state, decision.step) and owner.answers_any_step(state, command)
    ):
        expected = decision.step
        if expected in _STEP_NAMES:
            raise RuleViolation("R-BASE-3", f"cannot {name} now: the game expects {_STEP_NAMES[expected]}")
        asked = step_owner(state, expected)
        raise RuleViolation(
            asked.steps[expected], f"cannot {name} now: the game expects {asked.step_names[expected]}"
        )
    if player != decision.player:
        whose, other = state.players[decision.player], state.players[player]
        if decision.step in ("place", "action"):
            raise RuleViolation("R-BASE-3", f"it is {whose}'s turn, not {other}'s")
        raise RuleViolation(rule, f"it is {whose}'s decision, not {other}'s")
    if isinstance(command, Pass) and decision.step not in ("place", "action"):
        return decision.step, None
    return decision.step, owner


def _decline_tile(state: GameState, player: int) -> ev.Event:
    """Passing instead of placing: only a tile that fits nowhere by its edges alone may be
    declined, when a part offers another way to place it; it is discarded."""
    if not may_decline(state):
        raise RuleViolation("R-BASE-3", f"cannot pass now: the game expects {_STEP_NAMES['place']}")
    assert state.tile is not None
    return ev.TileDiscarded(
        originator_id=state.id, originator_version=state.version + 1, player=player, tile=state.tile.id
    )


def _place(state: GameState, player: int, command: PlaceTile) -> list[ev.Event]:
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
    placed = ev.TilePlaced(
        originator_id=state.id,
        originator_version=state.version + 1,
        player=player,
        tile=held.id,
        x=command.x,
        y=command.y,
        rotation=command.rotation,
    )
    fits = command.rotation in board.rotations_at(held, pos)
    refused = placement_refusal(state, held, command.x, command.y, command.rotation)
    if refused is not None:
        raise refused
    for part in state.hooks["place"]:
        events = part.place(state, player, command, placed, fits)
        if events is not None:
            return events
    if fits:
        return [placed]
    raise RuleViolation("R-BASE-3", _mismatch(state, held, pos, command.rotation))


def _mismatch(state: GameState, held: TileType, pos: tuple[int, int], rotation: int) -> str:
    codes = held.orientation(rotation).edge_codes
    for edge in range(4):
        other = state.board.at.get(neighbour(pos, edge))
        if other is None:
            continue
        theirs = other.edge_codes[opposite(edge)]
        if codes[edge] and theirs and theirs != codes[edge]:
            return (
                f"{held.id} at {pos} rotated {rotation}: its {EDGE_NAMES[edge]} edge is "
                f"{_EDGE_KIND_NAMES[codes[edge]]} but the neighbour shows "
                f"{_EDGE_KIND_NAMES[theirs]}"
            )
    return f"{held.id} does not fit at {pos} rotated {rotation}"


def _deploy(state: GameState, player: int, command: Deploy) -> ev.Event:
    placed = state.placed
    assert placed is not None
    figure = command.figure
    owner = None if figure == "follower" else figure_owner(state, figure)
    if figure != "follower" and owner is None:
        brought = next((part.figures[figure].rule for part in PARTS if figure in part.figures), "R-BASE-4")
        raise RuleViolation(brought, f"this game is played without {figure}s")
    rule = "R-BASE-4" if owner is None else owner.figures[figure].rule
    if owner is None and state.supply[player] == 0:
        raise RuleViolation(rule, "no follower left in supply")
    if owner is not None and state.ext["figures"][figure][player] == 0:
        raise RuleViolation(rule, f"no {figure} left in supply (it is on the board)")
    if command.x is not None and command.y is not None and (command.x, command.y) != placed.pos:
        if (command.x, command.y, command.location) not in remote_deployments(state, figure):
            raise RuleViolation(
                rule, f"no {figure} may go on {command.location} of {(command.x, command.y)} now"
            )
        return ev.FollowerDeployed(
            originator_id=state.id,
            originator_version=state.version + 1,
            player=player,
            x=command.x,
            y=command.y,
            location=command.location,
            figure=figure,
        )
    if command.location not in legal_deployments(state, figure):
        names = [name for name, _, _ in placed.locations()]
        if command.location not in names:
            raise RuleViolation(
                rule,
                f"{placed.tile.id} at {placed.pos} has no location {command.location!r}; "
                f"it has {', '.join(names)}",
            )
        if owner is not None:
            raise RuleViolation(rule, owner.why_not(state, figure, command.location))
        kind = next(k for name, _, k in placed.locations() if name == command.location)
        if kind == Kind.FIELD and not state.rules.farmers:
            raise RuleViolation(rule, "this game is played without farmers")
        raise RuleViolation(rule, f"the feature at {command.location} already holds a follower")
    return ev.FollowerDeployed(
        originator_id=state.id,
        originator_version=state.version + 1,
        player=player,
        x=placed.pos[0],
        y=placed.pos[1],
        location=command.location,
        figure=figure,
    )
