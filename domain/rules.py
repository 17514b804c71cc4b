"""The rule set: every switch a game is played under, carried by its first event.

A recorded game names its rules, so the same log can be re-checked and re-scored under another
reading by replaying it with a different `RuleSet`.

The base game's switches are fields here; each part of a set declares its own as an `Options`
struct (`domain.part.Part.options`), and the rule set carries them by part name, each part's
only where they differ from its defaults, so the same rules always encode the same way.
`domain.readings` reads and writes them by name, and names the readings the audit tries.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

Scalar = bool | int | str  # what an option holds


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A part's switches, each with its default; a part with switches subclasses it."""


class RuleSet(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    followers: Annotated[int, msgspec.Meta(ge=1, le=30)] = 7
    """Followers each player starts with (R-BASE-1)."""

    farmers: bool = True
    """Followers may be put on fields and fields score at the end (R-BASE-4, R-BASE-8)."""

    tiny_city: bool = False
    """V-TINY-CITY: a completed city of exactly two tiles scores as if unfinished, 1 a tile and 1 a
    pennant (the older reading; JCloisterZone's rule `tiny-city-scoring` = 2), not 2 each
    (R-BASE-5)."""

    solo: bool = False
    """One player may play alone: not a reading of the rules (R-BASE-1 wants 2 to 6) but what
    JCloisterZone's own rule tests do, so their saves can be imported and checked."""

    without: tuple[str, ...] = ()
    """Parts of the sets in play switched off, by name (`domain.expansions.PARTS`): JCloisterZone
    lets a game leave out one part of a set, whose features then score as plain ones."""

    options: dict[str, dict[str, Scalar]] = {}
    """The parts' own switches, by part name: each part's that differ from its defaults."""


# The base game's readings the audit tries, by their RULES.md id: (field, its other value).
BASE_VARIANTS: dict[str, str] = {"V-TINY-CITY": "tiny_city"}
