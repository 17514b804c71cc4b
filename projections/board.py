"""Board views: what lies on the table at any event, as plain data and as text."""

from __future__ import annotations

import msgspec

from domain.state import GameState


class TileView(msgspec.Struct, frozen=True):
    x: int
    y: int
    tile: str
    rotation: int


class MeepleView(msgspec.Struct, frozen=True):
    player: int
    x: int
    y: int
    location: str
    figure: str = "follower"


class BoardView(msgspec.Struct, frozen=True):
    """Everything a game's state shows; two games in the same position have equal views."""

    version: int
    phase: str
    turn: int
    current: int
    holding: str | None
    pile_left: int
    tiles: tuple[TileView, ...]
    meeples: tuple[MeepleView, ...]
    supply: tuple[int, ...]
    scores: tuple[int, ...]
    discarded: tuple[str, ...]


def board_view(state: GameState) -> BoardView:
    board = state.board
    graph = board.graph
    meeples = []
    for feature in graph.roots():
        for player, sid in feature.meeples:
            placed = board.tiles[graph.segment_tile[sid]]
            meeples.append(
                MeepleView(
                    player=player,
                    x=placed.pos[0],
                    y=placed.pos[1],
                    location=placed.orientation.names[sid - placed.base],
                )
            )
    meeples.sort(key=lambda m: (m.x, m.y, m.location, m.player))
    return BoardView(
        version=state.version,
        phase=str(state.phase),
        turn=state.turn,
        current=state.current,
        holding=state.tile.id if state.tile else None,
        pile_left=state.pile_left,
        tiles=tuple(
            TileView(x=t.pos[0], y=t.pos[1], tile=t.tile.id, rotation=t.orientation.rotation)
            for t in board.tiles
        ),
        meeples=tuple(meeples),
        supply=tuple(state.supply),
        scores=tuple(state.scores),
        discarded=tuple(state.discarded),
    )
