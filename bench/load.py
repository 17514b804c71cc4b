"""Load on the game service over loopback: sustained moves per second and move latency.

Starts `carc serve` on a fresh store (an SQLite file in a temporary folder; a PostgreSQL schema
of its own, dropped afterwards), then plays `--games` random games at once through the HTTP
client, each move conditional on the version it was chosen at. Bounded: the games end, or the
run stops after `--seconds`.

    python bench/load.py [--games 50] [--rate 500] [--seconds 60] [--db sqlite,postgres] [--postgres URL]

`--rate` paces the games so that together they offer that many moves per second (players
think between moves); latency is counted from when a move was due. `--rate 0` sends each move
as soon as the previous answer arrives, which measures the saturation throughput.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlparse
from uuid import uuid4

import psycopg

from service.client import CarcClient, local_server, play_random_game
from service.schema import MoveAnswer


class Run:
    """When each move was answered and how long it took."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.answered: list[float] = []

    def moved(self, _: MoveAnswer, seconds: float) -> None:
        self.answered.append(time.perf_counter())
        self.latencies.append(seconds)

    def sustained(self) -> tuple[int, float]:
        """Moves answered between the 10th and the 90th percentile of the run, and their moves/s.

        The middle keeps out the start (games being created and joined) and the end (fewer games
        left as they finish), where fewer than all the games are playing.
        """
        low, high = len(self.answered) // 10, len(self.answered) * 9 // 10
        return high - low, (high - low) / (self.answered[high] - self.answered[low])


async def load(url: str, games: int, rate: float, seconds: float) -> tuple[Run, int]:
    run = Run()
    interval = games / rate if rate else 0.0
    async with CarcClient(url) as client:
        plays = [
            asyncio.create_task(
                play_random_game([client], ["Ann", "Bob"], seed, interval=interval, after_move=run.moved)
            )
            for seed in range(games)
        ]
        done, pending = await asyncio.wait(plays, timeout=seconds)
        for task in pending:
            task.cancel()
        for task in done:
            task.result()  # a failed game fails the benchmark
    return run, len(done)


@contextmanager
def postgres_schema(url: str) -> Iterator[str]:
    parts = urlparse(url)
    schema = f"carc_bench_{uuid4().hex[:12]}"
    dsn = dict(
        host=parts.hostname or "127.0.0.1",
        port=parts.port or 5432,
        user=parts.username or "postgres",
        dbname=parts.path.lstrip("/") or "test",
    )
    with psycopg.connect(**dsn, autocommit=True) as conn:  # type: ignore[arg-type]
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{url}?schema={schema}"
    finally:
        with psycopg.connect(**dsn, autocommit=True) as conn:  # type: ignore[arg-type]
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@contextmanager
def store_for(kind: str, postgres: str) -> Iterator[str]:
    if kind == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            yield str(Path(folder) / "load.sqlite")
    else:
        with postgres_schema(postgres) as url:
            yield url


def report(kind: str, run: Run, finished: int, games: int, offered: str) -> None:
    if len(run.latencies) < 100:
        print(f"{kind}: too few moves to measure ({len(run.latencies)})")
        return
    moves, rate = run.sustained()
    ms = sorted(x * 1000 for x in run.latencies)
    p99 = ms[min(len(ms) - 1, round(0.99 * len(ms)))]
    print(
        f"{kind:8} {rate:5.0f} moves/s sustained ({moves} moves mid-run, {len(ms)} in all) | "
        f"latency p50 {statistics.median(ms):5.1f} ms, p99 {p99:5.1f} ms | "
        f"{finished}/{games} games finished | offered: {offered} moves/s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=50, help="games played at once (default 50)")
    parser.add_argument(
        "--rate", type=float, default=500, help="moves/s offered in all, 0: as fast as possible (default 500)"
    )
    parser.add_argument("--seconds", type=float, default=60, help="stop after this long (default 60)")
    parser.add_argument("--db", default="sqlite,postgres", help="stores to measure (default both)")
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/test")
    args = parser.parse_args()
    for kind in args.db.split(","):
        with store_for(kind, args.postgres) as db, local_server(db) as url:
            run, finished = asyncio.run(load(url, args.games, args.rate, args.seconds))
        report(kind, run, finished, args.games, f"{args.rate:g}" if args.rate else "max")


if __name__ == "__main__":
    main()
