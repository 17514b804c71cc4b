"""Exporting the analytics tables of 1,000 stored games: seconds and peak memory.

Stores finished 2-player bot games in SQLite (a temporary file), then runs
`carc export-analytics` on them in a child process, once per format, and reports its wall time
and its peak resident memory (the child's own, so the games played here do not count).

    python bench/analytics.py [--games 1000] [--players 2] [--expansions base]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from domain.bots import play_bot_game
from domain.store import open_store


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=1000, help="stored games (default 1000)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--expansions", default="base")
    args = parser.parse_args()
    expansions = tuple(args.expansions.split(","))
    carc = Path(sys.executable).with_name("carc")
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "bench.sqlite")
        store = open_store(db)
        for seed in range(args.games):
            store.save_game(play_bot_game(args.players, seed, expansions=expansions))
        store.close()
        print(
            f"export-analytics of {args.games} stored {args.players}-player games ({', '.join(expansions)})"
        )
        for fmt in ("parquet", "csv"):
            out = Path(tmp) / fmt
            start = time.perf_counter()
            child = subprocess.Popen(
                [str(carc), "export-analytics", "--db", db, "--format", fmt, "-o", str(out), "--json"],
                stdout=subprocess.DEVNULL,
            )
            _, status, usage = os.wait4(child.pid, 0)
            seconds = time.perf_counter() - start
            if status != 0:
                sys.exit(f"carc export-analytics failed (status {status})")
            size = sum(f.stat().st_size for f in out.iterdir())
            # ru_maxrss is in kilobytes on Linux.
            print(
                f"{fmt:>8}: {seconds:.1f} s, peak RSS {usage.ru_maxrss / 1024:.0f} MB, "
                f"{size / 1e6:.1f} MB written"
            )
    print("target: 1,000 games in under 30 s")


if __name__ == "__main__":
    main()
