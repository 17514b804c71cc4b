"""What players type (issue 16.5): names are printed as text, never as markup or terminal
codes, and names that could not be shown as typed are refused when a game is created."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.bots import play_bot_game
from domain.names import name_problem
from replays import records
from tests.test_cli import carc

HOSTILE = ("[/]", "a\x1b[2Jb")


@pytest.fixture
def stored(tmp_path: Path) -> tuple[str, str, Path]:
    """A recorded game whose players are named with markup and an escape code, imported."""
    path = tmp_path / "g.jsonl"
    records.write(play_bot_game(HOSTILE, 4).collect_events(), path)
    db = str(tmp_path / "s.sqlite")
    code, out, err = carc("import", str(path), "--db", db, "--json")
    assert code == 0, err
    return db, json.loads(out)["game"], path


@pytest.mark.parametrize("command", [("games",), ("scores", "GAME"), ("replay", "GAME"), ("audit", "GAME")])
def test_names_with_markup_and_escape_codes_print_as_text(
    stored: tuple[str, str, Path], command: tuple[str, ...]
) -> None:
    db, game, _ = stored
    code, out, err = carc(*(game if part == "GAME" else part for part in command), "--db", db)
    assert code == 0, err
    assert "\x1b" not in out
    assert "[/]" in out and "\\x1b[2J" in out


def test_names_stay_exact_in_json(stored: tuple[str, str, Path]) -> None:
    db, game, _ = stored
    code, out, _ = carc("scores", game, "--db", db, "--json")
    assert code == 0
    assert set(json.loads(out)["final"]) == set(HOSTILE)


@pytest.mark.parametrize(
    "name", ["a\x1b[2J", "a\u202eb", "tab\there", "line\nbreak", "x" * 41, "", "soft\xadhyphen"]
)
def test_such_names_are_refused_at_creation(name: str, tmp_path: Path) -> None:
    assert name_problem(name) is not None
    code, _, err = carc("play", "--names", f"{name},Bob", "--db", str(tmp_path / "s.sqlite"))
    assert code == 1 and err.startswith("error:")
    assert "\x1b" not in err
    assert not (tmp_path / "s.sqlite").exists()


@pytest.mark.parametrize("name", ["Ann", "Zoë", "[/]", "李", "O'Brien", "<b>x</b>"])
def test_ordinary_and_odd_but_printable_names_are_taken(name: str) -> None:
    assert name_problem(name) is None
