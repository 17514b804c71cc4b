"""The board as text: each tile a 3×3 block of characters.

Edges show their kind (``#`` city, ``|``/``-`` road, ``.`` field, ``~`` water, ``*`` an edge
that fits any other and closes the road or city it meets), the centre a
cloister (``o``), or nothing when the tile has nothing there (a blank centre: no cloister, no
mark, no figure; a road or city through it shows on its edges). A figure shows on its segment (the first
edge of a city or road, a corner for a field, the centre for a cloister or for a segment a part
laid on the tile): a follower as its owner's seat number (1-based), any other kind of figure as
the character its part gives it for that seat (`domain.part.FigureKind.look`). What else the
parts put on the table (`domain.part.Part.view`) shows as each mark's character: on the edges
(or the corners, for a field's halves) its spots name, or else at its tile's centre; a later
part's over an earlier one's, a figure over them all (a mark whose every cell a figure covers
shows at the centre instead). Below the board, a legend spells out what a character cannot:
each label's words, each link's two ends, and the counts the standings show
(`domain.view.Supply.standing`) by seat. Nothing here knows whose marks they are.
"""

from __future__ import annotations

from domain.board import Board
from domain.geometry import EDGE_BY_NAME, HALF_BY_NAME, Pos
from domain.state import GameState
from domain.tiles import CITY_EDGE, FIELD_EDGE, ROAD_EDGE, WATER_EDGE, WILD_EDGE, Kind
from domain.view import Mark, MarkKind, figure_look

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

# The (row, col) cells of a tile's block a mark's character goes on, and the character.
Marked = tuple[list[tuple[int, int]], str]


def _cells(location: str) -> list[tuple[int, int]]:
    """The cells of a tile's block a location names: its edges', its halves' corners, else the
    centre."""
    cells = [_EDGE_CELLS[EDGE_BY_NAME[t]] for t in location.split("+") if t in EDGE_BY_NAME]
    cells += [_HALF_CELLS[HALF_BY_NAME[t]] for t in location.split("+") if t in HALF_BY_NAME]
    return cells or [(1, 1)]


def _marked(state: GameState) -> dict[Pos, list[Marked]]:
    """The characters the parts' marks put on each tile, in the order they are drawn."""
    found: dict[Pos, list[Marked]] = {}
    for part in state.hooks["view"]:
        for mark in part.view(state).marks:
            if not mark.text:
                continue
            if not mark.spots:
                found.setdefault((mark.x, mark.y), []).append(([(1, 1)], mark.text))
            for spot in mark.spots:
                found.setdefault((spot.x, spot.y), []).append((_cells(spot.location), mark.text))
    return found


def _where(x: int, y: int, location: str = "") -> str:
    return f"{x},{y} {location}".rstrip()


def _legend_line(mark: Mark) -> str | None:
    """A label's words or a link's two ends, as the legend below the board spells them."""
    symbol = f"{mark.text} " if mark.text else ""
    owners = f" of seat {'+'.join(str(o + 1) for o in mark.owners)}" if mark.owners else ""
    if mark.kind == MarkKind.LABEL:
        return f"{symbol}{mark.style}{owners} at {_where(mark.x, mark.y)}: {mark.label}"
    if mark.kind == MarkKind.LINK:
        ends = " to ".join(_where(s.x, s.y, s.location) for s in mark.spots)
        return f"{symbol}{mark.style}{owners}: {ends}"
    return None


def legend(state: GameState) -> list[str]:
    """The lines below the board: the labels and links the parts show, at board positions x,y
    (the first line names the left column and the top row), then each count the standings show,
    by seat (1-based) where it is not 0 ("none" if it is 0 for all)."""
    lines: list[str] = []
    for part in state.hooks["view"]:
        shown = part.view(state)
        lines += [line for mark in sorted(shown.marks) if (line := _legend_line(mark)) is not None]
    if lines:
        left = min(t.pos[0] for t in state.board.tiles)
        top = min(t.pos[1] for t in state.board.tiles)
        lines.insert(0, f"(positions x,y: the left column is x={left}, the top row y={top})")
    for part in state.hooks["view"]:
        for supply in part.view(state).supplies:
            if supply.standing:
                held = [f"seat {seat + 1} {n}" for seat, n in enumerate(supply.counts) if n]
                lines.append(f"{supply.label}: {', '.join(held) or 'none'}")
    return lines


def _tile_block(board: Board, index: int, glyphs: dict[int, str], marked: list[Marked]) -> list[list[str]]:
    placed = board.tiles[index]
    o = placed.orientation
    cells = [[".", ".", "."] for _ in range(3)]
    for edge, code in enumerate(placed.edge_codes):  # as the board sees them: a part's segment too
        r, c = _EDGE_CELLS[edge]
        cells[r][c] = _ROAD_CHARS[edge] if code == ROAD_EDGE else _EDGE_CHARS[code]
    cells[1][1] = "o" if placed.tile.cloister else " "
    figures: dict[tuple[int, int], str] = {}
    for _, sid, _ in placed.extra:  # a segment a part laid crosses the tile: its figure stands in the middle
        glyph = glyphs.get(sid)
        if glyph is not None:
            figures[(1, 1)] = glyph
    for i, seg in enumerate(placed.tile.segments):
        glyph = glyphs.get(placed.base + i)
        if glyph is None:
            continue
        if seg.kind in (Kind.CITY, Kind.ROAD):
            at = _EDGE_CELLS[o.edge_segment.index(i)]
        elif seg.kind == Kind.FIELD and seg.halves:
            at = _HALF_CELLS[o.half_segment.index(i)]
        else:
            at = (1, 1)
        figures[at] = glyph
    for where, char in marked:
        if all(cell in figures for cell in where):  # a figure covers it: it shows in the middle
            where = [(1, 1)]
        for r, c in where:
            cells[r][c] = char
    for (r, c), glyph in figures.items():
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
    drawn = ["".join(row).rstrip() for row in rows]
    below = legend(state)
    return "\n".join([*drawn, "", *below] if below else drawn)
