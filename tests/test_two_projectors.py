"""Two `carc project` workers on one store (issue 16.6): one projects, the other stands by (or,
with --once, says another worker has it and exits 0); the views equal a recomputation, and a
standby takes over when the worker holding the store is killed."""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

import pytest

from domain.aggregate import Game
from domain.bots import play_bot_game
from domain.store import open_store
from projections.projector import score_rows, summary
from projections.views import open_views
from service.client import CARC

GAMES = [play_bot_game(2, seed) for seed in range(12)]
EVENTS = {game.id: game.collect_events() for game in GAMES}  # each test stores them anew


def _store_games(url: str, games: list[Game]) -> None:
    store = open_store(url)
    for game in games:
        store.save_events(EVENTS[game.id])
    store.close()


def _views_are_recomputed(url: str, games: list[Game]) -> None:
    views = open_views(url)
    try:
        for game in games:
            assert views.summary(game.id) == summary(game)
            assert views.score_rows(game.id) == score_rows(game)
    finally:
        views.datastore.close()


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite")
    found: str = request.getfixturevalue("postgres_url")
    return found


def test_two_workers_at_once_one_projects_the_other_exits_0(url: str) -> None:
    _store_games(url, GAMES)
    workers = [
        subprocess.Popen(
            [CARC, "project", "--once", "--db", url], stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        for _ in range(2)
    ]
    answers = [(w.communicate(timeout=60)[1].decode(), w.returncode) for w in workers]
    assert [code for _, code in answers] == [0, 0], answers
    assert all("Traceback" not in err for err, _ in answers)
    _views_are_recomputed(url, GAMES)


def test_a_standby_takes_over_when_the_holder_is_killed(url: str) -> None:
    _store_games(url, GAMES[:6])
    holder = subprocess.Popen([CARC, "project", "--db", url], stderr=subprocess.PIPE)
    time.sleep(1.5)  # the holder has the store before the standby starts
    standby = subprocess.Popen([CARC, "project", "--db", url], stderr=subprocess.PIPE)
    try:
        assert standby.stderr is not None
        deadline = time.monotonic() + 20
        line = b""
        while b"standing by" not in line and time.monotonic() < deadline:
            line = standby.stderr.readline()
        assert b"standing by" in line
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
        _store_games(url, GAMES[6:])
        deadline = time.monotonic() + 30
        while True:
            try:
                _views_are_recomputed(url, GAMES)
                break
            except AssertionError:
                assert time.monotonic() < deadline, "the standby did not take over"
                time.sleep(0.2)
    finally:
        for worker in (holder, standby):
            worker.terminate()
            worker.wait(10)
    assert standby.returncode == 0
