"""Board views: what lies on the table at any event, as plain data and as text."""

from __future__ import annotations

import msgspec

from domain.state import GameState, segment_location


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


class BridgeView(msgspec.Struct, frozen=True):
    x: int
    y: int
    axis: str


class CastleView(msgspec.Struct, frozen=True):
    tiles: tuple[tuple[int, int], ...]
    owners: tuple[int, ...]
    scored: bool


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
    bridges: tuple[BridgeView, ...] = ()
    castles: tuple[CastleView, ...] = ()
    bridge_supply: tuple[int, ...] = ()
    castle_supply: tuple[int, ...] = ()
    goods: tuple[dict[str, int], ...] = ()
    agenda: tuple[str, ...] = ()  # turn parts still to come, e.g. "builder:1"


def board_view(state: GameState) -> BoardView:
    board = state.board
    graph = board.graph
    meeples = []
    for feature in graph.roots():
        for figure, holders in (
            ("follower", feature.meeples),
            ("builder", feature.builders),
            ("pig", feature.pigs),
        ):
            for player, sid in holders:
                x, y, location = segment_location(board, sid)
                meeples.append(MeepleView(player=player, x=x, y=y, location=location, figure=figure))
    meeples.sort(key=lambda m: (m.x, m.y, m.location, m.figure, m.player))
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
        bridges=tuple(BridgeView(x=t.pos[0], y=t.pos[1], axis=t.bridge) for t in board.tiles if t.bridge),
        castles=tuple(
            CastleView(tiles=c.positions, owners=tuple(c.owners), scored=c.scored) for c in state.castles
        ),
        bridge_supply=tuple(state.bridges),
        castle_supply=tuple(state.castles_left),
        goods=tuple(dict(g) for g in state.goods),
        agenda=tuple(f"{e.item}:{e.player}" for e in state.agenda),
    )
