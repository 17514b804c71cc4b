"""JCloisterZone 5.x saved games (``.jcz``): reading them and replaying them through our engine.

A save holds the setup (sets, elements, start tile), the players and the message log the
client sent (PLACE_TILE, DEPLOY_MEEPLE, PASS, COMMIT, …). Positions use the same axes as ours
(x east, y south) and rotations are clockwise, so placements map one to one; feature locations
are translated to our board-oriented segment names.

Replaying drives a visitor, in the manner of python-chess's PGN reader: `on_placement` sees
each tile-placement decision before it is made, so callers can compare our legal placements
with what JCloisterZone offered.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from domain.aggregate import Game
from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.geometry import EDGE_BY_NAME, EDGE_NAMES, HALF_BY_NAME, HALF_NAMES
from domain.state import GameState, Phase

# JCloisterZone set ids -> our expansion codes.
SETS = {
    "basic": "base",
    "bridges-castles-and-bazaars": "bcb",
    "traders-and-builders": "tb",
}
# Half-edges: JCloisterZone names each edge's halves left/right as seen from the tile centre.
_HALVES = {"NL": "Nw", "NR": "Ne", "EL": "En", "ER": "Es", "SL": "Se", "SR": "Sw", "WL": "Ws", "WR": "Wn"}


class JczError(Exception):
    """A save we cannot read or replay; the message names the file and the message index."""


class JczPointer(msgspec.Struct, frozen=True):
    position: tuple[int, int]
    location: str
    feature: str


class JczMessage(msgspec.Struct, frozen=True):
    type: str
    payload: dict[str, Any] = {}
    player: int | None = None


class JczStart(msgspec.Struct, frozen=True):
    tile: str
    x: int
    y: int
    rotation: int


class JczSetup(msgspec.Struct, frozen=True):
    sets: dict[str, int]
    elements: dict[str, Any] = {}
    rules: dict[str, Any] = {}
    start: tuple[JczStart, ...] = ()


class JczPlayer(msgspec.Struct, frozen=True):
    name: str
    slot: int


class JczSave(msgspec.Struct, frozen=True):
    setup: JczSetup
    players: tuple[JczPlayer, ...]
    replay: tuple[JczMessage, ...]
    appVersion: str = ""
    initialRandom: float | None = None
    gameAnnotations: dict[str, Any] | None = None
    test: dict[str, Any] | None = None
    oracle: dict[str, Any] | None = None


def read_jcz(path: str | Path) -> JczSave:
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise JczError(f"{path}: cannot read: {e.strerror}") from e
    try:
        return msgspec.json.decode(data, type=JczSave)
    except msgspec.DecodeError as e:
        raise JczError(f"{path}: not a JCloisterZone 5.x save: {e}") from e


def expansions_of(save: JczSave) -> tuple[str, ...]:
    unsupported = sorted(name for name in save.setup.sets if name.split(":")[0] not in SETS)
    if unsupported:
        raise JczError(f"uses tile sets this engine does not support: {', '.join(unsupported)}")
    return tuple(SETS[name.split(":")[0]] for name in save.setup.sets)


def draw_order(save: JczSave) -> list[str]:
    annotations = save.gameAnnotations or {}
    order = annotations.get("drawOrder")
    if order is None and save.oracle is not None and "draws" in save.oracle:
        order = [d["tile"] for d in save.oracle["draws"]]
    if order is None:
        raise JczError("the save fixes no draw order (gameAnnotations.drawOrder)")
    end = annotations.get("endTurn")
    return list(order[:end] if end is not None else order)


def location_name(pointer: JczPointer) -> str:
    """Our name for a JCloisterZone feature location (both in board orientation)."""
    where = pointer.location
    if pointer.feature == "Monastery":
        return "cloister"
    if pointer.feature == "Field":
        halves = sorted(HALF_BY_NAME[_HALVES[token]] for token in where.split("."))
        return "+".join(HALF_NAMES[h] for h in halves)
    if where.startswith("_"):  # every edge but one
        edges = [e for e, name in enumerate(EDGE_NAMES) if name != where[1]]
    else:
        edges = sorted(EDGE_BY_NAME[c] for c in where)
    return "+".join(EDGE_NAMES[e] for e in edges)


PlacementVisitor = Callable[[int, GameState], None]


def replay_jcz(save: JczSave, on_placement: PlacementVisitor | None = None) -> Game:
    """Replay a save through our engine; every message is checked by our rules."""
    expansions = expansions_of(save)
    names = [p.name for p in sorted(save.players, key=lambda p: p.slot)]
    game = Game.start(names, draw_order(save), expansions=expansions)
    state = game.state
    for index, message in enumerate(save.replay):
        command = _command(message, state)
        if command is None:
            continue
        if isinstance(command, PlaceTile) and on_placement is not None:
            on_placement(index, state)
        try:
            game.execute(state.current, command)
        except RuleViolation as e:
            raise JczError(f"message {index} ({message.type}) refused: {e}") from e
    return game


def _command(message: JczMessage, state: GameState) -> Command | None:
    payload = message.payload
    kind = message.type
    if kind == "PLACE_TILE":
        x, y = payload["position"]
        return PlaceTile(x=x, y=y, rotation=int(payload["rotation"][1:]), tile=payload["tileId"])
    if kind == "DEPLOY_MEEPLE":
        return Deploy(location=location_name(msgspec.convert(payload["pointer"], JczPointer)))
    if kind == "PASS":
        # JCloisterZone skips the follower step when nothing can be deployed; so do we.
        return Pass() if state.phase == Phase.ACTION else None
    if kind == "COMMIT":
        return None
    raise JczError(f"unsupported message type {kind}")
