"""Random bot games: complete games per second and legal-move generations per second.

Every game is played through the aggregate: legal placements and deployments computed every
turn, every event recorded. Prints figures only; nothing here asserts a time.

    python bench/playout.py [--games N] [--expansions base]
    python bench/playout.py --compare [--games N]   # each set with the base game, and all together

`--compare` plays 2-player games of the base game, of the base game with each other set and with
every set together, in one run, and prints each median with its ratio to the base game's.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from domain.aggregate import Game
from domain.bots import RandomBot, play_bot_game, shuffled_pile
from domain.moves import legal_commands
from domain.replay import DECISIONS
from domain.sets import SET_CODES
from domain.tiles import draw_pile


def time_games(players: int, games: int, expansions: tuple[str, ...]) -> tuple[list[float], int, int]:
    """Each game's seconds, then the events and the players' decisions of all games."""
    times: list[float] = []
    events = decisions = 0
    for seed in range(games):
        start = time.perf_counter()
        game = play_bot_game(players, seed, expansions=expansions)
        times.append(time.perf_counter() - start)
        events += game.version
        decisions += sum(type(e) in DECISIONS for e in game.pending)
    return times, events, decisions


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


# The sets compared by --compare, each with the base game, then all of them together: every set
# the registry has.
SETS = tuple(code for code in SET_CODES if code != "base")


def compare(games: int) -> None:
    rows = [("base",)] + [("base", code) for code in SETS] + [("base", *SETS)]
    print(f"2-player random bot games, {games} per row, ratio to the base game measured in this run")
    print(
        f"{'sets':>32} {'tiles':>5} {'median ms/game':>15} {'ratio':>6} {'ms/tile':>8} {'ratio':>6}"
        f" {'decisions':>9} {'µs/decision':>12} {'ratio':>6}"
    )
    base = base_tile = base_decision = 0.0
    for expansions in rows:
        play_bot_game(2, 10_000, expansions=expansions)  # warm caches
        times, _, decisions = time_games(2, games, expansions)
        median = statistics.median(times) * 1e3
        tiles = len(draw_pile(expansions))
        per_decision = sum(times) / decisions * 1e6
        base = base or median
        base_tile = base_tile or median / tiles
        base_decision = base_decision or per_decision
        print(
            f"{'+'.join(expansions):>32} {tiles:>5} {median:>15.2f} {median / base:>5.1f}x"
            f" {median / tiles:>8.3f} {median / tiles / base_tile:>5.1f}x"
            f" {decisions / games:>9.1f} {per_decision:>12.1f} {per_decision / base_decision:>5.1f}x"
        )
    print("goal: every set together at most 3x the base game (ratio per game)")
    print("ms/tile: the same time per tile of the pile, which grows with every set added")
    print("decisions: the players' per game (placements, deployments, passes, dragon steps…);")
    print("µs/decision: all games' time over all their decisions")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200, help="games per player count (default 200)")
    parser.add_argument("--expansions", default="base", help="comma-separated sets (default base)")
    parser.add_argument("--compare", action="store_true", help="each set and all together against base")
    args = parser.parse_args()
    if args.compare:
        compare(args.games)
        return
    expansions = tuple(args.expansions.split(","))
    print(f"random bot games, sets {', '.join(expansions)}, {args.games} games per row")
    print(
        f"{'players':>7} {'median ms/game':>15} {'p90 ms/game':>12} {'games/s':>9} {'events/s':>10} "
        f"{'movegen/s':>10} {'µs/movegen':>11}"
    )
    for players in range(2, 6):
        play_bot_game(players, 10_000, expansions=expansions)  # warm caches
        times, events, _ = time_games(players, args.games, expansions)
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
