"""The `carc` command line: results, --json documents, and clear errors with non-zero exits."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from typer.testing import CliRunner

from carc.cli import app
from domain.events import TilePlaced
from domain.store import open_store

runner = CliRunner()


def carc(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "games.sqlite")


def played(db: str, *extra: str) -> dict[str, Any]:
    code, out, err = carc("play", "--db", db, "--json", *extra)
    assert code == 0, err
    document = json.loads(out)
    assert isinstance(document, dict)
    return document


def test_play_prints_the_stored_game_and_its_final_points(db: str) -> None:
    doc = played(db, "--players", "3", "--seed", "4")
    assert set(doc["final"]) == {"Alice", "Bob", "Carol"}
    code, out, _ = carc("scores", str(doc["game"]), "--db", db, "--json")
    assert code == 0
    assert json.loads(out)["final"] == doc["final"]


def test_same_seed_same_result(db: str) -> None:
    assert played(db, "--seed", "9")["final"] == played(db, "--seed", "9")["final"]


def test_games_lists_what_was_stored(db: str) -> None:
    ids = {played(db, "--seed", str(s))["game"] for s in (1, 2)}
    code, out, _ = carc("games", "--db", db, "--json")
    assert code == 0
    assert {g["game"] for g in json.loads(out)} == ids


def test_replay_at_an_event_and_a_prefix_of_the_id(db: str) -> None:
    game = str(played(db)["game"])
    code, out, _ = carc("replay", game[:8], "--db", db, "--until", "10", "--json")
    assert code == 0
    view = json.loads(out)["board"]
    assert view["version"] == 10
    placed = [e for e in open_store(db).game_events(UUID(game), until=10) if isinstance(e, TilePlaced)]
    assert len(view["tiles"]) == 1 + len(placed)
    code, text, _ = carc("replay", game, "--db", db)
    assert code == 0 and "#" in text


def test_text_output_names_the_game(db: str) -> None:
    code, out, _ = carc("play", "--db", db, "--names", "Ann,Bo")
    assert code == 0
    assert "Ann" in out and "Bo" in out and "stored in" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("play", "--expansions", "base,moonlight"), "unknown expansion"),
        (("play", "--players", "2", "--names", "Ann,Bo,Cy"), "3 names for 2 players"),
        (("scores", "00000000-0000-0000-0000-000000000000"), "no game"),
        (("replay", "zzz"), "no game with id 'zzz'"),
    ],
)
def test_bad_arguments_exit_non_zero_with_a_message(db: str, args: tuple[str, ...], message: str) -> None:
    assert carc("db", "init", "--db", db)[0] == 0  # a store, empty
    code, out, err = carc(*args, "--db", db)
    assert code == 1
    assert message in err
    assert out == ""


def test_out_of_range_player_count_is_refused(db: str) -> None:
    code, _, err = carc("play", "--players", "7", "--db", db)
    assert code == 2
    assert "--players" in err


def test_corrupt_database_file(tmp_path: Path) -> None:
    path = tmp_path / "corrupt.sqlite"
    path.write_bytes(random.Random(1).randbytes(8192))
    code, out, err = carc("games", "--db", str(path), "--json")
    assert code == 1 and out == ""
    assert "not an SQLite database" in err


def test_truncated_database_file(db: str, tmp_path: Path) -> None:
    game = str(played(db)["game"])
    truncated = tmp_path / "truncated.sqlite"
    data = Path(db).read_bytes()
    truncated.write_bytes(data[: len(data) // 2])
    for args in (("games",), ("scores", game)):
        code, out, err = carc(*args, "--db", str(truncated), "--json")
        assert code == 1 and out == ""
        assert "malformed" in err or "corrupt" in err


def test_missing_folder_for_the_database(tmp_path: Path) -> None:
    code, _, err = carc("play", "--db", str(tmp_path / "nowhere" / "g.sqlite"))
    assert code == 1
    assert "does not exist" in err


def test_help_wraps_a_commands_text_as_paragraphs_to_the_terminal() -> None:
    """The docstring's line breaks are not kept: at 80 columns they would leave ragged lines."""
    result = runner.invoke(app, ["export", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert (
        "replays the same tiles; it is checked before it is written, by importing it again" in result.stdout
    )
