"""`carc check` and `check_file`: verdicts, the first disagreement, unsupported saves, clean errors."""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from typer.testing import CliRunner

from carc.cli import app
from domain.aggregate import Game
from domain.commands import Deploy, Pass, PlaceTile
from domain.events import Event
from domain.expansions import bigtop as bt, wagon as wg
from domain.moves import expected_step, legal_placements
from domain.state import Phase
from domain.turns import Chance
from replays.check import _Checker, _Differs, check_file, jcz_paths
from replays.jcz import JczDecision, JczError, jcz_rules, read_jcz, replay_jcz, unsupported
from replays.jcz_draws import plan_draws
from tests.helpers import scenario
from tests.jcz_saves import TWO_TURNS, commit, decode, place, save, write
from tests.reference import JCZ, require

runner = CliRunner()


def carc_check(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["check", *args])
    return result.exit_code, result.stdout


def oracle_document(name: str = "basic-p2-s200001.jcz", folder: str = "oracle") -> dict[str, Any]:
    document = msgspec.json.decode(require(JCZ / folder / name).read_bytes())
    assert isinstance(document, dict)
    return document


# ---------------------------------------------------------------- verdicts


def test_a_fixture_whose_assertions_hold_agrees(tmp_path: Path) -> None:
    result = check_file(write(tmp_path, TWO_TURNS))
    assert (result.verdict, result.checked, result.points) == ("agrees", ("assertions",), (2, 4))
    assert (result.sets, result.players) == (("base",), ("Ann", "Bob"))


@pytest.mark.parametrize(
    ("sentence", "ours"),
    [
        ("Ann has 3 points", "Ann has 2 points"),
        ("Bob scored city for 6 points", "Bob scored city for 4"),
        ("Ann scored monastery for 1 points", "Ann scored monastery for nothing"),
        ("Player can pass", "Player can't pass"),
        ("phase is TilePhase", "phase is GameOverPhase"),
    ],
)
def test_a_false_assertion_is_the_disagreement(tmp_path: Path, sentence: str, ours: str) -> None:
    document = {**TWO_TURNS, "test": {"assertions": [sentence]}}
    result = check_file(write(tmp_path, document))
    assert result.verdict == "disagrees"
    assert result.disagreement is not None
    assert (result.disagreement.what, result.disagreement.theirs) == ("assertion", sentence)
    assert result.disagreement.ours == ours


def test_an_unknown_assertion_pattern_is_an_error(tmp_path: Path) -> None:
    result = check_file(write(tmp_path, {**TWO_TURNS, "test": {"assertions": ["Ann is happy"]}}))
    assert result.verdict == "error"
    assert result.reason is not None and "Ann is happy" in result.reason


def test_a_file_without_expectations_is_unchecked(tmp_path: Path) -> None:
    result = check_file(write(tmp_path, {k: v for k, v in TWO_TURNS.items() if k != "test"}))
    assert (result.verdict, result.checked, result.points) == ("unchecked", (), (2, 4))


def test_a_move_our_rules_refuse_is_a_disagreement_at_that_message(tmp_path: Path) -> None:
    document = save(
        [place(0, "BA/RFr", 1, 0, 90), commit(0)], ["BA/RFr", "BA/C"], assertions=["Ann has 0 points"]
    )
    result = check_file(write(tmp_path, document))
    assert result.verdict == "disagrees"
    assert result.disagreement is not None
    assert (result.disagreement.what, result.disagreement.decision) == ("replay", 0)
    assert "R-BASE-3" in result.disagreement.ours


def test_a_check_leaves_the_cycle_collector_as_it_found_it(tmp_path: Path) -> None:
    """The collector is held off during a check for speed, never left off after one."""
    path = write(tmp_path, TWO_TURNS)
    assert gc.isenabled()
    assert check_file(path).verdict == "agrees" and gc.isenabled()
    assert check_file(tmp_path / "gone.jcz").verdict == "error" and gc.isenabled()
    gc.disable()
    try:
        check_file(path)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_unreadable_files_are_errors(tmp_path: Path) -> None:
    (tmp_path / "junk.jcz").write_text("{not json")
    (tmp_path / "other.jcz").write_text('{"hello": 1}')
    for name, reason in [
        ("junk.jcz", "not JSON"),
        ("other.jcz", "not a JCloisterZone save"),
        ("gone.jcz", "cannot read"),
    ]:
        result = check_file(tmp_path / name)
        assert result.verdict == "error"
        assert result.reason is not None and reason in result.reason


# ---------------------------------------------------------------- what we do not support


def test_unsupported_names_what_is_missing() -> None:
    assert unsupported(decode(TWO_TURNS)) is None
    off = save([], elements={"small-follower": 7, "farmers": False, "bridge": 0})
    assert unsupported(decode(off)) is None  # no farmers is a base rule; 0 bridges are none
    odd = save(
        [],
        sets={"basic:1": 1, "spiel-doch:1": 1},
        rules={"tiny-city-scoring": "3"},
        players=[f"P{i}" for i in range(7)],
    )
    expected = "set spiel-doch, rule tiny-city-scoring=3, 7 player(s) (1 to 6 supported)"
    assert unsupported(decode(odd)) == expected
    # JCloisterZone's own rule tests play alone: read with the `solo` switch.
    assert unsupported(decode(save([], players=["Solo"]))) is None
    assert jcz_rules(decode(save([], players=["Solo"]))).solo


def test_every_set_of_the_registry_has_its_mapping_found_by_its_code() -> None:
    from domain.sets import SET_CODES
    from replays.jcz_sets import BY_TILE_SET, MAPPINGS

    assert tuple(MAPPINGS) == SET_CODES
    assert all(mapping.code == code and mapping.tile_set for code, mapping in MAPPINGS.items())
    assert len(BY_TILE_SET) == len(MAPPINGS)  # no two sets claim one JCloisterZone tile set
    document = save([], sets={"basic:1": 1, "bridges-castles-and-bazaars:1": 1}, elements={"bridge": 3})
    assert unsupported(decode(document)) is None


def test_an_unsupported_save_is_reported_and_refused_by_the_import(tmp_path: Path) -> None:
    document = {**TWO_TURNS, "setup": {**TWO_TURNS["setup"], "elements": {"no-such-figure": 1}}}
    result = check_file(write(tmp_path, document))
    assert (result.verdict, result.reason) == ("unsupported", "element no-such-figure")
    with pytest.raises(JczError, match=r"does not support: element no-such-figure"):
        replay_jcz(decode(document), ["BA/RFr", "BA/C"])


def test_a_start_tile_other_than_ours_is_unsupported_not_a_crash(tmp_path: Path) -> None:
    start = {"tile": "BA/Cccc+", "x": 0, "y": 0, "rotation": 0}
    document = {**TWO_TURNS, "setup": {**TWO_TURNS["setup"], "start": [start]}}
    result = check_file(write(tmp_path, document))
    assert result.verdict == "unsupported"
    assert result.reason is not None and "start BA/Cccc+ at (0,0) rotated 0" in result.reason
    with pytest.raises(JczError, match="start BA/Cccc"):
        replay_jcz(decode(document), ["BA/RFr", "BA/C"])


@pytest.mark.parametrize("where", ["drawOrder", "PLACE_TILE"])
def test_an_unknown_tile_id_is_a_clean_error(tmp_path: Path, where: str) -> None:
    if where == "drawOrder":
        document = {**TWO_TURNS, "gameAnnotations": {"drawOrder": ["BA/Nope", "BA/C"], "endTurn": 2}}
    else:
        document = {**TWO_TURNS, "replay": [place(0, "XX/Nope", 1, 0), *TWO_TURNS["replay"][1:]]}
    result = check_file(write(tmp_path, document))
    assert result.verdict == "error"
    assert result.reason is not None and "Nope" in result.reason
    with pytest.raises(JczError, match="Nope"):
        loaded = read_jcz(tmp_path / "game.jcz")
        replay_jcz(loaded, plan_draws(loaded).order)


# ---------------------------------------------------------------- oracle expectations (shared data)


def test_a_changed_legal_placement_set_is_found_at_its_decision(tmp_path: Path) -> None:
    document = oracle_document()
    decision = document["oracle"]["decisions"][5]
    dropped = decision["placements"].pop(0)
    result = check_file(write(tmp_path, document))
    assert result.verdict == "disagrees"
    d = result.disagreement
    assert d is not None and (d.what, d.decision, d.turn) == ("legal placements", decision["index"], 6)
    x, y, r = dropped
    assert f"not offered by JCZ: ({x},{y}) r{r}" in d.ours
    assert "not offered by us: none" in d.theirs


def test_a_tile_placed_while_our_rules_wait_for_an_action_names_that_action() -> None:
    """Not the abbey's label: our rules hold no tile and wait for the placer's action."""
    checker = _Checker(read_jcz(require(JCZ / "oracle" / "basic-p2-s200001.jcz")))
    index, decision = next(iter(checker.decisions.items()))
    game = scenario(["BA/RFr", "BA/C"])
    game.execute(0, PlaceTile(x=1, y=0, rotation=0))
    with pytest.raises(_Differs) as raised:
        checker.placement(index, game.state)
    d = raised.value.disagreement
    assert (d.what, d.decision) == ("legal placements", index)
    assert d.ours == "no tile to place: our rules wait for player 0's action"
    assert d.theirs == f"{decision.tile} placed"


def test_a_changed_score_is_found_in_its_turn_part(tmp_path: Path) -> None:
    document = oracle_document()
    parts = document["oracle"]["score_history"]
    part = next(p for p in parts if p.get("scores") and not p.get("finalScoring"))
    part["scores"][0]["points"] += 1
    result = check_file(write(tmp_path, document))
    d = result.disagreement
    assert result.verdict == "disagrees" and d is not None
    assert (d.what, d.turn) == ("scores", part["turn"])


def _token_of_five(state: object, chance: Chance) -> Event:
    return next(e for e in chance.outcomes if isinstance(e, bt.AnimalRevealed) and e.points == 5)


@pytest.mark.parametrize(("big_top", "agrees"), [(5, True), (6, False)])
def test_what_scores_after_a_turn_parts_commit_while_a_wagon_moves_belongs_to_that_part(
    big_top: int, agrees: bool
) -> None:
    """JCloisterZone's phases after a turn part's COMMIT (the scoring, a wagon's move, then the big
    top's token) run before its next turn part opens (a COMMIT that confirms a wagon's move closes
    no turn part; a wagon that stays takes none): the big top's token scored after the wagon's
    move is that part's, not the next one's."""
    # Ann's wagon on the road Bob's circus completes (road 3); it moves on, then the big top
    # leaves Ann's circus and its token (5) counts her wagon: all of it Bob's turn part.
    game = Game.start(
        ("Ann", "Bob"), ["BT/frfr.bt", "BT/crfr.bt", "BA/C"], expansions=("base", "am", "bigtop")
    )
    game.roll = _token_of_five
    state = game.state
    history = [
        {"turn": 1, "player": 0, "tiles": ["BT/frfr.bt"]},
        {
            "turn": 2,
            "player": 1,
            "tiles": ["BT/crfr.bt"],
            "scores": [
                {"player": 0, "points": 3, "name": "road"},
                {"player": 0, "points": big_top, "name": "bigtop"},
            ],
        },
    ]
    oracle = {"final_points": [0, 0], "score_history": history, "decisions": []}
    checker = _Checker(decode({**save([]), "oracle": oracle}))
    game.execute(0, PlaceTile(x=1, y=0, rotation=0))
    game.execute(0, Deploy(location="W", figure="wagon"))
    checker.committed(2, state)
    game.execute(1, PlaceTile(x=-1, y=0, rotation=0))
    game.execute(1, Pass())
    waiting = expected_step(state)
    assert (state.phase, waiting and waiting.step) == (Phase.PART_OVER, "wagon")
    checker.committed(5, state)  # the road scored, the wagon still to move: nothing compared yet
    assert checker.part == 1
    game.execute(0, wg.MoveWagon(x=1, y=0, location="E"))
    assert [(a.category, a.points) for a in state.awards] == [("road", 3), ("bigtop", 5)]
    decision = {"index": 7, "player": 0, "tile": "BA/C", "placements": sorted(legal_placements(state))}
    checker.decisions = {7: msgspec.convert(decision, JczDecision)}
    if agrees:
        checker.placement(7, state)  # the next part's tile: Bob's part is closed and compared
        assert checker.part == 2
        return
    with pytest.raises(_Differs) as raised:
        checker.placement(7, state)
    d = raised.value.disagreement
    assert (d.what, d.turn, d.decision) == ("scores", 2, 5)
    assert (d.ours, d.theirs) == ("seat 0 road 3, seat 0 bigtop 5", "seat 0 road 3, seat 0 bigtop 6")


@pytest.mark.parametrize(("turn", "verdict"), [({"tiles": []}, "agrees"), ({}, "disagrees")])
def test_a_turn_with_no_tile_and_no_score_at_the_end_is_no_turn_part(
    tmp_path: Path, turn: dict[str, Any], verdict: str
) -> None:
    """JCloisterZone opens a turn to offer the end's abbey (R-AM-2); declined, it places no tile,
    scores nothing and ends with no COMMIT. Listed with its empty tiles, it is skipped; a turn
    part the recorder says nothing of is still one we must have played."""
    document = oracle_document()
    parts = document["oracle"]["score_history"]
    parts.insert(len(parts) - 1, {"turn": parts[-2]["turn"] + 1, "player": 0, **turn})
    assert check_file(write(tmp_path, document)).verdict == verdict


def test_changed_final_points_are_found(tmp_path: Path) -> None:
    document = oracle_document()
    document["oracle"]["final_points"][1] += 5
    result = check_file(write(tmp_path, document))
    d = result.disagreement
    assert result.verdict == "disagrees" and d is not None
    assert (d.what, d.ours, d.theirs) == ("final points", "seat 0 23, seat 1 6", "seat 0 23, seat 1 11")


def test_a_natural_save_with_another_random_number_draws_other_tiles(tmp_path: Path) -> None:
    document = oracle_document("basic-p2-s300001.jcz", "oracle-natural")
    document["replay"][2]["payload"]["random"] = 0.123456789  # the first COMMIT
    result = check_file(write(tmp_path, document))
    d = result.disagreement
    assert result.verdict == "disagrees" and d is not None
    assert (d.what, d.decision) == ("draws", 2)


# ---------------------------------------------------------------- the command


@pytest.fixture
def wide(monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal wide enough that table cells are not folded."""
    monkeypatch.setenv("COLUMNS", "250")


def test_carc_check_folder_json_and_exit_codes(tmp_path: Path, wide: None) -> None:
    write(tmp_path, TWO_TURNS, "good.jcz")
    code, out = carc_check(str(tmp_path), "--json")
    assert code == 0
    document = json.loads(out)
    assert document["verdicts"] == {"agrees": 1}
    assert document["results"][0]["points"] == [2, 4]

    (tmp_path / "sub").mkdir()
    write(tmp_path / "sub", _wrong_points(), "bad.jcz")
    code, out = carc_check(str(tmp_path), "--json")
    assert code == 1
    verdicts = {Path(r["game"]).name: r["verdict"] for r in json.loads(out)["results"]}
    assert verdicts == {"good.jcz": "agrees", "bad.jcz": "disagrees"}


def test_carc_check_table_names_the_first_disagreement(tmp_path: Path, wide: None) -> None:
    path = write(tmp_path, _wrong_points())
    code, out = carc_check(str(path))
    assert code == 1
    assert "disagrees (assertion)" in out
    assert "Ann has 5 points" not in out  # what each side says is a wide column
    code, out = carc_check(str(path), "--wide")
    assert "Ann has 5 points" in out


def test_carc_check_unsupported_is_not_a_failure(tmp_path: Path, wide: None) -> None:
    write(tmp_path, save([], sets={"basic:1": 1, "cult:1": 1}))
    code, out = carc_check(str(tmp_path), "--wide")
    assert code == 0
    assert "unsupported" in out and "cult" in out


def test_carc_check_unreadable_file_fails(tmp_path: Path, wide: None) -> None:
    code, out = carc_check(str(tmp_path / "missing.jcz"), "--wide")
    assert code == 1
    assert "cannot read" in out


def test_jcz_paths_expands_folders_recursively(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    for name in ("a/x.jcz", "a/b/y.jcz", "a/notes.txt"):
        (tmp_path / name).write_text("")
    assert jcz_paths([tmp_path / "a", "single.jcz"]) == [
        tmp_path / "a" / "b" / "y.jcz",
        tmp_path / "a" / "x.jcz",
        Path("single.jcz"),
    ]


def _wrong_points() -> dict[str, Any]:
    return {**TWO_TURNS, "test": {"assertions": ["Ann has 5 points"]}}


def test_carc_check_without_any_jcz_file_fails(tmp_path: Path) -> None:
    result = runner.invoke(app, ["check", str(tmp_path)])
    assert result.exit_code == 1
    assert "no .jcz files" in result.stderr


def test_a_later_edition_of_a_set_is_unsupported_not_a_late_unknown_tile() -> None:
    # Second editions hold tiles the catalogue lacks (gardens): refused up front, named.
    assert unsupported(decode(save([], sets={"basic:2": 1}))) == "set basic:2 (a later edition)"
    assert unsupported(decode(save([], sets={"basic:1": 1}))) is None
