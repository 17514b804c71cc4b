"""The command line answers at once (issue 14.7): importing it, asking for help and scoring a
recorded file load none of the heavy modules (the store's engine, the PostgreSQL driver, Parquet,
the web stack), which the commands that need them import when they run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from domain.bots import play_bot_game
from replays import records

HEAVY = ("eventsourcing", "psycopg", "pyarrow", "litestar", "uvicorn", "service", "aiohttp", "dask")
# Runs in a fresh interpreter: what the command loaded, by top-level package (and `service`).
_PROBE = """
import sys
from carc.cli import app
try:
    app(sys.argv[1:])
except SystemExit:
    pass
heavy = sorted({{m.split('.')[0] for m in sys.modules}} & set({heavy!r}))
print('HEAVY', ','.join(heavy), file=sys.stderr)
"""


def heavy_modules_loaded(*args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE.format(heavy=HEAVY), *args], capture_output=True, text=True, check=False
    )
    line = next(x for x in done.stderr.splitlines() if x.startswith("HEAVY"))
    return [m for m in line.removeprefix("HEAVY").strip().split(",") if m]


def test_importing_the_cli_loads_no_heavy_module() -> None:
    assert heavy_modules_loaded() == []


def test_help_loads_no_heavy_module() -> None:
    assert heavy_modules_loaded("--help") == []


def test_scores_of_a_recorded_file_loads_no_heavy_module(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    records.write(play_bot_game(2, 3).collect_events(), path)
    assert heavy_modules_loaded("scores", str(path), "--json") == []


@pytest.mark.parametrize("command", [("games",), ("scores", "no-such-game")])
def test_a_command_on_the_store_still_loads_its_engine(tmp_path: Path, command: tuple[str, ...]) -> None:
    """The probe sees a heavy import when one happens (a test of the test)."""
    assert "eventsourcing" in heavy_modules_loaded(*command, "--db", str(tmp_path / "s.sqlite"))


def test_help_does_not_load_the_sets() -> None:
    # The rules of every set (tiles, parts, hooks) are the CLI's largest import; `--help` names
    # the sets from the registry's list (`domain.sets`), which loads none of them.
    done = subprocess.run(
        [sys.executable, "-c", "import sys, carc.cli; print('domain.expansions' in sys.modules)"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "False"


def test_the_registry_s_list_loads_no_set() -> None:
    probe = "import sys, domain.sets; print([m for m in sys.modules if m.startswith('domain.')])"
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "['domain.sets']"


def test_the_loaded_parts_are_the_registry_s_sets() -> None:
    from domain.expansions import SETS
    from domain.sets import SET_CODES

    assert tuple(SETS) == SET_CODES


def test_the_package_loads_the_engine_only_when_asked() -> None:
    # `carc` is the library (`carc.new_game`…) and holds the command line (`carc.cli`): importing
    # the package, or the shell for `--help`, loads no engine; the library's first name does.
    probe = (
        "import sys, carc, carc.cli\n"
        "engine = ('carc.match', 'domain.aggregate', 'domain.state', 'replays.sources')\n"
        "print(sorted(m for m in engine if m in sys.modules))\n"
        "carc.new_game\n"
        "print(sorted(m for m in engine if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    before, after = done.stdout.splitlines()
    assert before == "[]"
    assert after == "['carc.match', 'domain.aggregate', 'domain.state']"
