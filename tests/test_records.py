"""Recorded-game files: round trips, replay to a point, and bad files refused at the right line.

A refused file names its line (the header is line 1, event n is line n + 1), the event and the
rule id where a rule is at stake, exits 1 and stores nothing.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from uuid import UUID

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from typer.testing import CliRunner

from carc.cli import app
from domain.bots import play_bot_game
from domain.events import Event, TilePlaced
from domain.expansions import EVENT_TYPES, bazaars as bz
from domain.replay import events_through_turn, replay
from domain.store import open_store
from replays import records
from replays.records import RecordError

runner = CliRunner()
EVENTS = play_bot_game(2, 11).collect_events()
LINES = records.encode(EVENTS).splitlines()


def carc(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def stored_games(db: str) -> int:
    return len(list(open_store(db).started_games()))


def test_export_import_export_gives_the_same_file_and_the_same_events(tmp_path: Path) -> None:
    first, second = str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite")
    open_store(first).save_events(EVENTS)
    game = str(EVENTS[0].originator_id)
    assert carc("export", game, "-o", str(tmp_path / "1.jsonl"), "--db", first)[0] == 0
    code, out, err = carc("import", str(tmp_path / "1.jsonl"), "--db", second, "--json")
    assert code == 0, err
    assert json.loads(out)["events"] == len(EVENTS)
    assert open_store(second).game_events(EVENTS[0].originator_id) == EVENTS
    assert carc("export", game, "-o", str(tmp_path / "2.jsonl"), "--db", second)[0] == 0
    assert (tmp_path / "1.jsonl").read_bytes() == (tmp_path / "2.jsonl").read_bytes()


def test_importing_a_game_twice_says_it_is_already_stored(tmp_path: Path) -> None:
    path, db = tmp_path / "g.jsonl", str(tmp_path / "g.sqlite")
    records.write(EVENTS, path)
    assert carc("import", str(path), "--db", db)[0] == 0
    code, out, err = carc("import", str(path), "--db", db)
    assert code == 0 and "Already stored" in out, err
    assert stored_games(db) == 1


def test_another_game_under_a_stored_id_is_refused(tmp_path: Path) -> None:
    path, db = tmp_path / "g.jsonl", str(tmp_path / "g.sqlite")
    records.write(EVENTS, path)
    assert carc("import", str(path), "--db", db)[0] == 0
    records.write(EVENTS[:-3], path)  # the same id, a game cut short: not the stored one
    code, _, err = carc("import", str(path), "--db", db)
    assert code == 1 and "another game with the id" in err
    assert open_store(db).game_events(EVENTS[0].originator_id) == EVENTS


def test_replay_and_scores_of_a_file_at_an_event_and_at_a_turn(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    records.write(EVENTS, path)
    code, out, _ = carc("scores", str(path), "--json")
    assert code == 0
    state = replay(EVENTS).state
    assert json.loads(out)["final"] == dict(zip(state.players, state.scores, strict=True))
    code, out, _ = carc("replay", str(path), "--until", "20", "--json")
    assert code == 0 and json.loads(out)["board"]["version"] == 20
    code, out, _ = carc("replay", str(path), "--turn", "6", "--json")
    board = json.loads(out)["board"]
    assert board["turn"] == 6 and board["phase"] == "part-over"
    assert board["version"] == events_through_turn(EVENTS, 6)
    assert len(board["tiles"]) == 1 + sum(isinstance(e, TilePlaced) for e in EVENTS[: board["version"]])
    code, text, _ = carc("replay", str(path), "--turn", "6")
    assert code == 0 and "turn 6" in text
    assert carc("replay", str(path), "--turn", "6", "--until", "3")[0] == 1


def replace_line(index: int, text: bytes) -> Callable[[list[bytes]], list[bytes]]:
    return lambda lines: [*lines[:index], text, *lines[index + 1 :]]


def edit_event(index: int, **changes: object) -> Callable[[list[bytes]], list[bytes]]:
    def edit(lines: list[bytes]) -> list[bytes]:
        fields = json.loads(lines[index])
        fields.update(changes)
        return replace_line(index, json.dumps(fields, separators=(",", ":")).encode())(lines)

    return edit


FIRST_PLACEMENT = next(i for i, e in enumerate(EVENTS) if isinstance(e, TilePlaced)) + 1  # its line index

BAD_FILES: list[tuple[str, Callable[[list[bytes]], list[bytes]], int, list[str]]] = [
    ("truncated line", lambda ls: [*ls[:5], ls[5][:20], *ls[6:]], 6, ["not valid JSON"]),
    ("file cut after a line", lambda ls: ls[:50], 51, ["ends after 49 events", f"announces {len(EVENTS)}"]),
    ("invalid JSON", replace_line(3, b"{'type': 'TileDrawn'}"), 4, ["not valid JSON"]),
    ("not an object", replace_line(3, b"[1, 2]"), 4, ["JSON object"]),
    ("empty line", replace_line(3, b""), 4, ["empty line"]),
    ("unknown event type", edit_event(4, type="TileStolen"), 5, ["unknown event type 'TileStolen'"]),
    ("unknown field", edit_event(4, colour="red"), 5, ["has no field 'colour'"]),
    ("wrong field type", edit_event(4, player="Ann"), 5, ["Expected `int`", "$.player"]),
    ("wrong format version", edit_event(0, version=99), 1, ["version 99 is not supported"]),
    ("another format", edit_event(0, format="pgn"), 1, ["not a carc-record file"]),
    ("unknown header field", edit_event(0, comment="hi"), 1, ["bad header", "comment"]),
    ("header and start disagree", edit_event(0, players=["X", "Y"]), 2, ["disagrees", "players"]),
    ("event out of order", lambda ls: [*ls[:6], ls[7], ls[6], *ls[8:]], 7, ["out of order"]),
    ("event of another game", edit_event(9, originator_id=str(UUID(int=1))), 10, ["belongs"]),
    ("first event not the start", lambda ls: [ls[0], *ls[2:]], 2, ["must be GameStarted"]),
    (
        "tile placed where it touches nothing",
        edit_event(FIRST_PLACEMENT, x=40),
        FIRST_PLACEMENT + 1,
        ["R-BASE-3", "TilePlaced", "x=40", "touches no placed tile"],
    ),
    (
        "draw out of the pile's order",
        edit_event(2, tile="BA/L"),
        3,
        ["R-BASE-3", "the engine records TileDrawn"],
    ),
]


@pytest.mark.parametrize(
    ("mutate", "line", "words"), [case[1:] for case in BAD_FILES], ids=[case[0] for case in BAD_FILES]
)
def test_bad_files_are_refused_at_their_line_and_nothing_is_stored(
    tmp_path: Path, mutate: Callable[[list[bytes]], list[bytes]], line: int, words: list[str]
) -> None:
    path, db = tmp_path / "bad.jsonl", str(tmp_path / "g.sqlite")
    path.write_bytes(b"\n".join(mutate(list(LINES))) + b"\n")
    code, out, err = carc("import", str(path), "--db", db)
    assert code == 1 and out == ""
    message = " ".join(err.split())  # rich wraps long lines
    assert message.startswith(f"error: {path}:{line}: ")
    for word in words:
        assert word in message
    assert stored_games(db) == 0


def test_an_empty_file_and_a_missing_file(tmp_path: Path) -> None:
    (tmp_path / "empty.jsonl").write_bytes(b"")
    for name, words in (("empty.jsonl", "file is empty"), ("missing.jsonl", "cannot read")):
        code, _, err = carc("import", str(tmp_path / name), "--db", str(tmp_path / "g.sqlite"))
        assert code == 1 and words in err


def _line_of_error(lines: list[bytes]) -> int | None:
    with pytest.raises(RecordError) as info:
        records.load(lines)
    return info.value.line


@st.composite
def mutations(draw: st.DrawFn) -> tuple[list[bytes], int]:
    """A damaged copy of LINES and the line (1-based) the damage must be reported at."""
    n = len(LINES)
    kind = draw(st.sampled_from(["truncate", "drop", "swap", "duplicate", "field", "type"]))
    lines = list(LINES)
    if kind == "truncate":  # a proper prefix of a JSON object never closes it
        i = draw(st.integers(0, n - 1))
        lines[i] = lines[i][: draw(st.integers(1, len(lines[i]) - 1))]
        return lines, i + 1
    if kind == "drop":
        i = draw(st.integers(1, n - 1))
        return [*lines[:i], *lines[i + 1 :]], i + 1
    if kind == "swap":
        i = draw(st.integers(1, n - 2))
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
        return lines, i + 1
    if kind == "duplicate":
        i = draw(st.integers(0, n - 1))
        return [*lines[: i + 1], lines[i], *lines[i + 1 :]], i + 2
    i = draw(st.integers(0, n - 1))
    fields = json.loads(lines[i])
    if kind == "field":
        fields[draw(st.sampled_from(["extra", "Player", "tile_"]))] = draw(
            st.integers() | st.text(max_size=3)
        )
    else:
        fields["type"] = draw(st.text(max_size=12).filter(lambda t: t not in EVENT_TYPES))
    lines[i] = json.dumps(fields).encode()
    return lines, i + 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutations())
def test_damaged_files_are_refused_at_the_damaged_line(mutation: tuple[list[bytes], int]) -> None:
    lines, line = mutation
    assert _line_of_error(lines) == line


@settings(max_examples=10, deadline=None)
@given(mutations())
def test_damaged_files_store_nothing(mutation: tuple[list[bytes], int]) -> None:
    lines, line = mutation
    with tempfile.TemporaryDirectory() as tmp:
        path, db = Path(tmp) / "bad.jsonl", str(Path(tmp) / "g.sqlite")
        path.write_bytes(b"\n".join(lines) + b"\n")
        code, _, err = carc("import", str(path), "--db", db)
        assert code == 1 and f".jsonl:{line}: " in " ".join(err.split())
        assert stored_games(db) == 0


def test_every_event_type_round_trips_through_the_file() -> None:
    decoded: list[Event] = records.load(LINES)[1]
    assert decoded == EVENTS
    assert {type(e).__name__ for e in decoded} >= {
        "GameStarted",
        "TileDrawn",
        "TilePlaced",
        "TurnEnded",
        "GameEnded",
    }


def test_a_bid_out_of_order_is_refused_at_its_line_and_nothing_is_stored(tmp_path: Path) -> None:
    game = play_bot_game(3, 4, expansions=("base", "bcb", "tb"))
    events = list(game.pending)
    index = next(i for i, e in enumerate(events) if isinstance(e, bz.BidRaised))
    bid = events[index]
    assert isinstance(bid, bz.BidRaised)
    # The bid comes from a seat that is not the next bidder (the one after, around the table).
    wrong = msgspec.structs.replace(bid, player=(bid.player + 1) % 3)
    path = tmp_path / "g.jsonl"
    records.write([*events[:index], wrong, *events[index + 1 :]], path)
    db = str(tmp_path / "g.sqlite")
    code, _, err = carc("import", str(path), "--db", db)
    assert code == 1
    assert f".jsonl:{index + 2}: " in err and "BidRaised" in err and "R-BAZAAR-4" in err
    assert stored_games(db) == 0
