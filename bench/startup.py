"""Wall time of `carc` commands that should answer at once: `--help`, and the scores of a recorded
base game. Median of several runs, each a fresh process; `python -c pass` measured alongside, so
the figures can be read against this machine's own start-up cost.

    python bench/startup.py [--runs 10]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from domain.bots import play_bot_game
from replays import records

CARC = str(Path(sys.executable).with_name("carc"))


def wall_ms(command: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=10, help="runs of each command (default 10)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        game = Path(folder) / "base.jsonl"
        records.write(play_bot_game(2, 1).collect_events(), game)
        rows = [
            ("python -c pass", [sys.executable, "-c", "pass"]),
            ("carc --help", [CARC, "--help"]),
            ("carc scores FILE (base game)", [CARC, "scores", str(game)]),
            ("carc scores FILE --json", [CARC, "scores", str(game), "--json"]),
        ]
        print(f"{'command':>30} {'median ms':>10}")
        for label, command in rows:
            print(f"{label:>30} {wall_ms(command, args.runs):>10.0f}")
    print("goal: carc --help and carc scores FILE within 250 ms of wall time")


if __name__ == "__main__":
    main()
