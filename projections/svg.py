"""The board as SVG, drawn from our own tile data and from what the parts in play declare.

Each tile is drawn unrotated from its segments (fields as the ground, cities reaching their
edges, roads and water from their edges to the centre, a cloister in the middle, pennants, the
flags a part gives a look to, the tags the parts read), then turned as it lies. Figures stand on
their segment's place in board orientation, in their owner's colour: a follower as a disc, every
other kind of figure as the shape its part declares (`domain.part.FigureKind.look`). What else
the parts put on the table, each declares as marks (`domain.part.Part.view`, `domain.view`):
lines across a tile, outlines around tiles, discs with a number, figures standing on them,
neutral tokens over the figures, links joining two places and labels written on a tile, each
drawn here with its part's style, whatever it stands for; a mark put on a spot stands where a
figure there would. The last tile placed is outlined; the standings stand beside the board,
each player's standing counts (`domain.view.Supply.standing`) under their points.

Built with the standard library's ElementTree: no drawing library, no images from elsewhere.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Mapping, Sequence

import msgspec

from domain.geometry import EDGE_BY_NAME, HALF_BY_NAME, Pos
from domain.part import Part
from domain.state import GameState, segment_location
from domain.tiles import Kind, Segment, TileType
from domain.view import OWNER, FigureLook, FlagStyle, Mark, MarkKind, MarkStyle, Shape, Spot, figure_look

S = 64  # a tile's side, in SVG units
MARGIN = 16
PANEL = 200  # the standings' column beside the board
COLOURS = ("#d62728", "#1f5fbf", "#e6b800", "#222222", "#8e44ad", "#7f7f7f")  # by seat
FIELD, CITY, ROAD, WATER, WALL = "#8fbc5a", "#c8a165", "#f4f1e8", "#3b83c4", "#6b4f2a"
NEUTRAL = "#222"  # the owner's paint of a mark nobody owns
# Points on a tile (unrotated, in tile units of 0..1): each edge's midpoint and ends, each half.
_MID = {0: (0.5, 0.0), 1: (1.0, 0.5), 2: (0.5, 1.0), 3: (0.0, 0.5)}
_ENDS = {0: ((0, 0), (1, 0)), 1: ((1, 0), (1, 1)), 2: ((1, 1), (0, 1)), 3: ((0, 1), (0, 0))}
_HALF = ((0.25, 0), (0.75, 0), (1, 0.25), (1, 0.75), (0.75, 1), (0.25, 1), (0, 0.75), (0, 0.25))


def _pt(x: float, y: float) -> str:
    return f"{x * S:.1f},{y * S:.1f}"


def _sub(parent: ET.Element, tag: str, **attrs: object) -> ET.Element:
    return ET.SubElement(parent, tag, {k.rstrip("_").replace("_", "-"): _value(v) for k, v in attrs.items()})


def _value(v: object) -> str:
    """An attribute's text; a coordinate to a tenth, as `_xy` writes them (no 507.20000000000005)."""
    return f"{v:.1f}".removesuffix(".0") if isinstance(v, float) else str(v)


def _paint(shape: Shape, colour: str) -> dict[str, object]:
    paint = {
        "fill": shape.fill,
        "stroke": shape.stroke,
        "stroke_width": shape.stroke_width,
        "stroke_dasharray": shape.dash or None,
    }
    return {name: colour if value == OWNER else value for name, value in paint.items() if value is not None}


def _shape(parent: ET.Element, shape: Shape, cx: float, cy: float, colour: str, **attrs: object) -> None:
    """`shape` centred on (cx, cy), its owner's paint in `colour`."""
    geometry: dict[str, object]
    if shape.tag == "circle":
        geometry = {"cx": cx, "cy": cy, "r": shape.r}
    elif shape.tag == "ellipse":
        geometry = {"cx": cx, "cy": cy, "rx": shape.rx, "ry": shape.ry}
    elif shape.tag == "rect":
        geometry = {
            "x": cx - shape.width / 2,
            "y": cy - shape.height / 2,
            "width": shape.width,
            "height": shape.height,
            **({"rx": shape.rx} if shape.rx else {}),
        }
    elif shape.tag == "polygon":
        geometry = {"points": " ".join(f"{cx + dx:.1f},{cy + dy:.1f}" for dx, dy in shape.points)}
    elif shape.tag == "path":
        geometry = {"d": f"M{cx:.1f},{cy:.1f} {shape.d}"}
    else:  # a line has ends, not a centre: only a line mark draws one
        raise ValueError(f"a {shape.tag} cannot stand centred on a point")
    _sub(parent, shape.tag, **geometry, **_paint(shape, colour), **attrs)


def _figure(parent: ET.Element, look: FigureLook, figure: str, player: int, cx: float, cy: float) -> None:
    colour = COLOURS[player % len(COLOURS)]
    _shape(parent, look.shape, cx, cy, colour, **{"class": f"piece {figure}", "data_player": player})


def flag_styles(parts: Iterable[Part]) -> dict[str, FlagStyle]:
    """The looks of the segment flags these parts style, by the flag's word."""
    return {word: style for part in parts for word, style in part.flag_styles.items()}


def _city(group: ET.Element, segment: Segment) -> None:
    edges = segment.edges
    if len(edges) == 1:  # a cap against its edge, a quarter of the tile deep
        (ax, ay), (bx, by) = _ENDS[edges[0]]
        mx, my = _MID[edges[0]]
        dx, dy = (0.5 - mx) * 0.56, (0.5 - my) * 0.56
        points = [(ax, ay), (bx, by), (bx + dx, by + dy), (ax + dx, ay + dy)]
        _sub(
            group,
            "polygon",
            points=" ".join(_pt(*p) for p in points),
            fill=CITY,
            stroke=WALL,
            stroke_width=1.5,
        )
        return
    for edge in edges:  # a triangle from each edge to the centre, the corners between filled
        (ax, ay), (bx, by) = _ENDS[edge]
        _sub(group, "polygon", points=f"{_pt(ax, ay)} {_pt(bx, by)} {_pt(0.5, 0.5)}", fill=CITY)
        if (edge + 1) % 4 in edges:
            corner = _ENDS[edge][1]
            points = [_MID[edge], corner, _MID[(edge + 1) % 4], (0.5, 0.5)]
            _sub(group, "polygon", points=" ".join(_pt(*p) for p in points), fill=CITY)
    if set(edges) in ({0, 2}, {1, 3}):  # opposite edges: a band through the middle
        w, h = (0.5, 1.0) if 0 in edges else (1.0, 0.5)
        _sub(group, "rect", x=(1 - w) / 2 * S, y=(1 - h) / 2 * S, width=w * S, height=h * S, fill=CITY)


def _anchor(segment: Segment) -> tuple[float, float]:
    """Where a segment's marks go, unrotated."""
    points = [_MID[e] for e in segment.edges] or [_HALF[h] for h in segment.halves] or [(0.5, 0.5)]
    x = sum(p[0] for p in points) / len(points)
    y = sum(p[1] for p in points) / len(points)
    return 0.5 + (x - 0.5) * 0.55, 0.5 + (y - 0.5) * 0.55


def tile_group(
    tile: TileType, rotation: int, x: float, y: float, flags: Mapping[str, FlagStyle] | None = None
) -> ET.Element:
    """One tile at board position (x, y) in SVG units, turned `rotation` degrees clockwise, its
    segments' flags drawn as `flags` (`flag_styles`) says; a flag not there is not drawn."""
    styles = flags or {}
    outer = ET.Element(
        "g",
        {
            "class": "tile",
            "data-tile": tile.id,
            "data-rotation": str(rotation),
            "transform": f"translate({x:.0f},{y:.0f})",
        },
    )
    group = _sub(outer, "g", transform=f"rotate({rotation} {S / 2} {S / 2})")
    _sub(group, "rect", width=S, height=S, fill=FIELD)
    for segment in tile.segments:
        if segment.kind == Kind.CITY:
            _city(group, segment)
    for segment in tile.segments:
        if segment.kind in (Kind.ROAD, Kind.OTHER) and segment.edges:
            colour = ROAD if segment.kind == Kind.ROAD else WATER
            points = [_MID[e] for e in segment.edges]
            path = (
                f"M{_pt(*points[0])} L{_pt(0.5, 0.5)} L{_pt(*points[1])}"
                if len(points) == 2
                else " ".join(f"M{_pt(*p)} L{_pt(0.5, 0.5)}" for p in points)
            )
            _sub(group, "path", d=path, stroke="#555", stroke_width=7, fill="none")
            _sub(
                group,
                "path",
                d=path,
                stroke=colour,
                stroke_width=5,
                fill="none",
                **{"class": segment.name or "road"},
            )
            if len(points) != 2:
                _sub(group, "rect", x=S / 2 - 5, y=S / 2 - 5, width=10, height=10, fill="#555")
        elif segment.kind == Kind.CLOISTER:
            _sub(
                group,
                "rect",
                x=S * 0.32,
                y=S * 0.36,
                width=S * 0.36,
                height=S * 0.3,
                fill="#b5651d",
                stroke=WALL,
            )
            _sub(
                group,
                "polygon",
                points=f"{_pt(0.28, 0.37)} {_pt(0.5, 0.2)} {_pt(0.72, 0.37)}",
                fill="#a52a2a",
            )
        elif segment.kind == Kind.OTHER:
            _sub(
                group,
                "circle",
                cx=S / 2,
                cy=S / 2,
                r=7,
                fill="#999",
                stroke="#555",
                **{"class": segment.name},
            )
    for segment in tile.segments:  # the marks over the features
        ax, ay = _anchor(segment)
        if segment.pennants:
            _sub(
                group,
                "path",
                d=f"M{_pt(ax - 0.06, ay - 0.06)} h8 v5 l-4 3 l-4 -3 z",
                fill="#1f5fbf",
                stroke="#fff",
                **{"class": "pennant"},
            )
        for flag in segment.flags if styles else ():
            word, _, value = flag.partition("=")
            style = styles.get(word)
            if style is None:
                continue
            shape = style.shape
            if value in style.fills:
                shape = msgspec.structs.replace(shape, fill=style.fills[value])
            cx, cy = (ax + style.at[0]) * S, (ay + style.at[1]) * S
            _shape(group, shape, cx, cy, NEUTRAL, **{"class": f"{word} {value}" if value else word})
    if tile.tags:  # upright, whatever the tile's turn
        label = _sub(outer, "text", x=3, y=S - 3, font_size=8, fill="#222", **{"class": "tags"})
        label.text = " ".join(sorted(tile.tags))[:18]
    return outer


def _place(location: str) -> tuple[float, float]:
    """Where a piece on `location` (board orientation) stands, in tile units."""
    points = []
    for token in location.split("+"):
        if token in EDGE_BY_NAME:
            points.append(_MID[EDGE_BY_NAME[token]])
        elif token in HALF_BY_NAME:
            points.append(_HALF[HALF_BY_NAME[token]])
    if not points:
        return 0.5, 0.5
    x = sum(p[0] for p in points) / len(points)
    y = sum(p[1] for p in points) / len(points)
    return 0.5 + (x - 0.5) * 0.6, 0.5 + (y - 0.5) * 0.6


def _mark(
    parent: ET.Element,
    state: GameState,
    mark: Mark,
    style: MarkStyle,
    origin: Callable[[Pos], tuple[float, float]],
) -> None:
    """One of a part's marks, drawn as its kind says, with its part's style."""
    x, y = origin((mark.x, mark.y))
    cx, cy = x + style.at[0] * S, y + style.at[1] * S
    if mark.spots and mark.kind in (MarkKind.DISC, MarkKind.TOKEN, MarkKind.LABEL):
        # On its spot, where a figure there would stand, moved as far off it as `at` is off the centre.
        sx, sy = _spot(mark.spots[0], origin)
        cx, cy = sx + (style.at[0] - 0.5) * S, sy + (style.at[1] - 0.5) * S
    colour = COLOURS[mark.owners[0] % len(COLOURS)] if mark.owners else NEUTRAL
    attrs = {"class": mark.style}
    kind, shape = mark.kind, style.shape
    if kind == MarkKind.FIGURE:
        _figure(parent, figure_look(state, mark.figure), mark.figure, mark.owners[0], cx, cy)
    elif kind == MarkKind.LABEL:
        if shape is not None:
            _shape(parent, shape, cx, cy, colour, **attrs)
        label = _sub(parent, "text", x=cx, y=cy + 4, font_size=10, font_weight="bold", text_anchor="middle")
        label.set("fill", "#222" if shape is None else "#fff")
        label.set("class", f"{mark.style} label")
        label.text = mark.label
    elif shape is None:
        return
    elif kind == MarkKind.LINE:  # from the middle of one edge to the middle of the other, west or north first
        (ax, ay), (bx, by) = sorted(_MID[EDGE_BY_NAME[edge]] for edge in mark.location.split("+"))
        ends = {"x1": x + ax * S, "y1": y + ay * S, "x2": x + bx * S, "y2": y + by * S}
        _sub(parent, shape.tag, **ends, **_paint(shape, colour), **attrs)
    elif kind == MarkKind.LINK:  # from one spot's place to the other's, each moved as `at` says
        dx, dy = (style.at[0] - 0.5) * S, (style.at[1] - 0.5) * S
        (ax, ay), (bx, by) = (_spot(spot, origin) for spot in mark.spots[:2])
        ax, ay, bx, by = ax + dx, ay + dy, bx + dx, by + dy
        ends = {"x1": ax, "y1": ay, "x2": bx, "y2": by}
        _sub(parent, "line", **ends, **_paint(shape, colour), **attrs)
    elif kind == MarkKind.OUTLINE:  # just inside the tiles' outer edges
        corners = [origin((spot.x, spot.y)) for spot in mark.spots] or [(x, y)]
        left, top = min(c[0] for c in corners), min(c[1] for c in corners)
        box = {
            "x": left + 3,
            "y": top + 3,
            "width": max(c[0] for c in corners) - left + S - 6,
            "height": max(c[1] for c in corners) - top + S - 6,
        }
        _sub(parent, shape.tag, **box, **_paint(shape, colour), **attrs)
    else:
        _shape(parent, shape, cx, cy, colour, **attrs)
        if mark.label:
            label = _sub(parent, "text", x=cx, y=cy + 4, font_size=11, fill="#fff", text_anchor="middle")
            label.text = mark.label


def _spot(spot: Spot, origin: Callable[[Pos], tuple[float, float]]) -> tuple[float, float]:
    """Where a mark put on a spot stands, in SVG units: where a figure there would."""
    x, y = origin((spot.x, spot.y))
    px, py = _place(spot.location)
    return x + px * S, y + py * S


def render_svg(state: GameState, title: str = "") -> str:
    """The board of `state` with its pieces and standings, as an SVG document."""
    board = state.board
    tiles = board.tiles
    xs = [t.pos[0] for t in tiles] or [0]
    ys = [t.pos[1] for t in tiles] or [0]
    left, top = min(xs), min(ys)
    width = (max(xs) - left + 1) * S + 2 * MARGIN
    height = max((max(ys) - top + 1) * S + 2 * MARGIN, 40 + _row_height(state) * len(state.players))
    root = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": str(width + PANEL),
            "height": str(height),
            "viewBox": f"0 0 {width + PANEL} {height}",
            "class": "carc-board",
            "data-version": str(state.version),
        },
    )
    if title:
        ET.SubElement(root, "title").text = title
    _sub(root, "rect", width=width + PANEL, height=height, fill="#f7f3ea")

    def origin(pos: Pos) -> tuple[float, float]:
        return MARGIN + (pos[0] - left) * S, MARGIN + (pos[1] - top) * S

    layer = _sub(root, "g", **{"class": "tiles"})
    flags = flag_styles(state.parts)
    for placed in tiles:
        layer.append(tile_group(placed.tile, placed.orientation.rotation, *origin(placed.pos), flags))
    structures = _sub(root, "g", **{"class": "structures"})
    tokens: list[tuple[Mark, MarkStyle]] = []  # drawn over the figures, once they stand
    for part in state.hooks["view"]:
        for mark in part.view(state).marks:
            style = part.mark_styles[mark.style]
            if mark.kind == MarkKind.TOKEN:
                tokens.append((mark, style))
            else:
                _mark(structures, state, mark, style, origin)
    pieces = _sub(root, "g", **{"class": "pieces"})
    for feature in board.graph.roots():
        for player, sid, figure in feature.figures:
            tx, ty, location = segment_location(board, sid)
            px, py = _place(location)
            ox, oy = origin((tx, ty))
            _figure(pieces, figure_look(state, figure), figure, player, ox + px * S, oy + py * S)
    for mark, style in tokens:
        _mark(pieces, state, mark, style, origin)
    if tiles:
        x, y = origin((tiles[-1].pos[0], tiles[-1].pos[1]))
        _sub(
            root,
            "rect",
            x=x,
            y=y,
            width=S,
            height=S,
            fill="none",
            stroke="#ffd400",
            stroke_width=3,
            **{"class": "last-placed"},
        )
    _standings(root, state, width)
    return ET.tostring(root, encoding="unicode")


def _standing(state: GameState) -> list[str]:
    """Beside each player's points, what the parts' standing counts give them (`Supply.standing`),
    those not 0, as "label n · label n"."""
    rows: list[list[str]] = [[] for _ in state.players]
    for part in state.hooks["view"]:
        for supply in part.view(state).supplies:
            if supply.standing:
                for seat, n in enumerate(supply.counts):
                    if n:
                        rows[seat].append(f"{supply.label} {n}")
    return [" · ".join(row) for row in rows]


def _row_height(state: GameState) -> int:
    """A player's row in the standings: one line, two when some count stands under the points."""
    return 34 if any(_standing(state)) else 22


def _standings(root: ET.Element, state: GameState, left: float) -> None:
    panel = _sub(root, "g", **{"class": "standings"})
    heading = _sub(panel, "text", x=left, y=24, font_size=13, font_weight="bold", fill="#222")
    heading.text = f"Event {state.version}, turn {state.turn}"
    counts = _standing(state)
    step = _row_height(state)
    for seat, (name, points) in enumerate(zip(state.players, state.scores, strict=True)):
        y = 48 + step * seat
        _sub(panel, "rect", x=left, y=y - 11, width=12, height=12, fill=COLOURS[seat % len(COLOURS)])
        row = _sub(
            panel,
            "text",
            x=left + 18,
            y=y,
            font_size=12,
            fill="#222",
            **{"class": "score", "data_player": seat},
        )
        row.text = f"{name[:18]}: {points}"
        if counts[seat]:
            held = _sub(
                panel,
                "text",
                x=left + 18,
                y=y + 12,
                font_size=10,
                fill="#444",
                **{"class": "standing", "data_player": seat},
            )
            held.text = counts[seat]


def tiles_svg(tiles: Sequence[tuple[TileType, int]], parts: Iterable[Part] = ()) -> str:
    """Tiles in a row, each at its rotation, their flags drawn as `parts` style them: a sheet of
    a set's tiles."""
    root = ET.Element(
        "svg", {"xmlns": "http://www.w3.org/2000/svg", "width": str(len(tiles) * S), "height": str(S)}
    )
    flags = flag_styles(parts)
    for index, (tile, rotation) in enumerate(tiles):
        root.append(tile_group(tile, rotation, index * S, 0, flags))
    return ET.tostring(root, encoding="unicode")
