"""Streams that end and cost nothing, and a server that sheds what it should (issue 16.3, 16.4):
a stream past a game's end is refused, idle streams wake only when their game changes (one store
query a tick for the whole process), each client and game hold a bounded number of streams, a
request sent in part is cut off, SIGTERM stops the server with streams open, and the games kept
in memory are bounded."""

from __future__ import annotations

import asyncio
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from uuid import UUID, uuid4

import httpx
import pytest

from service.client import CARC, free_port, wait_until_up
from service.games import GameService
from service.store import open_service_store
from service.streams import GameWatch


def start(db: Path, *options: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [CARC, "serve", "--db", str(db), "--port", str(port), "--no-access-log", *options]
    process = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    wait_until_up(process, url)
    return process, url


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    process, url = start(tmp_path / "s.sqlite", "--streams-per-client", "2", "--request-timeout", "0.5")
    yield url
    process.terminate()
    process.wait(10)


def new_game(url: str) -> str:
    game: str = httpx.post(f"{url}/games", json={"players": ["Ann", "Bob"], "seed": 1}).json()["game"]
    return game


def test_a_stream_after_the_last_event_is_refused(server: str) -> None:
    game = new_game(server)
    version = httpx.get(f"{server}/games/{game}").json()["version"]
    answer = httpx.get(f"{server}/games/{game}/events", params={"after": version + 1})
    assert answer.status_code == 400
    assert f"none numbered {version + 1}" in answer.json()["message"]


def test_a_client_holds_a_bounded_number_of_streams(server: str) -> None:
    game = new_game(server)
    with httpx.Client(timeout=5) as client:
        with (
            client.stream("GET", f"{server}/games/{game}/events") as first,
            client.stream("GET", f"{server}/games/{game}/events") as second,
        ):
            assert (first.status_code, second.status_code) == (200, 200)
            # Each stream is open and served (its lines kept: a dropped iterator closes it).
            lines = [first.iter_lines(), second.iter_lines()]
            assert all(next(it).startswith("id:") for it in lines)
            third = client.get(f"{server}/games/{game}/events")
            assert third.status_code == 429
            assert third.headers["retry-after"] == "10"
        # Closed streams are given back.
        with client.stream("GET", f"{server}/games/{game}/events") as again:
            assert again.status_code == 200


def test_a_request_sent_in_part_is_cut_off(server: str) -> None:
    host, port = server.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port))) as half:
        half.sendall(b"GET /heal")
        half.settimeout(5)
        started = time.monotonic()
        assert half.recv(100) == b""  # closed by the server
        assert time.monotonic() - started < 4


def test_sigterm_stops_the_server_with_a_stream_open(tmp_path: Path) -> None:
    process, url = start(tmp_path / "s.sqlite")
    game = new_game(url)
    with httpx.Client(timeout=10) as client, client.stream("GET", f"{url}/games/{game}/events") as stream:
        lines = stream.iter_lines()
        assert next(lines).startswith("id:")
        process.send_signal(signal.SIGTERM)
        list(lines)  # the stream ends…
        assert process.wait(8) in (0, -signal.SIGTERM)  # …and the server stops, well within 8 s


class NoSubscriptions:
    def subscribe(self, gt: int | None = None) -> None:
        raise NotImplementedError  # as SQLite's recorder: the watch polls


class CountingStore:
    """A store that only counts what the watch asks of it."""

    recorder = NoSubscriptions()

    def __init__(self) -> None:
        self.position_reads = 0
        self.change_reads = 0
        self.position = 10

    def last_position(self) -> int:
        self.position_reads += 1
        return self.position

    def games_changed(self, after: int, until: int) -> set[UUID] | None:
        self.change_reads += 1
        return {CHANGED}


CHANGED = uuid4()


def test_idle_streams_cost_one_query_a_tick_whatever_their_number() -> None:
    async def scenario() -> CountingStore:
        store = CountingStore()
        watch = GameWatch(store, poll=0.01)  # type: ignore[arg-type]
        wakes: dict[UUID, int] = {}

        async def stream(game: UUID) -> None:  # as an event stream waits: read, wait, again
            while not watch.closed:
                await watch.wait(game, watch.generation)
                wakes[game] = wakes.get(game, 0) + 1

        idle = [uuid4() for _ in range(500)]
        tasks = [asyncio.create_task(stream(game)) for game in [*idle, CHANGED]]
        await asyncio.sleep(0.2)
        # One query a tick, for 501 streams; each woke once, when the watch began.
        assert store.position_reads <= 0.2 / 0.01 + 2 and store.change_reads == 0
        assert {wakes.get(game, 0) for game in idle} == {1}
        store.position = 11  # another process stored an event of CHANGED
        await asyncio.sleep(0.1)
        assert store.change_reads == 1 and wakes[CHANGED] == 2
        assert {wakes[game] for game in idle} == {1}
        watch.close()
        await asyncio.gather(*tasks)
        return store

    asyncio.run(scenario())


def test_a_change_before_the_wait_is_not_missed() -> None:
    async def scenario() -> None:
        watch = GameWatch(CountingStore(), poll=10)  # type: ignore[arg-type]
        game = uuid4()
        seen = watch.generation  # a stream notes the generation, then reads…
        watch.notify({game})  # …an event is stored meanwhile…
        await asyncio.wait_for(watch.wait(game, seen), 1)  # …and the wait returns at once

    asyncio.run(scenario())


def test_the_games_kept_in_memory_are_bounded(tmp_path: Path) -> None:
    async def scenario() -> int:
        games = GameService(open_service_store(str(tmp_path / "s.sqlite")), cached_games=3)
        created = [(await games.create(["Ann", "Bob"], ("base",), RuleSet(), n))[0].id for n in range(6)]
        for game in created:
            await games.read(game, lambda g: g.version)
        kept = games.games_in_memory
        await games.close()
        return kept

    from domain.rules import RuleSet

    assert asyncio.run(scenario()) == 3


def test_on_postgresql_streams_are_woken_by_notifications_not_polling(postgres_url: str) -> None:
    from domain.bots import play_bot_game
    from domain.store import open_store

    async def scenario() -> int:
        store = open_service_store(postgres_url)
        reads = 0
        position = store.last_position

        def counted() -> int:
            nonlocal reads
            reads += 1
            return position()

        store.last_position = counted  # type: ignore[method-assign]
        watch = GameWatch(store, poll=0.01)
        game = play_bot_game(2, 3)
        first = asyncio.create_task(watch.wait(game.id, watch.generation))
        await asyncio.sleep(0.3)  # idle: with polling, some 30 reads by now
        assert first.done()  # woken once as the subscription began, as every stream is
        waiting = asyncio.create_task(watch.wait(game.id, watch.generation))
        await asyncio.sleep(0.1)
        assert not waiting.done()
        # Another process stores the game's events: its insert notifies the store's channel.
        other = open_store(postgres_url)
        await asyncio.to_thread(other.save_game, game)
        other.close()
        while not waiting.done():  # woken, or the test times out
            await asyncio.sleep(0.01)
        watch.close()
        store.close()
        return reads

    assert asyncio.run(asyncio.wait_for(scenario(), 20)) == 1  # the position the subscription starts at
