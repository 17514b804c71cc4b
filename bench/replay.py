"""Rebuilding stored games from their events: games per second and events per second.

Stores finished 2-player bot games in SQLite (a temporary file) and in memory, then times
`GameStore.load`, which reads every event and folds it into a fresh game.

    python bench/replay.py [--games N] [--players 2] [--expansions base]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from uuid import UUID

from domain.bots import play_bot_game
from domain.store import GameStore, open_store


def time_loads(store: GameStore, ids: list[UUID], rounds: int) -> list[float]:
    times: list[float] = []
    for _ in range(rounds):
        for game_id in ids:
            start = time.perf_counter()
            store.load(game_id)
            times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=50, help="stored games (default 50)")
    parser.add_argument("--rounds", type=int, default=5, help="loads of each game (default 5)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--expansions", default="base")
    args = parser.parse_args()
    expansions = tuple(args.expansions.split(","))
    games = [play_bot_game(args.players, seed, expansions=expansions) for seed in range(args.games)]
    recorded = [game.collect_events() for game in games]
    events = sum(len(r) for r in recorded) / len(games)
    print(
        f"rebuild {args.games} finished {args.players}-player games ({', '.join(expansions)}), "
        f"{events:.0f} events each on average, {args.rounds} loads each"
    )
    print(f"{'store':>8} {'median ms/game':>15} {'p90 ms/game':>12} {'games/s':>9} {'events/s':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for label, url in (("sqlite", str(Path(tmp) / "bench.sqlite")), ("memory", "memory")):
            store = open_store(url)
            for game_events in recorded:
                store.save_events(game_events)
            ids = [g.id for g in games]
            time_loads(store, ids[:5], 1)  # warm up
            times = time_loads(store, ids, args.rounds)
            median = statistics.median(times)
            p90 = statistics.quantiles(times, n=10)[-1]
            print(
                f"{label:>8} {median * 1e3:>15.2f} {p90 * 1e3:>12.2f} {len(times) / sum(times):>9.0f} "
                f"{events * len(times) / sum(times):>10.0f}"
            )
            store.close()
    print("target: 2-player base game rebuilt from SQLite in at most 3 ms median (ms/game)")


if __name__ == "__main__":
    main()
