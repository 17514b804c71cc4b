"""What six sets put on the table, as the text board, the SVG board and the API's board view
show it: Cult Places' shrines, The Festival's flagged tiles, The Tunnel's tokens and the links
they make, The Goldmines' bars (on the tiles and in the players' hands), King & Robber's cards
and Mage & Witch's two figures. Each scenario is played through the rules (as the sets' rule
tests build theirs) and checked against the same game before the piece came, so that no
assertion holds of a board that shows nothing.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import msgspec

from domain.commands import Pass
from domain.expansions import gold as gd, magic as mg, tunnel as tn
from domain.expansions.magic import MoveMagicFigure
from domain.state import GameState
from domain.view import Mark, MarkKind, Spot, Supply
from projections.board import BoardView, board_view
from projections.svg import COLOURS, MARGIN, S, render_svg
from projections.text import render_board
from tests import (
    test_rules_cult as cult,
    test_rules_festival as fest,
    test_rules_gold as gold_rules,
    test_rules_kr as kr,
    test_rules_mw as mw,
    test_rules_tunnel as tunnel_rules,
)

NS = "{http://www.w3.org/2000/svg}"
ANN, BOB = 0, 1


# ----------------------------------------------------------------- reading the three views


def block(state: GameState, x: int, y: int) -> list[str]:
    """The 3×3 characters of the tile at (x, y) on the text board (the board above its legend)."""
    board = render_board(state).split("\n\n")[0].splitlines()
    left = min(t.pos[0] for t in state.board.tiles)
    top = min(t.pos[1] for t in state.board.tiles)
    rows = board[3 * (y - top) : 3 * (y - top) + 3]
    return [row.ljust(3 * (x - left) + 3)[3 * (x - left) : 3 * (x - left) + 3] for row in rows]


def legend(state: GameState) -> list[str]:
    """The text board's lines below the board."""
    text = render_board(state)
    return text.split("\n\n", 1)[1].splitlines() if "\n\n" in text else []


def svg(state: GameState) -> ET.Element:
    return ET.fromstring(render_svg(state))


def drawn(root: ET.Element, style: str) -> list[ET.Element]:
    """The SVG elements of a mark style (a label's text too)."""
    return [e for e in root.iter() if style in (e.get("class") or "").split(" ")]


def tile_box(state: GameState, x: int, y: int) -> tuple[float, float, float, float]:
    """The SVG box (left, top, right, bottom) of the board square (x, y)."""
    left = min(t.pos[0] for t in state.board.tiles)
    top = min(t.pos[1] for t in state.board.tiles)
    ox, oy = MARGIN + (x - left) * S, MARGIN + (y - top) * S
    return ox, oy, ox + S, oy + S


def centre(element: ET.Element) -> tuple[float, float]:
    """The centre of a drawn shape: a rect's, a polygon's corners', a text's anchor."""
    if element.tag == f"{NS}rect":
        return (
            float(element.get("x", 0)) + float(element.get("width", 0)) / 2,
            float(element.get("y", 0)) + float(element.get("height", 0)) / 2,
        )
    if element.tag == f"{NS}polygon":
        points = [tuple(map(float, p.split(","))) for p in (element.get("points") or "").split()]
        return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)
    return float(element.get("x", element.get("cx", 0))), float(element.get("y", element.get("cy", 0)))


def inside(state: GameState, element: ET.Element, x: int, y: int) -> bool:
    left, top, right, bottom = tile_box(state, x, y)
    cx, cy = centre(element)
    return left < cx < right and top < cy < bottom


def api(state: GameState) -> BoardView:
    """The board view as the API sends it and a client reads it back."""
    view = board_view(state)
    sent = msgspec.json.decode(msgspec.json.encode(view), type=BoardView)
    assert sent == view
    return sent


def marks(state: GameState, style: str) -> list[Mark]:
    return [m for m in api(state).marks if m.style == style]


def standing(root: ET.Element) -> dict[int, str]:
    """The standing counts under each player's points in the SVG, by seat."""
    return {
        int(e.get("data-player", -1)): e.text or ""
        for e in root.iter(f"{NS}text")
        if e.get("class") == "standing"
    }


# ----------------------------------------------------------------- Cult Places


def test_a_shrine_shows_as_a_building_on_its_tile_and_a_cloister_does_not() -> None:
    """A shrine at (0,1), a plain cloister far from it at (-2,0)."""
    game = cult.played([("CU/S", 0, 1, 0, None), ("BA/RFr", -1, 0, 0, None)], extra=("BA/LR", "BA/C"))
    cult.turn(game, -2, 0, 270)  # Ann's cloister, its road E, off the shrine's ring
    state = game.state
    assert block(state, 0, 1)[1][1] == "S"
    assert block(state, -2, 0)[1][1] == "o"  # a cloister stays a cloister
    assert [(m.kind, m.x, m.y, m.text) for m in marks(state, "shrine")] == [(MarkKind.DISC, 0, 1, "S")]
    root = svg(state)
    [building] = drawn(root, "shrine")
    assert building.tag == f"{NS}polygon" and inside(state, building, 0, 1)
    # A follower on the shrine shows over it, as on any cloister.
    game = cult.played([("CU/S", 0, 1, 0, "cloister")])
    assert block(game.state, 0, 1)[1][1] == "1"
    assert len(marks(game.state, "shrine")) == 1


# ----------------------------------------------------------------- The Festival


def test_festival_tiles_are_flagged() -> None:
    game = fest.road_festival()  # Bob's FE/CR at (-1,0), Ann's FE/RC just placed at (2,0)
    state = game.state
    flagged = sorted((m.x, m.y) for m in marks(state, "festival"))
    assert flagged == [(-1, 0), (2, 0)]
    assert [block(state, x, y)[0][0] for x, y in flagged] == ["!", "!"]
    assert "!" not in "".join(block(state, 0, 0) + block(state, 1, 0))  # the others carry no flag
    root = svg(state)
    flags = drawn(root, "festival")
    flags = [f for f in flags if f.tag == f"{NS}polygon"]  # not the tile's own tag label
    assert len(flags) == 2 and {(-1, 0), (2, 0)} == {
        pos for pos in flagged for f in flags if inside(state, f, *pos)
    }


# ----------------------------------------------------------------- The Tunnel


def test_tunnel_tokens_show_on_their_mouths_in_their_owners_colour_and_their_link() -> None:
    game = tunnel_rules.start(["TU/RR", "TU/RCR", "BA/L", "BA/L"])
    tunnel_rules.turn(game, 1, 0, 90, tunnel_rules.token("A", 1, 0, "W"))
    tunnel_rules.turn(game, 0, 1, 180)
    half = game.state
    assert [(m.kind, m.spots, m.owners, m.label) for m in marks(half, "tunnel")] == [
        (MarkKind.DISC, (Spot(1, 0, "W"),), (ANN,), "A")
    ]
    assert marks(half, "tunnel-link") == []  # one token: nothing joined yet
    assert block(half, 1, 0)[1][0] == "t"
    assert not any("tunnel-link" in line for line in legend(half))
    tunnel_rules.turn(game, 2, 0, 0, tunnel_rules.token("A", 0, 1, "E"))
    state = game.state
    assert tn.tunnels(state).halves == {}  # the pair is whole: the roads are linked
    tokens = marks(state, "tunnel")
    assert sorted(m.spots[0] for m in tokens) == [Spot(0, 1, "E"), Spot(1, 0, "W")]
    assert {m.owners for m in tokens} == {(ANN,)}
    [link] = marks(state, "tunnel-link")
    assert link.kind == MarkKind.LINK and link.spots == (Spot(0, 1, "E"), Spot(1, 0, "W"))
    assert link.owners == (ANN,)
    assert block(state, 1, 0)[1][0] == "t" and block(state, 0, 1)[1][2] == "t"
    assert "t tunnel-link of seat 1: 0,1 E to 1,0 W" in legend(state)
    root = svg(state)
    squares = [e for e in drawn(root, "tunnel") if e.tag == f"{NS}rect"]
    assert len(squares) == 2 and {e.get("fill") for e in squares} == {COLOURS[ANN]}
    assert inside(state, squares[0], 0, 1) != inside(state, squares[1], 0, 1)
    [line] = drawn(root, "tunnel-link")
    assert line.tag == f"{NS}line" and line.get("stroke") == COLOURS[ANN]
    ends = [(float(line.get(f"x{i}", 0)), float(line.get(f"y{i}", 0))) for i in (1, 2)]
    boxes = [tile_box(state, 0, 1), tile_box(state, 1, 0)]
    assert all(any(b[0] < ex < b[2] and b[1] < ey < b[3] for b in boxes) for ex, ey in ends)
    assert not (boxes[0][0] < ends[0][0] < boxes[0][2] and boxes[0][0] < ends[1][0] < boxes[0][2])
    # From token to token.
    assert {(round(x, 1), round(y, 1)) for x, y in ends} == {
        (round(x, 1), round(y, 1)) for x, y in map(centre, squares)
    }


# ----------------------------------------------------------------- The Goldmines


def test_gold_bars_show_with_their_count_on_each_tile() -> None:
    """Two gold tiles lay their second bars on the start tile (R-GOLD-4's scenario)."""
    game = gold_rules._game(["GO/CRcr", "GO/LRr", "BA/L"])
    gold_rules._turn(game, ANN, 0, -1, 90)
    gold_rules._turn(game, BOB, 1, -1, 90, gd.PlaceGold(x=0, y=0), Pass())
    state = game.state
    assert dict(gd.gold(state).on) == {(0, -1): 1, (0, 0): 2, (1, -1): 1}
    shown = {(m.x, m.y): m.label for m in marks(state, "gold")}
    assert shown == {(0, -1): "1", (0, 0): "2", (1, -1): "1"}
    assert all(block(state, x, y)[2][2] == "$" for x, y in shown)
    assert "$ gold at 0,0: 2" in legend(state) and "$ gold at 0,-1: 1" in legend(state)
    root = svg(state)
    labels = {e.text: e for e in drawn(root, "label")}
    assert labels["2"].get("class") == "gold label" and inside(state, labels["2"], 0, 0)
    assert len([e for e in drawn(root, "gold") if e.tag == f"{NS}rect"]) == 3
    assert standing(root) == {}  # nobody holds a bar yet
    assert "gold: none" in legend(state)


def test_the_bars_players_hold_show_in_the_standings() -> None:
    """Three bars shared out on a road Ann and Bob tie on: Ann holds 1, Bob 2; one bar stays on
    (-1,1) (R-GOLD-7's scenario)."""
    state = gold_rules._tied_road().state
    assert list(gd.gold(state).held) == [1, 2]
    assert Supply("gold", (1, 2), standing=True) in api(state).supplies
    assert standing(svg(state)) == {ANN: "gold 1", BOB: "gold 2"}
    assert "gold: seat 1 1, seat 2 2" in legend(state)
    assert [(m.x, m.y, m.label) for m in marks(state, "gold")] == [(-1, 1, "1")]
    assert block(state, -1, 1)[2][2] == "$"


# ----------------------------------------------------------------- King & Robber


def test_the_standings_show_who_holds_the_king_and_the_robber_baron() -> None:
    game = kr.start(kr.BOTH_PILE)
    kr.play(game, *kr.BOTH[:2])
    before = game.state
    assert standing(svg(before)) == {}
    assert {"king: none", "robber baron: none"} <= set(legend(before))
    kr.play(game, *kr.BOTH[2:])  # Ann closes the start city and a road in one part: both cards
    state = game.state
    assert kr.cards(game) == (ANN, ANN)
    supplies = api(state).supplies
    assert Supply("king", (1, 0), standing=True) in supplies
    assert Supply("robber baron", (1, 0), standing=True) in supplies
    assert standing(svg(state)) == {ANN: "king 1 · robber baron 1"}
    assert {"king: seat 1 1", "robber baron: seat 1 1"} <= set(legend(state))


def test_the_king_shows_beside_its_new_holder_once_it_moves() -> None:
    game = kr.play(kr.start(kr.CITIES_PILE), *kr.CITIES[:6])
    assert kr.cards(game) == (BOB, None)
    assert standing(svg(game.state)) == {BOB: "king 1"}
    assert "king: seat 2 1" in legend(game.state)


# ----------------------------------------------------------------- Mage & Witch


def test_the_mage_and_the_witch_show_on_their_features() -> None:
    """The mage on the start city, the witch on Bob's city at (1,-1) W, where his follower stands
    (tests/test_rules_mw.py's two cities)."""
    game = mw.mw_game(["BA/RFr", "BA/C", "MW/CRRR.3", "MW/CFC", "BA/L"])
    mw.turn(game, 1, 0)
    mw.turn(game, 1, -1, 270, deploy="W")
    assert marks(game.state, mg.MAGE) == []
    mw.magic_turn(game, -1, 0, 0, MoveMagicFigure(figure="mage", x=0, y=0, location="N"))
    mw.magic_turn(game, 2, -1, 0, MoveMagicFigure(figure="witch", x=1, y=-1, location="W"))
    state = game.state
    assert mg.spots(state) == {"mage": (0, 0, "N"), "witch": (1, -1, "W")}
    assert [(m.kind, m.spots) for m in marks(state, mg.MAGE)] == [(MarkKind.TOKEN, (Spot(0, 0, "N"),))]
    assert [(m.kind, m.spots) for m in marks(state, mg.WITCH)] == [(MarkKind.TOKEN, (Spot(1, -1, "W"),))]
    assert block(state, 0, 0)[0][1] == "m"  # on the city's edge
    witch_tile = block(state, 1, -1)
    assert witch_tile[1][0] == "2" and witch_tile[1][1] == "w"  # Bob's follower on the edge, beside her
    root = svg(state)
    [mage] = drawn(root, mg.MAGE)
    [witch] = drawn(root, mg.WITCH)
    assert inside(state, mage, 0, 0) and inside(state, witch, 1, -1)
    pieces = root.find(f"{NS}g[@class='pieces']")
    assert pieces is not None and mage in list(pieces) and witch in list(pieces)  # over the figures
