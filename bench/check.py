"""`carc check` over the reference games: milliseconds per game to import, validate and score.

Each game is read, its draws reproduced, replayed through the engine with the legal placements
compared at every tile and the scores at every turn part (`replays.check.check_file`). Figures
are medians per set; games the engine cannot replay yet are reported as skipped.

    python bench/check.py [--rounds 5] [--folder ../shared/reference/jcz/oracle …]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from replays.check import check_file, jcz_paths

GOAL_MS = 10.0
# Where the tests find the shared reference data too (tests/reference.py), read in place.
SHARED = Path(os.environ.get("CARC_SHARED", Path(__file__).resolve().parents[2] / "shared"))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=5, help="checks of each game (default 5)")
    parser.add_argument(
        "--folder",
        type=Path,
        action="append",
        help="a folder of saves (repeatable; default: oracle and oracle-wave1)",
    )
    args = parser.parse_args()
    folders = args.folder or [
        SHARED / "reference" / "jcz" / "oracle",
        SHARED / "reference" / "jcz" / "oracle-wave1",
    ]
    files = jcz_paths(folders)
    if not files:
        raise SystemExit(f"no .jcz files in {', '.join(map(str, folders))}")
    times: dict[str, list[float]] = {}
    skipped: dict[str, int] = {}
    failed: list[str] = []
    for path in files:
        result = check_file(path)  # warm up, and learn the set and the verdict
        label = "+".join(result.sets)
        if result.verdict == "unsupported":
            skipped[label] = skipped.get(label, 0) + 1
            continue
        if result.verdict != "agrees":
            failed.append(f"{path.name}: {result.verdict}")
        rounds = []
        for _ in range(args.rounds):
            start = time.perf_counter()
            check_file(path)
            rounds.append(time.perf_counter() - start)
        # A game's time is the median of its rounds, so a busy moment of the machine does not count.
        times.setdefault(label, []).append(statistics.median(rounds))
    where = ", ".join(f.name for f in folders)
    print(f"carc check over {len(files)} games in {where}, {args.rounds} rounds each")
    print(f"{'sets':>28} {'games':>6} {'median ms/game':>15} {'max ms/game':>12}")
    for label in sorted(set(times) | set(skipped), key=lambda s: (s.count("+"), s)):
        if label in times:
            t = times[label]
            games = len(t)
            print(f"{label:>28} {games:>6} {statistics.median(t) * 1e3:>15.2f} {max(t) * 1e3:>12.2f}")
        else:
            print(f"{label:>28} {skipped[label]:>6}   skipped: the engine lacks these sets")
    every = [t for per_set in times.values() for t in per_set]
    if every:
        median, worst = statistics.median(every) * 1e3, max(every) * 1e3
        print(f"{'all':>28} {len(every):>6} {median:>15.2f} {worst:>12.2f}")
    for line in failed:
        print(f"not agreeing: {line}")
    print(f"goal: at most {GOAL_MS:.0f} ms per game (median)")


if __name__ == "__main__":
    main()
