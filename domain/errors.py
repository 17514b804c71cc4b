"""Errors that users see: each names the rule it enforces."""

from __future__ import annotations


class RuleViolation(Exception):
    """A command the rules refuse; nothing is recorded for it."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
