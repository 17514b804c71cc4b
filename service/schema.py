"""Request and answer bodies: frozen msgspec Structs, so Litestar decodes, checks and documents them.

Moves are never described command by command: a move carries one command of the domain's
tagged union `AnyCommand`, so every command type the engine adds is accepted, checked and
listed among the legal moves without a change here.
"""

from __future__ import annotations

from typing import Annotated, Literal
from uuid import UUID

import msgspec

from domain.aggregate import Game
from domain.events import Event
from domain.expansions import AnyCommand, GameEvent
from domain.moves import actor, legal_commands
from domain.names import MAX_NAME, NAME_PATTERN
from domain.rules import RuleSet
from domain.sets import SET_CODES
from projections.board import BoardView, board_view

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_NAME, pattern=NAME_PATTERN)]
Players = Annotated[tuple[Name, ...], msgspec.Meta(min_length=2, max_length=6)]
SetCode = Annotated[str, msgspec.Meta(min_length=1, max_length=40)]
# Stores keep these as signed 64-bit integers; larger ones are refused as bad input.
MAX_INT64 = 2**63 - 1
Seed = Annotated[int, msgspec.Meta(ge=-MAX_INT64 - 1, le=MAX_INT64)]
Version = Annotated[int, msgspec.Meta(ge=0, le=MAX_INT64)]


class Body(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A request body: unknown fields are refused, not ignored."""


class NewGame(Body, frozen=True, kw_only=True):
    players: Players
    # Each set of the registry at most once: as many as there are.
    expansions: Annotated[tuple[SetCode, ...], msgspec.Meta(max_length=len(SET_CODES))] = ("base",)
    rules: RuleSet = msgspec.field(default_factory=RuleSet)
    seed: Seed | None = None  # None: the server shuffles the pile unpredictably
    # "open": any client may take a free seat; "invitation": only with that seat's invite code.
    seating: Literal["open", "invitation"] = "open"


class MoveBody(Body, frozen=True, kw_only=True):
    command: AnyCommand
    expected_version: Version | None = None  # refuse the move (409) unless the game is at this version


class GameCreated(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    game: UUID
    version: int
    players: tuple[str, ...]
    # With seating "invitation": each seat's invite code, shown this once; hand each player
    # theirs, to send as "Authorization: Bearer CODE" when taking the seat.
    invites: tuple[str, ...] = ()


class SeatToken(msgspec.Struct, frozen=True, kw_only=True):
    game: UUID
    seat: int
    player: str
    token: str  # shown once; send it as "Authorization: Bearer TOKEN" with each move


class GameView(msgspec.Struct, frozen=True, kw_only=True):
    """A game now: who plays, whose turn it is, the board, the scores and the legal moves."""

    game: UUID
    players: tuple[str, ...]
    expansions: tuple[str, ...]
    rules: RuleSet
    version: int
    over: bool
    current: int  # the seat whose decision is due (not always the one whose turn it is: bids, castles)
    board: BoardView
    legal_moves: tuple[AnyCommand, ...]  # what seat `current` may send now


class MoveAnswer(msgspec.Struct, frozen=True, kw_only=True):
    """A stored move: the events it produced and what the next move may be."""

    game: UUID
    version: int
    events: tuple[GameEvent, ...]
    over: bool
    current: int
    scores: tuple[int, ...]
    legal_moves: tuple[AnyCommand, ...]


class GameListed(msgspec.Struct, frozen=True, kw_only=True):
    """A stored game as `GET /games` lists it: no pile, no seed."""

    game: UUID
    players: tuple[str, ...]
    expansions: tuple[str, ...]
    rules: RuleSet


class GameList(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A page of stored games, oldest first; `next` is the `after` of the next page, if any."""

    games: tuple[GameListed, ...]
    next: int | None = None


class Health(msgspec.Struct, frozen=True, kw_only=True):
    status: str  # "ok": the service answers and so does its store
    store_position: int  # the id of the store's newest event


class Problem(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Every refusal: the status, a readable message and, where known, the rule or the version."""

    status: int
    message: str
    rule: str | None = None
    version: int | None = None


def legal_moves(game: Game) -> tuple[AnyCommand, ...]:
    return tuple(legal_commands(game.state))


def deciding_seat(game: Game) -> int:
    """The seat the game waits for (when it waits for nobody: the seat whose turn it is)."""
    seat = actor(game.state)
    return game.state.current if seat is None else seat


def game_view(game: Game) -> GameView:
    state = game.state
    return GameView(
        game=game.id,
        players=state.players,
        expansions=state.expansions,
        rules=state.rules,
        version=game.version,
        over=game.over,
        current=deciding_seat(game),
        board=board_view(state),
        legal_moves=legal_moves(game),
    )


def move_answer(game: Game, events: tuple[Event, ...]) -> MoveAnswer:
    state = game.state
    return MoveAnswer(
        game=game.id,
        version=game.version,
        events=events,
        over=game.over,
        current=deciding_seat(game),
        scores=tuple(state.scores),
        legal_moves=legal_moves(game),
    )
