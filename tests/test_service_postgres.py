"""The service on PostgreSQL: two server processes share one store, a projection worker follows it
and is killed (SIGKILL) mid-game; nothing is lost, nothing counted twice."""

from __future__ import annotations

import asyncio
import signal
import time
from typing import Any
from uuid import UUID

from domain.store import open_store
from projections.projector import score_rows, summary
from projections.views import open_views
from service.client import ApiError, CarcClient, local_server, play_random_game
from service.schema import MoveAnswer
from service.visibility import PublicView
from tests.servers import start_projector


def wait_for_projection(url: str, game: UUID, version: int, timeout: float = 20.0) -> None:
    views = open_views(url)
    try:
        deadline = time.monotonic() + timeout
        while (found := views.summary(game)) is None or found.version < version:
            assert time.monotonic() < deadline, f"projection stuck at {found}"
            time.sleep(0.05)
    finally:
        views.datastore.close()


def test_two_servers_one_store_and_a_projection_worker_that_crashes(postgres_url: str) -> None:
    worker = start_projector(postgres_url)
    kills = moves = 0

    def crash_the_worker_mid_game(answer: MoveAnswer, _: float) -> None:
        nonlocal worker, kills, moves
        moves += 1
        if moves in (20, 70):
            worker.send_signal(signal.SIGKILL)
            worker.wait(10)
            kills += 1
            worker = start_projector(postgres_url)

    async def play(urls: list[str]) -> tuple[UUID, list[Any]]:
        clients = [CarcClient(u) for u in urls]
        try:
            spectator = asyncio.create_task(watch(clients[1], urls))
            game = await play_random_game(clients, ["Ann", "Bob"], 21, after_move=crash_the_worker_mid_game)
            return game, await spectator
        finally:
            for c in clients:
                await c.close()

    async def watch(client: CarcClient, urls: list[str]) -> list[Any]:
        # The spectator learns of the game from the store's first game.
        while True:
            store = open_store(postgres_url)
            started = list(store.started_games())
            store.close()
            if started:
                return [e async for e in client.events(started[0].originator_id)]
            await asyncio.sleep(0.05)

    try:
        with local_server(postgres_url) as first, local_server(postgres_url) as second:
            game, seen = asyncio.run(play([first, second]))
            store = open_store(postgres_url)
            stored = store.game_events(game)
            played = store.load(game)
            store.close()
            wait_for_projection(postgres_url, game, played.version)
    finally:
        worker.terminate()
        worker.wait(10)

    assert kills == 2
    assert [e.originator_version for e in stored] == list(range(1, len(stored) + 1))
    assert seen[1:] == stored[1:]  # the first came while the game ran: without its pile
    assert seen[0] == PublicView(lambda: []).show(stored[:1], over=False)[0]
    views = open_views(postgres_url)
    assert views.summary(game) == summary(played)
    assert views.score_rows(game) == score_rows(played)
    views.datastore.close()


def test_moves_racing_through_two_servers_one_wins(postgres_url: str) -> None:
    async def race(urls: list[str]) -> None:
        clients = [CarcClient(u) for u in urls]
        try:
            game = (await clients[0].create_game(["Ann", "Bob"], seed=2)).game
            tokens = [(await clients[seat].join(game, seat)).token for seat in (0, 1)]
            for _ in range(3):
                view = await clients[0].game(game)
                tries = [
                    clients[i % 2].move(
                        game, tokens[view.current], view.legal_moves[0], expected_version=view.version
                    )
                    for i in range(10)
                ]
                results = await asyncio.gather(*tries, return_exceptions=True)
                assert sum(isinstance(r, MoveAnswer) for r in results) == 1
                assert {r.status for r in results if isinstance(r, ApiError)} == {409}
                assert len(results) == 10
        finally:
            for c in clients:
                await c.close()

    with local_server(postgres_url) as first, local_server(postgres_url) as second:
        asyncio.run(race([first, second]))
