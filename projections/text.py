"""The board as text: each tile a 3×3 block of characters.

Edges show their kind (``#`` city, ``|``/``-`` road, ``.`` field, ``~`` river, ``*`` an abbey's
wall, ``K`` a castle's city), the centre a cloister (``o``), a bridge (``H`` north-south, ``=``
east-west) or a tower (its height, ``T`` once a follower closed it). A figure shows on its
segment (the first edge of a city or road, a corner for a field, the centre for a cloister or a
bridge): a follower as its owner's seat number (1-based), a large follower as ``U``…``Z``, a
mayor as ``G``…``L``, a wagon as ``g``…``l``, a barn as ``M``…``R``, a builder as a lower-case
letter (``a`` for seat 1), a pig as an upper-case one (``A`` for seat 1). ``D`` is the dragon.
"""

from __future__ import annotations

from domain.board import Board
from domain.expansions import tower as tw
from domain.expansions.bridges import AXES, NAME as BRIDGES, bridges
from domain.expansions.castles import NAME as CASTLES, castles
from domain.geometry import Pos
from domain.state import GameState
from domain.tiles import CITY_EDGE, ROAD_EDGE, Kind

_EDGE_CELLS = ((0, 1), (1, 2), (2, 1), (1, 0))  # (row, col) of N, E, S, W
_HALF_CELLS = ((0, 0), (0, 2), (0, 2), (2, 2), (2, 2), (2, 0), (2, 0), (0, 0))
_ROAD_CHARS = ("|", "-", "|", "-")
_KIND_CHARS = {0: "*", 1: "#", 3: ".", 4: "~"}
_FOLLOWER = "123456"
_GLYPHS = {
    "builder": "abcdef",
    "pig": "ABCDEF",
    "big": "UVWXYZ",
    "mayor": "GHIJKL",
    "wagon": "ghijkl",
    "barn": "MNOPQR",
}
_LAYER = {"pig": 0, "builder": 1}  # drawn first, so a follower on the same segment shows over them


def _tile_block(
    board: Board,
    index: int,
    marks: dict[int, str],
    castles: set[int],
    axes: dict[Pos, str],
    centres: dict[Pos, str],
) -> list[list[str]]:
    placed = board.tiles[index]
    o = placed.orientation
    graph = board.graph
    cells = [[".", ".", "."] for _ in range(3)]
    for edge, code in enumerate(placed.edge_codes):  # a bridge's ends show as road
        r, c = _EDGE_CELLS[edge]
        cells[r][c] = _ROAD_CHARS[edge] if code == ROAD_EDGE else _KIND_CHARS[code]
        segment = o.edge_segment[edge]
        if code == CITY_EDGE and segment >= 0 and graph.find(placed.base + segment) in castles:
            cells[r][c] = "K"
    cells[1][1] = centres.get(placed.pos, "o" if placed.tile.cloister else " ")
    axis = axes.get(placed.pos)
    if axis is not None:
        cells[1][1] = "H" if axis == "NS" else "="
        mark = marks.get(placed.edge_segment[AXES[axis][0]])
        if mark is not None:
            cells[1][1] = mark
    for i, seg in enumerate(placed.tile.segments):
        mark = marks.get(placed.base + i)
        if mark is None:
            continue
        if seg.kind in (Kind.CITY, Kind.ROAD):
            edge = o.edge_segment.index(i)
            r, c = _EDGE_CELLS[edge]
        elif seg.kind == Kind.FIELD and seg.halves:
            r, c = _HALF_CELLS[o.half_segment.index(i)]
        else:
            r, c = 1, 1
        cells[r][c] = mark
    return cells


def render_board(state: GameState) -> str:
    board = state.board
    marks: dict[int, str] = {}
    built = castles(state).roots if state.has(CASTLES) else set()
    axes = bridges(state).axis if state.has(BRIDGES) else {}
    centres: dict[Pos, str] = {}
    if state.has(tw.NAME):
        towers = tw.towers(state)
        centres = {pos: "T" if pos in towers.guards else str(min(h, 9)) for pos, h in towers.heights.items()}
    if state.has("dragon") and state.ext["dragon"].at is not None:
        centres[state.ext["dragon"].at] = "D"
    for feature in board.graph.roots():
        for player, sid, figure in sorted(feature.figures, key=lambda f: _LAYER.get(f[2], 2)):
            marks[sid] = _GLYPHS.get(figure, _FOLLOWER)[player]
    xs = [t.pos[0] for t in board.tiles]
    ys = [t.pos[1] for t in board.tiles]
    width = max(xs) - min(xs) + 1
    rows = [[" "] * (3 * width) for _ in range(3 * (max(ys) - min(ys) + 1))]
    for placed in board.tiles:
        block = _tile_block(board, placed.index, marks, built, axes, centres)
        ox = 3 * (placed.pos[0] - min(xs))
        oy = 3 * (placed.pos[1] - min(ys))
        for r in range(3):
            rows[oy + r][ox : ox + 3] = block[r]
    return "\n".join("".join(row).rstrip() for row in rows)
