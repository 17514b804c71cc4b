"""An HTTP client for the service, and a random player that plays whole games through it.

Answers are decoded into the service's own Structs, so a client that drifts from the server
fails loudly. Used by the tests and by `bench/load.py`.
"""

from __future__ import annotations

import itertools
import random
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import TypeVar
from uuid import UUID, uuid4

import httpx
import msgspec

from domain.commands import AnyCommand
from domain.events import GameEvent
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
    def __init__(self, base_url: str, *, timeout: float = 30.0) -> None:
        self.http = httpx.AsyncClient(base_url=base_url, timeout=timeout)

    async def __aenter__(self) -> CarcClient:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.http.aclose()

    async def create_game(
        self,
        players: Sequence[str],
        *,
        expansions: Sequence[str] = ("base",),
        rules: RuleSet | None = None,
        seed: int | None = None,
    ) -> GameCreated:
        body = NewGame(
            players=tuple(players), expansions=tuple(expansions), rules=rules or RuleSet(), seed=seed
        )
        return await self._call("POST", "/games", GameCreated, body)

    async def join(self, game: UUID, seat: int) -> SeatToken:
        return await self._call("POST", f"/games/{game}/seats/{seat}", SeatToken)

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
        async with self.http.stream("GET", f"/games/{game}/events", params={"after": after}) as response:
            if response.status_code >= 400:
                await response.aread()
                raise ApiError(msgspec.json.decode(response.content, type=Problem))
            data: list[str] = []
            async for line in response.aiter_lines():
                if line.startswith("data:"):
                    data.append(line.removeprefix("data:").removeprefix(" "))
                elif not line and data:
                    yield _EVENT.decode("\n".join(data))
                    data = []

    async def _call(
        self,
        method: str,
        path: str,
        answer: type[T],
        body: msgspec.Struct | None = None,
        headers: dict[str, str] | None = None,
    ) -> T:
        content = msgspec.json.encode(body) if body is not None else None
        all_headers = {"Content-Type": "application/json", **(headers or {})}
        response = await self.http.request(method, path, content=content, headers=all_headers)
        if response.status_code >= 400:
            raise ApiError(msgspec.json.decode(response.content, type=Problem))
        return msgspec.json.decode(response.content, type=answer)


async def play_random_game(
    clients: Sequence[CarcClient],
    players: Sequence[str],
    seed: int,
    *,
    rules: RuleSet | None = None,
    after_move: Callable[[MoveAnswer, float], None] | None = None,
) -> UUID:
    """Create a game, claim every seat and play it to the end with uniformly random legal moves.

    Requests go to `clients` in turn (several servers may share one store). Each move is sent
    with the version it was chosen at; `after_move` gets each answer and its seconds of latency.
    """
    rng = random.Random(seed)
    turns = itertools.cycle(clients)
    game = (await next(turns).create_game(players, rules=rules, seed=seed)).game
    tokens = [(await next(turns).join(game, seat)).token for seat in range(len(players))]
    view: GameView | MoveAnswer = await next(turns).game(game)
    while not view.over:
        started = time.perf_counter()
        view = await next(turns).move(
            game, tokens[view.current], rng.choice(view.legal_moves), expected_version=view.version
        )
        if after_move is not None:
            after_move(view, time.perf_counter() - started)
    return game


CARC = str(Path(sys.executable).parent / "carc")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def local_server(db: str, timeout: float = 20.0) -> Iterator[str]:
    """A `carc serve` process on a free port of 127.0.0.1, stopped on exit; yields its base URL."""
    port = free_port()
    process = subprocess.Popen([CARC, "serve", "--db", db, "--port", str(port)])
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"carc serve exited with {process.returncode}")
            try:
                # An unknown game: a cheap request that answers 404 once the app is up.
                if httpx.get(f"{url}/games/{uuid4()}", timeout=1).status_code == 404:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("carc serve did not start in time")
            time.sleep(0.05)
        yield url
    finally:
        process.terminate()
        process.wait(10)
