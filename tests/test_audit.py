"""Audit: one recorded game re-checked under its own rule set and every variant of `audit_variants`.

A farmer deployment is legal with farmers (R-BASE-4) and refused without them, so a game that
deploys one is legal as recorded and illegal under ``farmers=off`` at exactly that event.
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from carc.cli import app
from domain import events as ev
from domain.bots import play_bot_game
from domain.commands import Deploy, PlaceTile
from domain.expansions import EVENT_TYPES, bazaars as bz, builders as bd, gold as gd, magic as mg
from domain.moves import legal_deployments
from domain.readings import audit_variants
from domain.replay import DECISIONS, ENGINE_RULES, ReplayError, audit, replay
from domain.rules import RuleSet
from replays import records
from tests.helpers import Move, run
from tests.test_properties_tb import builder_bot_game
from tests.test_rules_bcb import castle_at_start

# Ann's field on BA/RFr south of the road, then an ordinary turn for Bob.
FARMER = run(["BA/RFr", "BA/RFr", "BA/C"], Move(1, 0, deploy="Es+Se+Sw+Ws"), Move(-1, 0))
EVENTS = FARMER.collect_events()
DEPLOYED = next(i for i, e in enumerate(EVENTS) if isinstance(e, ev.FollowerDeployed))


def test_r_base_4_farmer_legal_as_recorded_refused_without_farmers() -> None:
    verdicts = audit(EVENTS)
    assert list(verdicts) == ["recorded", *audit_variants(RuleSet(), ())]  # a base game: no part
    # A base game knows no bazaar or builder: every other reading replays it the same.
    for name, verdict in verdicts.items():
        if name != "farmers=off":
            assert verdict.legal and verdict.state.scores == FARMER.state.scores, name
    assert verdicts["recorded"].legal
    assert verdicts["recorded"].state.scores == FARMER.state.scores
    without = verdicts["farmers=off"]
    assert without.error is not None
    assert (without.error.index, without.error.rule) == (DEPLOYED, "R-BASE-4")
    assert without.error.event == EVENTS[DEPLOYED]
    assert "without farmers" in without.error.message
    assert without.state.version == DEPLOYED  # replayed up to the refused event


def test_r_base_4_strict_replay_under_another_rule_set_raises_at_the_event() -> None:
    with pytest.raises(ReplayError) as info:
        replay(EVENTS, RuleSet(farmers=False))
    assert (info.value.index, info.value.rule) == (DEPLOYED, "R-BASE-4")
    assert replay(EVENTS).state.scores == FARMER.state.scores


def test_r_base_4_without_farmers_a_turn_ends_where_farmers_would_offer_a_deployment() -> None:
    """Only fields free: no choice without farmers, so the engine ended the turn; with farmers
    the player would have had to deploy or pass first, so the log breaks at that TurnEnded."""
    game = play_bot_game(2, 3, rules=RuleSet(farmers=False))
    events = game.collect_events()
    verdicts = audit(events)
    assert list(verdicts) == ["recorded", *audit_variants(RuleSet(farmers=False), ())]
    assert verdicts["recorded"].legal
    assert verdicts["recorded"].state.scores == game.state.scores
    error = verdicts["farmers=on"].error
    assert error is not None and isinstance(error.event, ev.TurnEnded)
    assert "a player must decide here" in error.message
    assert isinstance(events[error.index - 1], ev.TilePlaced)


def test_audit_command_on_a_file_and_its_json(tmp_path: Path) -> None:
    path = tmp_path / "farmer.jsonl"
    records.write(EVENTS, path)
    result = CliRunner().invoke(app, ["audit", str(path), "--json"])
    assert result.exit_code == 0, result.stderr
    readings = json.loads(result.stdout)["readings"]
    assert readings["recorded"]["legal"]
    off = readings["farmers=off"]
    assert (off["legal"], off["event"], off["rule"]) == (False, DEPLOYED + 1, "R-BASE-4")
    assert off["rules"]["farmers"] is False
    text = CliRunner().invoke(app, ["audit", str(path)]).stdout
    assert "illegal" in text and "R-BASE-4" in text


def test_audit_variants_differ_from_the_rules_they_vary() -> None:
    for rules in (RuleSet(), RuleSet(farmers=False)):
        variants = audit_variants(rules)
        assert variants and all(v != rules for v in variants.values())


def test_every_event_type_is_either_a_decision_or_the_engines_own() -> None:
    """An event type missing from both replay tables could never be imported."""
    kinds = set(EVENT_TYPES.values()) - {ev.GameStarted}
    assert set(DECISIONS) | set(ENGINE_RULES) == kinds
    # Sometimes a player's, sometimes the engine's: a bar laid or taken where no choice is left, a
    # magic figure leaving the board when it is the only one.
    both = {ev.TileDiscarded, bz.TileBought, bz.BazaarTileAssigned}
    both |= {gd.GoldPlaced, gd.GoldTaken, mg.MagicFigureRemoved}
    assert set(DECISIONS) & set(ENGINE_RULES) == both


def test_r_base_4_a_file_illegal_under_its_own_rules_is_audited_and_refused_on_import(tmp_path: Path) -> None:
    """The same moves recorded as a game without farmers: import refuses the farmer's line;
    the audit still reads the file and finds it legal only with farmers."""
    started = EVENTS[0]
    assert isinstance(started, ev.GameStarted)
    path = tmp_path / "no-farmers.jsonl"
    records.write([msgspec.structs.replace(started, rules=RuleSet(farmers=False)), *EVENTS[1:]], path)
    result = CliRunner().invoke(app, ["import", str(path), "--db", str(tmp_path / "g.sqlite")])
    assert result.exit_code == 1
    message = " ".join(result.stderr.split())
    assert f"{path}:{DEPLOYED + 2}: FollowerDeployed(" in message and "R-BASE-4" in message
    result = CliRunner().invoke(app, ["audit", str(path), "--json"])
    assert result.exit_code == 0, result.stderr
    readings = json.loads(result.stdout)["readings"]
    assert (readings["recorded"]["legal"], readings["recorded"]["event"]) == (False, DEPLOYED + 1)
    assert readings["farmers=on"]["legal"]


def test_a_castle_beside_a_farm_scores_differently_under_another_castle_value() -> None:
    """Scoring-only variants re-score the same events: Bob's farm touches Ann's castle."""
    game = castle_at_start(["BA/LR"])
    game.execute(1, PlaceTile(x=1, y=0, rotation=90))
    field = next(n for n in legal_deployments(game.state) if n not in ("cloister", "W"))
    game.execute(1, Deploy(location=field))
    assert game.state.over
    verdicts = audit(list(game.pending))

    def farm(name: str) -> list[tuple[int, int]]:
        verdict = verdicts[name]
        assert verdict.legal, name
        return [(a.player, a.points) for a in verdict.state.awards if a.category == "farm"]

    assert farm("recorded") == [(1, 4)]  # R-CASTLE-10
    assert farm("castle-farm-value=3") == [(1, 3)]


def _first_disputed(events: list[ev.Event]) -> int | None:
    """Index of the first event whose place depends on the ordering: an auction held right after
    the host's builder tile was granted (V-ORDER-HIG holds the bazaar first), or a deferral."""
    for i, event in enumerate(events):
        if isinstance(event, bz.BazaarDeferred):
            return None  # the orderings differ here too; look for a game with the plain conflict
        if isinstance(event, bz.BazaarOpened) and isinstance(events[i - 1], bd.BuilderTurnGranted):
            return i
    return None


def test_V_ORDER_HIG_a_game_legal_only_under_it_is_refused_by_the_other_orderings_where_they_differ() -> None:
    found = next(
        (game, index)
        for seed in range(100)
        if (index := _first_disputed(list((game := builder_bot_game(3, seed, "hig")).pending))) is not None
    )
    game, index = found
    events = list(game.pending)
    verdicts = audit(events)
    assert verdicts["recorded"].legal
    expected_rule = {
        "V-ORDER-BUILDER-FIRST": "R-TB-3",  # the host's builder tile is due, not the auction
        "V-ORDER-JCZ": "R-TB-3",
        "V-ORDER-FACEDOWN": "V-ORDER-FACEDOWN",  # the tiles are taken face down first
    }
    for name, rule in expected_rule.items():
        error = verdicts[name].error
        assert error is not None, name
        assert (error.index, error.rule, error.event) == (index, rule, events[index]), name
        assert verdicts[name].state.version == index  # replayed up to the refused event


def test_audit_leaves_out_the_readings_of_sets_not_in_the_game() -> None:
    """A base game is re-checked only under readings that can change it (tiny cities, farmers);
    a game with bridges, castles and bazaars also under theirs and under every order."""
    base = audit(play_bot_game(2, 3).collect_events())
    assert set(base) == {"recorded", "V-TINY-CITY=on", "farmers=off"}
    bcb = set(audit(play_bot_game(2, 3, expansions=("base", "bcb")).collect_events()))
    readings = {name.partition("=")[0] for name in bcb}
    assert {"V-CASTLE-ENDS", "V-BAZAAR-NOAUCTION", "JCZ-BRIDGE-PLACED-TILE", "castle-farm-value"} <= readings
    assert "V-ORDER-HIG" in readings or "V-ORDER-JCZ" in readings
    assert not any(name.startswith(("JCZ-BUILDER", "JCZ-TOWER", "V-PRINCESS")) for name in bcb)
