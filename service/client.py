"""An HTTP client for the service, and a random player that plays whole games through it.

Answers are decoded into the service's own Structs, so a client that drifts from the server
fails loudly. Used by the tests and by `bench/load.py`.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar
from uuid import UUID

import aiohttp
import msgspec

from domain.expansions import AnyCommand, GameEvent
from domain.rules import RuleSet
from projections.scores import ScoreReport
from service.schema import GameCreated, GameView, MoveAnswer, MoveBody, NewGame, Problem, SeatToken

T = TypeVar("T")
_EVENT = msgspec.json.Decoder(GameEvent)


class ApiError(Exception):
    """The service refused a request; `problem` is its answer."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(f"{problem.status}: {problem.message}")
        self.problem = problem

    @property
    def status(self) -> int:
        return self.problem.status


class CarcClient:
    """The service's API as coroutines; one per process or task group, closed with `close()`."""

    def __init__(self, base_url: str, *, timeout: float = 30.0) -> None:
        # aiohttp rather than httpx: measured here, httpx's asyncio client spent about 1.6 ms of
        # CPU per request, as much as the server's whole move, and limited the load generator.
        self.http = aiohttp.ClientSession(
            base_url,
            timeout=aiohttp.ClientTimeout(total=timeout),
            connector=aiohttp.TCPConnector(limit=0),  # one kept-alive connection per concurrent request
        )

    async def __aenter__(self) -> CarcClient:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def close(self) -> None:
        await self.http.close()

    async def create_game(
        self,
        players: Sequence[str],
        *,
        expansions: Sequence[str] = ("base",),
        rules: RuleSet | None = None,
        seed: int | None = None,
        invitation: bool = False,
    ) -> GameCreated:
        body = NewGame(
            players=tuple(players),
            expansions=tuple(expansions),
            rules=rules or RuleSet(),
            seed=seed,
            seating="invitation" if invitation else "open",
        )
        return await self._call("POST", "/games", GameCreated, body)

    async def join(self, game: UUID, seat: int, invite: str | None = None) -> SeatToken:
        headers = {"Authorization": f"Bearer {invite}"} if invite else None
        return await self._call("POST", f"/games/{game}/seats/{seat}", SeatToken, headers=headers)

    async def game(self, game: UUID) -> GameView:
        return await self._call("GET", f"/games/{game}", GameView)

    async def scores(self, game: UUID) -> ScoreReport:
        return await self._call("GET", f"/games/{game}/scores", ScoreReport)

    async def move(
        self,
        game: UUID,
        token: str | None,
        command: AnyCommand,
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> MoveAnswer:
        headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
        if idempotency_key is not None:
            headers["Idempotency-Key"] = idempotency_key
        body = MoveBody(command=command, expected_version=expected_version)
        return await self._call("POST", f"/games/{game}/moves", MoveAnswer, body, headers)

    async def events(self, game: UUID, after: int = 0) -> AsyncIterator[GameEvent]:
        """The game's events after number `after`, as a spectator sees them, until its last."""
        no_limit = aiohttp.ClientTimeout(total=None)
        path = f"/games/{game}/events"
        async with self.http.get(path, params={"after": after}, timeout=no_limit) as response:
            if response.status >= 400:
                raise ApiError(msgspec.json.decode(await response.read(), type=Problem))
            data: list[str] = []
            async for raw in response.content:
                line = raw.decode().rstrip("\r\n")
                if line.startswith("data:"):
                    data.append(line.removeprefix("data:").removeprefix(" "))
                elif not line and data:
                    yield _EVENT.decode("\n".join(data))
                    data = []

    async def request(
        self, method: str, path: str, content: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        """A raw request: its status and body."""
        all_headers = {"Content-Type": "application/json", **(headers or {})}
        async with self.http.request(method, path, data=content, headers=all_headers) as response:
            return response.status, await response.read()

    async def _call(
        self,
        method: str,
        path: str,
        answer: type[T],
        body: msgspec.Struct | None = None,
        headers: dict[str, str] | None = None,
    ) -> T:
        content = msgspec.json.encode(body) if body is not None else None
        status, data = await self.request(method, path, content, headers)
        if status >= 400:
            raise ApiError(msgspec.json.decode(data, type=Problem))
        return msgspec.json.decode(data, type=answer)


async def play_random_game(
    clients: Sequence[CarcClient],
    players: Sequence[str],
    seed: int,
    *,
    expansions: Sequence[str] = ("base",),
    rules: RuleSet | None = None,
    interval: float = 0.0,
    after_move: Callable[[MoveAnswer, float], None] | None = None,
) -> UUID:
    """Create a game, claim every seat and play it to the end with uniformly random legal moves.

    Requests go to `clients` in turn (several servers may share one store). Each move is sent
    with the version it was chosen at, `interval` seconds after the previous one was due (as
    soon as possible if 0). `after_move` gets each answer and its latency in seconds, counted
    from when the move was due, so a server that falls behind cannot hide its backlog.
    """
    rng = random.Random(seed)
    turns = itertools.cycle(clients)
    game = (await next(turns).create_game(players, expansions=expansions, rules=rules, seed=seed)).game
    tokens = [(await next(turns).join(game, seat)).token for seat in range(len(players))]
    view: GameView | MoveAnswer = await next(turns).game(game)
    due = time.perf_counter() + rng.random() * interval  # games spread over the interval
    while not view.over:
        if interval:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
        else:
            due = time.perf_counter()
        view = await next(turns).move(
            game, tokens[view.current], rng.choice(view.legal_moves), expected_version=view.version
        )
        if after_move is not None:
            after_move(view, time.perf_counter() - due)
        due += interval
    return game


CARC = str(Path(sys.executable).parent / "carc")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def local_server(db: str, timeout: float = 20.0, *, access_log: bool = False) -> Iterator[str]:
    """A `carc serve` process on a free port of 127.0.0.1, stopped on exit; yields its base URL."""
    process, url = start_server(db, access_log=access_log)
    try:
        wait_until_up(process, url, timeout)
        yield url
    finally:
        process.terminate()
        process.wait(10)


def start_server(db: str, *, access_log: bool = False) -> tuple[subprocess.Popen[bytes], str]:
    """A `carc serve` process on a free port of 127.0.0.1, and its base URL; not yet answering."""
    port = free_port()
    log = "--access-log" if access_log else "--no-access-log"
    command = [CARC, "serve", "--db", db, "--port", str(port), log]
    return subprocess.Popen(command), f"http://127.0.0.1:{port}"


def wait_until_up(process: subprocess.Popen[Any], url: str, timeout: float = 20.0) -> None:
    """Return once the server at `url` answers; RuntimeError if it exits or takes too long."""
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"carc serve exited with {process.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=1):
                return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("carc serve did not start in time")
        time.sleep(0.05)
