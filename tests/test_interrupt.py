"""Ctrl-C (issue 25.3): a command stops with one line on stderr and exit code 130, its Dask
cluster shut down without a word from it, and nothing partial written. The command runs as a
process of its own group, and SIGINT goes to the whole group, as a terminal sends it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from domain.bots import play_bot_game
from domain.store import open_store

INTERRUPTED = "interrupted (Ctrl-C): stopped, nothing half-written"


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A store of games enough for several chunks, each long to audit."""
    db = str(tmp_path_factory.mktemp("many") / "s.sqlite")
    store = open_store(db)
    for seed in range(80):
        store.save_game(play_bot_game(3, seed, expansions=("base", "bcb", "tb", "tower")))
    store.close()
    return db


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if parent == pid:
                found.append(int(entry.name))
    return found


def interrupted(args: list[str], *, workers: int, settle: float = 1.5) -> tuple[int, str, str, list[int]]:
    """Run `carc ARGS`, wait until its `workers` worker processes run (0: a moment), send Ctrl-C."""
    program = (
        "import sys; sys.argv[0] = 'carc'\nif __name__ == '__main__':\n    from carc.cli import main; main()"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", program, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    seen: list[int] = []
    while workers and time.monotonic() < deadline and process.poll() is None:
        seen = [c for c in children(process.pid) if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()]
        if len(seen) >= workers:
            break
        time.sleep(0.1)
    time.sleep(settle)
    assert process.poll() is None, "the command ended before it could be interrupted"
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=60)
    return process.returncode, out, err, seen


def gone(pids: list[int]) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if not any(Path(f"/proc/{p}").exists() for p in pids):
            return True
        time.sleep(0.1)
    return False


@pytest.mark.parametrize("workers", [2, 1])
def test_ctrl_c_stops_a_batch_audit_cleanly(workers: int, many: str, tmp_path: Path) -> None:
    output = tmp_path / "audit.parquet"
    args = ["audit", "--all", "--workers", str(workers), "-o", str(output), "--db", many]
    code, out, err, pids = interrupted(args, workers=workers if workers > 1 else 0)
    assert (code, out, err) == (130, "", INTERRUPTED + "\n")
    assert list(tmp_path.iterdir()) == []  # no table, no partial folder beside it
    assert workers == 1 or (len(pids) == workers and gone(pids))  # the cluster was shut down


def test_ctrl_c_stops_export_analytics_with_nothing_written(many: str, tmp_path: Path) -> None:
    output = tmp_path / "tables"
    args = ["export-analytics", "--workers", "2", "-o", str(output), "--db", many]
    code, out, err, pids = interrupted(args, workers=2, settle=0.5)
    assert (code, out, err) == (130, "", INTERRUPTED + "\n")
    assert list(tmp_path.iterdir()) == []
    assert gone(pids)
