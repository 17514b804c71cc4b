"""The install is a small core with extras (issue 14.8): a command that needs a missing extra says
which one to install, in one line, and exits 1."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# Runs `carc` in a fresh interpreter where the named modules cannot be imported.
_WITHOUT = """
import sys
sys.modules.update(dict.fromkeys({modules!r}))
sys.argv = ["carc", *sys.argv[1:]]
from carc.cli import main
main()
"""


def carc_without(modules: tuple[str, ...], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _WITHOUT.format(modules=modules), *args],
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize(
    ("module", "extra", "args"),
    [
        ("litestar", "server", ("serve", "--port", "0")),
        ("pyarrow", "analytics", ("export-analytics", "-o", "OUT")),
        ("psycopg", "postgres", ("games", "--db", "postgresql://postgres@127.0.0.1:5432/test")),
    ],
)
def test_a_missing_extra_is_named(module: str, extra: str, args: tuple[str, ...], tmp_path: Path) -> None:
    done = carc_without((module,), *(a.replace("OUT", str(tmp_path / "out")) for a in args))
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"error: this needs the {extra} extra (no module {module}): "
        f"in the checkout, pip install -e '.[{extra}]'"
    ]


def test_the_core_plays_and_scores_without_any_extra(tmp_path: Path) -> None:
    extras = ("litestar", "uvicorn", "aiohttp", "psycopg", "pyarrow")
    db = str(tmp_path / "core.sqlite")
    played = carc_without(extras, "play", "--db", db, "--json")
    assert played.returncode == 0, played.stderr
    game = played.stdout.split('"game":"')[1].split('"')[0]
    for command in ("scores", "replay", "audit"):
        done = carc_without(extras, command, game, "--db", db, "--json")
        assert done.returncode == 0, done.stderr
