"""Games as the service plays them: creation, seats, moves, idempotency, concurrency.

Everything runs on the server's event loop; only store calls leave it (reads in worker threads,
writes through the group-commit thread), so the hot path of a move is a dict look-up, the
domain's `decide` and one shared commit, with no thread of its own.

Each process keeps the games it has touched in memory. A move is checked against that copy and
stored as the events that follow its version. If another process stored a move meanwhile, the
copy is behind: the recorder then refuses the insert (the game's next version exists already),
or the copy refuses the move (not that seat's turn, another version expected, a rule broken).
Either way the game is brought up to date from the store and the move checked once more, so a
refusal is only ever given against the stored state. Two moves racing for the same version meet
at the store, which keeps one; the other is answered with a conflict. Within one process a lock
per game keeps two requests from using the in-memory game at once.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import TypeVar
from uuid import UUID

import msgspec

from domain import events as ev
from domain.aggregate import Game, check_setup, project_game
from domain.bots import shuffled_pile
from domain.commands import Command
from domain.errors import RuleViolation
from domain.names import name_problem
from domain.rules import RuleSet
from domain.sets import game_sets
from service.commits import GroupCommit
from service.limits import Limits
from service.schema import MoveAnswer, deciding_seat, move_answer
from service.store import (
    Conflict,
    MoveAccepted,
    SeatClaimed,
    SeatsByInvitation,
    ServiceStore,
    invitation_record_id,
    move_record_id,
    seat_record_id,
)
from service.streams import GameWatch, StreamGate
from service.visibility import PublicView

T = TypeVar("T")


_DEFAULTS = Limits()


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
    def __init__(
        self,
        store: ServiceStore,
        *,
        cached_games: int = _DEFAULTS.cached_games,
        streams_per_client: int = _DEFAULTS.streams_per_client,
        streams_per_game: int = _DEFAULTS.streams_per_game,
    ) -> None:
        self.store = store
        self.cached_games = cached_games
        self.watch = GameWatch(store)
        self.gate = StreamGate(streams_per_client, streams_per_game)
        self._writer = GroupCommit(store)
        self._games: OrderedDict[UUID, Game] = OrderedDict()
        self._seats: dict[UUID, list[str | None]] = {}  # game -> token hash per seat
        self._locks: dict[UUID, tuple[asyncio.Lock, int]] = {}  # game -> its lock, requests using it

    @property
    def games_in_memory(self) -> int:
        return len(self._games)

    async def close(self) -> None:
        self.watch.close()
        await asyncio.to_thread(self._writer.close)
        self.store.close()

    async def create(
        self,
        players: Sequence[str],
        expansions: Sequence[str],
        rules: RuleSet,
        seed: int | None,
        *,
        invitations: bool = False,
    ) -> tuple[Game, tuple[str, ...]]:
        """A new game, and with `invitations` one invite code per seat (else none: any client
        may take an open seat); the pile is shuffled with `seed`, or unpredictably without one."""
        problem = next(filter(None, map(name_problem, players)), None)
        if problem:
            raise ServiceError(problem)
        expansions = game_sets(expansions)  # the base game added, each set once: as the CLI does
        check_setup(players, (), expansions)  # before the pile is made of the sets asked for
        rng = random.Random(seed) if seed is not None else random.SystemRandom()
        pile = shuffled_pile(expansions, rng)
        # The salt keeps the pile's commitment from being checked against guesses of the order.
        salt = secrets.token_hex(16)
        game = Game.start(players, pile, expansions=expansions, rules=rules, seed=seed, pile_salt=salt)
        codes = tuple(secrets.token_urlsafe(16) for _ in players) if invitations else ()
        records = (
            [
                SeatsByInvitation(
                    originator_id=invitation_record_id(game.id),
                    originator_version=1,
                    game=game.id,
                    codes_sha256=tuple(token_hash(code) for code in codes),
                )
            ]
            if invitations
            else []
        )
        # One write: a game never exists without the invitations it was created with.
        await self._write([*game.collect_events(), *records])
        self._remember(game)
        return game, codes

    async def read(self, game_id: UUID, view: Callable[[Game], T]) -> T:
        """`view` of the game as stored now, taken while no move can change it."""
        async with self._locked(game_id):
            return view(await self._fresh(game_id))

    async def join(self, game_id: UUID, seat: int, invite: str | None = None) -> str:
        """Claim `seat` and return its secret token; each seat can be claimed once, and in a
        game seated by invitation only with that seat's invite code."""
        players = await self.read(game_id, lambda game: len(game.state.players))
        if not 0 <= seat < players:
            raise NotFound(f"game {game_id} has seats 0 to {players - 1}, not {seat}")
        invitation = await asyncio.to_thread(self.store.record, invitation_record_id(game_id))
        if isinstance(invitation, SeatsByInvitation) and (
            invite is None or not secrets.compare_digest(token_hash(invite), invitation.codes_sha256[seat])
        ):
            raise Forbidden(
                f"game {game_id} seats by invitation: send seat {seat}'s invite code as the bearer token"
            )
        token = secrets.token_urlsafe(32)
        claim = SeatClaimed(
            originator_id=seat_record_id(game_id, seat),
            originator_version=1,
            game=game_id,
            seat=seat,
            token_sha256=token_hash(token),
        )
        try:
            await self._write([claim])
        except Conflict:
            raise VersionConflict(f"seat {seat} of game {game_id} is already taken") from None
        self._seats.pop(game_id, None)
        return token

    async def move(
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
        async with self._locked(game_id):
            cached = self._games.get(game_id)
            game = cached if cached is not None else await self._fresh(game_id)
            seat = await self._seat_of(game, token)
            request = token_hash(f"{seat}:{msgspec.json.encode(command).decode()}")
            record_id = move_record_id(game_id, idempotency_key) if idempotency_key else None
            if record_id is not None and (earlier := await self._earlier(record_id, request)) is not None:
                return earlier
            try:
                return await self._try(game, seat, command, expected_version, record_id, request)
            except (ServiceError, RuleViolation, Conflict):
                if cached is None:  # the game was current: the refusal stands
                    raise
            # The copy was old, perhaps: check again against the stored game.
            game = await self._fresh(game_id)
            if record_id is not None and (earlier := await self._earlier(record_id, request)) is not None:
                return earlier
            try:
                return await self._try(game, seat, command, expected_version, record_id, request)
            except Conflict:
                version = (await self._fresh(game_id)).version
                raise VersionConflict(
                    f"another move was stored first; the game is at version {version}", version
                ) from None

    async def _try(
        self,
        game: Game,
        seat: int,
        command: Command,
        expected_version: int | None,
        record_id: UUID | None,
        request: str,
    ) -> MoveAnswer:
        """Check the move against `game` and store it, or raise why not (Conflict: store first)."""
        if game.over:
            raise VersionConflict("the game is over", game.version)
        if expected_version is not None and expected_version != game.version:
            raise VersionConflict(
                f"expected version {expected_version}, the game is at {game.version}", game.version
            )
        if seat != (due := deciding_seat(game)):
            raise Forbidden(f"seat {due} is to decide, not seat {seat}", game.version)
        before = game.version
        try:
            game.execute(seat, command)  # a RuleViolation leaves the game untouched
        except Exception:
            if game.version != before:  # the engine failed halfway: forget this copy
                self._forget(game.id)
            raise
        events = tuple(game.collect_events())
        records = (
            [
                MoveAccepted(
                    originator_id=record_id,
                    originator_version=1,
                    game=game.id,
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
            await self._write([*events, *records])
        except BaseException:
            self._forget(game.id)  # our copy is ahead of the store
            raise
        return self._answer(game, events)

    def _answer(self, game: Game, events: tuple[ev.Event, ...]) -> MoveAnswer:
        """The answer to a move, showing its events as the players may see them."""
        first = events[0].originator_version if events else game.version + 1
        view = PublicView(lambda: self.store.events_after(game.id, 0, first - 1))
        return move_answer(game, tuple(view.show(events, over=game.over)))

    async def _earlier(self, record_id: UUID, request: str) -> MoveAnswer | None:
        """The answer already given to a request with this idempotency key, if any."""
        record = await asyncio.to_thread(self.store.record, record_id)
        if record is None:
            return None
        assert isinstance(record, MoveAccepted)
        if record.request_sha256 != request:
            raise KeyReused("this Idempotency-Key was already used for a different move")
        game = await asyncio.to_thread(self.store.load, record.game, record.after_version)
        events = await asyncio.to_thread(
            self.store.events_after, record.game, record.before_version, record.after_version
        )
        return self._answer(game, tuple(events))

    async def _seat_of(self, game: Game, token: str | None) -> int:
        if not token:
            raise Forbidden("this needs a seat's token: Authorization: Bearer TOKEN")
        digest = token_hash(token)
        seats = self._seats.get(game.id)
        if seats is None or digest not in seats:  # perhaps claimed through another process
            seats = self._seats[game.id] = await asyncio.to_thread(self._load_seats, game)
        if digest not in seats:
            raise Forbidden(f"this token holds no seat in game {game.id}")
        return seats.index(digest)

    def _load_seats(self, game: Game) -> list[str | None]:
        seats: list[str | None] = []
        for seat in range(len(game.state.players)):
            claim = self.store.record(seat_record_id(game.id, seat))
            seats.append(claim.token_sha256 if isinstance(claim, SeatClaimed) else None)
        return seats

    async def _fresh(self, game_id: UUID) -> Game:
        """The game brought up to date with the store (caller holds the game's lock)."""
        game = self._games.get(game_id)
        after = game.version if game is not None else 0
        events = await asyncio.to_thread(self.store.events_after, game_id, after)
        if game is None:
            game = project_game(None, events)
            if game is None:
                raise NotFound(f"no game {game_id}")
            self._remember(game)
        else:
            for event in events:
                game.replay(event)
        return game

    async def _write(self, events: Sequence[ev.Event]) -> None:
        await asyncio.wrap_future(self._writer.submit(events))
        self.watch.notify({e.originator_id for e in events})

    def _remember(self, game: Game) -> None:
        self._games[game.id] = game
        self._games.move_to_end(game.id)
        while len(self._games) > self.cached_games:
            forgotten, _ = self._games.popitem(last=False)
            self._seats.pop(forgotten, None)

    def _forget(self, game_id: UUID) -> None:
        self._games.pop(game_id, None)

    @asynccontextmanager
    async def _locked(self, game_id: UUID) -> AsyncIterator[None]:
        """Hold the game's lock; a lock no request uses any more is dropped, so they do not pile up."""
        lock, users = self._locks.get(game_id) or (asyncio.Lock(), 0)
        self._locks[game_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[game_id]
            if users == 1:
                del self._locks[game_id]
            else:
                self._locks[game_id] = (lock, users - 1)
