"""What an audit says of a game, per reading of the rules: for one game's report and for the
rows of a batch audit (`carc audit … -o audit.parquet`)."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain import events as ev
from domain.replay import Verdict, audit, describe
from domain.rules import RuleSet
from projections.scores import score_report


class AuditReading(msgspec.Struct, frozen=True, kw_only=True):
    """One rule set's verdict on a game; `event` is the 1-based number of the first event it refuses."""

    rules: RuleSet
    legal: bool
    event: int | None
    refused: str | None  # the event, described
    rule: str | None
    message: str | None
    reached: int  # events replayed
    over: bool
    final: dict[str, int]  # player name -> points where the replay got to


def audit_reading(verdict: Verdict) -> AuditReading:
    error = verdict.error
    report = score_report(verdict.state)
    return AuditReading(
        rules=verdict.rules,
        legal=error is None,
        event=None if error is None else error.index + 1,
        refused=None if error is None or error.event is None else describe(error.event),
        rule=None if error is None else error.rule,
        message=None if error is None else error.message,
        reached=report.version,
        over=report.over,
        final=report.final,
    )


class PlayerPoints(msgspec.Struct, frozen=True):
    player: str
    points: int


class AuditRow(msgspec.Struct, frozen=True, kw_only=True):
    """A game under one reading, as a row of the batch audit's table."""

    game: str
    file: str | None  # the recorded-game file it came from; None for a stored game
    reading: str  # "recorded", or the name `audit_variants` gives the alternative
    legal: bool
    refused_event: int | None  # 1-based number of the first event this reading refuses
    rule: str | None  # the rule that refuses it
    final: tuple[PlayerPoints, ...]  # points where the replay got to (the end when legal)
    winner: tuple[str, ...]  # who leads there (ties: all of them)


def audit_rows(events: Sequence[ev.Event], file: str | None = None) -> list[AuditRow]:
    """The game's row under each reading, the recorded one first."""
    rows = []
    for name, verdict in audit(events).items():
        reading = audit_reading(verdict)
        best = max(reading.final.values(), default=0)
        rows.append(
            AuditRow(
                game=str(events[0].originator_id),
                file=file,
                reading=name,
                legal=reading.legal,
                refused_event=reading.event,
                rule=reading.rule,
                final=tuple(PlayerPoints(p, n) for p, n in reading.final.items()),
                winner=tuple(p for p, n in reading.final.items() if n == best),
            )
        )
    return rows
