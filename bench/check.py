"""`carc check` over the reference games: milliseconds per game to import, validate and score.

Each game is read, its draws reproduced, replayed through the engine with the legal placements
compared at every tile and the scores at every turn part (`replays.check.check_file`). Figures
are medians per set; games the engine cannot replay yet are reported as skipped.

    python bench/check.py [--rounds 5] [--folder ../shared/reference/jcz/oracle …]
    python bench/check.py --jcz-cmd "java … ReplayBench"   # JCloisterZone side by side

With `--jcz-cmd`, the same saves are also replayed by JCloisterZone's own engine, in the same run:
the command is run once with every save's path as arguments and must print one line per save,
`PATH<TAB>MILLISECONDS` (its median warm replay) or `PATH<TAB>error<TAB>WHY`. The project holds
no JCloisterZone code and no script that builds it; README's benchmark section says how the
figures below were obtained. Each set then shows both medians and their ratio.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
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
        help="a folder of saves (repeatable; default: oracle, oracle-wave1 and oracle-wave2)",
    )
    parser.add_argument(
        "--jcz-cmd",
        help="a command timing JCloisterZone's warm replay of the saves given as its arguments",
    )
    args = parser.parse_args()
    folders = args.folder or [
        SHARED / "reference" / "jcz" / "oracle",
        SHARED / "reference" / "jcz" / "oracle-wave1",
        SHARED / "reference" / "jcz" / "oracle-wave2",
    ]
    files = jcz_paths(folders)
    if not files:
        raise SystemExit(f"no .jcz files in {', '.join(map(str, folders))}")
    times: dict[str, list[float]] = {}
    skipped: dict[str, int] = {}
    failed: list[str] = []
    labels: dict[str, tuple[str, float]] = {}  # path -> (its sets, our median seconds)
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
        labels[str(path)] = (label, statistics.median(rounds))
    if args.jcz_cmd:
        side_by_side(times, labels, jcz_times(args.jcz_cmd, [p for p in files if str(p) in labels]))
        return
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


def jcz_times(command: str, files: list[Path]) -> dict[str, float]:
    """JCloisterZone's median warm replay of each save, in seconds, as `command` prints them."""
    done = subprocess.run(
        [*shlex.split(command), *map(str, files)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"--jcz-cmd failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    found: dict[str, float] = {}
    for line in done.stdout.splitlines():
        path, _, rest = line.partition("\t")
        if rest and not rest.startswith("error"):
            found[path] = float(rest) / 1e3
        elif rest:
            print(f"JCloisterZone could not replay {path}: {rest.removeprefix('error').strip()}")
    return found


def side_by_side(
    ours: dict[str, list[float]], labels: dict[str, tuple[str, float]], theirs: dict[str, float]
) -> None:
    jcz: dict[str, list[float]] = {}
    both: dict[str, list[float]] = {}
    for path, seconds in theirs.items():
        label, mine = labels[path]
        jcz.setdefault(label, []).append(seconds)
        both.setdefault(label, []).append(mine)
    print(f"carc check and JCloisterZone's warm replay of the same {len(theirs)} saves, in one run")
    print(f"{'sets':>32} {'games':>6} {'carc ms/game':>13} {'JCZ ms/game':>12} {'JCZ/carc':>9}")
    medians: dict[str, tuple[float, float]] = {}
    for label in sorted(jcz, key=lambda s: (s.count("+"), s)):
        mine, their = statistics.median(both[label]) * 1e3, statistics.median(jcz[label]) * 1e3
        medians[label] = (mine, their)
        print(f"{label:>32} {len(jcz[label]):>6} {mine:>13.2f} {their:>12.2f} {their / mine:>8.1f}x")
    if "base" in medians:
        base_ours, base_theirs = medians["base"]
        widest = max(medians, key=lambda s: s.count("+"))
        mine, their = medians[widest]
        print(
            f"{widest} against base: carc {mine / base_ours:.1f}x, JCloisterZone {their / base_theirs:.1f}x"
        )
    print("goal: carc at least 5x faster than JCloisterZone on every set (JCZ/carc >= 5)")


if __name__ == "__main__":
    main()
