"""The rule set: every switch a game is played under, carried by its first event.

A recorded game names its rules, so the same log can be re-checked and re-scored under another
reading by replaying it with a different `RuleSet`.
"""

from __future__ import annotations

import msgspec


class RuleSet(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    followers: int = 7
    """Followers each player starts with (R-BASE-1)."""

    farmers: bool = True
    """Followers may be put on fields and fields score at the end (R-BASE-4, R-BASE-8)."""


DEFAULT_RULES = RuleSet()


def audit_variants(rules: RuleSet) -> dict[str, RuleSet]:
    """Every other reading of the rules a recorded game is re-checked under, by name.

    The audit iterates over whatever this returns, so a new variant or turn ordering (V-…) is
    audited as soon as it is listed here.
    """
    return {
        f"farmers={'off' if rules.farmers else 'on'}": msgspec.structs.replace(
            rules, farmers=not rules.farmers
        ),
    }
