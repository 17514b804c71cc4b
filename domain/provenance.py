"""The rule behind each event: what `carc explain` shows beside every step of a turn."""

from __future__ import annotations

from domain import events as ev
from domain.rules import ORDER_VARIANTS, RuleSet

_RULES: dict[type[ev.Event], str] = {
    ev.GameStarted: "R-BASE-2",
    ev.TileDrawn: "R-BASE-3",
    ev.TileDiscarded: "R-BASE-3",
    ev.TilePlaced: "R-BASE-3",
    ev.BridgePlaced: "R-BRIDGE-2",
    ev.TurnEnded: "R-BASE-5",
    ev.CastleBuilt: "R-CASTLE-3",
    ev.CastleTargetChosen: "R-CASTLE-7",
    ev.BuilderTurnGranted: "R-TB-3",
    ev.BuilderTurnTaken: "R-TB-3",
    ev.BazaarOpened: "R-BAZAAR-4",
    ev.BazaarTileChosen: "R-BAZAAR-4",
    ev.BidRaised: "R-BAZAAR-4",
    ev.TileBought: "R-BAZAAR-5",
    ev.TileSold: "R-BAZAAR-5",
    ev.BazaarTileAssigned: "R-BAZAAR-6",
    ev.BazaarTileTaken: "R-BAZAAR-7",
    ev.GameEnded: "R-BASE-8",
}
# Steps whose place in the turn is what an ordering decides (RULES.md section 6).
_ORDERED = (
    ev.BazaarTilesTakenFaceDown,
    ev.BazaarRevealed,
    ev.BazaarDeferred,
    ev.BazaarResumed,
    ev.BazaarDropped,
)
_FIGURES = {"follower": "R-BASE-4", "builder": "R-TB-2", "pig": "R-TB-5"}
_PASSES = {"deploy": "R-BASE-4", "castle": "R-CASTLE-3", "bid": "R-BAZAAR-4"}


def rule_of(event: ev.Event, rules: RuleSet) -> str:
    """The rule id (or the ordering variant) that makes `event` happen where it does."""
    if isinstance(event, ev.FollowerDeployed):
        return _FIGURES[event.figure]
    if isinstance(event, ev.Passed):
        return _PASSES.get(event.step, "R-BASE-4")
    if isinstance(event, _ORDERED):
        return ORDER_VARIANTS[rules.order]
    if isinstance(event, ev.TileBought) and event.payee is None:
        return "R-BAZAAR-5"
    if isinstance(event, ev.BazaarTileAssigned) and rules.bazaar_no_auction:
        return "V-BAZAAR-NOAUCTION"
    return _RULES[type(event)]
