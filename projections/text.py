"""The board as text: each tile a 3×3 block of characters.

Edges show their kind (``#`` city, ``|``/``-`` road, ``.`` field, ``~`` water, ``*`` an edge
that fits any other and closes the road or city it meets), the centre a
cloister (``o``), or nothing when the tile has nothing there (a blank centre: no cloister, no
mark, no figure; a road or city through it shows on its edges). A figure shows on its segment (the first
edge of a city or road, a corner for a field, the centre for a cloister or for a segment a part
laid on the tile): a follower as its owner's seat number (1-based), any other kind of figure as
the character its part gives it for that seat (`domain.part.FigureKind.look`). What else the
parts put on the table (`domain.part.Part.view`) shows as each mark's character: on the edges
an outline's spots name, or else at its tile's centre; a later part's over an earlier one's, a
figure over them all. Nothing here knows whose marks they are.
"""

from __future__ import annotations

from domain.board import Board
from domain.geometry import EDGE_BY_NAME, Pos
from domain.state import GameState
from domain.tiles import CITY_EDGE, FIELD_EDGE, ROAD_EDGE, WATER_EDGE, WILD_EDGE, Kind
from domain.view import figure_look

_EDGE_CELLS = ((0, 1), (1, 2), (2, 1), (1, 0))  # (row, col) of N, E, S, W
_HALF_CELLS = ((0, 0), (0, 2), (0, 2), (2, 2), (2, 2), (2, 0), (2, 0), (0, 0))
_ROAD_CHARS = ("|", "-", "|", "-")
_EDGE_CHARS = {WILD_EDGE: "*", CITY_EDGE: "#", FIELD_EDGE: ".", WATER_EDGE: "~"}

# What the characters every board may show mean: `carc replay` prints it under the board. Each
# set's own marks and figures are the README's (its part declares them; nothing here names a set).
LEGEND = (
    "# city  |/- road  . field  ~ water  * fits any edge  o cloister  "
    "blank centre: nothing there  1-6 a follower (seat); other letters: README"
)

Cell = tuple[int, int, str]  # (row, col, character) in a tile's block


def _marked(state: GameState) -> dict[Pos, list[Cell]]:
    """The characters the parts' marks put on each tile, in the order they are drawn."""
    found: dict[Pos, list[Cell]] = {}
    for part in state.hooks["view"]:
        for mark in part.view(state).marks:
            if not mark.text:
                continue
            if not mark.spots:
                found.setdefault((mark.x, mark.y), []).append((1, 1, mark.text))
            for spot in mark.spots:
                for token in spot.location.split("+"):
                    if token in EDGE_BY_NAME:
                        found.setdefault((spot.x, spot.y), []).append(
                            (*_EDGE_CELLS[EDGE_BY_NAME[token]], mark.text)
                        )
    return found


def _tile_block(board: Board, index: int, glyphs: dict[int, str], marked: list[Cell]) -> list[list[str]]:
    placed = board.tiles[index]
    o = placed.orientation
    cells = [[".", ".", "."] for _ in range(3)]
    for edge, code in enumerate(placed.edge_codes):  # as the board sees them: a part's segment too
        r, c = _EDGE_CELLS[edge]
        cells[r][c] = _ROAD_CHARS[edge] if code == ROAD_EDGE else _EDGE_CHARS[code]
    cells[1][1] = "o" if placed.tile.cloister else " "
    for r, c, char in marked:
        cells[r][c] = char
    for _, sid, _ in placed.extra:  # a segment a part laid crosses the tile: its figure stands in the middle
        glyph = glyphs.get(sid)
        if glyph is not None:
            cells[1][1] = glyph
    for i, seg in enumerate(placed.tile.segments):
        glyph = glyphs.get(placed.base + i)
        if glyph is None:
            continue
        if seg.kind in (Kind.CITY, Kind.ROAD):
            edge = o.edge_segment.index(i)
            r, c = _EDGE_CELLS[edge]
        elif seg.kind == Kind.FIELD and seg.halves:
            r, c = _HALF_CELLS[o.half_segment.index(i)]
        else:
            r, c = 1, 1
        cells[r][c] = glyph
    return cells


def render_board(state: GameState) -> str:
    board = state.board
    glyphs: dict[int, str] = {}  # segment id -> the figure shown on it
    for feature in board.graph.roots():
        # Figures drawn beneath first: a follower on the same segment shows over them.
        looks = [(figure_look(state, figure), player, sid) for player, sid, figure in feature.figures]
        for look, player, sid in sorted(looks, key=lambda f: not f[0].beneath):
            glyphs[sid] = look.glyphs[player]
    marked = _marked(state)
    xs = [t.pos[0] for t in board.tiles]
    ys = [t.pos[1] for t in board.tiles]
    width = max(xs) - min(xs) + 1
    rows = [[" "] * (3 * width) for _ in range(3 * (max(ys) - min(ys) + 1))]
    for placed in board.tiles:
        block = _tile_block(board, placed.index, glyphs, marked.get(placed.pos, []))
        ox = 3 * (placed.pos[0] - min(xs))
        oy = 3 * (placed.pos[1] - min(ys))
        for r in range(3):
            rows[oy + r][ox : ox + 3] = block[r]
    return "\n".join("".join(row).rstrip() for row in rows)
