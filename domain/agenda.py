"""Turn parts still to come: the agenda.

A turn is a sequence of parts: the normal part, then whatever the parts of the sets in play
plan when a part ends (`Part.plan`), pushed to the front of the agenda as items. The sequencer
turns the first live item into its event, asking the part that owns the item.
"""

from __future__ import annotations

from typing import NamedTuple


class Entry(NamedTuple):
    item: str  # named by the part that plans it
    player: int
