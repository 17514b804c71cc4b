"""Games as the service plays them: creation, seats, moves, idempotency, concurrency.

Everything here is synchronous and thread-safe; the HTTP layer runs it in worker threads.

Each process keeps the games it has touched in memory and, before every decision, reads the
events other processes may have stored since (one indexed query), so the state a move is
checked against is current. Two moves racing for the same version meet at the store: the
recorder refuses the second insert of an (originator_id, originator_version) pair, and that
move is answered with a conflict. Within one process a lock per game keeps the in-memory game
from being used by two threads at once.
"""

from __future__ import annotations

import hashlib
import random
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TypeVar
from uuid import UUID

import msgspec

from domain.aggregate import Game, project_game
from domain.bots import shuffled_pile
from domain.commands import Command
from domain.rules import RuleSet
from service.commits import GroupCommit
from service.schema import MoveAnswer, move_answer
from service.store import (
    Conflict,
    MoveAccepted,
    SeatClaimed,
    ServiceStore,
    move_record_id,
    seat_record_id,
)

T = TypeVar("T")

CACHED_GAMES = 10_000  # games kept in memory per process; others are rebuilt from the store


class ServiceError(Exception):
    """A request the service refuses; `status` is its HTTP status code."""

    status = 400

    def __init__(self, message: str, version: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.version = version


class NotFound(ServiceError):
    status = 404


class Forbidden(ServiceError):
    status = 403


class VersionConflict(ServiceError):
    status = 409


class KeyReused(ServiceError):
    status = 422


def token_hash(token: str) -> str:
    """What is stored of a token. Tokens carry 256 random bits, so a plain SHA-256 suffices."""
    return hashlib.sha256(token.encode()).hexdigest()


class GameService:
    def __init__(self, store: ServiceStore) -> None:
        self.store = store
        self._writer = GroupCommit(store)
        self._games: OrderedDict[UUID, Game] = OrderedDict()
        self._seats: dict[UUID, list[str | None]] = {}  # game -> token hash per seat
        self._locks: dict[UUID, threading.Lock] = {}
        self._cache_lock = threading.Lock()

    def create(
        self,
        players: Sequence[str],
        expansions: Sequence[str],
        rules: RuleSet,
        seed: int | None,
    ) -> Game:
        """A new game; the pile is shuffled with `seed`, or unpredictably without one."""
        rng = random.Random(seed) if seed is not None else random.SystemRandom()
        pile = shuffled_pile(expansions, rng)
        game = Game.start(players, pile, expansions=expansions, rules=rules, seed=seed)
        self.store.append(game.collect_events())
        self._remember(game)
        return game

    def close(self) -> None:
        self._writer.close()
        self.store.close()

    def read(self, game_id: UUID, view: Callable[[Game], T]) -> T:
        """`view` of the game as stored now, taken while no move can change it."""
        with self._locked(game_id):
            return view(self._current(game_id))

    def join(self, game_id: UUID, seat: int) -> str:
        """Claim `seat` and return its secret token; each seat can be claimed once."""
        players = self.read(game_id, lambda game: len(game.state.players))
        if not 0 <= seat < players:
            raise NotFound(f"game {game_id} has seats 0 to {players - 1}, not {seat}")
        token = secrets.token_urlsafe(32)
        claim = SeatClaimed(
            originator_id=seat_record_id(game_id, seat),
            originator_version=1,
            game=game_id,
            seat=seat,
            token_sha256=token_hash(token),
        )
        try:
            self.store.append([claim])
        except Conflict:
            raise VersionConflict(f"seat {seat} of game {game_id} is already taken") from None
        self._seats.pop(game_id, None)
        return token

    def move(
        self,
        game_id: UUID,
        token: str | None,
        command: Command,
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> MoveAnswer:
        """Check and store one command of the seat holding `token`.

        With an idempotency key, a request already answered gets that same answer again and
        changes nothing.
        """
        with self._locked(game_id):
            game = self._current(game_id)
            seat = self._seat_of(game_id, token)
            request = token_hash(f"{seat}:{msgspec.json.encode(command).decode()}")
            record_id = move_record_id(game_id, idempotency_key) if idempotency_key else None
            if record_id is not None and (earlier := self._earlier(record_id, request)) is not None:
                return earlier
            state = game.state
            if game.over:
                raise VersionConflict("the game is over", game.version)
            if expected_version is not None and expected_version != game.version:
                raise VersionConflict(
                    f"expected version {expected_version}, the game is at {game.version}", game.version
                )
            if seat != state.current:
                raise Forbidden(f"it is seat {state.current}'s turn, not seat {seat}'s", game.version)
            before = game.version
            try:
                game.execute(seat, command)  # a RuleViolation leaves the game untouched
            except Exception:
                if game.version != before:  # the engine failed halfway: forget this copy
                    self._forget(game_id)
                raise
            events = tuple(game.collect_events())
            records = (
                [
                    MoveAccepted(
                        originator_id=record_id,
                        originator_version=1,
                        game=game_id,
                        seat=seat,
                        request_sha256=request,
                        before_version=before,
                        after_version=game.version,
                    )
                ]
                if record_id is not None
                else []
            )
            try:
                self._writer.append([*events, *records])
            except Conflict:
                # Another request stored this version first; our copy is ahead of the store.
                self._forget(game_id)
                if record_id is not None and (earlier := self._earlier(record_id, request)) is not None:
                    return earlier
                version = self._current(game_id).version
                raise VersionConflict(
                    f"another move was stored first; the game is at version {version}", version
                ) from None
            except BaseException:
                self._forget(game_id)
                raise
            return move_answer(game, events)

    def _earlier(self, record_id: UUID, request: str) -> MoveAnswer | None:
        """The answer already given to a request with this idempotency key, if any."""
        record = self.store.record(record_id)
        if record is None:
            return None
        assert isinstance(record, MoveAccepted)
        if record.request_sha256 != request:
            raise KeyReused("this Idempotency-Key was already used for a different move")
        game = self.store.load(record.game, version=record.after_version)
        events = self.store.events_after(record.game, record.before_version, record.after_version)
        return move_answer(game, tuple(events))

    def _seat_of(self, game_id: UUID, token: str | None) -> int:
        if not token:
            raise Forbidden("this needs a seat's token: Authorization: Bearer TOKEN")
        digest = token_hash(token)
        for fresh in (False, True):
            seats = self._seats.get(game_id) if not fresh else None
            if seats is None:
                seats = self._load_seats(game_id)
            if digest in seats:
                return seats.index(digest)
        raise Forbidden(f"this token holds no seat in game {game_id}")

    def _load_seats(self, game_id: UUID) -> list[str | None]:
        players = len(self._current(game_id).state.players)
        seats: list[str | None] = []
        for seat in range(players):
            claim = self.store.record(seat_record_id(game_id, seat))
            seats.append(claim.token_sha256 if isinstance(claim, SeatClaimed) else None)
        self._seats[game_id] = seats
        return seats

    def _current(self, game_id: UUID) -> Game:
        """The cached game brought up to date with the store (caller holds the game's lock)."""
        game = self._games.get(game_id)
        if game is None:
            game = project_game(None, self.store.events_after(game_id, 0))
            if game is None:
                raise NotFound(f"no game {game_id}")
            self._remember(game)
        else:
            for event in self.store.events_after(game_id, game.version):
                game.replay(event)
        return game

    def _remember(self, game: Game) -> None:
        with self._cache_lock:
            self._games[game.id] = game
            self._games.move_to_end(game.id)
            while len(self._games) > CACHED_GAMES:
                self._games.popitem(last=False)

    def _forget(self, game_id: UUID) -> None:
        with self._cache_lock:
            self._games.pop(game_id, None)

    @contextmanager
    def _locked(self, game_id: UUID) -> Iterator[None]:
        with self._cache_lock:
            lock = self._locks.setdefault(game_id, threading.Lock())
        with lock:
            yield
