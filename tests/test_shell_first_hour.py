"""The shell as a new user meets it (issue 25.3): help that says what a command does to a store,
no `None` for an imported save's seed, a clear error for an empty name, a board legend that
explains every character, and completion for bash, zsh and fish."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.reference import JCZ, require
from tests.test_cli import carc

CREATE = ["play", "import", "serve", "project", "db init"]
READ = ["games", "scores", "replay", "render", "export", "audit", "export-analytics", "explain"]


def help_of(command: str) -> str:
    code, out, _ = carc(*command.split(), "--help")
    assert code == 0
    return " ".join(out.replace("│", " ").split())  # the help box's lines joined back


@pytest.mark.parametrize("command", CREATE)
def test_a_command_that_creates_its_store_says_so(command: str) -> None:
    assert "(created if missing)" in help_of(command)


@pytest.mark.parametrize("command", READ)
def test_a_command_that_only_reads_a_store_does_not_say_it_creates_one(command: str) -> None:
    shown = help_of(command)
    assert "created" not in shown and "(it must exist)" in shown


def test_an_imported_save_has_no_seed_and_says_none(tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite")
    save = require(JCZ / "engine-tests" / "basic" / "field-scoring.jcz")
    assert carc("import", str(save), "--db", db)[0] == 0
    assert carc("play", "--db", db, "--seed", "5")[0] == 0
    code, out, _ = carc("games", "--db", db)
    assert code == 0 and "None" not in out
    seeds = sorted(line.split()[-1] for line in out.splitlines()[2:])
    assert seeds == ["5", "—"]
    assert '"seed":null' in carc("games", "--db", db, "--json")[1]  # JSON keeps its null


@pytest.mark.parametrize("command", ["scores", "replay", "audit"])
@pytest.mark.parametrize("name", ["", "  "])
def test_an_empty_name_is_a_clear_error(command: str, name: str, tmp_path: Path) -> None:
    code, _, err = carc(command, name, "--db", str(tmp_path / "s.sqlite"))
    assert code == 1
    assert "no game named: give a recorded-game file or a stored game's id" in err
    assert "folder" not in err


@pytest.mark.parametrize("command", ["import", "check"])
def test_an_empty_path_is_not_the_current_folder(command: str, tmp_path: Path) -> None:
    code, _, err = (
        carc(command, "", "--db", str(tmp_path / "s.sqlite")) if command == "import" else carc(command, "")
    )
    assert code == 1 and "an empty name names no file or folder" in err


def test_the_board_s_legend_explains_every_core_character(tmp_path: Path) -> None:
    from projections.text import LEGEND

    db = str(tmp_path / "s.sqlite")
    assert carc("play", "--db", db, "--expansions", "am", "--seed", "2")[0] == 0
    game = carc("games", "--db", db, "--json")[1].split('"game":"')[1].split('"')[0]
    code, out, _ = carc("replay", game, "--db", db)
    assert code == 0 and LEGEND in out
    for explained in (
        "# city",
        "|/- road",
        ". field",
        "~ water",
        "* fits any edge",
        "o cloister",
        "blank centre",
    ):
        assert explained in LEGEND
    readme = " ".join((Path(__file__).parent.parent / "README.md").read_text().split())
    assert "`*` an edge that fits any other" in readme and "a blank centre" in readme


# Completion as Typer offers it: `carc --install-completion` (shell detected) writes the script,
# `--show-completion` prints it; the script asks `carc` again with _CARC_COMPLETE set.
def run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    program = "import sys; sys.argv[0] = 'carc'; from carc.cli import main; main()"
    return subprocess.run(
        [sys.executable, "-c", program, *args],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=False,
        timeout=60,
    )


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_the_completion_script_of_each_shell(shell: str) -> None:
    done = run("--show-completion", shell, _TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION="1")
    assert done.returncode == 0, done.stderr
    assert f"_CARC_COMPLETE=complete_{shell}" in done.stdout


def test_installing_completion_writes_the_script(tmp_path: Path) -> None:
    done = run(
        "--install-completion", "fish", HOME=str(tmp_path), _TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION="1"
    )
    assert done.returncode == 0, done.stderr
    script = tmp_path / ".config" / "fish" / "completions" / "carc.fish"
    assert "_CARC_COMPLETE=complete_fish" in script.read_text()


def test_completion_in_bash() -> None:
    done = run(_CARC_COMPLETE="complete_bash", COMP_WORDS="carc sc", COMP_CWORD="1")
    assert done.returncode == 0 and done.stdout.split() == ["scores"]
    done = run(_CARC_COMPLETE="complete_bash", COMP_WORDS="carc audit --w", COMP_CWORD="2")
    assert sorted(done.stdout.split()) == ["--wide", "--workers"]


def test_completion_in_zsh_and_fish() -> None:
    zsh = run(_CARC_COMPLETE="complete_zsh", _TYPER_COMPLETE_ARGS="carc exp")
    assert re.findall(r'"(export[-a-z]*)"', zsh.stdout) == ["export", "export-analytics"]
    fish = run(
        _CARC_COMPLETE="complete_fish", _TYPER_COMPLETE_ARGS="carc sc", _TYPER_COMPLETE_FISH_ACTION="get-args"
    )
    assert fish.stdout.split("\t")[0] == "scores"
