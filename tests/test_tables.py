"""Tables people can read (issues 14.5 and 25.3): on a terminal of 80 or 120 columns identifiers
(games, files, readings, rules) are never cut, explanations fold instead, and `--wide` cuts
nothing; in a pipe the same columns as plain aligned text, and no line of output is wrapped."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from carc.cli import batch, common, games, reading, server
from carc.cli.tables import Cell, Column, show_table
from tests.reference import JCZ, require
from tests.test_cli import carc

ENGINE_TESTS = JCZ / "engine-tests"


def terminal(width: int = 80) -> Console:
    return Console(width=width, force_terminal=True, color_system=None, record=True)


def shown_on(console: Console, monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands print their results on `console` (each module of the shell holds `out`)."""
    for module in (common, games, reading, batch, server):
        if hasattr(module, "out"):
            monkeypatch.setattr(module, "out", console)


def lines_of(console: Console) -> list[str]:
    return console.export_text().splitlines()


def test_a_terminal_table_fits_80_columns_and_keeps_identifiers_whole() -> None:
    console = terminal()
    columns = (
        Column("game"),
        Column("sets", folds=True),
        Column("players", justify="right"),
        Column("verdict", folds=True),
    )
    name = "a-very-long-file-name-of-a-save-that-is-whole.jcz"
    rows = [(name, "base+bcb", "2", Cell("disagrees (legal placements)", "green"))]
    show_table(console, "1 game(s)", columns, rows)
    shown = [line for line in lines_of(console) if line.strip()]
    assert all(len(line) <= 80 for line in shown)
    assert name in shown[3] and " 2 " in shown[3] and "…" not in console.export_text()
    at = shown[1].index("verdict")
    folded = "".join(line[at:].replace(" ", "") for line in shown[3:])
    assert len(shown) > 4 and folded == "disagrees(legalplacements)"  # folded, nothing lost


def test_identifiers_alone_wider_than_the_terminal_are_still_whole() -> None:
    console = terminal(40)
    name = "g" * 50
    show_table(console, "t", (Column("game"), Column("why", folds=True)), [(name, "a reason")])
    assert any(name in line for line in lines_of(console))


def test_wide_columns_only_when_asked() -> None:
    columns = (Column("game"), Column("why", wide=True))
    for wide, expected in ((False, False), (True, True)):
        console = terminal(120)
        show_table(console, "t", columns, [("g", "because")], wide=wide)
        assert ("because" in console.export_text()) is expected


def test_plain_text_when_not_a_terminal() -> None:
    console = Console(file=open("/dev/null", "w"), width=80, record=True)  # noqa: SIM115
    columns = (Column("name"), Column("points", justify="right"))
    show_table(console, "standings", columns, [("Ann", "12"), ("Bartholomew", "7"), ("\x1b[2J", "0")])
    assert lines_of(console) == [
        "standings",
        "name         points",
        "Ann              12",
        "Bartholomew       7",
        "\\x1b[2J           0",
    ]


def test_cells_are_text_not_markup() -> None:
    console = terminal()
    show_table(console, "[bold]t[/]", (Column("name of the player"),), [("[/]",), ("[red]x",)])
    text = console.export_text()
    assert "[/]" in text and "[red]x" in text and "[bold]t[/]" in text


@pytest.mark.parametrize("width", [80, 120])
def test_check_of_a_folder_on_a_terminal_of_width(width: int, monkeypatch: pytest.MonkeyPatch) -> None:
    console = terminal(width)
    shown_on(console, monkeypatch)
    carc("check", str(require(ENGINE_TESTS / "basic")))
    shown = lines_of(console)
    assert shown and all(len(line) <= width for line in shown)
    assert any("tiny-city-rule.jcz" in line and "agrees" in line for line in shown)
    assert not any(str(ENGINE_TESTS) in line for line in shown)  # short names, not paths


def test_check_in_a_pipe_prints_plain_aligned_rows(tmp_path: Path) -> None:
    code, out, _ = carc("check", str(require(ENGINE_TESTS / "basic")))
    assert code == 0
    head, *rows = out.splitlines()[1:]
    assert head.split() == ["game", "sets", "players", "verdict", "turn"]
    assert {row.split()[0] for row in rows} >= {"tiny-city-rule.jcz", "field-scoring.jcz"}
    assert len({row.index(row.split()[3]) for row in rows}) == 1  # the verdicts line up


def test_audit_on_a_terminal_fits_80_columns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = str(tmp_path / "s.sqlite")
    assert carc("play", "--db", db, "--expansions", "bcb,tb")[0] == 0
    game = carc("games", "--db", db, "--json")[1].split('"game":"')[1].split('"')[0]
    console = terminal()
    shown_on(console, monkeypatch)
    carc("audit", game, "--db", db)
    shown = lines_of(console)
    assert len(shown) > 5 and all(len(line) <= 80 for line in shown)
    assert any(line.strip().startswith("recorded") for line in shown)


ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def on_terminal(width: int, *args: str) -> list[str]:
    """What `carc ARGS` shows on a terminal `width` columns wide (COLUMNS), its codes taken out."""
    env = {**os.environ, "COLUMNS": str(width), "FORCE_COLOR": "1", "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-c", "from carc.cli import main; main()", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    return [ANSI.sub("", line).rstrip() for line in done.stdout.splitlines()]


@pytest.fixture(scope="module")
def audited(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str, dict[str, Any]]:
    """A stored game of three sets whose readings have long names, and its audit as JSON."""
    db = str(tmp_path_factory.mktemp("audit") / "s.sqlite")
    code, out, _ = carc("play", "--db", db, "--players", "3", "--seed", "3", "--expansions", "bcb,tb,tower")
    assert code == 0
    game = out.split(" as ")[-1].split()[0]
    code, out, _ = carc("audit", game, "--db", db, "--json")
    return db, game, json.loads(out)


@pytest.mark.parametrize("wide", [False, True])
@pytest.mark.parametrize("width", [80, 120])
def test_audit_never_cuts_a_reading_or_a_rule(
    width: int, wide: bool, audited: tuple[str, str, dict[str, Any]]
) -> None:
    db, game, document = audited
    shown = on_terminal(width, "audit", game, "--db", db, *(["--wide"] if wide else []))
    text = "\n".join(shown)
    assert "…" not in text
    firsts = {line.split()[0] for line in shown[4:] if line.strip() and not line.startswith("  ")}
    readings = document["readings"]
    assert max(map(len, readings)) > 25  # long enough to have been cut before
    assert set(readings) <= firsts
    for r in readings.values():
        if r["rule"]:
            assert any(r["rule"] in line.split() for line in shown)
    if not wide:
        assert all(len(line) <= width for line in shown)


@pytest.mark.parametrize("wide", [False, True])
@pytest.mark.parametrize("width", [80, 120])
def test_check_never_cuts_a_file_name(width: int, wide: bool) -> None:
    folder = require(ENGINE_TESTS)
    shown = on_terminal(width, "check", str(folder), *(["--wide"] if wide else []))
    text = "\n".join(shown)
    assert "…" not in text
    names = {p.name for p in folder.rglob("*.jcz")}
    assert max(map(len, names)) > 30
    assert names <= {line.split()[0] for line in shown if line.strip()}
    if wide:  # the folders under the one named in the title, each whole
        assert f"in {folder}:" in shown[0]
        assert {p.parent.name for p in folder.rglob("*.jcz")} <= {w for line in shown for w in line.split()}
    else:
        assert all(len(line) <= width for line in shown)


def test_output_that_is_no_terminal_never_wraps(tmp_path: Path) -> None:
    folder = tmp_path / ("a-long-folder-name-" * 4)
    folder.mkdir()
    db = str(folder / "games.sqlite")
    done = subprocess.run(
        [sys.executable, "-c", "from carc.cli import main; main()", "play", "--db", db],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "80"},
        check=True,
    )
    stored = done.stdout.splitlines()[-1]
    assert stored.startswith(f"stored in {db} as ") and stored.endswith(" events)")
    assert len(stored) > 120
