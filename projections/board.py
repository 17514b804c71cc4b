"""Board views: what lies on the table at any event, as plain data.

Tiles and the figures in features are the core's; whatever else lies there, each part in play
declares as marks and supplies (`domain.part.Part.view`), and the view carries them as they come.
"""

from __future__ import annotations

import msgspec

from domain.state import GameState, segment_location
from domain.view import Mark, Supply


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
    marks: tuple[Mark, ...] = ()  # what the parts show on the board, sorted
    supplies: tuple[Supply, ...] = ()  # the counts per player they show, in the parts' order
    agenda: tuple[str, ...] = ()  # turn parts still to come, as "item:seat"


def board_view(state: GameState) -> BoardView:
    board = state.board
    graph = board.graph
    meeples = []
    for feature in graph.roots():
        for player, sid, figure in feature.figures:
            x, y, location = segment_location(board, sid)
            meeples.append(MeepleView(player=player, x=x, y=y, location=location, figure=figure))
    meeples.sort(key=lambda m: (m.x, m.y, m.location, m.figure, m.player))
    marks: list[Mark] = []
    supplies: list[Supply] = []
    for part in state.hooks["view"]:
        shown = part.view(state)
        marks += shown.marks
        supplies += shown.supplies
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
        marks=tuple(sorted(marks)),
        supplies=tuple(supplies),
        agenda=tuple(f"{e.item}:{e.player}" for e in state.agenda),
    )
