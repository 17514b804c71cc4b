"""Importing a recorded game: read the file, check every event, store it (milliseconds per game).

Writes finished bot games as recorded-game files, then times what `carc import` does for each:
`records.read` (parse and strict replay) and one save into SQLite (a temporary file).

    python bench/records.py [--games N] [--players 2] [--expansions base]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from domain.bots import play_bot_game
from domain.store import open_store
from replays import records


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100, help="recorded games (default 100)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--expansions", default="base")
    args = parser.parse_args()
    expansions = tuple(args.expansions.split(","))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        files = []
        for seed in range(args.games):
            path = folder / f"{seed}.jsonl"
            records.write(play_bot_game(args.players, seed, expansions=expansions).collect_events(), path)
            files.append(path)
        store = open_store(str(folder / "bench.sqlite"))
        validate: list[float] = []
        total: list[float] = []
        for path in files:
            start = time.perf_counter()
            _, events = records.read(path)
            checked = time.perf_counter()
            store.save(*events)
            total.append(time.perf_counter() - start)
            validate.append(checked - start)
        store.close()
    print(f"import {args.games} recorded {args.players}-player games ({', '.join(expansions)}) into SQLite")
    print(f"read + validate: {statistics.median(validate) * 1e3:.2f} ms/game median")
    print(
        f"read + validate + store: {statistics.median(total) * 1e3:.2f} ms/game median, "
        f"p90 {statistics.quantiles(total, n=10)[-1] * 1e3:.2f} ms/game"
    )
    print("target: 2-player base+bcb+tb game imported in under 20 ms median (ms/game)")


if __name__ == "__main__":
    main()
