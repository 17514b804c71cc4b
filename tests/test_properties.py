"""Property tests over random bot games (R-BASE-1, R-BASE-3, R-BASE-4, R-BASE-7, storage).

Each example plays a whole seeded base game between random bots (about 70 turns); the checks
step through its events one at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import pytest
from hypothesis import given, settings, strategies as st

from domain import events as ev
from domain.aggregate import Game
from domain.bots import play_bot_game
from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.geometry import EDGE_OFFSETS
from domain.moves import legal_placements
from domain.state import GameState, Phase
from domain.store import GameStore, open_store
from domain.tiles import TILES, TileType
from projections.board import board_view
from tests.helpers import figures

seeds = st.integers(min_value=0, max_value=2**32 - 1)
player_counts = st.integers(min_value=2, max_value=5)


def bot_game(players: int, seed: int) -> tuple[Game, list[ev.Event]]:
    """A finished bot game (its events still pending) and a copy of its events.

    The copy comes from a second run with the same seed and game id, so the returned game can
    still be saved to a store (saving drains its pending events).
    """
    gid = UUID(int=seed)
    events = play_bot_game(players, seed, game_id=gid).collect_events()
    return play_bot_game(players, seed, game_id=gid), events


def replay_stepwise(events: list[ev.Event]) -> Iterator[tuple[ev.Event, GameState]]:
    """Apply the events one by one to a fresh Game, yielding each event and the state after it."""
    game = Game(events[0].originator_id)
    for event in events:
        game.replay(event)
        yield event, game.state


def rebuilt(events: list[ev.Event], version: int) -> Game:
    """A fresh Game holding the first `version` events."""
    game = Game(events[0].originator_id)
    for event in events[:version]:
        game.replay(event)
    return game


def assert_same_game(a: Game, b: Game) -> None:
    assert board_view(a.state) == board_view(b.state)
    assert a.state.scores == b.state.scores
    assert a.state.awards == b.state.awards
    assert a.version == b.version


# ---------------------------------------------------------------- followers are conserved


@settings(max_examples=50, deadline=None)
@given(seed=seeds, players=player_counts)
def test_followers_are_never_lost_or_duplicated(seed: int, players: int) -> None:
    live, events = bot_game(players, seed)
    deployments = 0
    state: GameState | None = None
    for event, state in replay_stepwise(events):
        if isinstance(event, ev.GameStarted):
            assert state.supply == [7] * players  # R-BASE-1
            continue
        on_board = [m for f in state.board.graph.roots() for m in figures(f)]
        assert len(set(on_board)) == len(on_board), f"a follower counted twice after {event}"
        for p in range(players):
            mine = sum(1 for player, _ in on_board if player == p)
            assert state.supply[p] >= 0
            assert state.supply[p] + mine == 7, f"player {p} after {event}"
        deployments += isinstance(event, ev.FollowerDeployed)
    assert state is not None and state.over
    assert deployments > 0  # the property was exercised
    assert state.supply == [7] * players  # everybody is back after final scoring
    assert board_view(state) == board_view(live.state)


# ---------------------------------------------------------------- stored games equal live ones


@settings(max_examples=10, deadline=None)
@given(seed=seeds, players=player_counts, cut=st.floats(min_value=0.0, max_value=1.0))
def test_game_rebuilt_from_memory_store_equals_live_game(seed: int, players: int, cut: float) -> None:
    live, events = bot_game(players, seed)
    store = open_store("memory")
    try:
        store.save_game(live)
        assert store.game_events(live.id) == events
        loaded = store.load(live.id)
        assert_same_game(loaded, live)
        assert loaded.state.over
        version = max(1, round(cut * len(events)))
        assert_same_game(store.load(live.id, version=version), rebuilt(events, version))
    finally:
        store.close()


def _load_twice(store: GameStore, game_id: UUID, version: int) -> Game:
    first = store.load(game_id, version=version)
    second = store.load(game_id, version=version)
    assert first is not second  # a fresh projection each time, not a shared mutable object
    assert_same_game(first, second)
    return first


@settings(max_examples=8, deadline=None)
@given(seed=seeds, players=player_counts)
def test_game_rebuilt_from_sqlite_file_equals_live_game(
    tmp_path_factory: pytest.TempPathFactory, seed: int, players: int
) -> None:
    path: Path = tmp_path_factory.mktemp("store") / "games.sqlite"
    live, events = bot_game(players, seed)
    store = open_store(str(path))
    try:
        store.save_game(live)
    finally:
        store.close()
    reopened = open_store(str(path))  # a new connection: nothing cached from the save
    try:
        assert reopened.game_events(live.id) == events
        assert_same_game(reopened.load(live.id), live)
        middle = len(events) // 2
        in_between = _load_twice(reopened, live.id, middle)
        assert_same_game(in_between, rebuilt(events, middle))
        assert not in_between.state.over
    finally:
        reopened.close()


def commands_of(events: list[ev.Event]) -> list[tuple[int, Command]]:
    """The players' decisions recorded in a game, as commands."""
    found: list[tuple[int, Command]] = []
    for e in events:
        if isinstance(e, ev.TilePlaced):
            found.append((e.player, PlaceTile(x=e.x, y=e.y, rotation=e.rotation, tile=e.tile)))
        elif isinstance(e, ev.FollowerDeployed):
            found.append((e.player, Deploy(location=e.location)))
        elif isinstance(e, ev.Passed):
            found.append((e.player, Pass()))
    return found


def test_game_saved_in_two_parts_and_replayed_by_commands_equals_live_game(tmp_path: Path) -> None:
    live, events = bot_game(3, 2024)
    started = events[0]
    assert isinstance(started, ev.GameStarted)
    again = Game.start(started.players, started.draw_order, seed=started.seed, game_id=started.originator_id)
    commands = commands_of(events)
    half = len(commands) // 2
    store = open_store(str(tmp_path / "two.sqlite"))
    try:
        for player, command in commands[:half]:
            again.execute(player, command)
        store.save_game(again)
        saved_version = again.version
        for player, command in commands[half:]:
            again.execute(player, command)
        store.save_game(again)
        assert again.collect_events() == []
        assert_same_game(again, live)
        assert_same_game(store.load(live.id), live)
        assert_same_game(store.load(live.id, version=saved_version), rebuilt(events, saved_version))
        assert store.game_events(live.id) == events
    finally:
        store.close()


# ---------------------------------------------------------------- determinism


@settings(max_examples=20, deadline=None)
@given(seed=seeds, players=player_counts)
def test_same_seed_gives_the_same_events(seed: int, players: int) -> None:
    gid = UUID(int=seed)
    first = play_bot_game(players, seed, game_id=gid).collect_events()
    second = play_bot_game(players, seed, game_id=gid).collect_events()
    assert first == second
    started = first[0]
    assert isinstance(started, ev.GameStarted)
    assert started.seed == seed
    assert len(started.players) == players
    assert len(started.draw_order) == 71  # R-BASE-2
    assert isinstance(first[-1], ev.GameEnded)


# ---------------------------------------------------------------- placements really match


def edge_on_side(tile: TileType, rotation: int, side: int) -> str:
    """The edge letter (C/R/F) `tile` shows on board side `side` (0=N .. 3=W) when turned
    `rotation` degrees clockwise: the unrotated edge rotation/90 sides counter-clockwise."""
    return tile.edges[(side - rotation // 90) % 4]


def matching_placements(state: GameState, tile: TileType) -> set[tuple[int, int, int]]:
    """Every (x, y, rotation) that touches a placed tile and matches all placed neighbours,
    worked out from the tiles' printed edges (not the engine's constraint tables)."""
    placed = {(t.x, t.y): (TILES[t.tile], t.rotation) for t in board_view(state).tiles}
    candidates = {(x + dx, y + dy) for (x, y) in placed for dx, dy in EDGE_OFFSETS} - placed.keys()
    found = set()
    for x, y in candidates:
        for rotation in (0, 90, 180, 270):
            neighbours = [
                (side, placed[(x + dx, y + dy)])
                for side, (dx, dy) in enumerate(EDGE_OFFSETS)
                if (x + dx, y + dy) in placed
            ]
            if all(
                edge_on_side(tile, rotation, side) == edge_on_side(other, turn, (side + 2) % 4)
                for side, (other, turn) in neighbours
            ):
                found.add((x, y, rotation))
    return found


@settings(max_examples=15, deadline=None)
@given(seed=seeds, players=player_counts)
def test_legal_placements_are_exactly_the_matching_ones(seed: int, players: int) -> None:
    _, events = bot_game(players, seed)
    draws = discards = 0
    held: TileType | None = None
    for event, state in replay_stepwise(events):
        if isinstance(event, ev.TileDrawn):
            assert state.phase == Phase.PLACE and state.tile is not None
            held = state.tile
            legal = legal_placements(state)
            assert len(set(legal)) == len(legal)
            assert set(legal) == matching_placements(state, held)
            draws += 1
        elif isinstance(event, ev.TileDiscarded):
            assert held is not None and held.id == event.tile
            assert matching_placements(state, held) == set()  # R-BASE-3: fits nowhere
            discards += 1
        elif isinstance(event, ev.TilePlaced):
            tile = TILES[event.tile]
            touching = 0
            for side, (dx, dy) in enumerate(EDGE_OFFSETS):
                other = state.board.at.get((event.x + dx, event.y + dy))
                if other is not None:
                    touching += 1
                    theirs = edge_on_side(other.tile, other.orientation.rotation, (side + 2) % 4)
                    assert edge_on_side(tile, event.rotation, side) == theirs
            assert touching >= 1
    assert draws == 71
    assert sum(isinstance(e, ev.TilePlaced) for e in events) == 71 - discards
