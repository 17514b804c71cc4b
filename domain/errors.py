"""Errors that users see: each names the rule it enforces."""

from __future__ import annotations


class UserError(Exception):
    """Something a user can put right, told in one line: a bad file, a game that is not there, a
    store that cannot be opened. Commands report these and exit 1, never with a traceback."""


class RuleViolation(Exception):
    """A command the rules refuse; nothing is recorded for it."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
