"""Board views: what lies on the table at any event, as plain data and as text."""

from __future__ import annotations

import msgspec

from domain.expansions.bridges import NAME as BRIDGES, bridges
from domain.expansions.castles import NAME as CASTLES, castles
from domain.expansions.goods import NAME as GOODS, goods
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
        for player, sid, figure in feature.figures:
            x, y, location = segment_location(board, sid)
            meeples.append(MeepleView(player=player, x=x, y=y, location=location, figure=figure))
    meeples.sort(key=lambda m: (m.x, m.y, m.location, m.figure, m.player))
    bridge_axes = bridges(state).axis if state.has(BRIDGES) else {}
    built = castles(state).all if state.has(CASTLES) else []
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
        bridges=tuple(BridgeView(x=x, y=y, axis=axis) for (x, y), axis in bridge_axes.items()),
        castles=tuple(CastleView(tiles=c.positions, owners=tuple(c.owners), scored=c.scored) for c in built),
        bridge_supply=tuple(bridges(state).left) if state.has(BRIDGES) else (),
        castle_supply=tuple(castles(state).left) if state.has(CASTLES) else (),
        goods=tuple(dict(g) for g in goods(state)) if state.has(GOODS) else (),
        agenda=tuple(f"{e.item}:{e.player}" for e in state.agenda),
    )
