"""The board as SVG (issue 12): every tile of every set in every rotation, and boards whose
elements and attributes say what is on them."""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from domain.bots import play_bot_game
from domain.expansions import PARTS, SETS
from domain.replay import replay
from domain.rules import RuleSet
from domain.tiles import TILES
from projections.svg import COLOURS, render_svg, tiles_svg
from tests.test_cli import carc

NS = "{http://www.w3.org/2000/svg}"
STYLED = {word for part in PARTS for word in part.flag_styles}  # the flags some part gives a look


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_every_tile_of_every_set_renders_in_every_rotation(rotation: int) -> None:
    sheet = parse(tiles_svg([(tile, rotation) for tile in TILES.values()], PARTS))
    groups = sheet.findall(f"{NS}g[@class='tile']")
    assert [g.get("data-tile") for g in groups] == list(TILES)
    assert {g.get("data-rotation") for g in groups} == {str(rotation)}
    for group, tile in zip(groups, TILES.values(), strict=True):
        drawn = ET.tostring(group, encoding="unicode")
        cities = sum(1 for s in tile.segments if s.kind.name == "CITY")
        assert drawn.count('fill="#c8a165"') >= cities  # each city segment drawn
        assert (drawn.count('class="pennant"')) == sum(s.pennants > 0 for s in tile.segments)
        flags = sum(f.partition("=")[0] in STYLED for s in tile.segments for f in s.flags)
        assert sum((e.get("class") or "").split(" ")[0] in STYLED for e in group.iter()) == flags


def board(sets: tuple[str, ...], seed: int, share: float = 0.5, rules: RuleSet | None = None) -> ET.Element:
    events = play_bot_game(3, seed, expansions=sets, rules=rules).collect_events()
    return parse(render_svg(replay(events[: int(len(events) * share)]).state))


@pytest.mark.parametrize(
    "sets", [("base",), *(("base", code) for code in SETS if code != "base")], ids="+".join
)
def test_a_board_of_each_set_shows_its_tiles_pieces_and_standings(sets: tuple[str, ...]) -> None:
    events = play_bot_game(3, 11, expansions=sets).collect_events()
    state = replay(events[: len(events) // 2]).state
    root = parse(render_svg(state))
    tiles = root.findall(f".//{NS}g[@class='tile']")
    assert [t.get("data-tile") for t in tiles] == [p.tile.id for p in state.board.tiles]
    pieces = root.findall(f".//{NS}g[@class='pieces']/*")
    on_board = sum(len(f.figures) for f in state.board.graph.roots())
    assert len([p for p in pieces if "piece" in (p.get("class") or "")]) == on_board
    assert all(p.get("fill") in (*COLOURS, "#f4a6b8") for p in pieces if "piece" in (p.get("class") or ""))
    scores = root.findall(f".//{NS}text[@class='score']")
    assert [s.text for s in scores] == [f"{n}: {p}" for n, p in zip(state.players, state.scores, strict=True)]
    assert len(root.findall(f".//{NS}rect[@class='last-placed']")) == 1
    assert root.get("data-version") == str(state.version)


def test_bridges_castles_and_bazaar_tiles_are_drawn() -> None:
    root = board(("base", "bcb"), 3, share=1.0)
    assert root.findall(f".//{NS}line[@class='bridge']")
    assert root.findall(f".//{NS}rect[@class='castle']")
    assert any("bazaar" in (t.text or "") for t in root.findall(f".//{NS}text[@class='tags']"))


def test_carc_render_writes_the_board_of_a_file_at_a_turn(tmp_path: Path) -> None:
    save = (
        Path(__file__).resolve().parents[2]
        / "shared"
        / "reference"
        / "jcz"
        / "oracle"
        / "basic-p2-s200001.jcz"
    )
    if not save.exists():
        pytest.skip("reference data missing")
    out = tmp_path / "board.svg"
    code, stdout, err = carc("render", str(save), "--turn", "10", "-o", str(out), "--json")
    assert code == 0, err
    assert json.loads(stdout)["turn"] == 10
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask  # as any new file, not private
    root = parse(out.read_text())
    assert len(root.findall(f".//{NS}g[@class='tile']")) == 11  # the start and ten turns' tiles
    code, stdout, _ = carc("render", str(save), "-o", "-")
    assert code == 0 and stdout.startswith("<svg")
    code, _, err = carc("render", str(tmp_path / "missing.jsonl"), "-o", str(out))
    assert code == 1 and err.startswith("error: file not found")


def test_coordinates_are_written_to_a_tenth() -> None:
    """No float noise such as 507.20000000000005 in the drawing (links and polygons included)."""
    game = play_bot_game(2, 1, expansions=("base", "tunnel", "gold", "mw"))
    svg = render_svg(game.state)
    assert "tunnel-link" in svg and "<polygon" in svg
    assert re.findall(r"\d\.\d{2,}", svg) == []
