"""Bad input at the domain level: refused commands record nothing; broken stores fail cleanly.

A refused command raises RuleViolation naming the rule (R-BASE-3 turn and placement, R-BASE-4
deployment) and a message naming the problem; the game's version, board and pending events
stay as they were. A store file that is not a readable game store raises StoreError.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from pathlib import Path
from uuid import UUID

import pytest

from domain.aggregate import Game
from domain.bots import play_bot_game
from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.readings import rule_set
from domain.rules import RuleSet
from domain.state import Phase
from domain.store import StoreError, open_store
from projections.board import board_view
from tests.helpers import ANN, BOB, Move, play, scenario

# ---------------------------------------------------------------- refused commands


def holding_straight_road() -> Game:
    """Ann holds BA/RFr, nothing placed yet."""
    return scenario(["BA/RFr", "BA/RFr", "BA/C"])


def after_placement() -> Game:
    """Ann has placed BA/RFr at (1,0) and may deploy."""
    game = holding_straight_road()
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=0))
    assert game.state.phase == Phase.ACTION
    return game


def refused(game: Game, player: int, command: Command) -> RuleViolation:
    """Run a command that must be refused; check nothing changed; return the violation."""
    game.collect_events()  # drain: anything pending afterwards was recorded by the command
    version, view = game.version, board_view(game.state)
    with pytest.raises(RuleViolation) as info:
        game.execute(player, command)
    assert game.version == version
    assert game.collect_events() == []
    assert board_view(game.state) == view
    return info.value


CASES: list[tuple[str, Callable[[], Game], int, Command, str, list[str]]] = [
    (
        "unknown tile id",
        holding_straight_road,
        ANN,
        PlaceTile(x=1, y=0, rotation=0, tile="BA/Nope"),
        "R-BASE-3",
        ["unknown tile id", "'BA/Nope'"],
    ),
    (
        "tile other than the one drawn",
        holding_straight_road,
        ANN,
        PlaceTile(x=1, y=0, rotation=0, tile="BA/C"),
        "R-BASE-3",
        ["BA/RFr", "not BA/C"],
    ),
    (
        "position touching no tile",
        holding_straight_road,
        ANN,
        PlaceTile(x=5, y=5, rotation=0),
        "R-BASE-3",
        ["(5, 5)", "touches no placed tile"],
    ),
    (
        "diagonal position",
        holding_straight_road,
        ANN,
        PlaceTile(x=1, y=1, rotation=0),
        "R-BASE-3",
        ["(1, 1)", "touches no placed tile"],
    ),
    (
        "occupied position",
        holding_straight_road,
        ANN,
        PlaceTile(x=0, y=0, rotation=0),
        "R-BASE-3",
        ["(0, 0)", "already occupied"],
    ),
    (
        "wrong player places",
        holding_straight_road,
        BOB,
        PlaceTile(x=1, y=0, rotation=0),
        "R-BASE-3",
        ["Ann's turn", "not Bob's"],
    ),
    (
        "wrong player deploys",
        after_placement,
        BOB,
        Deploy(location="E+W"),
        "R-BASE-3",
        ["Ann's turn", "not Bob's"],
    ),
    (
        "seat that does not exist",
        holding_straight_road,
        2,
        PlaceTile(x=1, y=0, rotation=0),
        "R-BASE-1",
        ["seat 2", "2-player"],
    ),
    (
        "rotation of 45 degrees",
        holding_straight_road,
        ANN,
        PlaceTile(x=1, y=0, rotation=45),
        "R-BASE-3",
        ["rotation", "45"],
    ),
    (
        "rotation of 360 degrees",
        holding_straight_road,
        ANN,
        PlaceTile(x=1, y=0, rotation=360),
        "R-BASE-3",
        ["rotation", "360"],
    ),
    (
        "edges that do not match",
        holding_straight_road,
        ANN,
        PlaceTile(x=1, y=0, rotation=90),
        "R-BASE-3",
        ["W edge is field", "road"],
    ),
    (
        "deploy on a location the tile does not have",
        after_placement,
        ANN,
        Deploy(location="N+W"),
        "R-BASE-4",
        ["no location 'N+W'", "E+W"],
    ),
    (
        "deploy on a field name the tile does not have",
        after_placement,
        ANN,
        Deploy(location="En+Wn"),
        "R-BASE-4",
        ["no location 'En+Wn'"],
    ),
    (
        "deploy when a placement is expected",
        holding_straight_road,
        ANN,
        Deploy(location="E+W"),
        "R-BASE-3",
        ["cannot deploy now", "expects a tile placement"],
    ),
    (
        "pass when a placement is expected",
        holding_straight_road,
        ANN,
        Pass(),
        "R-BASE-3",
        ["cannot pass now", "expects a tile placement"],
    ),
    (
        "second placement in one turn",
        after_placement,
        ANN,
        PlaceTile(x=-1, y=0, rotation=0),
        "R-BASE-3",
        ["cannot place a tile now", "deployment or a pass"],
    ),
]


@pytest.mark.parametrize(
    ("make", "player", "command", "rule", "phrases"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_refused_command_records_nothing(
    make: Callable[[], Game], player: int, command: Command, rule: str, phrases: list[str]
) -> None:
    game = make()
    violation = refused(game, player, command)
    assert violation.rule == rule
    for phrase in phrases:
        assert phrase in violation.message
    assert str(violation) == f"{rule}: {violation.message}"


def test_game_goes_on_normally_after_refused_commands() -> None:
    game = holding_straight_road()
    for command in (PlaceTile(x=5, y=5, rotation=0), PlaceTile(x=1, y=0, rotation=45), Pass()):
        refused(game, ANN, command)
    play(game, Move(1, 0, 0, deploy="E+W"))
    assert game.state.supply == [6, 7]
    assert (game.state.current, game.state.phase) == (BOB, Phase.PLACE)
    assert game.version == 6  # started, drawn, placed, deployed, turn ended, drawn


def test_deploy_on_an_occupied_feature_records_nothing() -> None:
    game = scenario(["BA/RFr", "BA/RFr", "BA/C"])
    play(game, Move(1, 0, 0, deploy="E+W"))
    game.execute(BOB, PlaceTile(x=-1, y=0, rotation=0))
    violation = refused(game, BOB, Deploy(location="E+W"))
    assert violation.rule == "R-BASE-4"
    assert "E+W" in violation.message and "already holds a follower" in violation.message


def test_commands_after_the_end_are_refused() -> None:
    game = scenario(["BA/RFr"])
    play(game, Move(1, 0, 0))
    assert game.state.over
    violation = refused(game, BOB, PlaceTile(x=-1, y=0, rotation=0))
    assert violation.rule == "R-BASE-8"
    assert "over" in violation.message


@pytest.mark.parametrize(
    ("players", "draw_order", "expansions", "rule", "phrase"),
    [
        (("Ann",), ["BA/RFr"], ("base",), "R-BASE-1", "not 1"),
        (("Ann", "Bob"), ["BA/RFr", "XX/Nope"], ("base",), "R-BASE-2", "XX/Nope"),
        (("Ann", "Bob"), ["BA/RFr"], ("base", "moon"), "R-BASE-2", "expansions"),
        (("Ann", "Bob"), ["BA/RFr"], ("bcb",), "R-BASE-2", "include base"),
    ],
)
def test_bad_setup_is_refused(
    players: tuple[str, ...], draw_order: list[str], expansions: tuple[str, ...], rule: str, phrase: str
) -> None:
    with pytest.raises(RuleViolation) as info:
        Game.start(players, draw_order, expansions=expansions)
    assert info.value.rule == rule
    assert phrase in info.value.message


# ---------------------------------------------------------------- broken store files

GAME_ID = UUID(int=0xC0FFEE)


def stored_game_file(path: Path) -> Path:
    """A real store file holding one finished 2-player game, its connection closed."""
    store = open_store(str(path))
    try:
        store.save_game(play_bot_game(2, 7, game_id=GAME_ID))
        assert store.load(GAME_ID).state.over
    finally:
        store.close()  # checkpoints the write-ahead log into the file itself
    return path


def open_and_load(path: Path) -> Game:
    store = open_store(str(path))
    try:
        return store.load(GAME_ID)
    finally:
        store.close()


def test_store_file_round_trip_control(tmp_path: Path) -> None:
    # The control for the corruption tests below: the untouched file loads.
    game = open_and_load(stored_game_file(tmp_path / "ok.sqlite"))
    assert game.state.over
    assert game.version == play_bot_game(2, 7, game_id=GAME_ID).version


def test_random_bytes_file_raises_store_error(tmp_path: Path) -> None:
    path = tmp_path / "random.sqlite"
    path.write_bytes(random.Random(1).randbytes(8192))
    with pytest.raises(StoreError) as info:
        open_and_load(path)
    assert str(path) in str(info.value)


def test_random_bytes_behind_an_sqlite_header_raise_store_error(tmp_path: Path) -> None:
    path = tmp_path / "header.sqlite"
    path.write_bytes(b"SQLite format 3\x00" + random.Random(2).randbytes(8192))
    with pytest.raises(StoreError):
        open_and_load(path)


def test_file_truncated_to_half_raises_store_error(tmp_path: Path) -> None:
    path = stored_game_file(tmp_path / "cut.sqlite")
    data = path.read_bytes()
    assert len(data) > 8192  # more than a couple of pages: the cut loses real data
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(StoreError):
        open_and_load(path)


def test_main_file_copied_without_its_write_ahead_log_and_cut_raises_store_error(tmp_path: Path) -> None:
    # While a store is open, its events sit in the -wal file beside the main file; a copy of the
    # main file alone, cut in half, holds no game.
    source = tmp_path / "live.sqlite"
    store = open_store(str(source))
    try:
        store.save_game(play_bot_game(2, 7, game_id=GAME_ID))
        data = source.read_bytes()
    finally:
        store.close()
    copy = tmp_path / "copy.sqlite"
    copy.write_bytes(data[: len(data) // 2])
    with pytest.raises(StoreError):
        open_and_load(copy)


def test_file_cut_inside_its_last_page_raises_store_error(tmp_path: Path) -> None:
    # Cutting inside the last page keeps the schema readable: the failure comes on reading.
    path = stored_game_file(tmp_path / "tail.sqlite")
    data = path.read_bytes()
    page = _page_size(data)
    path.write_bytes(data[: len(data) - page // 2])
    with pytest.raises(StoreError) as info:
        open_and_load(path)
    assert "cannot read" in str(info.value)


def test_garbled_event_type_raises_store_error(tmp_path: Path) -> None:
    path = stored_game_file(tmp_path / "topic.sqlite")
    data = path.read_bytes()
    at = data.index(b"TurnEnded")
    path.write_bytes(data[:at] + b"TurnEndeX" + data[at + 9 :])
    with pytest.raises(StoreError) as info:
        open_and_load(path)
    assert "TurnEndeX" in str(info.value)


def _page_size(data: bytes) -> int:
    size = int.from_bytes(data[16:18], "big")
    return 65536 if size == 1 else size


def _index_leaf_pages(data: bytes) -> list[int]:
    """Offsets of the b-tree index leaf pages (page type 0x0a) of an SQLite file."""
    page = _page_size(data)
    return [start for start in range(page, len(data), page) if data[start] == 0x0A]


def _rows(path: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT originator_version, topic FROM stored_events ORDER BY 1").fetchall()


def test_store_missing_an_event_in_the_middle_raises_store_error(tmp_path: Path) -> None:
    path = stored_game_file(tmp_path / "gap.sqlite")
    rows = _rows(path)
    assert [v for v, _ in rows] == list(range(1, len(rows) + 1))
    missing = next(v for v, topic in rows if v > 10 and topic == "TileDrawn")
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM stored_events WHERE originator_version = ?", (missing,))
    with pytest.raises(StoreError):
        open_and_load(path)


def test_one_damaged_index_entry_never_gives_anything_but_the_game_or_store_error(tmp_path: Path) -> None:
    path = stored_game_file(tmp_path / "index.sqlite")
    full = open_and_load(path)
    original = path.read_bytes()
    page = _page_size(original)
    key = GAME_ID.hex.encode()
    leaf = _index_leaf_pages(original)[0]
    hits = [i for i in range(leaf, leaf + page - len(key)) if original[i : i + len(key)] == key]
    assert len(hits) > 10
    bad: list[tuple[int, str]] = []
    for n, hit in enumerate(hits):
        data = bytearray(original)
        data[hit + len(key) - 1] = ord("V")  # the last hex digit of one entry's game id
        path.write_bytes(bytes(data))
        try:
            game = open_and_load(path)
        except StoreError:
            continue
        except Exception as e:  # the failure being looked for: anything but StoreError
            bad.append((n, f"{type(e).__name__}: {e}"))
            continue
        if board_view(game.state) != board_view(full.state):
            bad.append((n, f"no error, but version {game.version} of {full.version}"))
    assert bad == []


@pytest.mark.parametrize(
    "rules", [RuleSet(followers=-5), RuleSet(followers=0), rule_set(castle_farm_value=-1)]
)
def test_a_rule_set_out_of_bounds_is_refused_before_anything_is_recorded(rules: RuleSet) -> None:
    with pytest.raises(RuleViolation) as info:
        Game.start(("Ann", "Bob"), ["BA/L"], rules=rules)
    assert info.value.rule == "R-BASE-1" and "out of bounds" in info.value.message


def test_one_player_only_with_the_solo_switch() -> None:
    with pytest.raises(RuleViolation, match="2 to 6 players, not 1"):
        Game.start(("Ann",), ["BA/L"])
    alone = Game.start(("Ann",), ["BA/L"], rules=RuleSet(solo=True))
    assert alone.state.current == 0 and alone.state.tile is not None
