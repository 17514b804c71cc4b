"""The reference games recorded from JCloisterZone: our engine must agree with them.

For every base-game reference game: at every tile placement our legal placements equal the
set JCloisterZone offered, every turn's points equal its score history, and the final points
are equal. (The expansion games join as their rules are implemented.)
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from domain.moves import legal_placements
from domain.scoring import Award
from domain.state import GameState
from replays.jcz import read_jcz, replay_jcz
from tests.reference import jcz_files, require

BASE_GAMES = jcz_files("oracle", "basic-*.jcz") + jcz_files("oracle-natural", "basic-*.jcz")
_JCZ_NAMES = {"road": "road", "city": "city", "cloister": "monastery", "farm": "field"}


def _jcz_name(award: Award) -> str:
    name = _JCZ_NAMES[award.category]
    return f"{name}.incomplete" if award.final and award.category != "farm" else name


def _ours_by_turn(awards: list[Award]) -> dict[Any, Counter[tuple[int, int, str]]]:
    turns: dict[Any, Counter[tuple[int, int, str]]] = {}
    for a in awards:
        if a.points:
            key = "final" if a.final else a.turn
            turns.setdefault(key, Counter())[(a.player, a.points, _jcz_name(a))] += 1
    return turns


def _theirs_by_turn(history: list[dict[str, Any]]) -> dict[Any, Counter[tuple[int, int, str]]]:
    turns: dict[Any, Counter[tuple[int, int, str]]] = {}
    for entry in history:
        key = "final" if entry.get("finalScoring") else entry["turn"]
        for s in entry.get("scores", []):
            if s["points"]:
                turns.setdefault(key, Counter())[(s["player"], s["points"], s["name"])] += 1
    return turns


@pytest.mark.parametrize("path", BASE_GAMES, ids=lambda p: p.name)
def test_base_reference_game_agrees(path: Path) -> None:
    save = read_jcz(require(path))
    assert save.oracle is not None
    offered = {d["index"]: d["placements"] for d in save.oracle["decisions"]}

    def check(index: int, state: GameState) -> None:
        ours = sorted([x, y, r] for x, y, r in legal_placements(state))
        assert ours == offered[index], f"legal placements differ at message {index}"

    game = replay_jcz(save, on_placement=check)
    assert game.over
    assert game.state.scores == save.oracle["final_points"]
    assert _ours_by_turn(game.state.awards) == _theirs_by_turn(save.oracle["score_history"])
