"""Work on whole collections of games: partitioned by game, run in this process or on Dask.

A batch is a list of items (recorded-game files, or ids of stored games) cut into chunks. Each
chunk goes to one function call that returns its results; the caller gets them one chunk at a
time, as chunks finish, so it can write each as a partition and keep memory flat whatever the
number of games. With one worker the chunks run here, one after another (the reference path);
otherwise on a Dask cluster: a `LocalCluster` of worker processes on this machine, or a running
scheduler (`dask scheduler` and `dask worker tcp://HOST:8786` on each machine).

Stores are read by game id on the workers themselves (an SQLite file on one machine, PostgreSQL
shared by them all); files are read where the workers run, so on a cluster they must be on a
shared file system.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import msgspec

from domain import events as ev
from domain.errors import RuleViolation, UserError
from projections.audit import AuditRow

if TYPE_CHECKING:
    import pyarrow as pa

    from replays.check import CheckResult

T = TypeVar("T")
R = TypeVar("R")

CHUNK = 25  # games a task: big enough to amortise a task's cost, small enough to spread the work
GAME_FILES = (".jsonl", ".jcz")


class Batch(msgspec.Struct, frozen=True, kw_only=True):
    """How to run a batch: `workers` processes here (1: in this process; None: one per core once
    the batch is big enough to repay starting them), or on `scheduler`."""

    workers: int | None = None
    scheduler: str | None = None
    chunk: int = CHUNK

    def processes(self, chunks: int) -> int:
        """How many processes to run `chunks` chunks on (1: this one)."""
        if self.workers is not None:
            return self.workers
        cores = max(1, os.cpu_count() or 1)
        # A local cluster takes a second or two to start: worth it for a few chunks a core.
        return cores if chunks >= 4 * cores else 1


def chunks(items: Sequence[T], size: int) -> list[list[T]]:
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def run(
    work: Callable[[list[T]], R],
    items: Sequence[T],
    batch: Batch,
    on_result: Callable[[int, R], None],
) -> None:
    """Call `work` on each chunk of `items`; `on_result(chunk index, result)` as each finishes.

    In this process when one worker is asked for (or the batch is one chunk: a cluster would cost
    more than it saves); else on Dask.
    """
    parts = chunks(items, batch.chunk)
    processes = batch.processes(len(parts))
    if batch.scheduler is None and (processes <= 1 or len(parts) <= 1):
        for index, part in enumerate(parts):
            on_result(index, work(part))
        return
    with closing(_on_dask(work, parts, batch.scheduler, processes)) as results:
        for index, result in results:  # stopped here (Ctrl-C in on_result): the cluster is closed
            on_result(index, result)


def _on_dask(
    work: Callable[[list[T]], R], parts: list[list[T]], scheduler: str | None, processes: int
) -> Generator[tuple[int, R], None, None]:
    from distributed import Client, LocalCluster, as_completed

    # Ctrl-C is this process's to handle: it stops the cluster, quietly. A Ctrl-C while the
    # cluster starts is held back until it is up (or has failed), then stops it. The terminal
    # sends Ctrl-C to the workers' processes too: what they say as they stop goes nowhere (their
    # logs are silenced, and they are started with no terminal to write to).
    with _interrupts_blocked(), _children_without_stderr():
        try:
            cluster = (
                None
                if scheduler
                else LocalCluster(  # type: ignore[no-untyped-call]
                    n_workers=processes,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    scheduler_kwargs={"dashboard_address": ":0"},  # its HTTP routes on any free port
                    # What fails in a task comes back as its result's error; what the workers log
                    # as they are stopped is not the user's.
                    silence_logs=logging.CRITICAL,
                )
            )
        except Exception:
            if signal.SIGINT in signal.sigpending():  # its workers were stopped as it started
                logging.disable(logging.CRITICAL)
                raise KeyboardInterrupt from None
            raise
    finished = False
    try:
        client = Client(scheduler or cluster)  # type: ignore[no-untyped-call]
        try:
            futures = {client.submit(work, part, pure=False): index for index, part in enumerate(parts)}
            for future in as_completed(futures):  # type: ignore[no-untyped-call]
                yield futures[future], future.result()
                future.release()  # its result is the caller's now: the cluster forgets it
            finished = True
        finally:
            with _quiet(not finished), _interrupts_held():
                client.close()  # type: ignore[no-untyped-call]
    finally:
        if cluster is not None:
            with _quiet(not finished), _interrupts_held():
                cluster.close()


@contextmanager
def _interrupts_blocked() -> Iterator[None]:
    """Ctrl-C (SIGINT) held back meanwhile, and delivered after (in the main thread, where Python
    handles signals)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextmanager
def _children_without_stderr() -> Iterator[None]:
    """The processes started meanwhile write their standard error to /dev/null; this one's is
    back after (the progress shown meanwhile on it is lost)."""
    sys.stderr.flush()
    saved = os.dup(2)
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(quiet)


@contextmanager
def _interrupts_held() -> Iterator[None]:
    """Ctrl-C (SIGINT) ignored meanwhile, in the main thread (where Python handles signals)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def _quiet(stopped: bool) -> Iterator[None]:
    """When a batch is stopped before its end (Ctrl-C, an error), nothing of what a cluster logs
    as its tasks are cancelled and its workers stopped: the caller says what happened."""
    if not stopped:
        yield
        return
    logging.disable(logging.CRITICAL)
    try:
        yield
    finally:
        logging.disable(logging.NOTSET)


def game_files(paths: Iterable[Path]) -> list[Path]:
    """The recorded-game files among `paths`: each file as given, each folder's `.jsonl` and `.jcz`
    files (recursively), sorted."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.suffix.lower() in GAME_FILES and p.is_file()))
        else:
            found.append(path)
    return found


class Source(msgspec.Struct, frozen=True):
    """A game to work on: a recorded-game file, or a stored game by id."""

    kind: Literal["file", "game"]
    name: str


class Refused(msgspec.Struct, frozen=True):
    """A file (or stored game) a batch could not use, and why."""

    item: str
    reason: str


def events_of(source: Source, db: str | None) -> list[ev.Event]:
    """A source's events, checked for form (a file's rules are the audit's to check)."""
    from replays.sources import file_events, stored_events

    if source.kind == "file":
        return file_events(Path(source.name), check=False)
    from domain.store import open_store

    store = open_store(db, create=False)
    try:
        return stored_events(store, source.name)
    finally:
        store.close()


class AuditPart(msgspec.Struct, frozen=True):
    rows: list[AuditRow]
    refused: list[Refused]


def audit_task(sources: list[Source], db: str | None = None) -> AuditPart:
    """The audit rows of a chunk of games (a task of a batch audit)."""
    from projections.audit import audit_rows

    rows: list[AuditRow] = []
    refused: list[Refused] = []
    for source in sources:
        try:
            rows.extend(audit_rows(events_of(source, db), source.name if source.kind == "file" else None))
        except (UserError, RuleViolation) as e:
            refused.append(Refused(source.name, str(e)))
    return AuditPart(rows, refused)


def read_task(files: list[Path]) -> list[tuple[Path, list[ev.Event]] | Refused]:
    """Each file's events, checked against its rules, or why it is refused (a task of a batch
    import: the workers read and check, the caller stores)."""
    from replays.sources import read_source

    found: list[tuple[Path, list[ev.Event]] | Refused] = []
    for path in files:
        try:
            found.append((path, read_source(path)[1]))
        except (UserError, RuleViolation) as e:
            found.append(Refused(str(path), str(e)))
    return found


def analytics_task(ids: list[str], db: str) -> dict[str, list[dict[str, Any]]]:
    """The analytics tables' rows of a chunk of stored games."""
    from uuid import UUID

    from domain.store import open_store
    from projections.analytics import rows_of_games

    store = open_store(db, create=False)
    try:
        return rows_of_games(store.game_events(UUID(game)) for game in ids)
    finally:
        store.close()


def check_task(files: list[Path]) -> list[CheckResult]:
    """`carc check` of a chunk of saves."""
    from replays.check import check_file

    return [check_file(path) for path in files]


def audit_schema() -> pa.Schema:
    """The batch audit's table: one row per game and reading."""
    import pyarrow as pa

    return pa.schema(
        [
            ("game", pa.string()),
            ("file", pa.string()),
            ("reading", pa.string()),
            ("legal", pa.bool_()),
            ("refused_event", pa.int64()),
            ("rule", pa.string()),
            ("final", pa.list_(pa.struct([("player", pa.string()), ("points", pa.int64())]))),
            ("winner", pa.list_(pa.string())),
        ]
    )


def write_partition(folder: Path, index: int, rows: list[AuditRow]) -> None:
    """One chunk's rows as `folder/part-NNNNN.parquet`."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pylist([msgspec.to_builtins(r) for r in rows], schema=audit_schema())
    pq.write_table(table, folder / f"part-{index:05d}.parquet")


class ReadingSummary(msgspec.Struct, kw_only=True):
    games: int = 0
    illegal: int = 0
    other_winner: int = 0  # legal, but someone else wins than under the recorded rules


def summarise(rows: Iterable[AuditRow], into: dict[str, ReadingSummary]) -> None:
    """Add a chunk's rows (each game's readings together, the recorded one first) to `into`."""
    recorded: dict[str, tuple[str, ...]] = {}
    for row in rows:
        if row.reading == "recorded":
            recorded[row.game] = row.winner
        summary = into.setdefault(row.reading, ReadingSummary())
        summary.games += 1
        summary.illegal += not row.legal
        summary.other_winner += (
            row.legal and row.reading != "recorded" and row.winner != recorded.get(row.game)
        )
