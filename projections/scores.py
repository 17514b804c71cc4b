"""Scores derived from a game's events: standings and the timeline of every award."""

from __future__ import annotations

import msgspec

from domain.scoring import Award
from domain.state import GameState


class Standing(msgspec.Struct, frozen=True):
    rank: int
    seat: int
    name: str
    points: int


class ScoreReport(msgspec.Struct, frozen=True):
    game: str
    version: int
    over: bool
    final: dict[str, int]  # player name -> points
    standings: tuple[Standing, ...]
    timeline: tuple[Award, ...]


def standings(state: GameState) -> list[Standing]:
    """Players by points, best first; equal points share a rank."""
    order = sorted(range(len(state.players)), key=lambda p: (-state.scores[p], p))
    result: list[Standing] = []
    for i, seat in enumerate(order):
        tied = result and result[-1].points == state.scores[seat]
        rank = result[-1].rank if tied else i + 1
        result.append(Standing(rank, seat, state.players[seat], state.scores[seat]))
    return result


def score_report(state: GameState) -> ScoreReport:
    return ScoreReport(
        game=str(state.id),
        version=state.version,
        over=state.over,
        final={name: state.scores[i] for i, name in enumerate(state.players)},
        standings=tuple(standings(state)),
        timeline=tuple(state.awards),
    )
