"""The board as SVG, drawn from our own tile data: every tile of every set, every piece.

Each tile is drawn unrotated from its segments (fields as the ground, cities reaching their
edges, roads and rivers from their edges to the centre, a cloister in the middle, pennants,
goods, inns, cathedrals and the tags a set reads), then turned as it lies. Pieces stand on their
segment's place in board orientation, in their owner's colour: followers as discs (the large
follower bigger), builders as squares, pigs as ellipses, mayors as diamonds, wagons as wide bars,
barns as triangles; bridges, castles, towers (with their height), the dragon and the fairy show
too. The last tile placed is outlined; the standings stand beside the board.

Built with the standard library's ElementTree: no drawing library, no images from elsewhere.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from domain.expansions import tower as tw
from domain.expansions.bridges import NAME as BRIDGES, bridges
from domain.expansions.castles import NAME as CASTLES, castles
from domain.geometry import EDGE_BY_NAME, HALF_BY_NAME
from domain.state import GameState, segment_location
from domain.tiles import Kind, Segment, TileType

S = 64  # a tile's side, in SVG units
MARGIN = 16
PANEL = 200  # the standings' column beside the board
COLOURS = ("#d62728", "#1f5fbf", "#e6b800", "#222222", "#8e44ad", "#7f7f7f")  # by seat
FIELD, CITY, ROAD, RIVER, WALL = "#8fbc5a", "#c8a165", "#f4f1e8", "#3b83c4", "#6b4f2a"
GOODS = {"wine": "#7b2d8b", "grain": "#e0c020", "cloth": "#2a6fb0"}
# Points on a tile (unrotated, in tile units of 0..1): each edge's midpoint and ends, each half.
_MID = {0: (0.5, 0.0), 1: (1.0, 0.5), 2: (0.5, 1.0), 3: (0.0, 0.5)}
_ENDS = {0: ((0, 0), (1, 0)), 1: ((1, 0), (1, 1)), 2: ((1, 1), (0, 1)), 3: ((0, 1), (0, 0))}
_HALF = ((0.25, 0), (0.75, 0), (1, 0.25), (1, 0.75), (0.75, 1), (0.25, 1), (0, 0.75), (0, 0.25))


def _pt(x: float, y: float) -> str:
    return f"{x * S:.1f},{y * S:.1f}"


def _sub(parent: ET.Element, tag: str, **attrs: object) -> ET.Element:
    return ET.SubElement(parent, tag, {k.rstrip("_").replace("_", "-"): str(v) for k, v in attrs.items()})


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


def tile_group(tile: TileType, rotation: int, x: float, y: float) -> ET.Element:
    """One tile at board position (x, y) in SVG units, turned `rotation` degrees clockwise."""
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
            colour = ROAD if segment.kind == Kind.ROAD else RIVER
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
        for flag in segment.flags:
            kind, _, value = flag.partition("=")
            if kind == "goods":
                _sub(
                    group,
                    "rect",
                    x=(ax + 0.1) * S,
                    y=(ay - 0.05) * S,
                    width=7,
                    height=7,
                    fill=GOODS.get(value, "#333"),
                    transform=f"rotate(45 {(ax + 0.1) * S + 3.5:.1f} {(ay - 0.05) * S + 3.5:.1f})",
                    **{"class": f"goods {value}"},
                )
            elif kind in ("inn", "cathedral"):
                _sub(
                    group,
                    "rect",
                    x=(ax - 0.06) * S,
                    y=(ay + 0.06) * S,
                    width=8,
                    height=8,
                    fill="#e67e22" if kind == "inn" else "#4b2e83",
                    **{"class": kind},
                )
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


def _piece(parent: ET.Element, figure: str, player: int, cx: float, cy: float) -> None:
    colour = COLOURS[player % len(COLOURS)]
    common = {
        "fill": colour,
        "stroke": "#fff",
        "stroke_width": 1.5,
        "class": f"piece {figure}",
        "data_player": player,
    }
    if figure == "big":
        _sub(parent, "circle", cx=cx, cy=cy, r=9, **common)
    elif figure == "builder":
        _sub(parent, "rect", x=cx - 6, y=cy - 6, width=12, height=12, **common)
    elif figure == "pig":
        _sub(
            parent,
            "ellipse",
            cx=cx,
            cy=cy,
            rx=8,
            ry=5,
            **{**common, "fill": "#f4a6b8", "stroke": colour, "stroke_width": 2.5},
        )
    elif figure == "mayor":
        _sub(parent, "polygon", points=f"{cx},{cy - 8} {cx + 7},{cy} {cx},{cy + 8} {cx - 7},{cy}", **common)
    elif figure == "wagon":
        _sub(parent, "rect", x=cx - 9, y=cy - 4, width=18, height=8, rx=3, **common)
    elif figure == "barn":
        _sub(parent, "polygon", points=f"{cx},{cy - 8} {cx + 8},{cy + 6} {cx - 8},{cy + 6}", **common)
    else:
        _sub(parent, "circle", cx=cx, cy=cy, r=6, **common)


def render_svg(state: GameState, title: str = "") -> str:
    """The board of `state` with its pieces and standings, as an SVG document."""
    board = state.board
    tiles = board.tiles
    xs = [t.pos[0] for t in tiles] or [0]
    ys = [t.pos[1] for t in tiles] or [0]
    left, top = min(xs), min(ys)
    width = (max(xs) - left + 1) * S + 2 * MARGIN
    height = max((max(ys) - top + 1) * S + 2 * MARGIN, 40 + 22 * len(state.players))
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

    def origin(pos: tuple[int, int]) -> tuple[float, float]:
        return MARGIN + (pos[0] - left) * S, MARGIN + (pos[1] - top) * S

    layer = _sub(root, "g", **{"class": "tiles"})
    for placed in tiles:
        layer.append(tile_group(placed.tile, placed.orientation.rotation, *origin(placed.pos)))
    extras = _sub(root, "g", **{"class": "structures"})
    if state.has(BRIDGES):
        for pos, axis in bridges(state).axis.items():
            x, y = origin(pos)
            x1, y1, x2, y2 = (
                (x + S / 2, y, x + S / 2, y + S) if axis == "NS" else (x, y + S / 2, x + S, y + S / 2)
            )
            _sub(
                extras,
                "line",
                x1=x1,
                y1=y1,
                x2=x2,
                y2=y2,
                stroke="#7a4a1c",
                stroke_width=8,
                **{"class": "bridge"},
            )
    if state.has(CASTLES):
        for castle in castles(state).all:
            corners = [origin(p) for p in castle.positions]
            x, y = min(c[0] for c in corners), min(c[1] for c in corners)
            w = max(c[0] for c in corners) - x + S
            h = max(c[1] for c in corners) - y + S
            _sub(
                extras,
                "rect",
                x=x + 3,
                y=y + 3,
                width=w - 6,
                height=h - 6,
                fill="none",
                stroke="#333",
                stroke_width=3,
                stroke_dasharray="6 3",
                **{"class": "castle"},
            )
    if state.has(tw.NAME):
        towers = tw.towers(state)
        for pos, tall in towers.heights.items():
            x, y = origin(pos)
            _sub(
                extras,
                "circle",
                cx=x + S / 2,
                cy=y + S / 2,
                r=10,
                fill="#666",
                stroke="#222",
                **{"class": "tower"},
            )
            label = _sub(
                extras, "text", x=x + S / 2, y=y + S / 2 + 4, font_size=11, fill="#fff", text_anchor="middle"
            )
            label.text = str(tall)
            if pos in towers.guards:
                owner, figure = towers.guards[pos]
                _piece(extras, figure, owner, x + S / 2 + 10, y + S / 2 - 10)
    pieces = _sub(root, "g", **{"class": "pieces"})
    for feature in board.graph.roots():
        for player, sid, figure in feature.figures:
            x, y, location = segment_location(board, sid)
            px, py = _place(location)
            ox, oy = origin((x, y))
            _piece(pieces, figure, player, ox + px * S, oy + py * S)
    # The neutral figures, each in a corner of its tile: the dragon, and the fairy where she stands.
    dragon = state.ext["dragon"].at if state.has("dragon") else None
    fairy = state.ext["fairy"].at if state.has("fairy") else None
    for where, corner, radius, fill, stroke, name in (
        (dragon, (0.8, 0.2), 8, "#b22222", "#000", "dragon"),
        (fairy, (0.2, 0.2), 5, "#ffd1f0", "#a0528c", "fairy"),
    ):
        if where is not None:
            x, y = origin(where)
            _sub(
                pieces,
                "circle",
                cx=x + S * corner[0],
                cy=y + S * corner[1],
                r=radius,
                fill=fill,
                stroke=stroke,
                **{"class": name},
            )
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


def _standings(root: ET.Element, state: GameState, left: float) -> None:
    panel = _sub(root, "g", **{"class": "standings"})
    heading = _sub(panel, "text", x=left, y=24, font_size=13, font_weight="bold", fill="#222")
    heading.text = f"Event {state.version}, turn {state.turn}"
    for seat, (name, points) in enumerate(zip(state.players, state.scores, strict=True)):
        y = 48 + 22 * seat
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


def tiles_svg(tiles: Sequence[tuple[TileType, int]]) -> str:
    """Tiles in a row, each at its rotation: a sheet of a set's tiles."""
    root = ET.Element(
        "svg", {"xmlns": "http://www.w3.org/2000/svg", "width": str(len(tiles) * S), "height": str(S)}
    )
    for index, (tile, rotation) in enumerate(tiles):
        root.append(tile_group(tile, rotation, index * S, 0))
    return ET.tostring(root, encoding="unicode")
