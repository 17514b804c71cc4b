"""Each part owns its switches; a rule set carries them by part, and one stored flat reads back.

The rule set's base-game fields are the core's; every other switch is declared by the part it
changes (`Part.options`), named once across all parts, and kept in the rule set only where it
differs from its default. Games stored before (their GameStarted holding one flat rule set, in the
event store or a version-1 record file) read back through the upcaster as the same game.
"""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

import msgspec
import pytest
from eventsourcing.persistence import StoredEvent

from domain.aggregate import Game
from domain.bots import play_bot_game
from domain.errors import RuleViolation
from domain.events import GameStarted
from domain.expansions import BY_NAME, PARTS
from domain.readings import (
    OWNERS,
    VARIANT_PARTS,
    VARIANTS,
    audit_variants,
    checked,
    rule_set,
    switch,
    upcast_rules,
    with_switches,
)
from domain.rules import RuleSet
from domain.store import MsgspecMapper, PassThroughTranscoder, open_store
from replays import records

# How a rule set was stored before each part owned its switches: one struct, every field.
FLAT = {
    "followers": 6,
    "farmers": True,
    "builders": 2,
    "pigs": 1,
    "order": "jcz",
    "castle_ends": True,
    "castle_same_turn": True,
    "bazaar_no_credit": False,
    "castle_farm_value": 4,
    "without": ["inns"],
    "barns": 1,
    "solo": False,
    "tiny_city": False,
    "wagon_connected": True,
}


def test_every_switch_has_one_owner_and_each_reading_names_its_part() -> None:
    assert OWNERS["castle_ends"] is BY_NAME["castles"]
    assert OWNERS["order"] is BY_NAME["bazaars"]
    assert OWNERS["builders"] is BY_NAME["builders"]
    for name, field in VARIANTS.items():
        if name in VARIANT_PARTS:
            assert OWNERS[field].name == VARIANT_PARTS[name], name
    assert {p.name for p in PARTS if p.switches} <= set(VARIANT_PARTS.values())


def test_a_rule_set_keeps_each_part_s_switches_only_where_they_differ() -> None:
    rules = rule_set(castle_ends=True, order="hig", builders=1)
    assert rules.options == {"castles": {"castle_ends": True}}
    assert switch(rules, "castle_ends") is True and switch(rules, "order") == "hig"
    assert with_switches(rules, castle_ends=False) == RuleSet()
    explicit = RuleSet(options={"castles": {"castle_ends": False}, "bazaars": {"order": "jcz"}})
    assert checked(explicit) == rule_set(order="jcz")
    with pytest.raises(TypeError, match="no switch named castle_walls"):
        rule_set(castle_walls=True)


@pytest.mark.parametrize(
    ("options", "why"),
    [
        ({"moat": {"deep": True}}, "no part named 'moat'"),
        ({"castles": {"castle_ends": "yes"}}, "castles part"),
        ({"builders": {"builders": 9}}, "builders part"),
    ],
)
def test_a_game_refuses_switches_no_part_has_or_out_of_their_bounds(
    options: dict[str, dict[str, bool | int | str]], why: str
) -> None:
    with pytest.raises(RuleViolation, match=why):
        Game.start(("Ann", "Bob"), ["BA/L"], rules=RuleSet(options=options))


def test_the_upcaster_reads_a_flat_rule_set_of_before() -> None:
    assert upcast_rules(FLAT) == {
        "followers": 6,
        "farmers": True,
        "without": ["inns"],
        "solo": False,
        "tiny_city": False,
        "options": {
            "builders": {"builders": 2},
            "bazaars": {"order": "jcz"},
            "castles": {"castle_ends": True},
            "wagon": {"wagon_connected": True},
        },
    }
    today = msgspec.to_builtins(rule_set(castle_ends=True))
    assert upcast_rules(today) == today


def test_audit_readings_come_from_the_parts_in_play() -> None:
    names = list(audit_variants(RuleSet(), ("castles",)))
    assert "V-CASTLE-ENDS=on" in names and "castle-farm-value=3" in names
    assert "V-ORDER-JCZ" not in names and "V-TINY-CITY=on" in names and names[-1] == "farmers=off"
    assert audit_variants(RuleSet(), ("bazaars",))["V-ORDER-JCZ"] == rule_set(order="jcz")


def _old_started(started: GameStarted) -> dict[str, object]:
    """The GameStarted as it was stored before the move: its rule set flat."""
    raw = msgspec.to_builtins(started)
    flat = {k: v for k, v in raw["rules"].items() if k != "options"}
    for values in raw["rules"]["options"].values():
        flat |= values
    return {**raw, "rules": flat}


def test_a_game_stored_before_the_move_loads_as_the_same_game() -> None:
    rules = rule_set(castle_ends=True, order="jcz")
    game = play_bot_game(2, 5, expansions=("base", "bcb", "tb"), rules=rules)
    started = game.collect_events()[0]
    assert isinstance(started, GameStarted)
    mapper = MsgspecMapper(transcoder=PassThroughTranscoder())
    stored = StoredEvent(
        originator_id=started.originator_id,
        originator_version=1,
        topic="GameStarted",
        state=msgspec.msgpack.encode(_old_started(started)),
    )
    assert mapper.to_domain_event(stored) == started


def test_a_version_1_record_file_reads_as_the_same_game(tmp_path: Path) -> None:
    events = play_bot_game(2, 8, expansions=("base", "am"), rules=rule_set(barns=2)).collect_events()
    started = events[0]
    assert isinstance(started, GameStarted)
    lines = records.encode(events).splitlines()
    header = msgspec.json.decode(lines[0])
    header["version"] = 1
    header["rules"] = _old_started(started)["rules"]
    old = [msgspec.json.encode(header), msgspec.json.encode(_old_started(started)), *lines[2:]]
    path = tmp_path / "old.jsonl"
    path.write_bytes(b"\n".join(old) + b"\n")
    _, read = records.read(path)
    assert read == events
    db = str(tmp_path / "s.sqlite")
    open_store(db).save_events(read)
    assert open_store(db).game_events(UUID(str(started.originator_id))) == events
