"""How a JCloisterZone save's setup elements switch rules on and off.

JCloisterZone asks only whether an element is named (its client deletes the key of an element
switched off): a save without `farmers` plays without farmers, `"inn": false` still plays inns,
and the `tower` and `bazaar` elements switch their parts off, the bazaar's draws included.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.aggregate import Game
from domain.rules import RuleSet
from domain.scoring import Award
from replays.check import score_name
from replays.jcz import JczRefused, jcz_rules, replay_jcz, unsupported
from replays.jcz_draws import _pack, plan_draws
from replays.jcz_export import jcz_setup
from tests.jcz_saves import commit, decode, place, save

BASE = {"small-follower": 7, "farmers": True}
IC = {"basic:1": 1, "inns-and-cathedrals:1": 1}


def _rules(elements: dict[str, Any], sets: dict[str, int] | None = None) -> RuleSet:
    return jcz_rules(decode(save([], sets=sets, elements=elements)))


@pytest.mark.parametrize(
    ("elements", "farmers"),
    [({"small-follower": 7}, False), (BASE, True), ({"small-follower": 7, "farmers": False}, True)],
)
def test_farmers_play_exactly_when_the_save_names_them(elements: dict[str, Any], farmers: bool) -> None:
    assert _rules(elements).farmers is farmers


def test_an_element_named_false_still_plays_its_part_and_one_left_out_does_not() -> None:
    named = _rules({**BASE, "inn": False, "cathedral": True, "big-follower": 1}, IC)
    assert "inns" not in named.without
    left_out = _rules({**BASE, "cathedral": True, "big-follower": 1}, IC)
    assert "inns" in left_out.without and "cathedrals" not in left_out.without


def test_the_tower_element_switches_the_tower_part() -> None:
    tower = {"basic:1": 1, "tower:1": 1}
    assert "tower" not in _rules({**BASE, "tower": 1}, tower).without
    assert "tower" in _rules(BASE, tower).without


@pytest.mark.parametrize("bazaar", [True, False])
def test_a_bazaar_tile_draws_a_supply_only_with_the_bazaar_element(bazaar: bool) -> None:
    elements = {**BASE, "bridge": 3, "castle": 3, **({"bazaar": True} if bazaar else {})}
    log = [place(0, "BB/F.b", 1, 0), commit(0), place(1, "BA/C", 2, 0), commit(1)]
    sets = {"basic:1": 1, "bridges-castles-and-bazaars:1": 1}
    document = save(log, ["BB/F.b", "BA/C", "BA/L"], sets=sets, elements=elements)
    if bazaar:  # the draws wait for the auction, which this log does not hold
        with pytest.raises(JczRefused):
            plan_draws(decode(document))
    else:
        assert [d.kind for d in plan_draws(decode(document)).draws] == ["turn", "turn", "turn"]


def test_a_tiny_city_held_by_no_strength_is_jczs_city_empty() -> None:
    award = Award(
        player=0, points=0, category="city.tiny.empty", rule="V-TINY-CITY", parts=(), feature=1, turn=3,
        version=9,
    )
    assert score_name(award) == "city.empty"


def test_an_export_without_farmers_leaves_the_element_out() -> None:
    for farmers in (True, False):
        game = Game.start(("Ann", "Bob"), ["BA/L"], rules=RuleSet(farmers=farmers))
        started = game.collect_events()[0]
        elements = jcz_setup(started)["elements"]  # type: ignore[arg-type]
        assert ("farmers" in elements) is farmers


def test_a_setup_rule_holding_a_list_is_named_unsupported_not_a_crash() -> None:
    document = save([], rules={"x": [1], "princess-action": {"y": 2}})
    assert unsupported(decode(document)) == "rule x=[1], rule princess-action={'y': 2}"


@pytest.mark.parametrize(("dragon", "wait"), [({"dragon": 1}, True), ({"dragon": 0}, True), ({}, False)])
def test_dragon_tiles_wait_for_a_volcano_when_the_dragon_is_named(dragon: dict[str, int], wait: bool) -> None:
    pd = {"basic:1": 1, "princess-and-dragon:1": 1}
    pack = _pack(decode(save([], sets=pd, elements={**BASE, **dragon})))
    assert ("dragon" in pack.groups and "dragon" not in pack.active) is wait


def test_river_tiles_without_the_river_element_are_unsupported() -> None:
    start = ({"tile": "RI/s", "x": 0, "y": 0, "rotation": 0},)
    river = {"basic:1": 1, "river/1:1": 1}
    assert unsupported(decode(save([], sets=river, elements={**BASE, "river": True}, start=start))) is None
    assert unsupported(decode(save([], sets=river, elements=BASE, start=start))) == (
        "river tiles without the river element"
    )


def test_a_message_sent_by_another_player_than_our_rules_wait_for_is_refused() -> None:
    document = decode(save([place(1, "BA/RFr", 1, 0), commit(1)], ["BA/RFr", "BA/L"]))
    with pytest.raises(JczRefused, match="is player 1's, but our rules wait for player 0"):
        replay_jcz(document, ["BA/RFr", "BA/L"])
