"""Every set's JCloisterZone mapping (`replays.jcz_mapping.JczSet`), one module per set of the
registry (`domain.sets`), found by its code: `replays/jcz_sets/<code>.py` exposing `MAPPING`."""

from __future__ import annotations

import importlib
from typing import Final

from domain.sets import SET_CODES
from replays.jcz_mapping import Element, JczSet


def _load(code: str) -> JczSet:
    mapping: JczSet = importlib.import_module(f"replays.jcz_sets.{code}").MAPPING
    assert mapping.code == code, f"replays/jcz_sets/{code}.py maps {mapping.code}"
    return mapping


MAPPINGS: Final[dict[str, JczSet]] = {code: _load(code) for code in SET_CODES}
BY_TILE_SET: Final[dict[str, JczSet]] = {m.tile_set: m for m in MAPPINGS.values()}
# Each setup element of the sets we play -> (its set, what it is).
ELEMENTS: Final[dict[str, tuple[JczSet, Element]]] = {
    name: (m, element) for m in MAPPINGS.values() for name, element in m.elements.items()
}
FIGURES: Final[dict[str, str]] = {
    theirs: ours for m in MAPPINGS.values() for theirs, ours in m.figures.items()
}
SCORE_NAMES: Final[dict[str, str]] = {
    ours: theirs for m in MAPPINGS.values() for ours, theirs in m.score_names.items()
}
NOT_SCORES: Final[frozenset[str]] = frozenset(c for m in MAPPINGS.values() for c in m.not_scores)
FINAL_ONLY: Final[frozenset[str]] = frozenset(c for m in MAPPINGS.values() for c in m.final_only)
PLACEMENT_STEPS: Final[dict[str, tuple[JczSet, str]]] = {
    step: (m, tile) for m in MAPPINGS.values() for step, tile in m.placement_steps.items()
}
RULE_SWITCHES: Final[dict[tuple[str, object], dict[str, object]]] = {
    rule: switches for m in MAPPINGS.values() for rule, switches in m.rule_switches.items()
}
READING: Final[dict[str, object]] = {
    name: value for m in MAPPINGS.values() for name, value in m.reading.items()
}


def in_play(codes: tuple[str, ...]) -> tuple[JczSet, ...]:
    """The mappings of these sets, in the registry's order."""
    return tuple(m for code, m in MAPPINGS.items() if code in codes)
