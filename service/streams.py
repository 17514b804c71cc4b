"""Event streams that cost nothing while nothing happens.

A stream waits for its game to change instead of asking the store again and again. `GameWatch`
wakes it at once when this process stores the game's events. Events other processes store (a
server beside this one, `carc import`) wake it too: on PostgreSQL through LISTEN/NOTIFY (the
eventsourcing recorder's own subscription, which its inserts notify), so an idle server asks the
store nothing; on SQLite, which has no notifications, within `poll` seconds, for one query a tick
for the whole process (the store's newest position), whatever the number of streams, and a
second one, for the games that changed, only when something did.

`StreamGate` caps the streams a client (by address) and a game may hold open, so that no client
can tie up the server's connections.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import Iterator
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder, Subscription

from service.store import ServiceStore

POLL_SECONDS = 0.5  # how soon a stream sees events another process stored
REMEMBERED = 100_000  # games whose last change is kept (older ones count as changed long ago)


class GameWatch:
    def __init__(self, store: ServiceStore, poll: float = POLL_SECONDS) -> None:
        self.store = store
        self.poll = poll
        self.generation = 0  # counts the changes seen; a stream notes it before it reads
        self._changed: OrderedDict[UUID, int] = OrderedDict()  # game -> generation of its last change
        self._waiting: dict[UUID, set[asyncio.Future[None]]] = {}
        self._position: int | None = None  # the store's newest event, as last seen
        self._task: asyncio.Task[None] | None = None
        self._subscription: Subscription[ApplicationRecorder] | None = None
        self.closed = False

    def notify(self, games: set[UUID]) -> None:
        """These games have new events: wake their streams."""
        self.generation += 1
        for game in games:
            self._changed[game] = self.generation
            self._changed.move_to_end(game)
            for waiter in self._waiting.pop(game, ()):
                if not waiter.done():
                    waiter.set_result(None)
        while len(self._changed) > REMEMBERED:
            self._changed.popitem(last=False)

    async def wait(self, game: UUID, since: int) -> None:
        """Return once `game` has changed after generation `since` (at once if it has), or the
        watch closes."""
        if self.closed or self._changed.get(game, 0) > since:
            return
        self._start()
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(game, set()).add(waiter)
        try:
            await waiter
        finally:
            waiters = self._waiting.get(game)
            if waiters is not None:
                waiters.discard(waiter)
                if not waiters:
                    del self._waiting[game]

    def close(self) -> None:
        """End every wait now and from now on (the server is shutting down)."""
        self.closed = True
        for waiters in self._waiting.values():
            for waiter in waiters:
                if not waiter.done():
                    waiter.set_result(None)
        self._waiting.clear()
        if self._task is not None:
            self._task.cancel()
        if self._subscription is not None:
            self._subscription.stop()

    @property
    def streams_waiting(self) -> int:
        return sum(len(w) for w in self._waiting.values())

    def _start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._follow_store())

    async def _follow_store(self) -> None:
        """Follow the store's notifications where it has them, else poll it."""
        loop = asyncio.get_running_loop()
        start = await asyncio.to_thread(self.store.last_position)
        try:
            self._subscription = self.store.recorder.subscribe(gt=start)
        except NotImplementedError:  # SQLite
            await self._poll_store()
            return
        # A stream may have read before the subscription began: each looks once more.
        self.notify(set(self._waiting))
        await asyncio.to_thread(self._listen, loop, self._subscription)

    def _listen(
        self, loop: asyncio.AbstractEventLoop, subscription: Subscription[ApplicationRecorder]
    ) -> None:
        """In a thread: hand each notification's game to the event loop, until stopped."""
        with contextlib.suppress(Exception), subscription:
            for note in subscription:
                game = (
                    note.originator_id if isinstance(note.originator_id, UUID) else UUID(note.originator_id)
                )
                loop.call_soon_threadsafe(self.notify, {game})
                if self.closed:
                    return

    async def _poll_store(self) -> None:
        while not self.closed:
            await asyncio.sleep(self.poll)
            if not self._waiting:
                self._position = None  # nobody listens: look again from wherever the store is then
                continue
            with contextlib.suppress(Exception):  # a store that fails now is asked again next tick
                await self._look()

    async def _look(self) -> None:
        position = await asyncio.to_thread(self.store.last_position)
        if self._position is None:
            # Just started: a stream may have read before this baseline; each looks once more.
            self._position = position
            self.notify(set(self._waiting))
            return
        if position == self._position:
            return
        changed = await asyncio.to_thread(self.store.games_changed, self._position, position)
        self._position = position
        self.notify(changed if changed is not None else set(self._waiting))


class TooManyStreams(Exception):
    """A client or a game holds as many streams as it may."""


class StreamGate:
    def __init__(self, per_client: int, per_game: int) -> None:
        self.per_client = per_client
        self.per_game = per_game
        self._clients: dict[str, int] = {}
        self._games: dict[UUID, int] = {}

    def check(self, client: str, game: UUID) -> None:
        """TooManyStreams if `client` or `game` may open no more streams now."""
        if self._clients.get(client, 0) >= self.per_client:
            raise TooManyStreams(f"this client has {self.per_client} event streams open already")
        if self._games.get(game, 0) >= self.per_game:
            raise TooManyStreams(f"game {game} has {self.per_game} event streams open already")

    @contextlib.contextmanager
    def admit(self, client: str, game: UUID) -> Iterator[None]:
        """Hold a stream of `client` on `game` open, or TooManyStreams."""
        self.check(client, game)
        self._clients[client] = self._clients.get(client, 0) + 1
        self._games[game] = self._games.get(game, 0) + 1
        try:
            yield
        finally:
            self._release(self._clients, client)
            self._release(self._games, game)

    @staticmethod
    def _release(counts: dict[str, int] | dict[UUID, int], key: str | UUID) -> None:
        left = counts[key] - 1  # type: ignore[index]
        if left:
            counts[key] = left  # type: ignore[index]
        else:
            del counts[key]  # type: ignore[arg-type]

    @property
    def open(self) -> int:
        return sum(self._games.values())
