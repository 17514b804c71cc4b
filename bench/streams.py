"""What idle event streams and cached games cost the service.

1. Move latency with 0 and with `--streams` idle event streams open (spectators of games where
   nothing happens), and the server's CPU while only those streams are open: streams wait for
   their game instead of polling, so neither should move.
2. Memory of games kept in memory: the growth of the server's resident size while it loads 1,000
   complete 2-player games into its cache (`--cache-games`), per 1,000 games.

    python bench/streams.py [--streams 500] [--moves 300] [--games 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import tempfile
from contextlib import AsyncExitStack
from pathlib import Path

import httpx

from domain.bots import play_bot_game
from domain.store import open_store
from service.client import CARC, CarcClient, free_port, play_random_game, wait_until_up

TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def rss_mb(pid: int) -> float:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE / 2**20


def start_server(db: Path, *options: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [CARC, "serve", "--db", str(db), "--port", str(port), "--no-access-log", *options]
    process = subprocess.Popen(command)
    url = f"http://127.0.0.1:{port}"
    wait_until_up(process, url)
    return process, url


async def move_latencies(url: str, moves: int) -> list[float]:
    """Milliseconds of each move of random games played one after another."""
    latencies: list[float] = []
    seed = 0
    async with CarcClient(url) as client:
        while len(latencies) < moves:
            seed += 1
            await play_random_game(
                [client], ["Ann", "Bob"], seed, after_move=lambda _, s: latencies.append(s * 1000)
            )
    return latencies[:moves]


async def with_idle_streams(url: str, streams: int, moves: int, pid: int) -> tuple[list[float], float]:
    """Move latencies while `streams` event streams wait on idle games, and the server's CPU
    share over 3 s with only those streams open."""
    async with (
        httpx.AsyncClient(timeout=30, limits=httpx.Limits(max_connections=streams + 10)) as http,
        AsyncExitStack() as stack,
    ):
        games = [
            (await http.post(f"{url}/games", json={"players": ["Ann", "Bob"], "seed": n})).json()["game"]
            for n in range(max(1, streams // 100))
        ]
        lines = []
        for n in range(streams):
            response = await stack.enter_async_context(
                http.stream("GET", f"{url}/games/{games[n % len(games)]}/events")
            )
            lines.append(response.aiter_lines())
            await anext(lines[-1])  # open and served
        before = cpu_seconds(pid)
        await asyncio.sleep(3)
        idle_cpu = (cpu_seconds(pid) - before) / 3
        return await move_latencies(url, moves), idle_cpu


def percentile(values: list[float], share: float) -> float:
    return statistics.quantiles(values, n=100)[round(share * 100) - 1]


def store_played_games(db: Path, games: int) -> list[str]:
    """`games` complete 2-player bot games, stored as `carc play` stores them."""
    store = open_store(str(db))
    ids = []
    for seed in range(games):
        game = play_bot_game(2, seed)
        store.save_game(game)
        ids.append(str(game.id))
    store.close()
    return ids


async def cache_memory(url: str, ids: list[str], pid: int) -> float:
    """MB of the server's resident size per 1,000 complete games loaded into its cache."""
    async with httpx.AsyncClient(timeout=30) as http:
        before = rss_mb(pid)
        for game in ids:
            (await http.get(f"{url}/games/{game}/scores")).raise_for_status()
        return (rss_mb(pid) - before) / len(ids) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=500, help="idle event streams to open")
    parser.add_argument("--moves", type=int, default=300, help="moves timed in each run")
    parser.add_argument("--games", type=int, default=1000, help="games loaded into the cache")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for streams in (0, args.streams):
            process, url = start_server(
                Path(folder) / f"s{streams}.sqlite", "--streams-per-client", str(streams + 10)
            )
            try:
                latencies, idle_cpu = asyncio.run(with_idle_streams(url, streams, args.moves, process.pid))
            finally:
                process.terminate()
                process.wait(20)
            print(
                f"{streams:4d} idle streams: move p50 {percentile(latencies, 0.5):5.1f} ms, "
                f"p99 {percentile(latencies, 0.99):5.1f} ms; server CPU while idle {idle_cpu * 100:4.1f} %"
            )
        ids = store_played_games(Path(folder) / "cache.sqlite", args.games)
        process, url = start_server(Path(folder) / "cache.sqlite", "--cache-games", str(args.games))
        try:
            per_thousand = asyncio.run(cache_memory(url, ids, process.pid))
        finally:
            process.terminate()
            process.wait(20)
        print(
            f"complete games kept in memory: {per_thousand:.0f} MB per 1,000 games (bounded by --cache-games)"
        )


if __name__ == "__main__":
    main()
