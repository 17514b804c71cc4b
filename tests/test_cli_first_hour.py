"""What a new user meets first (issue 14.8): a version, plain errors for a missing file or store,
and no store created by a command that only reads."""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path

import pytest

from tests.reference import JCZ, require
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


def test_a_file_s_kind_is_judged_by_its_content(tmp_path: Path) -> None:
    """Our record saved under a .jcz name, and a JCloisterZone save under a .jsonl name, both read."""
    db = str(tmp_path / "s.sqlite")
    assert carc("play", "--db", db)[0] == 0
    game = carc("games", "--db", db, "--json")[1].split('"game":"')[1].split('"')[0]
    ours = tmp_path / "ours.jcz"
    assert carc("export", game, "--db", db, "-o", str(ours))[0] == 0
    theirs = tmp_path / "theirs.jsonl"
    theirs.write_bytes(require(JCZ / "engine-tests" / "basic" / "field-scoring.jcz").read_bytes())
    for path in (ours, theirs):
        code, _, err = carc("scores", str(path), "--json")
        assert code == 0, err
    code, _, err = carc("import", str(ours), "--db", db)
    assert code == 0 and "Already stored" in carc("import", str(ours), "--db", db)[1], err
