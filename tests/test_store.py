"""The store contract, run against every backend: in memory, SQLite and PostgreSQL.

PostgreSQL is a fresh schema on the server at 127.0.0.1:5432 (see ``conftest.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from uuid import uuid4

import pytest

from domain.aggregate import Game
from domain.bots import play_bot_game
from domain.store import GameStore, StoreError, open_store
from projections.board import board_view


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameStore]:
    if request.param == "memory":
        url = "memory"
    elif request.param == "sqlite":
        url = str(tmp_path / "games.sqlite")
    else:
        url = request.getfixturevalue("postgres_url")
    opened = open_store(url)
    yield opened
    opened.close()


def test_stored_game_reloads_equal_to_the_live_one(store: GameStore) -> None:
    game = play_bot_game(3, seed=11)
    live = board_view(game.state)
    awards = list(game.state.awards)
    events = list(game.pending)
    store.save_game(game)
    loaded = store.load(game.id)
    assert board_view(loaded.state) == live
    assert loaded.state.awards == awards
    assert store.game_events(game.id) == events


def test_a_game_reloads_at_any_version(store: GameStore) -> None:
    game = play_bot_game(2, seed=5)
    events = list(game.pending)
    store.save_game(game)
    for version in (1, 2, 57, len(events) // 2, len(events)):
        replayed = Game(game.id)
        for event in events[:version]:
            replayed.replay(event)
        assert board_view(store.load(game.id, version=version).state) == board_view(replayed.state)


def test_started_games_lists_each_game_once(store: GameStore) -> None:
    games = [play_bot_game(2, seed=s) for s in (1, 2)]
    for g in games:
        store.save_game(g)
    listed = [s.originator_id for s in store.started_games()]
    for g in games:
        assert listed.count(g.id) == 1


def test_an_unknown_game_is_a_store_error(store: GameStore) -> None:
    missing = uuid4()
    with pytest.raises(StoreError, match=str(missing)):
        store.load(missing)
