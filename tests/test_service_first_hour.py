"""What a new user of `carc serve` sees: where it listens, a line per request, a health route
and a list of the stored games."""

from __future__ import annotations

import subprocess
import time
import urllib.request
from pathlib import Path

import httpx
import msgspec

from service.client import CARC, free_port, local_server, wait_until_up
from service.schema import GameList, Health


def test_serve_says_where_it_listens_and_logs_each_request(tmp_path: Path) -> None:
    port = free_port()
    command = [CARC, "serve", "--db", str(tmp_path / "s.sqlite"), "--port", str(port)]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(process, url)
        urllib.request.urlopen(f"{url}/games").close()
    finally:
        process.terminate()
        _, log = process.communicate(timeout=10)
    lines = log.splitlines()
    assert lines[0] == f"carc serve: listening on {url} (store {tmp_path / 's.sqlite'})"
    assert any('"GET /health HTTP/1.1" 200' in line for line in lines)
    assert any('"GET /games HTTP/1.1" 200' in line for line in lines)


def test_serve_without_access_log_says_only_where_it_listens(tmp_path: Path) -> None:
    port = free_port()
    command = [CARC, "serve", "--db", str(tmp_path / "s.sqlite"), "--port", str(port), "--no-access-log"]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    try:
        wait_until_up(process, f"http://127.0.0.1:{port}")
        time.sleep(0.1)
    finally:
        process.terminate()
        _, log = process.communicate(timeout=10)
    assert [line for line in log.splitlines() if "GET" in line] == []
    assert "listening on" in log


def test_health_answers_with_the_store_s_position(tmp_path: Path) -> None:
    with local_server(str(tmp_path / "s.sqlite")) as url:
        empty = msgspec.json.decode(httpx.get(f"{url}/health").content, type=Health)
        httpx.post(f"{url}/games", json={"players": ["Ann", "Bob"], "seed": 1}).raise_for_status()
        after = msgspec.json.decode(httpx.get(f"{url}/health").content, type=Health)
    assert (empty.status, after.status) == ("ok", "ok")
    assert empty.store_position == 0 < after.store_position


def test_games_are_listed_a_page_at_a_time_without_their_pile(tmp_path: Path) -> None:
    with local_server(str(tmp_path / "s.sqlite")) as url:
        created = []
        for n in range(5):
            answer = httpx.post(f"{url}/games", json={"players": [f"P{n}", "Bob"], "expansions": ["base"]})
            created.append(answer.json()["game"])
        listed: list[str] = []
        after: int | None = None
        pages = 0
        while True:
            query = {"limit": 2} | ({} if after is None else {"after": after})
            raw = httpx.get(f"{url}/games", params=query)
            assert "draw_order" not in raw.text and "seed" not in raw.text
            page = msgspec.json.decode(raw.content, type=GameList)
            listed += [str(g.game) for g in page.games]
            pages += 1
            if page.next is None:
                break
            after = page.next
        bad = httpx.get(f"{url}/games", params={"limit": 0})
    assert listed == created
    assert pages == 3
    assert page.games[-1].players == ("P4", "Bob")
    assert bad.status_code == 400
