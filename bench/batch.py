"""Batch audit throughput: games audited per second (every reading) in one process and on a
local Dask cluster, each process's peak memory, the scaling, and whether memory stays flat as
the number of games grows.

Games are 2-player games with Bridges, Castles & Bazaars and Traders & Builders, stored in a
temporary SQLite file; each is audited under its recorded rules and every alternative reading,
and its rows written as Parquet partitions, as `carc audit --all -o DIR` does.

    python bench/batch.py [--games 2000] [--workers 2]
"""

from __future__ import annotations

import argparse
import functools
import resource
import tempfile
import time
from pathlib import Path

from distributed import Client, LocalCluster

from domain.bots import play_bot_game
from domain.store import open_store
from replays.batch import AuditPart, Batch, Source, audit_task, run, write_partition


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def store_games(db: str, games: int) -> list[Source]:
    store = open_store(db)
    sources = []
    for seed in range(games):
        game = play_bot_game(2, seed, expansions=("base", "bcb", "tb"))
        store.save_game(game)
        sources.append(Source("game", str(game.id)))
    store.close()
    return sources


def audit(sources: list[Source], db: str, batch: Batch, folder: Path) -> float:
    """Seconds to audit `sources` and write their rows."""
    folder.mkdir()

    def done(index: int, part: AuditPart) -> None:
        write_partition(folder, index, part.rows)

    started = time.perf_counter()
    run(functools.partial(audit_task, db=db), sources, batch, done)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games stored and audited (default 2000)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes of the local cluster")
    args = parser.parse_args()
    sizes = sorted({max(1, args.games // 4), args.games})
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "games.sqlite")
        started = time.perf_counter()
        sources = store_games(db, args.games)
        print(f"stored {args.games} games in {time.perf_counter() - started:.1f} s")
        alone: dict[int, float] = {}
        for n in sizes:
            seconds = audit(sources[:n], db, Batch(workers=1), Path(tmp) / f"one-{n}")
            alone[n] = n / seconds
            print(f"one process, {n:5d} games: {alone[n]:6.1f} games/s, peak {peak_mb():.0f} MB")
        started = time.perf_counter()
        cluster = LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)  # type: ignore[no-untyped-call]
        print(f"local cluster of {args.workers} workers started in {time.perf_counter() - started:.1f} s")
        try:
            batch = Batch(scheduler=cluster.scheduler_address)
            for n in sizes:
                seconds = audit(sources[:n], db, batch, Path(tmp) / f"cluster-{n}")
                workers = client.run(peak_mb)
                print(
                    f"{args.workers} workers,   {n:5d} games: {n / seconds:6.1f} games/s "
                    f"({n / seconds / alone[n]:.2f}x one process); peak: this process {peak_mb():.0f} MB, "
                    f"workers {', '.join(f'{m:.0f}' for m in workers.values())} MB"
                )
        finally:
            client.close()  # type: ignore[no-untyped-call]
            cluster.close()


if __name__ == "__main__":
    main()
