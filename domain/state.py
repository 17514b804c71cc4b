"""The game state and `evolve`, the fold that applies one event to it.

`evolve` never checks anything: events reach it only after a command was validated (live
play) or after a recorded game was re-validated (import). Scores are derived here, never
stored: each completed feature yields `Award`s as its event is applied.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any
from uuid import UUID

from domain import events as ev
from domain.board import Board, PlacedTile
from domain.features import Feature
from domain.rules import RuleSet
from domain.scoring import (
    Award,
    Parts,
    category,
    completed_value,
    farm_value,
    incomplete_value,
    majority,
)
from domain.tiles import Kind, TileType, tile


class Phase(StrEnum):
    SETUP = "setup"  # before the first event
    START = "start"  # the start tile lies; nobody has drawn yet
    PLACE = "place"  # the current player holds a drawn tile
    DISCARDED = "discarded"  # the drawn tile fitted nowhere
    ACTION = "action"  # tile placed; the player may deploy
    ACTION_DONE = "action-done"  # deployment decided; the turn ends next
    TURN_OVER = "turn-over"
    OVER = "over"


class GameState:
    __slots__ = (
        "awards",
        "board",
        "current",
        "discarded",
        "draw_order",
        "expansions",
        "id",
        "next_draw",
        "phase",
        "placed",
        "players",
        "rules",
        "scores",
        "supply",
        "tile",
        "turn",
        "version",
    )

    def __init__(self, game_id: UUID) -> None:
        self.id = game_id
        self.version = 0
        self.players: tuple[str, ...] = ()
        self.expansions: tuple[str, ...] = ()
        self.rules = RuleSet()
        self.draw_order: tuple[str, ...] = ()
        self.next_draw = 0  # index in draw_order of the next tile to draw
        self.board = Board()
        self.supply: list[int] = []  # followers in each player's supply
        self.scores: list[int] = []
        self.awards: list[Award] = []
        self.phase = Phase.SETUP
        self.current = 0  # seat of the player whose turn it is
        self.tile: TileType | None = None  # drawn and not yet placed
        self.placed: PlacedTile | None = None  # placed this turn
        self.turn = 0
        self.discarded: list[str] = []

    @property
    def pile_left(self) -> int:
        return len(self.draw_order) - self.next_draw

    @property
    def over(self) -> bool:
        return self.phase == Phase.OVER


def evolve(state: GameState, event: ev.Event) -> None:
    """Apply one event. Trusts it: see the module docstring."""
    _HANDLERS[type(event)](state, event)
    state.version = event.originator_version


def _started(state: GameState, e: ev.GameStarted) -> None:
    state.players = e.players
    state.expansions = e.expansions
    state.rules = e.rules
    state.draw_order = e.draw_order
    n = len(e.players)
    state.supply = [e.rules.followers] * n
    state.scores = [0] * n
    state.board.place(tile(e.start_tile), (0, 0), 0)  # R-BASE-2
    state.phase = Phase.START


def _drawn(state: GameState, e: ev.TileDrawn) -> None:
    if state.phase != Phase.DISCARDED:
        state.turn += 1
    state.next_draw += 1
    state.current = e.player
    state.tile = tile(e.tile)
    state.placed = None
    state.phase = Phase.PLACE


def _discarded(state: GameState, e: ev.TileDiscarded) -> None:
    state.discarded.append(e.tile)
    state.tile = None
    state.phase = Phase.DISCARDED


def _placed(state: GameState, e: ev.TilePlaced) -> None:
    assert state.tile is not None
    state.placed = state.board.place(state.tile, (e.x, e.y), e.rotation)
    state.tile = None
    state.phase = Phase.ACTION


def _deployed(state: GameState, e: ev.FollowerDeployed) -> None:
    placed = state.placed
    assert placed is not None
    sid = placed.segment(e.location)
    state.board.graph.feature(sid).meeples.append((e.player, sid))
    state.supply[e.player] -= 1
    state.phase = Phase.ACTION_DONE


def _passed(state: GameState, e: ev.Passed) -> None:
    state.phase = Phase.ACTION_DONE


def _turn_ended(state: GameState, e: ev.TurnEnded) -> None:
    if state.placed is not None:
        for feature in completed_by(state.board, state.placed):
            value, parts = completed_value(feature)
            _award(state, feature, value, parts, "R-BASE-5", e.originator_version, final=False)
            _return_followers(state, feature)
    state.phase = Phase.TURN_OVER


def _game_ended(state: GameState, e: ev.GameEnded) -> None:
    board = state.board
    for feature in board.graph.roots():
        if not feature.meeples:
            continue
        if feature.kind == Kind.FIELD:
            value, parts = farm_value(board, feature)
        else:
            value, parts = incomplete_value(board, feature)
        _award(state, feature, value, parts, "R-BASE-8", e.originator_version, final=True)
        _return_followers(state, feature)
    state.phase = Phase.OVER


def _award(
    state: GameState,
    feature: Feature,
    value: int,
    parts: Parts,
    rule: str,
    version: int,
    *,
    final: bool,
) -> None:
    for player in majority(feature):
        state.scores[player] += value
        state.awards.append(
            Award(
                player=player,
                points=value,
                category=category(feature),
                rule=rule,
                parts=parts,
                feature=feature.id,
                turn=state.turn,
                version=version,
                final=final,
            )
        )


def _return_followers(state: GameState, feature: Feature) -> None:
    """Followers on a scored feature go back to supply (R-BASE-7)."""
    for player, _ in feature.meeples:
        state.supply[player] += 1
    feature.meeples = []


def completed_by(board: Board, placed: PlacedTile) -> list[Feature]:
    """Features the placement of `placed` completed: its roads and cities, nearby cloisters."""
    graph = board.graph
    found: list[Feature] = []
    seen: set[int] = set()
    for index, seg in enumerate(placed.tile.segments):
        if seg.kind == Kind.ROAD or seg.kind == Kind.CITY:
            feature = graph.feature(placed.base + index)
            if feature.open == 0 and feature.id not in seen:
                seen.add(feature.id)
                found.append(feature)
    for sid in board.cloisters_completed_by(placed.pos):
        found.append(graph.feature(sid))
    return found


_HANDLERS: dict[type[ev.Event], Callable[[GameState, Any], None]] = {
    ev.GameStarted: _started,
    ev.TileDrawn: _drawn,
    ev.TileDiscarded: _discarded,
    ev.TilePlaced: _placed,
    ev.FollowerDeployed: _deployed,
    ev.Passed: _passed,
    ev.TurnEnded: _turn_ended,
    ev.GameEnded: _game_ended,
}
