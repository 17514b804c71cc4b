"""Replaying a recorded game with every event checked: import (strict) and audit (lenient).

A player's decision is turned back into the command that gave it (`DECISIONS`) and run through
`decide`; the event it yields must equal the recorded one. Every other event is the engine's
own doing (a draw, a discard, the end of a turn or of the game) and must equal what
`automatic_event` produces at that point. So a replay accepts exactly the logs live play could
have written, with one implementation of each rule for both.

The first event, `GameStarted`, carries the rule set; replaying under another `RuleSet` swaps
it, which is how an audit re-checks one log under another reading of the rules.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

import msgspec

from domain import events as ev
from domain.aggregate import Game, check_setup
from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.decide import decide
from domain.errors import RuleViolation, UserError
from domain.expansions import PARTS, parts_for
from domain.readings import audit_variants
from domain.rules import RuleSet
from domain.state import GameState
from domain.turns import Chance, automatic_event


class Decision(NamedTuple):
    """How a recorded decision becomes a command again."""

    command: Callable[[Any], tuple[int, Command]]
    """The seat that decided and its command, from the recorded event."""
    rule: str
    """Cited when the event `decide` gives differs from the recorded one: the recorded event
    carries more than its command (e.g. a deployment's x, y) and that part is wrong."""


def _placement(e: ev.TilePlaced) -> tuple[int, Command]:
    return e.player, PlaceTile(x=e.x, y=e.y, rotation=e.rotation, tile=e.tile)


def _deployment(e: ev.FollowerDeployed) -> tuple[int, Command]:
    return e.player, Deploy(location=e.location, figure=e.figure, x=e.x, y=e.y)


def _pass(e: ev.Passed | ev.TileDiscarded) -> tuple[int, Command]:
    return e.player, Pass()


DECISIONS: dict[type[ev.Event], Decision] = {
    ev.TilePlaced: Decision(_placement, "R-BASE-3"),
    ev.FollowerDeployed: Decision(_deployment, "R-BASE-4"),
    ev.Passed: Decision(_pass, "R-BASE-4"),
    **{t: Decision(*found) for part in PARTS for t, found in part.decisions.items()},
}
"""Every event a player decides, by type: the base game's and each part's (`Part.decisions`);
an event type missing from both tables is refused wherever it appears."""

ENGINE_RULES: dict[type[ev.Event], str] = {
    ev.TileDrawn: "R-BASE-3",
    ev.TileDiscarded: "R-BASE-3",
    ev.TurnEnded: "R-BASE-5",
    ev.GameEnded: "R-BASE-8",
    **{t: rule for part in PARTS for t, rule in part.engine_rules.items()},
}
"""Every event the engine records itself, with the rule cited when a log disagrees with it.
Some events are sometimes the engine's and sometimes a player's (a discard of a tile that fits
nowhere or one declined; a part's unchallenged bid or free pick): they are in both tables."""


class ReplayError(UserError):
    """A recorded event the replay refuses: its index in the log (0-based), the event, the rule.

    `rule` is None when no game rule is at stake: the log itself is damaged (an event of another
    game, or events out of order).
    """

    def __init__(self, index: int, event: ev.Event | None, rule: str | None, message: str) -> None:
        what = describe(event) if event is not None else "no event"
        cited = f"{rule}: " if rule else ""
        super().__init__(f"event {index + 1}, {what}: {cited}{message}")
        self.index = index
        self.event = event
        self.rule = rule
        self.message = message


def describe(event: ev.Event) -> str:
    """An event as people read it: its type and fields, without the bookkeeping of ids."""
    fields = msgspec.structs.asdict(event)
    del fields["originator_id"], fields["originator_version"]
    if isinstance(event, ev.GameStarted):
        fields["draw_order"] = f"<{len(event.draw_order)} tiles>"
    return f"{type(event).__name__}({', '.join(f'{k}={v}' for k, v in fields.items())})"


class Replay:
    """A game rebuilt one recorded event at a time, each checked before it is applied.

    `rules`, if given, replaces the rule set the first event names.
    """

    __slots__ = ("follow", "game", "rules")

    def __init__(self, rules: RuleSet | None = None) -> None:
        self.rules = rules
        self.game: Game | None = None
        # Events one command gave beyond its first (a placement's forced bridge): due next.
        self.follow: list[ev.Event] = []

    @property
    def applied(self) -> int:
        return 0 if self.game is None else self.game.version

    def apply(self, event: ev.Event) -> None:
        index = self.applied
        if self.game is None:
            event = self._start(event)
            self.game = Game(event.originator_id)
        else:
            self._check(self.game.state, index, event)
        self.game.replay(event)

    def _check(self, state: GameState, index: int, event: ev.Event) -> None:
        if self.follow:
            self._check_order(state, index, event)
            expected = self.follow.pop(0)
            if event != expected:
                raise ReplayError(
                    index, event, "R-BRIDGE-4", f"the placement brings {describe(expected)} here"
                )
            return
        self.follow = self._check_next(state, index, event)

    def _start(self, event: ev.Event) -> ev.GameStarted:
        if not isinstance(event, ev.GameStarted):
            raise ReplayError(0, event, "R-BASE-2", "a game starts with GameStarted")
        if event.originator_version != 1:
            raise ReplayError(
                0, event, None, f"the first event has version {event.originator_version}, not 1"
            )
        try:
            check_setup(event.players, event.draw_order, event.expansions, self.rules or event.rules)
        except RuleViolation as e:
            raise ReplayError(0, event, e.rule, e.message) from None
        if (
            event.pile_commitment
            and ev.pile_commitment(event.pile_salt, event.draw_order) != event.pile_commitment
        ):
            raise ReplayError(0, event, "R-BASE-2", "the draw order is not the one its commitment fixed")
        return event if self.rules is None else msgspec.structs.replace(event, rules=self.rules)

    @staticmethod
    def _check_order(state: GameState, index: int, event: ev.Event) -> None:
        if event.originator_id != state.id:
            raise ReplayError(index, event, None, f"it belongs to game {event.originator_id}, not {state.id}")
        if event.originator_version != index + 1:
            raise ReplayError(
                index,
                event,
                None,
                f"out of order: version {event.originator_version} where {index + 1} is due",
            )

    @classmethod
    def _check_next(cls, state: GameState, index: int, event: ev.Event) -> list[ev.Event]:
        """Check one event; returns the further events its command brings."""
        cls._check_order(state, index, event)
        expected = automatic_event(state)
        if isinstance(expected, Chance):
            if event not in expected.outcomes:
                shown = ", ".join(describe(e) for e in expected.outcomes)
                kind = type(expected.outcomes[0])
                owner = state.tables.events.get(kind)
                rule = owner.engine_rules.get(kind) if owner is not None else None
                raise ReplayError(index, event, rule, f"chance draws one of {shown} here")
            return []
        if expected is not None:
            if event != expected:
                raise ReplayError(
                    index,
                    event,
                    ENGINE_RULES[type(expected)],
                    f"the engine records {describe(expected)} here",
                )
            return []
        decision = DECISIONS.get(type(event))
        if decision is None:
            raise ReplayError(
                index,
                event,
                "R-BASE-3",
                f"a player must decide here, the engine records no {type(event).__name__}",
            )
        player, command = decision.command(event)
        try:
            decided = decide(state, player, command)
        except RuleViolation as e:
            raise ReplayError(index, event, e.rule, e.message) from None
        if decided[0] != event:
            raise ReplayError(index, event, decision.rule, f"the rules give {describe(decided[0])}")
        return decided[1:]


def replay(events: Iterable[ev.Event], rules: RuleSet | None = None) -> Game:
    """Strict replay: the game the events build, or a ReplayError at the first refused one."""
    rebuilt = Replay(rules)
    for event in events:
        rebuilt.apply(event)
    if rebuilt.game is None:
        raise ReplayError(0, None, "R-BASE-2", "the log is empty")
    return rebuilt.game


def events_through_turn(events: Sequence[ev.Event], turn: int) -> int:
    """How many of the (legal) events lead to the end of turn `turn`: the prefix to replay."""
    rebuilt = Replay()
    turns: list[int] = []
    for event in events:
        rebuilt.apply(event)
        assert rebuilt.game is not None
        turns.append(rebuilt.game.state.turn)
    return bisect_right(turns, turn)  # turns never decrease along a game


class Verdict(msgspec.Struct, frozen=True, kw_only=True):
    """A log replayed under one rule set: legal, or the first event it breaks (`error`)."""

    rules: RuleSet
    state: GameState  # where the replay got to: the end, or just before the breaking event
    error: ReplayError | None = None

    @property
    def legal(self) -> bool:
        return self.error is None


def check(events: Sequence[ev.Event], rules: RuleSet) -> Verdict:
    """Lenient replay under `rules`: how far the log goes and why it stops."""
    rebuilt = Replay(rules)
    try:
        for event in events:
            rebuilt.apply(event)
    except ReplayError as e:
        if rebuilt.game is None:
            raise  # not even a game's start: no rule set could replay it
        return Verdict(rules=rules, state=rebuilt.game.state, error=e)
    if rebuilt.game is None:
        raise ReplayError(0, None, "R-BASE-2", "the log is empty")
    return Verdict(rules=rules, state=rebuilt.game.state)


def audit(events: Sequence[ev.Event]) -> dict[str, Verdict]:
    """The log under its own rule set ("recorded") and under each of `audit_variants`."""
    started = events[0] if events else None
    if not isinstance(started, ev.GameStarted):
        raise ReplayError(0, started, "R-BASE-2", "a game starts with GameStarted")
    in_play = {part.name for part in parts_for(started.expansions, started.rules.without)}
    readings = {"recorded": started.rules, **audit_variants(started.rules, in_play)}
    return {name: check(events, rules) for name, rules in readings.items()}
