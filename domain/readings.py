"""The rule set's switches by name, and the other readings of the rules a game can be audited under.

Every switch has one name across the game: the base game's fields of `RuleSet`, and each part's
`Options` fields (`domain.part.Part.options`), which no two parts share. So a rule set can be
written and read as flat names (`rule_set(name=value)`, `switch(rules, name)`) while
each part declares and owns its own; a rule set stored before the parts owned them (flat, one
field each) reads back through `upcast_rules`.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Final

import msgspec

from domain.expansions import PARTS
from domain.part import Part
from domain.rules import BASE_VARIANTS, Options, RuleSet, Scalar

_CORE: Final = frozenset(RuleSet.__struct_fields__) - {"options"}


def _owners() -> dict[str, Part]:
    found: dict[str, Part] = {}
    for part in PARTS:
        if part.options is None:
            continue
        for field in part.options.__struct_fields__:
            assert field not in found and field not in _CORE, f"two owners of the switch {field}"
            found[field] = part
    return found


OWNERS: Final[dict[str, Part]] = _owners()  # each part's switch -> its part
SWITCHES: Final[tuple[str, ...]] = (*sorted(_CORE), *OWNERS)  # every switch, by name

# The yes/no readings a user can flip (`carc play --variant`), by their RULES.md id -> the switch.
VARIANTS: Final[dict[str, str]] = BASE_VARIANTS | {
    name: field for part in PARTS for name, field in part.switches.items()
}
# The part each of those changes the play of: with it out of the game, flipping it changes nothing.
VARIANT_PARTS: Final[dict[str, str]] = {name: part.name for part in PARTS for name in part.switches}
# The readings that set a switch of several values to one of them (`--variant V-KR-10-20`), by
# their RULES.md id -> (the switch, that value).
CHOICES: Final[dict[str, tuple[str, Scalar]]] = {
    name: choice for part in PARTS for name, choice in part.choices.items()
}


def defaults(part: Part) -> Options:
    assert part.options is not None
    return part.options()


def switch(rules: RuleSet, name: str) -> Any:
    """The value of the switch `name` in `rules` (its default when the rule set leaves it out)."""
    if name in _CORE:
        return getattr(rules, name)
    return getattr(OWNERS[name].options_of(rules), name)


def with_switches(rules: RuleSet, **switches: Any) -> RuleSet:
    """`rules` with the named switches set; an unknown name is a TypeError, as for a struct."""
    core = {name: value for name, value in switches.items() if name in _CORE}
    unknown = [name for name in switches if name not in _CORE and name not in OWNERS]
    if unknown:
        raise TypeError(f"no switch named {', '.join(unknown)}")
    options = {name: dict(values) for name, values in rules.options.items()}
    for name, value in switches.items():
        if name in OWNERS:
            owner = OWNERS[name]
            mine = options.setdefault(owner.name, {})
            if value == getattr(defaults(owner), name):
                mine.pop(name, None)
            else:
                mine[name] = value
    kept = {name: values for name, values in options.items() if values}
    return msgspec.structs.replace(rules, **core, options=kept)


def rule_set(**switches: Any) -> RuleSet:
    """A rule set with the named switches set, the rest at their defaults."""
    return with_switches(RuleSet(), **switches)


def flat(rules: RuleSet) -> dict[str, Scalar | tuple[str, ...]]:
    """Every switch by name, defaults included (the analytics tables' columns)."""
    return {name: switch(rules, name) for name in SWITCHES}


def checked(rules: RuleSet) -> RuleSet:
    """`rules` if every switch is known and within its bounds, each part's kept only where it
    differs from its default (so equal rules are equal sets); msgspec.ValidationError naming the
    one that is not. Decoding checks the base game's; each part's are checked here."""
    rules = msgspec.convert(msgspec.to_builtins(rules), RuleSet)
    by_name = {part.name: part for part in PARTS if part.options is not None}
    kept: dict[str, dict[str, Scalar]] = {}
    for name in rules.options:
        if name not in by_name:
            raise msgspec.ValidationError(f"no part named {name!r} has switches - at `$.options`")
        part = by_name[name]
        try:
            given = part.options_of(rules)
        except msgspec.ValidationError as e:
            raise msgspec.ValidationError(f"{e} (the {name} part's switches)") from None
        default = defaults(part)
        differ = {
            field: value
            for field, value in msgspec.structs.asdict(given).items()
            if value != getattr(default, field)
        }
        if differ:
            kept[name] = differ
    return msgspec.structs.replace(rules, options=kept)


def upcast_rules(raw: dict[str, Any]) -> dict[str, Any]:
    """A rule set as stored before each part owned its switches (one flat struct) in today's shape;
    one already in today's shape comes back as it is."""
    if "options" in raw:
        return raw
    core = {name: value for name, value in raw.items() if name in _CORE or name not in OWNERS}
    options: dict[str, dict[str, Any]] = {}
    for name, value in raw.items():
        if name in OWNERS and name not in _CORE:
            owner = OWNERS[name]
            if value != getattr(defaults(owner), name):
                options.setdefault(owner.name, {})[name] = value
    return {**core, "options": options}


def played_under(rules: RuleSet, parts: Collection[Part]) -> tuple[str, ...]:
    """The readings `rules` plays the parts in play under, where a part always plays one."""
    return tuple(
        name
        for part in parts
        if part.options is not None and (name := part.played_under(part.options_of(rules))) is not None
    )


def upcast_started(raw: object) -> object:
    """A stored GameStarted (decoded as plain data) whose rule set is in the flat shape of before,
    in today's shape; anything else comes back as it is."""
    if isinstance(raw, dict) and isinstance(raw.get("rules"), dict):
        return {**raw, "rules": upcast_rules(raw["rules"])}
    return raw


def audit_variants(rules: RuleSet, parts: Collection[str] | None = None) -> dict[str, RuleSet]:
    """Every other reading a recorded game can be re-checked under, by name; given the parts in
    play (`parts`), the readings of parts out of the game are left out."""
    found: dict[str, RuleSet] = {}
    for part in PARTS:
        if part.options is None or (parts is not None and part.name not in parts):
            continue
        for name, options in part.readings(part.options_of(rules)).items():
            found[name] = with_switches(rules, **msgspec.structs.asdict(options))
    for name, field in BASE_VARIANTS.items():
        flipped = not getattr(rules, field)
        found[f"{name}={'on' if flipped else 'off'}"] = msgspec.structs.replace(rules, **{field: flipped})
    found[f"farmers={'off' if rules.farmers else 'on'}"] = msgspec.structs.replace(
        rules, farmers=not rules.farmers
    )
    return found
