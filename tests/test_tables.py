"""Tables people can read (issue 14.5): at 80 columns on a terminal nothing wraps and the short
columns stay whole; in a pipe the same columns as plain aligned text; wide columns on request."""

from __future__ import annotations

from pathlib import Path

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


def test_a_terminal_table_fits_80_columns_and_keeps_short_columns_whole() -> None:
    console = terminal()
    columns = (Column("game"), Column("sets"), Column("players", justify="right"), Column("verdict"))
    rows = [
        (
            "a-very-long-file-name-of-a-save-that-would-wrap-" * 2 + ".jcz",
            "base+bcb",
            "2",
            Cell("agrees", "green"),
        )
    ]
    show_table(console, "1 game(s)", columns, rows)
    shown = [line for line in lines_of(console) if line.strip()]
    assert all(len(line) <= 80 for line in shown)
    assert len(shown) == 4  # title, head, rule, one row: no cell wrapped onto a second line
    row = shown[3]
    assert "agrees" in row and " 2 " in row and "base+bcb" in row and "…" in row


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
