"""One turn, step by step: each event of the turn with the turn part it belongs to and its rule."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain import events as ev
from domain.expansions import PARTS, parts_for
from domain.provenance import rule_of
from domain.readings import played_under
from domain.rules import RuleSet

# Events that open a turn part, and the part's name: a drawn tile's, and the parts' own.
_PART_STARTS: dict[type[ev.Event], str] = {ev.TileDrawn: "normal"} | {
    kind: name for part in PARTS for kind, name in part.part_starts.items()
}
_SKIP = frozenset({"originator_id", "originator_version"})


class Step(msgspec.Struct, frozen=True):
    version: int
    part: str
    event: str
    rule: str
    details: dict[str, object]


class TurnExplanation(msgspec.Struct, frozen=True):
    turn: int
    readings: tuple[str, ...]  # the readings of the rules the game is played under, as the audit names them
    steps: tuple[Step, ...]


def turns_in(events: Sequence[ev.Event]) -> int:
    return sum(1 for e in events if isinstance(e, ev.TileDrawn) and not _is_redraw(events, e))


def _is_redraw(events: Sequence[ev.Event], event: ev.TileDrawn) -> bool:
    index = event.originator_version - 1
    return index > 0 and isinstance(events[index - 1], ev.TileDiscarded)


def explain_turn(events: Sequence[ev.Event], turn: int) -> TurnExplanation:
    """The events of normal turn `turn` (1-based) and every part that follows it."""
    started = events[0]
    assert isinstance(started, ev.GameStarted)
    rules: RuleSet = started.rules
    steps: list[Step] = []
    current = 0
    part = ""
    for event in events[1:]:
        if isinstance(event, ev.TileDrawn) and not _is_redraw(events, event):
            current += 1
        if current < turn:
            continue
        if current > turn:
            break
        part = _PART_STARTS.get(type(event), part)
        details = {k: v for k, v in msgspec.structs.asdict(event).items() if k not in _SKIP}
        steps.append(
            Step(
                version=event.originator_version,
                part=part,
                event=type(event).__name__,
                rule=rule_of(event, rules),
                details=details,
            )
        )
    parts = parts_for(started.expansions, rules.without)
    return TurnExplanation(turn=turn, readings=played_under(rules, parts), steps=tuple(steps))
