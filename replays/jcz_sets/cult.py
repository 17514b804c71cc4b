"""Cult Places in JCloisterZone's saves: the shrines' tiles (`cult/6`), switched on by the element
`shrine`. The set has no message of its own: its placement rule only narrows the placements on
offer, and a challenge is resolved by the engine, showing only as a 0-point score of the loser."""

from __future__ import annotations

from domain.expansions.shrines import CHALLENGED, CLOISTER, SHRINE
from replays.jcz_mapping import Element, JczSet


class CultPlaces(JczSet):
    code = "cult"
    tile_set = "cult/6"
    edition = None  # the client writes `cult/6`, no `:1`
    # Without the element, JCloisterZone plays the shrines as plain cloisters.
    elements = {"shrine": Element(part="shrines")}
    reading = {"challenge_wagon": True}  # JCZ-CULT-WAGON
    score_names = {
        SHRINE: "shrine",
        SHRINE + CHALLENGED: "shrine.challenged",
        CLOISTER + CHALLENGED: "monastery.challenged",
    }


MAPPING = CultPlaces()
