"""King & Robber in JCloisterZone's saves: two elements, one setup rule for how the cards score,
and no message at all (the cards change hands inside JCloisterZone's engine, shown only as
`token-received` events in its score history)."""

from __future__ import annotations

from replays.jcz_mapping import Element, JczSet

_RULE = "king-and-robber-scoring"


class KingRobber(JczSet):
    code = "kr"
    tile_set = "king-and-robber"
    elements = {"king": Element(part="king"), "robber": Element(part="robber")}
    rule_switches = {
        (_RULE, "default"): {"king_robber_scoring": "per-feature"},  # R-KR-5
        (_RULE, "10/20"): {"king_robber_scoring": "10-20"},  # V-KR-10-20
        (_RULE, "15/40"): {"king_robber_scoring": "15-40"},  # V-KR-15-40
        (_RULE, "continuously"): {"king_robber_scoring": "continuous"},  # V-KR-CONTINUOUS
    }
    reading = {"kr_on_board": True}  # JCZ-KR-ON-BOARD
    score_names = {"king": "king", "robber": "robber", "king+robber": "king+robber"}
    final_only = frozenset({"king", "robber", "king+robber"})


MAPPING = KingRobber()
