"""The Python API (`import carc`): its documented example runs, and each entry point gives what
the command line gives."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

import carc
from domain.commands import PlaceTile
from tests.reference import JCZ, require


def test_the_documented_example_runs() -> None:
    failed, tried = doctest.testmod(carc)
    assert tried > 5 and failed == 0


def test_a_refused_move_names_its_rule() -> None:
    match = carc.new_game(["Ann", "Bob"], seed=1)
    with pytest.raises(carc.RuleViolation) as refused:
        match.play(PlaceTile(x=40, y=0, rotation=0))
    assert refused.value.rule == "R-BASE-3"
    assert match.current_player == "Ann"  # nothing was recorded


def test_save_load_and_replay_give_the_same_game(tmp_path: Path) -> None:
    match = carc.new_game(["Ann", "Bob", "Cy"], expansions=["tb", "ic"], seed=3)
    match.play_bots(seed=3)
    path = tmp_path / "g.jsonl"
    carc.save(match, path)
    loaded = carc.load(path)
    assert loaded.events == match.events
    assert loaded.scores == match.scores == carc.replay(match.events).scores
    assert loaded.over and loaded.current_player is None and loaded.legal_moves == []
    with pytest.raises(carc.RuleViolation):
        loaded.play(PlaceTile(x=0, y=1, rotation=0))


def test_a_game_in_play_keeps_its_whole_log() -> None:
    match = carc.new_game(["Ann", "Bob"], seed=2)
    first = match.events
    match.play(match.legal_moves[0])
    assert match.events[: len(first)] == first and len(match.events) > len(first)
    assert carc.replay(match.events).game.state.version == match.game.state.version


def test_check_and_audit() -> None:
    result = carc.check(require(JCZ / "engine-tests" / "basic" / "tiny-city-rule.jcz"))
    assert result.verdict == "agrees"
    match = carc.new_game(["Ann", "Bob"], expansions=["bcb", "tb"], seed=4)
    match.play_bots(seed=4)
    readings = carc.audit(match.events)
    assert readings["recorded"].legal and "V-ORDER-JCZ" in readings
