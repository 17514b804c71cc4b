"""The views name no set: each part declares what the board shows of it (`domain.view`), and the
SVG, the text board and the board view draw whatever the parts in play declare, in the same
spirit as the core (`tests/test_core_names_no_set.py`).
"""

from __future__ import annotations

import ast
import random
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import ClassVar

import msgspec
import pytest

from domain.aggregate import Game
from domain.bots import play_bot_game, shuffled_pile
from domain.expansions import PARTS, SETS
from domain.part import Part, part_tables
from domain.state import GameState
from domain.view import (
    FOLLOWER_LOOK,
    Mark,
    MarkKind,
    MarkStyle,
    PartView,
    Shape,
    Spot,
    Supply,
    figure_look,
)
from projections.board import BoardView, board_view
from projections.svg import render_svg
from projections.text import render_board
from tests.test_core_names_no_set import _WORD

ROOT = Path(__file__).resolve().parents[1]
NS = "{http://www.w3.org/2000/svg}"
VIEWS = ("projections/svg.py", "projections/text.py", "projections/board.py")


@pytest.mark.parametrize("module", VIEWS)
def test_view_module_names_no_set_concept(module: str) -> None:
    text = (ROOT / module).read_text(encoding="utf-8")
    found = [
        f"line {n}: {m.group(0)}" for n, line in enumerate(text.splitlines(), 1) for m in _WORD.finditer(line)
    ]
    assert not found, f"{module} names set concepts: {', '.join(found)}"


@pytest.mark.parametrize("module", VIEWS)
def test_view_module_reads_no_part_directly(module: str) -> None:
    """No import of a set's module, no look into a part's slice of the state."""
    tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
    imported = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    imported += [
        alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    ]
    assert not [name for name in imported if name.startswith("domain.expansions")]
    assert not [
        node.lineno for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "ext"
    ]


def _end_of(sets: tuple[str, ...], seed: int) -> GameState:
    return play_bot_game(3, seed, expansions=sets).state


@pytest.fixture(scope="module")
def every_set() -> GameState:
    return _end_of(tuple(SETS), 2)


def test_every_mark_has_its_part_s_style_and_every_figure_its_look(every_set: GameState) -> None:
    state = every_set
    for part in state.parts:
        for mark in part.view(state).marks:
            assert mark.style in part.mark_styles, (part.name, mark.style)
            if mark.kind == MarkKind.FIGURE:  # drawn as its kind of figure, in its owner's colour
                assert mark.owners and figure_look(state, mark.figure).glyphs[mark.owners[0]]
            else:
                assert part.mark_styles[mark.style].shape is not None, (part.name, mark.style)
    for feature in state.board.graph.roots():
        for player, _, figure in feature.figures:
            assert figure_look(state, figure).glyphs[player]


def test_each_kind_of_figure_has_its_own_letters_and_shape() -> None:
    looks = [FOLLOWER_LOOK, *(kind.look for part in PARTS for kind in part.figures.values())]
    assert all(len(look.glyphs) == 6 and len(set(look.glyphs)) == 6 for look in looks)
    letters = [g for look in looks for g in look.glyphs]
    assert len(letters) == len(set(letters)), "two kinds of figure share a letter"
    assert len({look.shape for look in looks}) == len(looks), "two kinds of figure look alike"


def test_the_board_view_shows_every_part_s_marks_and_supplies(every_set: GameState) -> None:
    view = board_view(every_set)
    assert list(view.marks) == sorted(view.marks)
    shown = [part.view(every_set) for part in every_set.parts]
    assert sorted(view.marks) == sorted(m for s in shown for m in s.marks)
    assert list(view.supplies) == [s for v in shown for s in v.supplies]
    assert all(len(s.counts) == len(every_set.players) for s in view.supplies)
    assert msgspec.json.decode(msgspec.json.encode(view), type=BoardView) == view  # as the API sends it


def test_the_views_show_towers_and_neutral_figures_too() -> None:
    styles = {m.style for m in board_view(_end_of(("base", "tower", "pd"), 1)).marks}
    assert {"tower", "dragon", "fairy"} <= styles


class Lantern(Part):
    """A part no view has heard of: the views draw it all the same."""

    name = "lantern"
    mark_styles: ClassVar[dict[str, MarkStyle]] = {
        "lamp": MarkStyle(shape=Shape(tag="circle", r=4, fill="#ff0")),
        "rope": MarkStyle(shape=Shape(tag="line", fill=None, stroke="#000", stroke_width=2)),
        "glow": MarkStyle(shape=Shape(tag="rect", fill="none", stroke="#ff0")),
        "moth": MarkStyle(shape=Shape(tag="path", d="m-3,0 l6,0", fill=None, stroke="#000"), at=(0.1, 0.9)),
    }

    def view(self, state: GameState) -> PartView:
        x, y = state.board.tiles[0].pos
        return PartView(
            marks=(
                Mark(kind=MarkKind.DISC, style="lamp", x=x, y=y, label="7", text="L"),
                Mark(kind=MarkKind.LINE, style="rope", x=x, y=y, location="E+W"),
                Mark(kind=MarkKind.OUTLINE, style="glow", x=x, y=y, spots=(Spot(x, y, "N"),), text="!"),
                Mark(kind=MarkKind.TOKEN, style="moth", x=x, y=y, owners=(1,)),
            ),
            supplies=(Supply("lamps", (1, 2)),),
        )


def test_a_part_the_views_never_heard_of_is_drawn() -> None:
    state = Game.start(("A", "B"), shuffled_pile(("base",), random.Random(1))).state  # the start tile alone
    state.parts = (*state.parts, Lantern())
    state.tables = part_tables(state.parts)
    state.hooks = state.tables.hooks
    assert render_board(state).splitlines()[:2] == [".!.", "-L-"]
    svg = ET.fromstring(render_svg(state))
    drawn = {e.get("class"): e for e in svg.iter() if e.get("class") in Lantern.mark_styles}
    assert drawn["lamp"].tag == f"{NS}circle" and drawn["lamp"].get("r") == "4"
    assert drawn["rope"].tag == f"{NS}line" and drawn["rope"].get("y1") == drawn["rope"].get("y2")
    assert drawn["glow"].tag == f"{NS}rect"
    assert drawn["moth"].tag == f"{NS}path" and drawn["moth"].get("stroke") == "#000"
    assert "7" in [e.text for e in svg.iter(f"{NS}text")]
    pieces = svg.find(f"{NS}g[@class='pieces']")
    assert pieces is not None and drawn["moth"] in list(pieces)  # a token stands over the figures
    view = board_view(state)
    assert sorted(m.style for m in view.marks) == ["glow", "lamp", "moth", "rope"]
    assert view.supplies == (Supply("lamps", (1, 2)),)


class Kite(Part):
    """A part with links, labels, marks put on a spot and a standing count: drawn all the same."""

    name = "kite"
    mark_styles: ClassVar[dict[str, MarkStyle]] = {
        "string": MarkStyle(shape=Shape(tag="line", fill=None, stroke="#000", stroke_width=2)),
        "tag": MarkStyle(),  # a label with no shape: its words alone
        "pin": MarkStyle(shape=Shape(tag="circle", r=3, fill="#0f0")),
    }

    def view(self, state: GameState) -> PartView:
        return PartView(
            marks=(
                Mark(
                    kind=MarkKind.LINK,
                    style="string",
                    x=0,
                    y=0,
                    spots=(Spot(0, 0, "E"), Spot(0, 0, "S")),
                    owners=(1,),
                    text="k",
                ),
                Mark(kind=MarkKind.LABEL, style="tag", x=0, y=0, label="12", text="q"),
                Mark(kind=MarkKind.DISC, style="pin", x=0, y=0, spots=(Spot(0, 0, "Wn"),), text="p"),
            ),
            supplies=(Supply("kites", (0, 3), standing=True), Supply("spools", (5, 5))),
        )


def test_links_labels_spots_and_standing_counts_are_drawn_for_any_part() -> None:
    state = Game.start(("A", "B"), shuffled_pile(("base",), random.Random(1))).state  # the start tile alone
    assert render_board(state).split("\n") == [".#.", "- -", "..."]  # nothing below the board
    state.parts = (*state.parts, Kite())
    state.tables = part_tables(state.parts)
    state.hooks = state.tables.hooks
    assert render_board(state).split("\n") == [
        "p#.",  # the pin on its corner
        "-qk",  # the label at the centre, the link's end on the E edge
        ".k.",  # and on the S edge
        "",
        "(positions x,y: the left column is x=0, the top row y=0)",
        "q tag at 0,0: 12",
        "k string of seat 2: 0,0 E to 0,0 S",
        "kites: seat 2 3",  # a standing count; the other supply is not in the standings
    ]
    svg = ET.fromstring(render_svg(state))
    [string] = [e for e in svg.iter() if e.get("class") == "string"]
    assert string.tag == f"{NS}line" and string.get("stroke") == "#000"
    ends = {(float(string.get(f"x{i}", 0)), float(string.get(f"y{i}", 0))) for i in (1, 2)}
    x0, y0 = 16, 16  # the tile's corner (the margin)
    assert ends == {
        (x0 + 0.8 * 64, y0 + 0.5 * 64),
        (x0 + 0.5 * 64, y0 + 0.8 * 64),
    }  # where figures there stand
    [tag] = [e for e in svg.iter(f"{NS}text") if e.get("class") == "tag label"]
    assert tag.text == "12" and float(tag.get("x", 0)) == x0 + 32
    [pin] = [e for e in svg.iter() if e.get("class") == "pin"]
    assert (float(pin.get("cx", 0)), float(pin.get("cy", 0))) == (x0 + 0.2 * 64, y0 + 0.35 * 64)
    rows = {e.get("data-player"): e.text for e in svg.iter(f"{NS}text") if e.get("class") == "standing"}
    assert rows == {"1": "kites 3"}
    view = board_view(state)
    assert sorted(m.kind for m in view.marks) == [MarkKind.DISC, MarkKind.LABEL, MarkKind.LINK]
    assert view.supplies == (Supply("kites", (0, 3), standing=True), Supply("spools", (5, 5)))
