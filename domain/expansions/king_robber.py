"""King & Robber (R-KR-*): the King goes to whoever completes a city larger than every city
completed before it, the Robber Baron to whoever completes such a road; at the end each card
scores its holder.

Two parts of one class, `king` (cities) and `robber` (roads), as JCloisterZone switches each on
alone (R-KR-9). Neither records an event: who holds a card follows from each turn part's
completions, as the trade goods do (R-TB-7). How the cards score (R-KR-5 or a reading, V-KR-*)
is one switch, the King's part's, which the Robber's part reads too.
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from domain import events as ev
from domain.features import Feature
from domain.part import Part, ext
from domain.rules import Options
from domain.state import GameState, completed_features, converted, credit
from domain.tiles import Kind
from domain.view import PartView, Supply

KING: Final = "king"
ROBBER: Final = "robber"
BOTH: Final = "king+robber"  # the one award of a player holding both cards under V-KR-15-40

Scoring = Literal["per-feature", "10-20", "15-40", "continuous"]
SCORINGS: Final[tuple[Scoring, ...]] = ("per-feature", "10-20", "15-40", "continuous")
# Each way of scoring the cards by the id of the rule or reading it is (the audit's names).
SCORING_RULES: Final[dict[Scoring, str]] = {
    "per-feature": "R-KR-5",
    "10-20": "V-KR-10-20",
    "15-40": "V-KR-15-40",
    "continuous": "V-KR-CONTINUOUS",
}


class KingRobberOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    king_robber_scoring: Scoring = "per-feature"
    """How the King and the Robber Baron score: 1 a completed city (road) at the end (R-KR-5),
    10 a card (V-KR-10-20), 15 a card and 40 both (V-KR-15-40), or 1 a city (road) completed
    while the card is held (V-KR-CONTINUOUS)."""

    kr_on_board: bool = False
    """JCZ-KR-ON-BOARD: a part's feature takes the card when it is larger than every feature of
    its kind complete on the board now (less the part's own), not than the largest completed so
    far (R-KR-2): a road a ferry reopened or split no longer counts at its old size."""


class Card:
    """One card: who holds it, and the size of the largest feature of its kind completed so far."""

    __slots__ = ("holder", "record")

    def __init__(self) -> None:
        self.holder: int | None = None
        self.record = 0  # tiles (R-KR-4)


def card(state: GameState, name: str) -> Card | None:
    """The King's (`king`) or the Robber Baron's (`robber`) card, None when its part is out of play."""
    found: Card | None = state.ext.get(name)
    return found


def holder(state: GameState, name: str) -> int | None:
    """The seat holding the King (`king`) or the Robber Baron (`robber`), if anyone does."""
    held = card(state, name)
    return None if held is None else held.holder


def scoring(state: GameState) -> Scoring:
    """How the cards score in this game (the King's part's switch, read when it is out of play too)."""
    options = state.options.get(KING)
    if options is None:
        options = KING_PART.options_of(state.rules)
    assert isinstance(options, KingRobberOptions)
    return options.king_robber_scoring


def _on_board(state: GameState) -> bool:
    """Whether JCZ-KR-ON-BOARD is on (the King's part's switch, read when it is out of play too)."""
    options = state.options.get(KING)
    if options is None:
        options = KING_PART.options_of(state.rules)
    assert isinstance(options, KingRobberOptions)
    return options.kr_on_board


def size(feature: Feature) -> int:
    """A road's or city's size: the tiles it covers, each once (R-KR-4)."""
    return len(feature.tiles)


class BiggestFeature(Part):
    """The card for the largest completed feature of one kind (R-KR-2, R-KR-3)."""

    def __init__(self, name: str, rank: int, kind: Kind, counted: str, title: str) -> None:
        self.name = name  # type: ignore[misc]  # one class, two parts: each names itself
        self.rank = rank  # type: ignore[misc]
        self.kind = kind
        self.counted = counted  # what its end award counts: cities, roads
        self.title = title  # the card's name as the standings show it

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[self.name] = Card()

    def view(self, state: GameState) -> PartView:
        """Who holds the card, in the standings: 1 beside its holder."""
        player = holder(state, self.name)
        counts = tuple(int(seat == player) for seat in range(len(state.players)))
        return PartView(supplies=(Supply(self.title, counts, standing=True),))

    def after_scoring(self, state: GameState, version: int) -> None:
        """After the part's features (and castles) scored: under V-KR-CONTINUOUS the holder scores
        1 a feature of its kind the part completed; then the card goes to the part's player if one
        of them is larger than every one completed before (R-KR-2, R-KR-3, R-KR-8)."""
        completed = [
            f
            for f in state.completions()
            if f.kind == self.kind and not converted(state, f)  # R-KR-6
        ]
        if not completed:
            return
        own: Card = ext(state, self.name)
        n = len(completed)
        if own.holder is not None and scoring(state) == "continuous":
            credit(state, own.holder, n, self.name, "V-KR-CONTINUOUS", ((self.counted, n),), -1, version)
        largest = max(size(f) for f in completed)
        if _on_board(state):  # JCZ-KR-ON-BOARD
            own.record = max(
                (size(f) for f in completed_features(state, self.kind) if all(f is not c for c in completed)),
                default=0,
            )
        if largest > own.record:  # a tie moves nothing
            own.holder = state.current
            own.record = largest

    def final_scoring(self, state: GameState, version: int) -> None:
        """The holder's award at the end (R-KR-5, V-KR-10-20, V-KR-15-40); none under
        V-KR-CONTINUOUS, nor without a holder."""
        own: Card = ext(state, self.name)
        player = own.holder
        how = scoring(state)
        if player is None or how == "continuous":
            return
        if how == "per-feature":
            n = len(completed_features(state, self.kind))
            credit(state, player, n, self.name, "R-KR-5", ((self.counted, n),), -1, version, True)
        elif how == "10-20":
            credit(state, player, 10, self.name, "V-KR-10-20", ((self.name, 1),), -1, version, True)
        elif holder(state, self.partner) != player:
            credit(state, player, 15, self.name, "V-KR-15-40", ((self.name, 1),), -1, version, True)
        elif self.name == KING:  # both cards: one award, the King's part's
            parts = ((KING, 1), (ROBBER, 1))
            credit(state, player, 40, BOTH, "V-KR-15-40", parts, -1, version, True)

    @property
    def partner(self) -> str:
        return ROBBER if self.name == KING else KING


class KingPart(BiggestFeature):
    options = KingRobberOptions
    switches = {"JCZ-KR-ON-BOARD": "kr_on_board"}
    choices = {
        rule: ("king_robber_scoring", how) for how, rule in SCORING_RULES.items() if how != "per-feature"
    }

    def played_under(self, options: Options) -> str | None:
        assert isinstance(options, KingRobberOptions)
        how = options.king_robber_scoring
        return None if how == "per-feature" else SCORING_RULES[how]

    def readings(self, options: Options) -> dict[str, Options]:
        """Each other way of scoring the cards, named by its rule or reading (V-KR-*)."""
        assert isinstance(options, KingRobberOptions)
        return super().readings(options) | {
            SCORING_RULES[how]: msgspec.structs.replace(options, king_robber_scoring=how)
            for how in SCORINGS
            if how != options.king_robber_scoring
        }


# After the castles (60), which score in the same part and turn cities into castles first.
KING_PART = KingPart(KING, 200, Kind.CITY, "cities", "king")  # R-KR-2
ROBBER_PART = BiggestFeature(ROBBER, 210, Kind.ROAD, "roads", "robber baron")  # R-KR-3
PARTS = (KING_PART, ROBBER_PART)
