"""carc as a library: one import to play, load, replay, check and audit Carcassonne games.

    >>> import carc
    >>> match = carc.new_game(["Ann", "Bob"], expansions=["base", "bcb"], seed=7)
    >>> match.current_player, len(match.legal_moves) > 0
    ('Ann', True)
    >>> match.play(match.legal_moves[0])          # a placement, as the rules allow it
    >>> match.play_bots()                          # the rest of the game by random bots
    >>> match.over, sorted(match.scores) == ["Ann", "Bob"]
    (True, True)
    >>> again = carc.replay(match.events)          # every event re-checked against the rules
    >>> again.scores == match.scores
    True
    >>> carc.audit(match.events)["recorded"].legal
    True

`carc.load(path)` reads a recorded game (our `.jsonl` or a JCloisterZone `.jcz`) with every event
checked; `carc.save(match, path)` writes our `.jsonl`; `carc.check(path)` compares a JCloisterZone
save with what its engine recorded. A `Match` wraps the engine's aggregate (`match.game`, whose
`state` holds everything) with the few things a program usually wants. Commands are the msgspec
structs of `domain.commands` and of each set's module; `legal_moves` lists them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# The engine is imported when a name of it is first asked for (module `__getattr__`, PEP 562):
# `carc.cli` lives in this package, and `carc --help` must not pay for the rules of every set.
if TYPE_CHECKING:
    from carc.match import (
        Command as Command,
        Match as Match,
        ReplayError as ReplayError,
        RuleSet as RuleSet,
        RuleViolation as RuleViolation,
        UserError as UserError,
        audit as audit,
        check as check,
        load as load,
        new_game as new_game,
        replay as replay,
        save as save,
    )

__all__ = [
    "Command",
    "Match",
    "ReplayError",
    "RuleSet",
    "RuleViolation",
    "UserError",
    "audit",
    "check",
    "load",
    "new_game",
    "replay",
    "save",
]


def __getattr__(name: str) -> Any:
    if name in __all__:
        value = getattr(importlib.import_module("carc.match"), name)
        globals()[name] = value  # asked once: later look-ups find it without this function
        return value
    raise AttributeError(f"module 'carc' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
