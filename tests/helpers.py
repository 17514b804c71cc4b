"""Scenario helpers shared by the tests: start a game on a chosen draw order and play moves.

Board conventions (domain/geometry.py): x grows east, y grows south, rotation is degrees
clockwise. The start tile BA/RCr lies at (0,0) unrotated: city N, road E+W, field S.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from domain.aggregate import Game
from domain.commands import Deploy, Pass, PlaceTile
from domain.events import Event
from domain.features import Feature
from domain.rules import RuleSet
from domain.state import GameState, Phase, segment_location
from domain.store import open_store

PLAYERS = ("Ann", "Bob")
ANN, BOB = 0, 1


class Move(NamedTuple):
    """One turn: place the drawn tile, then deploy on `deploy` or pass if a deployment is open."""

    x: int
    y: int
    rotation: int = 0
    deploy: str | None = None


def scenario(
    draw_order: Sequence[str],
    players: Sequence[str] = PLAYERS,
    rules: RuleSet | None = None,
) -> Game:
    """A base game whose pile is exactly `draw_order` (first drawn first)."""
    return Game.start(tuple(players), list(draw_order), rules=rules)


def play(game: Game, *moves: Move) -> Game:
    """Play each move as the current player's whole turn."""
    for move in moves:
        player = game.state.current
        game.execute(player, PlaceTile(x=move.x, y=move.y, rotation=move.rotation))
        if move.deploy is not None:
            game.execute(player, Deploy(location=move.deploy))
        elif game.state.phase == Phase.ACTION:
            game.execute(player, Pass())
    return game


def run(draw_order: Sequence[str], *moves: Move, players: Sequence[str] = PLAYERS) -> Game:
    """Start a scenario and play all of `moves`."""
    return play(scenario(draw_order, players), *moves)


def awards(game: Game) -> list[tuple[int, int, str, str, tuple[tuple[str, int], ...]]]:
    """Every award as (player, points, category, rule, parts), in the order they were made."""
    return [(a.player, a.points, a.category, a.rule, a.parts) for a in game.state.awards]


def meeples(game: Game) -> list[tuple[int, int, int, str]]:
    """Followers on the board as (player, x, y, location), sorted."""
    board = game.state.board
    found = []
    for feature in board.graph.roots():
        for player, sid in figures(feature):
            found.append((player, *segment_location(board, sid)))
    return sorted(found)


def saved_and_reloaded(game: Game, path: Path) -> tuple[list[Event], Game]:
    """Save `game` into a new SQLite store at `path`, close it, reopen it: the events stored
    there and the game loaded back from them."""
    store = open_store(str(path))
    try:
        store.save_game(game)
    finally:
        store.close()
    reopened = open_store(str(path))
    try:
        return reopened.game_events(game.id), reopened.load(game.id)
    finally:
        reopened.close()


def figures(feature: Feature, kind: str = "follower") -> list[tuple[int, int]]:
    """(player, segment id) of each figure of one kind on a feature."""
    return [(p, sid) for p, sid, k in feature.figures if k == kind]


def in_supply(state: GameState, kind: str) -> list[int]:
    """Each player's figures of a part's kind still in supply (none when the part is not in play)."""
    found: list[int] = state.ext["figures"].get(kind, [0] * len(state.players))
    return found
