"""Servers and workers starting together on an empty PostgreSQL schema all come up (issue 14.2):
the tables are created under a lock, and `carc db init` creates them beforehand."""

from __future__ import annotations

import asyncio
import json
import subprocess
from concurrent.futures import ProcessPoolExecutor

from domain.store import open_store
from projections.views import open_views
from service.client import CARC, CarcClient, start_server, wait_until_up
from service.store import open_service_store


def _open_everything(url: str) -> str:
    try:
        open_service_store(url).close()
        open_views(url).datastore.close()
    except Exception as e:  # the answer names what went wrong in the child process
        return f"{type(e).__name__}: {e}"
    return "ok"


def test_four_processes_opening_an_empty_schema_at_once_all_succeed(postgres_url: str) -> None:
    with ProcessPoolExecutor(4) as pool:
        assert list(pool.map(_open_everything, [postgres_url] * 4)) == ["ok"] * 4


def test_two_servers_starting_at_once_on_an_empty_schema_both_come_up(postgres_url: str) -> None:
    servers = [start_server(postgres_url) for _ in range(2)]
    try:
        for process, url in servers:
            wait_until_up(process, url)
        assert asyncio.run(_create_on_one_read_on_other(*(url for _, url in servers)))
    finally:
        for process, _ in servers:
            process.terminate()
            process.wait(10)


async def _create_on_one_read_on_other(first: str, second: str) -> bool:
    async with CarcClient(first) as one, CarcClient(second) as other:
        created = await one.create_game(["Ann", "Bob"], seed=1)
        return (await other.game(created.game)).version == created.version


def test_db_init_creates_the_tables_once_and_again(postgres_url: str) -> None:
    for _ in range(2):
        done = subprocess.run(
            [CARC, "db", "init", "--db", postgres_url, "--json"], capture_output=True, check=False
        )
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == {"db": postgres_url, "ready": True}
    assert list(open_store(postgres_url).started_games()) == []
