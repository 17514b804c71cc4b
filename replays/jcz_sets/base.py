"""The base game in JCloisterZone's saves: its tiles and score names (its figures, the follower
and the farmer, and its messages are the reader's and writer's own)."""

from __future__ import annotations

from domain.state import TINY_CITY
from replays.jcz_mapping import Element, JczSet


class Base(JczSet):
    code = "base"
    tile_set = "basic"
    legacy_name = "BASIC"
    # Written by the writer itself: followers always, farmers when the rule set has them (JCloisterZone
    # plays farmers whenever the key is there, whatever its value).
    elements = {
        "small-follower": Element(number="followers", written=False),
        "farmers": Element(written=False),
    }
    figures = {"small": "follower"}
    rule_switches = {
        ("tiny-city-scoring", "4"): {"tiny_city": False},
        ("tiny-city-scoring", "2"): {"tiny_city": True},  # V-TINY-CITY
    }
    score_names = {
        "road": "road",
        "city": "city",
        TINY_CITY: TINY_CITY,
        "cloister": "monastery",
        "farm": "field",
    }
    final_only = frozenset({TINY_CITY, "farm"})


MAPPING = Base()
