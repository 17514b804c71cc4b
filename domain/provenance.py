"""The rule behind each event: what `carc explain` shows beside every step of a turn."""

from __future__ import annotations

from domain import events as ev
from domain.expansions import PARTS
from domain.rules import RuleSet

_RULES: dict[type[ev.Event], str] = {
    ev.GameStarted: "R-BASE-2",
    ev.TileDrawn: "R-BASE-3",
    ev.TileDiscarded: "R-BASE-3",
    ev.TilePlaced: "R-BASE-3",
    ev.TurnEnded: "R-BASE-5",
    ev.GameEnded: "R-BASE-8",
}
_OWNERS = {t: part for part in PARTS for t in part.events}
_FIGURES = {"follower": "R-BASE-4"} | {f: k.rule for part in PARTS for f, k in part.figures.items()}
_PASSES = {"deploy": "R-BASE-4"} | {
    recorded: part.steps[step] for part in PARTS for step, recorded in part.pass_steps.items()
}


def rule_of(event: ev.Event, rules: RuleSet) -> str:
    """The rule id (or the ordering variant) that makes `event` happen where it does."""
    if isinstance(event, ev.FollowerDeployed):
        return _FIGURES.get(event.figure, "R-BASE-4")
    if isinstance(event, ev.Passed):
        return _PASSES.get(event.step, "R-BASE-4")
    owner = _OWNERS.get(type(event))
    if owner is not None:
        return owner.rule_of(event, rules)
    return _RULES[type(event)]
