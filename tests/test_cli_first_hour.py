"""What a new user meets first (issue 14.8): a version, plain errors for a missing file or store,
and no store created by a command that only reads."""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path

import pytest

from tests.test_cli import carc

READERS = [
    ("games",),
    ("scores", "0a1b"),
    ("replay", "0a1b"),
    ("audit", "0a1b"),
    ("explain", "0a1b", "--turn", "1"),
]


def test_version() -> None:
    code, out, _ = carc("--version")
    assert (code, out.strip()) == (0, f"carc {version('carcassonne-replay')}")


@pytest.mark.parametrize("command", ["scores", "replay", "audit"])
def test_a_missing_file_is_named_as_such(command: str, tmp_path: Path) -> None:
    code, _, err = carc(command, str(tmp_path / "missing.jsonl"), "--db", str(tmp_path / "s.sqlite"))
    assert code == 1 and f"file not found: {tmp_path / 'missing.jsonl'}" in err


def test_a_folder_is_not_a_game(tmp_path: Path) -> None:
    code, _, err = carc("scores", str(tmp_path))
    assert code == 1 and "is a folder, not a recorded-game file" in err


@pytest.mark.parametrize("command", READERS)
def test_a_command_that_reads_never_creates_a_store(command: tuple[str, ...], tmp_path: Path) -> None:
    mistyped = tmp_path / "gmaes.sqlite"
    code, _, err = carc(*command, "--db", str(mistyped))
    assert code == 1 and f"no store {mistyped}: the file does not exist" in err
    assert not mistyped.exists()


def test_a_command_that_writes_creates_its_store(tmp_path: Path) -> None:
    fresh = tmp_path / "new.sqlite"
    assert carc("play", "--db", str(fresh))[0] == 0
    assert fresh.is_file()
