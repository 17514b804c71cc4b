"""Group commit: the writes of concurrent requests go to the store together, in one transaction.

On PostgreSQL every insert locks the events table until its commit (so notification ids are
committed in order and a follower never skips one); one transaction per move therefore
serialises every move of every game on one lock and one WAL flush. One writer thread instead
takes every write waiting and inserts them all at once. A conflict in a group fails the whole
insert, so the group is then written again one write at a time, and only the writes that
really conflict are refused: each write is still all or nothing, and alone in its outcome.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from concurrent.futures import Future
from queue import Empty, SimpleQueue

from domain import events as ev
from service.store import Conflict, ServiceStore

MAX_GROUP = 200  # writes per transaction


class GroupCommit:
    def __init__(self, store: ServiceStore) -> None:
        self.store = store
        self._waiting: SimpleQueue[tuple[Sequence[ev.Event], Future[None]] | None] = SimpleQueue()
        self._thread = threading.Thread(target=self._write, name="group-commit", daemon=True)
        self._thread.start()

    def submit(self, events: Sequence[ev.Event]) -> Future[None]:
        """Store `events` in one transaction (possibly shared with other writes).

        The future fails with Conflict if any of them is stored already; then none is stored.
        """
        done: Future[None] = Future()
        self._waiting.put((events, done))
        return done

    def close(self) -> None:
        self._waiting.put(None)
        self._thread.join()

    def _write(self) -> None:
        while (first := self._waiting.get()) is not None:
            group = [first]
            stop = False
            while len(group) < MAX_GROUP:
                try:
                    item = self._waiting.get_nowait()
                except Empty:
                    break
                if item is None:
                    stop = True
                    break
                group.append(item)
            self._commit(group)
            if stop:
                return

    def _commit(self, group: list[tuple[Sequence[ev.Event], Future[None]]]) -> None:
        try:
            self.store.append([e for events, _ in group for e in events])
        except Conflict:
            if len(group) == 1:
                group[0][1].set_exception(Conflict())
                return
            for one in group:
                self._commit([one])
            return
        except BaseException as e:  # the store failed: every write in the group learns why
            for _, done in group:
                done.set_exception(e)
            return
        for _, done in group:
            done.set_result(None)
