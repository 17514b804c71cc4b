"""One projection worker per store at a time.

The views record the position of the last event they hold; two workers writing them would each
project the same events and the second write of a position is refused. So a worker first takes
the store's projection lock (a PostgreSQL advisory lock held by its own session, or an exclusive
lock on a file beside an SQLite store) and keeps it while it runs; another worker either waits
as a standby, taking over when the first stops or dies (the lock goes with its session or its
process), or gives up at once. A lock that dies with its holder needs no clean-up after a crash.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO, Any

from domain.store import StoreError, store_env


class ProjectionLock:
    """The projection lock of the store at `url`; `try_acquire` does not wait."""

    def __init__(self, url: str) -> None:
        self.env = store_env(url)
        self._held: Any = None  # the PostgreSQL connection or the open lock file

    def try_acquire(self) -> bool:
        if self._held is not None:
            return True
        kind = self.env["PERSISTENCE_MODULE"]
        if kind == "eventsourcing.postgres":
            self._held = _postgres_lock(self.env)
        elif kind == "eventsourcing.sqlite":
            self._held = _file_lock(Path(self.env["SQLITE_DBNAME"] + ".projector-lock"))
        else:
            return True  # a store no other process can see: nobody to share it with
        return self._held is not None

    def release(self) -> None:
        if self._held is not None:
            self._held.close()
            self._held = None


def _postgres_lock(env: dict[str, str]) -> Any:
    import psycopg

    try:
        conn = psycopg.connect(
            dbname=env["POSTGRES_DBNAME"],
            host=env["POSTGRES_HOST"],
            port=env["POSTGRES_PORT"],
            user=env["POSTGRES_USER"],
            password=env["POSTGRES_PASSWORD"] or None,
            connect_timeout=int(env.get("POSTGRES_CONNECT_TIMEOUT", "5")),
            autocommit=True,
        )
    except psycopg.Error as e:
        raise StoreError(f"cannot reach PostgreSQL: {e}") from e
    schema = env.get("POSTGRES_SCHEMA", "public")
    row = conn.execute("SELECT pg_try_advisory_lock(hashtext(%s))", (f"carc projector {schema}",)).fetchone()
    if row is not None and row[0]:
        return conn
    conn.close()
    return None


def _file_lock(path: Path) -> IO[bytes] | None:
    try:
        handle = path.open("ab")
    except OSError as e:
        raise StoreError(f"cannot open the projection lock {path}: {e.strerror}") from e
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        return None
    os.set_inheritable(handle.fileno(), False)
    return handle
