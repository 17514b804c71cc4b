"""The projection: summaries and score rows equal the games' own scores, and a worker resumes
where it stopped without counting anything twice."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from eventsourcing.persistence import IntegrityError, Tracking

from domain.bots import play_bot_game
from domain.store import open_store
from projections.projector import board_items, run_projection, score_rows, summary
from projections.views import open_views
from service.client import CARC


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "games.sqlite")


def test_views_equal_the_games_scores_and_catch_up_from_where_they_stopped(db: str) -> None:
    store = open_store(db)
    first, second = play_bot_game(2, 1), play_bot_game(3, 2)
    store.save_game(first)
    assert run_projection(db, once=True) == first.version
    store.save_game(second)
    assert run_projection(db, once=True) == second.version  # only what is new
    assert run_projection(db, once=True) == 0
    store.close()
    views = open_views(db)
    for game in (first, second):
        assert views.summary(game.id) == summary(game)
        assert views.score_rows(game.id) == score_rows(game)
    # An event delivered again is refused as a whole: no score row is written twice.
    position = views.max_tracking_id("carc")
    assert position is not None
    with pytest.raises(IntegrityError):
        views.write(summary(second), score_rows(second), Tracking("carc", position))
    assert views.score_rows(second.id) == score_rows(second)


def test_the_board_view_gives_the_board_at_any_event(db: str) -> None:
    store = open_store(db)
    game = play_bot_game(3, 4, expansions=("base", "bcb", "tb"))
    store.save_game(game)
    assert run_projection(db, once=True) == game.version
    views = open_views(db)
    kinds: set[str] = set()
    for version in (1, 2, 3, 50, 120, game.version // 2, game.version - 1, game.version):
        expected = sorted(board_items(store.load(game.id, version=version)))
        assert views.board_at(game.id, version) == expected, version
        kinds |= {item.kind for item in expected}
    assert {"tile", "follower"} <= kinds
    assert views.board_at(game.id, game.version) == sorted(board_items(game))


def test_carc_project_once(db: str) -> None:
    store = open_store(db)
    game = play_bot_game(2, 5)
    store.save_game(game)
    store.close()
    done = subprocess.run([CARC, "project", "--db", db, "--once", "--json"], capture_output=True, check=True)
    assert json.loads(done.stdout) == {"events": game.version}


def test_progress_is_reported_from_where_the_views_were_to_the_store_s_end(db: str) -> None:
    store = open_store(db)
    for seed in range(3):
        store.save_game(play_bot_game(2, seed))
    store.close()
    seen: list[tuple[int, int, int]] = []
    done = run_projection(db, once=True, on_progress=lambda *p: seen.append(p))
    assert len(seen) > 1 and seen[0][1] == 0  # more than one page: the bar moves
    positions = [position for position, _, _ in seen]
    assert positions == sorted(positions) and positions[-1] == seen[-1][2] >= done


def test_carc_project_refuses_an_in_memory_store() -> None:
    done = subprocess.run([CARC, "project", "--db", "memory", "--once"], capture_output=True)
    assert done.returncode == 1
    assert b"shared database" in done.stderr
