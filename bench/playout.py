"""Random bot games: complete games per second and legal-move generations per second.

Every game is played through the aggregate: legal placements and deployments computed every
turn, every event recorded. Prints figures only; nothing here asserts a time.

    python bench/playout.py [--games N] [--expansions base]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from domain.aggregate import Game
from domain.bots import RandomBot, play_bot_game, shuffled_pile
from domain.moves import legal_commands


def time_games(players: int, games: int, expansions: tuple[str, ...]) -> tuple[list[float], int]:
    times: list[float] = []
    events = 0
    for seed in range(games):
        start = time.perf_counter()
        game = play_bot_game(players, seed, expansions=expansions)
        times.append(time.perf_counter() - start)
        events += game.version
    return times, events


def time_move_generation(players: int, games: int, expansions: tuple[str, ...]) -> tuple[int, float]:
    """Legal placements (plus deployments after each placement) generated in every position."""
    generations = 0
    spent = 0.0
    clock = time.perf_counter
    for seed in range(games):
        rng = random.Random(seed)
        game = Game.start(
            [f"P{i}" for i in range(players)], shuffled_pile(expansions, rng), expansions=expansions
        )
        bot = RandomBot(rng)
        state = game.state
        while not state.over:
            start = clock()
            legal_commands(state)
            spent += clock() - start
            generations += 1
            game.execute(*bot.choose(state))
    return generations, spent


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200, help="games per player count (default 200)")
    parser.add_argument("--expansions", default="base", help="comma-separated sets (default base)")
    args = parser.parse_args()
    expansions = tuple(args.expansions.split(","))
    print(f"random bot games, sets {', '.join(expansions)}, {args.games} games per row")
    print(
        f"{'players':>7} {'median ms/game':>15} {'p90 ms/game':>12} {'games/s':>9} {'events/s':>10} "
        f"{'movegen/s':>10} {'µs/movegen':>11}"
    )
    for players in range(2, 6):
        play_bot_game(players, 10_000, expansions=expansions)  # warm caches
        times, events = time_games(players, args.games, expansions)
        generations, spent = time_move_generation(players, max(1, args.games // 4), expansions)
        median = statistics.median(times)
        p90 = statistics.quantiles(times, n=10)[-1]
        print(
            f"{players:>7} {median * 1e3:>15.2f} {p90 * 1e3:>12.2f} {len(times) / sum(times):>9.0f} "
            f"{events / sum(times):>10.0f} {generations / spent:>10.0f} {spent / generations * 1e6:>11.1f}"
        )
    print("target: 2-player base game at most 5 ms median (ms/game)")


if __name__ == "__main__":
    main()
