"""Damaged files (issue 16.2): whatever happens to a recorded game or a JCloisterZone save (a
flipped byte, invalid UTF-8, nesting thousands deep, a field of the wrong JSON type, 1e400,
CRLF, a BOM, a cut), every command that reads it either reads it or refuses it with one line
`error: FILE…: what is wrong` and exit 1: never a traceback, and nothing stored."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from typer.testing import CliRunner

from carc.cli import app
from domain.bots import play_bot_game
from domain.store import open_store
from replays import records
from tests.reference import JCZ, require

SAVE = JCZ / "oracle" / "basic-p2-s200001.jcz"


def jsonl_bytes() -> bytes:
    events = play_bot_game(2, 7).collect_events()
    return records.encode(events)


SOURCES = {"jsonl": jsonl_bytes()}


def mutate(data: bytes, kind: str, at: float) -> bytes:
    i = int(at * (len(data) - 1))
    if kind == "flip":
        return data[:i] + bytes([data[i] ^ 0x20]) + data[i + 1 :]
    if kind == "invalid-utf8":
        return data[:i] + b"\xff\xfe" + data[i:]
    if kind == "deep":
        return data[:i] + b"[" * 3000 + b"]" * 3000 + data[i:]
    if kind == "huge-number":
        return data.replace(b":0", b":1e400", 1) if b":0" in data else data + b"1e400"
    if kind == "wrong-type":
        key = data.find(b'":', i)
        return data if key < 0 else data[: key + 2] + b'{"x":[1]},"_":' + data[key + 2 :]
    if kind == "crlf":
        return data.replace(b"\n", b"\r\n")
    if kind == "bom":
        return b"\xef\xbb\xbf" + data
    if kind == "cut":
        return data[:i]
    raise AssertionError(kind)


KINDS = ["flip", "invalid-utf8", "deep", "huge-number", "wrong-type", "crlf", "bom", "cut"]
COMMANDS = ["import", "scores", "replay", "audit", "check"]


@pytest.fixture(scope="module")
def sources() -> dict[str, bytes]:
    return {**SOURCES, "jcz": require(SAVE).read_bytes()}


@given(
    source=st.sampled_from(["jsonl", "jcz"]),
    kind=st.sampled_from(KINDS),
    at=st.floats(0, 1),
    command=st.sampled_from(COMMANDS),
)
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
def test_a_damaged_file_is_read_or_refused_in_one_line(
    sources: dict[str, bytes],
    tmp_path_factory: pytest.TempPathFactory,
    source: str,
    kind: str,
    at: float,
    command: str,
) -> None:
    folder = tmp_path_factory.mktemp("mutated")
    path = folder / f"game.{source}"
    path.write_bytes(mutate(sources[source], kind, at))
    db = folder / "s.sqlite"
    args = [command, str(path)] + (["--db", str(db)] if command != "check" else [])
    result = CliRunner().invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 1), result.stderr
    if result.exit_code == 1 and command != "check":  # check exits 1 on a disagreement too
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: {path}"), result.stderr
    if command == "check" and "error" in result.stdout:
        assert f"error: {path}" in result.stderr
    if command == "import" and result.exit_code == 1 and db.exists():
        assert list(open_store(str(db), create=False).started_games()) == []


def test_a_line_number_names_where_a_record_is_damaged(tmp_path: Path) -> None:
    lines = SOURCES["jsonl"].split(b"\n")
    lines[5] = b'{"type": "TilePlaced", "x": "1"}'
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"\n".join(lines))
    result = CliRunner().invoke(app, ["scores", str(path)])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {path}:6: ")
