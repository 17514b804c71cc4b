"""Bazaars (Bridges, Castles and Bazaars; R-BAZAAR-*): after a bazaar tile is placed, as many tiles as
players are revealed and auctioned, then each player plays the tile they got.

Every step is an event (R-BAZAAR-9). When the bazaar is held relative to another turn part its
host earned in the same part (Traders & Builders' second tile) is the ordering's business
(RULES.md 6): one planning rule, four policies (`POLICIES`), each a reading (V-ORDER-*).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final, Literal, NamedTuple, cast

import msgspec

from domain import events as ev
from domain.agenda import Entry
from domain.commands import Command
from domain.errors import RuleViolation
from domain.events import Event
from domain.moves import Decision
from domain.part import Part, ext, part_options
from domain.rules import Options, RuleSet
from domain.state import GameState, Phase, begin_part, credit, next_tiles, pop_agenda, take_from_pile
from domain.turns import item_owner

NAME: Final = "bazaars"
PART_KIND: Final = "bazaar"  # the kind of turn part a bought tile is played in

# Agenda items.
AUCTION: Final = "auction"  # BazaarOpened
FACEDOWN: Final = "facedown"  # BazaarTilesTakenFaceDown
REVEAL: Final = "reveal"  # BazaarRevealed
TILE: Final = "tile"  # BazaarTileTaken: a player plays the tile they got
ROUND_END: Final = "round-end"  # BazaarResumed, if a deferred bazaar waits
DEFER: Final = "defer"  # BazaarDeferred
DROP: Final = "drop"  # BazaarDropped
# Items that belong to a bazaar round: while one is pending, a new bazaar cannot start now.
ROUND_ITEMS: Final = frozenset({AUCTION, FACEDOWN, REVEAL, TILE, ROUND_END})


Order = Literal["hig", "builder-first", "facedown", "jcz"]
ORDERS: Final[tuple[Order, ...]] = ("hig", "builder-first", "facedown", "jcz")
ORDER_VARIANTS: Final[dict[Order, str]] = {
    "hig": "V-ORDER-HIG",
    "builder-first": "V-ORDER-BUILDER-FIRST",
    "facedown": "V-ORDER-FACEDOWN",
    "jcz": "V-ORDER-JCZ",
}


class OrderPolicy(NamedTuple):
    """Where a bazaar goes against a turn part its host earned in the same part (RULES.md 6)."""

    bazaar_first: bool  # the auction comes before the host's extra part (V-ORDER-HIG)
    face_down: bool  # the bazaar's tiles leave the pile before the extra part (V-ORDER-FACEDOWN)
    drop_in_round: bool  # a bazaar arising inside a round is dropped, not deferred (V-ORDER-JCZ)


POLICIES: Final[dict[Order, OrderPolicy]] = {
    "hig": OrderPolicy(bazaar_first=True, face_down=False, drop_in_round=False),
    "builder-first": OrderPolicy(bazaar_first=False, face_down=False, drop_in_round=False),
    "facedown": OrderPolicy(bazaar_first=False, face_down=True, drop_in_round=False),
    "jcz": OrderPolicy(bazaar_first=False, face_down=False, drop_in_round=True),
}


def plan_bazaar(
    policy: OrderPolicy, player: int, in_round: bool, planned: list[Entry], extra: int | None
) -> None:
    """Put the bazaar `player` placed into the plan of what follows their part; `extra` is where
    the plan holds a turn part they earned too (None: no such part)."""
    if in_round:
        planned.insert(0, Entry(DROP if policy.drop_in_round else DEFER, player))
    elif extra is None:
        planned.append(Entry(AUCTION, player))
    elif policy.bazaar_first:
        planned.insert(extra, Entry(AUCTION, player))
    elif policy.face_down:
        # Face down only matters when a tile of the host's comes between taking and revealing;
        # without one the bazaar is held as any other, so a log without the conflict reads the same.
        planned.insert(extra + 1, Entry(REVEAL, player))
        planned.insert(extra, Entry(FACEDOWN, player))
    else:
        planned.insert(extra + 1, Entry(AUCTION, player))


class BazaarOpened(Event, frozen=True, kw_only=True):
    """A bazaar's tiles come off the pile, face up (R-BAZAAR-4)."""

    host: int
    tiles: tuple[str, ...]


class BazaarTilesTakenFaceDown(Event, frozen=True, kw_only=True):
    """V-ORDER-FACEDOWN: the bazaar's tiles leave the pile before the host's builder tile."""

    host: int
    tiles: tuple[str, ...]


class BazaarRevealed(Event, frozen=True, kw_only=True):
    """V-ORDER-FACEDOWN: the face-down tiles are turned up and the auction starts."""

    host: int


class BazaarDeferred(Event, frozen=True, kw_only=True):
    """A bazaar tile placed while a bazaar is pending: its bazaar waits its turn (V-ORDER-*)."""

    host: int


class BazaarResumed(Event, frozen=True, kw_only=True):
    """A deferred bazaar is now held (V-ORDER-HIG, -BUILDER-FIRST, -FACEDOWN)."""

    host: int
    tiles: tuple[str, ...]


class BazaarDropped(Event, frozen=True, kw_only=True):
    """V-ORDER-JCZ: a bazaar tile placed while a bazaar round runs holds no bazaar (JCZ-1)."""

    host: int


class BazaarTileChosen(Event, frozen=True, kw_only=True):
    """The chooser picks revealed tile `index` and opens with `bid` points (R-BAZAAR-4)."""

    player: int
    index: int
    bid: int


class BidRaised(Event, frozen=True, kw_only=True):
    player: int
    bid: int


class TileBought(Event, frozen=True, kw_only=True):
    """The chooser takes the tile, paying `price` to `payee` (None: their own bid, paid to nobody)."""

    player: int
    price: int
    payee: int | None


class TileSold(Event, frozen=True, kw_only=True):
    """The chooser sells the tile to `buyer`, who pays the chooser `price` (R-BAZAAR-5)."""

    player: int
    buyer: int
    price: int


class BazaarTileAssigned(Event, frozen=True, kw_only=True):
    """The last revealed tile goes free to the last player without one (R-BAZAAR-6),
    or, without an auction, the tile a player picked (V-BAZAAR-NOAUCTION)."""

    player: int
    index: int


class BazaarTileTaken(Event, frozen=True, kw_only=True):
    """A player starts the turn part in which they play the tile they got at the bazaar (R-BAZAAR-7)."""

    player: int
    tile: str


class ChooseBazaarTile(Command, frozen=True, kw_only=True):
    """Pick revealed tile `index` and open with `bid` (R-BAZAAR-4; 0 without an auction)."""

    index: int
    bid: int = 0


class Bid(Command, frozen=True, kw_only=True):
    amount: int


class Buy(Command, frozen=True, kw_only=True):
    pass


class Sell(Command, frozen=True, kw_only=True):
    pass


class Step(StrEnum):
    CHOOSE = "choose"  # the chooser picks a tile and opens (R-BAZAAR-4)
    BID = "bid"  # the next bidder raises or passes
    DEAL = "deal"  # the chooser buys or sells (R-BAZAAR-5)


class Auction:
    __slots__ = (
        "bidders",
        "chooser",
        "free",
        "hidden",
        "high",
        "high_bidder",
        "host",
        "index",
        "moves_on",
        "players",
        "step",
        "taken",
        "tiles",
        "won",
    )

    def __init__(
        self, host: int, tiles: tuple[str, ...], players: int, free: bool, hidden: bool, moves_on: bool
    ) -> None:
        self.host = host
        self.moves_on = moves_on  # after a sale the choice passes on (JCloisterZone's reading)
        self.tiles = tiles
        self.players = players
        self.free = free  # no bidding: each chooser just takes a tile (V-BAZAAR-NOAUCTION)
        self.hidden = hidden  # taken face down, not yet revealed (V-ORDER-FACEDOWN)
        self.taken = [False] * len(tiles)
        self.won: dict[int, str] = {}  # player -> the tile they got
        self.step = Step.CHOOSE
        self.chooser = self.next_chooser((host + 1) % players)
        self.index = -1  # tile under sale
        self.high = 0
        self.high_bidder = -1
        self.bidders: list[int] = []  # still to raise or pass, in order

    def without_tile(self, start: int) -> list[int]:
        """Players without a tile yet, clockwise from `start` (inclusive)."""
        n = self.players
        return [p for p in ((start + k) % n for k in range(n)) if p not in self.won]

    def next_chooser(self, start: int) -> int:
        waiting = self.without_tile(start)
        return waiting[0] if waiting else -1

    @property
    def last_one(self) -> bool:
        """One player and one tile left: it goes to them free (R-BAZAAR-6)."""
        return len(self.won) == self.players - 1

    def open_sale(self, chooser: int, index: int, bid: int) -> None:
        self.index = index
        self.high = bid
        self.high_bidder = chooser
        self.bidders = [p for p in self.without_tile(chooser) if p != chooser]
        self.step = Step.BID if self.bidders else Step.DEAL

    def raise_bid(self, player: int, amount: int) -> None:
        self.high = amount
        self.high_bidder = player
        self.skip_bidder()

    def skip_bidder(self) -> None:
        self.bidders.pop(0)
        if not self.bidders:
            self.step = Step.DEAL

    def give(self, player: int, index: int) -> None:
        """Hand tile `index` to `player`; the next chooser starts from the seller's seat (R-BAZAAR-6),
        or from the seat after it when the choice moves on."""
        self.taken[index] = True
        self.won[player] = self.tiles[index]
        self.step = Step.CHOOSE
        self.index = -1
        self.chooser = self.next_chooser((self.chooser + 1) % self.players if self.moves_on else self.chooser)

    @property
    def done(self) -> bool:
        return len(self.won) == self.players

    def remaining(self) -> list[int]:
        return [i for i, t in enumerate(self.taken) if not t]


class Bazaars:
    """This game's bazaar: the auction running, the tiles won and not yet played, deferred bazaars."""

    __slots__ = ("auction", "deferred", "placed", "won")

    def __init__(self) -> None:
        self.auction: Auction | None = None
        self.won: dict[int, str] = {}  # bazaar tiles not yet played, by player
        self.deferred: list[int] = []  # hosts of deferred bazaars, oldest first
        self.placed = False  # this part placed a bazaar tile from the pile (R-BAZAAR-2, R-BAZAAR-8)


def bazaars(state: GameState) -> Bazaars:
    found: Bazaars = ext(state, NAME)
    return found


def placed_bazaar(state: GameState) -> bool:
    return state.has(NAME) and bazaars(state).placed


def in_round(state: GameState) -> bool:
    """A bazaar round is pending or running: a new bazaar cannot start now (RULES.md 6)."""
    if not state.has(NAME):
        return False
    return (
        bazaars(state).auction is not None
        or state.part == PART_KIND
        or any(entry.item in ROUND_ITEMS for entry in state.agenda)
    )


def round_parts(host: int, players: int) -> list[Entry]:
    """After an auction: each player plays their tile, from the host's left (R-BAZAAR-7)."""
    return [Entry(TILE, (host + k) % players) for k in range(1, players + 1)] + [Entry(ROUND_END, host)]


def max_bid(state: GameState, player: int) -> int:
    """The highest bid allowed: unbounded, or the bidder's score under V-BAZAAR-NOCREDIT."""
    if _settings(state).bazaar_no_credit:
        return max(state.scores[player], 0)
    return 10**6


def _free(state: GameState) -> bool:
    """No bidding: V-BAZAAR-NOAUCTION, or V-BAZAAR-ZEROSCORES while every score is 0."""
    own = _settings(state)
    return own.bazaar_no_auction or (own.bazaar_zero_scores and not any(state.scores))


def _take_tiles(state: GameState, host: int, tiles: tuple[str, ...], hidden: bool) -> None:
    take_from_pile(state, tiles)
    moves_on = _settings(state).bazaar_choice_moves_on
    bazaars(state).auction = Auction(host, tiles, len(state.players), _free(state), hidden, moves_on)
    state.phase = Phase.INTERLUDE if not hidden else Phase.PART_OVER


def _pay(state: GameState, payer: int, payee: int | None, price: int, version: int) -> None:
    """A bazaar payment (R-BAZAAR-5): kept with the scores, as awards of the rule that moves points."""
    if price == 0:
        return
    for player, points in ((payer, -price), (payee, price)):
        if player is not None:
            credit(state, player, points, "bazaar", "R-BAZAAR-5", (("bid", price),), -1, version)


def _give(state: GameState, player: int, index: int) -> None:
    own = bazaars(state)
    auction = own.auction
    assert auction is not None
    auction.give(player, index)
    if auction.done:
        own.won = dict(auction.won)
        own.auction = None
        state.phase = Phase.PART_OVER


# Steps whose place in the turn is what an ordering decides (RULES.md section 6).
_ORDERED = (BazaarTilesTakenFaceDown, BazaarRevealed, BazaarDeferred, BazaarResumed, BazaarDropped)


class BazaarOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    order: Order = "hig"
    """Which of builder tile and bazaar comes first (V-ORDER-*, RULES.md section 6)."""

    bazaar_no_credit: bool = False
    """V-BAZAAR-NOCREDIT: no bid above the bidder's score; nobody pays below zero."""

    bazaar_no_auction: bool = False
    """V-BAZAAR-NOAUCTION: each player in turn picks a revealed tile for free."""

    bazaar_zero_scores: bool = False
    """V-BAZAAR-ZEROSCORES: the no-auction bazaar is used while every score is 0."""

    bazaar_choice_moves_on: bool = False
    """JCloisterZone's reading: after a sale the next chooser is the player after the seller,
    not the seller again (R-BAZAAR-6 says the seller chooses again)."""


def _settings(state: GameState) -> BazaarOptions:
    found: BazaarOptions = part_options(state, NAME)
    return found


class BazaarsPart(Part):
    name = NAME
    rank = 70
    part_starts = {
        BazaarTileTaken: "bazaar tile",
        BazaarOpened: "bazaar auction",
        BazaarResumed: "deferred bazaar",
        BazaarTilesTakenFaceDown: "bazaar tiles face down",
        BazaarRevealed: "bazaar auction",
    }
    options = BazaarOptions
    switches = {
        "V-BAZAAR-NOCREDIT": "bazaar_no_credit",
        "V-BAZAAR-NOAUCTION": "bazaar_no_auction",
        "V-BAZAAR-ZEROSCORES": "bazaar_zero_scores",
        "JCZ-BAZAAR-CHOOSER": "bazaar_choice_moves_on",
    }
    events = (
        BazaarOpened,
        BazaarTilesTakenFaceDown,
        BazaarRevealed,
        BazaarDeferred,
        BazaarResumed,
        BazaarDropped,
        BazaarTileChosen,
        BidRaised,
        TileBought,
        TileSold,
        BazaarTileAssigned,
        BazaarTileTaken,
    )
    commands = (ChooseBazaarTile, Bid, Buy, Sell)
    items = (AUCTION, FACEDOWN, REVEAL, TILE, ROUND_END, DEFER, DROP)
    steps = {"choose": "R-BAZAAR-4", "bid": "R-BAZAAR-4", "deal": "R-BAZAAR-5"}
    step_names = {"choose": "a bazaar tile choice", "bid": "a bid or a pass", "deal": "buy or sell"}
    pass_steps = {"bid": "bid"}
    command_steps = {
        ChooseBazaarTile: (("choose",), "R-BAZAAR-4"),
        Bid: (("bid",), "R-BAZAAR-4"),
        Buy: (("deal",), "R-BAZAAR-5"),
        Sell: (("deal",), "R-BAZAAR-5"),
    }
    command_names = {ChooseBazaarTile: "choose a bazaar tile", Bid: "bid", Buy: "buy", Sell: "sell"}
    rules_of = {
        BazaarOpened: "R-BAZAAR-4",
        BazaarTileChosen: "R-BAZAAR-4",
        BidRaised: "R-BAZAAR-4",
        TileBought: "R-BAZAAR-5",
        TileSold: "R-BAZAAR-5",
        BazaarTileAssigned: "R-BAZAAR-6",
        BazaarTileTaken: "R-BAZAAR-7",
    }
    engine_rules = {
        BazaarOpened: "R-BAZAAR-4",
        BazaarTilesTakenFaceDown: "V-ORDER-FACEDOWN",
        BazaarRevealed: "V-ORDER-FACEDOWN",
        BazaarDeferred: "R-BAZAAR-8",
        BazaarResumed: "R-BAZAAR-8",
        BazaarDropped: "V-ORDER-JCZ",
        BazaarTileTaken: "R-BAZAAR-7",
        TileBought: "R-BAZAAR-5",  # the chooser's unchallenged bid, paid to nobody
        BazaarTileAssigned: "R-BAZAAR-6",  # the last tile, free
    }
    decisions = {
        BazaarTileChosen: (lambda e: (e.player, ChooseBazaarTile(index=e.index, bid=e.bid)), "R-BAZAAR-4"),
        BazaarTileAssigned: (lambda e: (e.player, ChooseBazaarTile(index=e.index)), "V-BAZAAR-NOAUCTION"),
        BidRaised: (lambda e: (e.player, Bid(amount=e.bid)), "R-BAZAAR-4"),
        TileBought: (lambda e: (e.player, Buy()), "R-BAZAAR-5"),
        TileSold: (lambda e: (e.player, Sell()), "R-BAZAAR-5"),
    }

    def played_under(self, options: Options) -> str | None:
        assert isinstance(options, BazaarOptions)
        return ORDER_VARIANTS[options.order]

    def readings(self, options: Options) -> dict[str, Options]:
        """The other orderings (V-ORDER-*), then each yes/no switch flipped."""
        assert isinstance(options, BazaarOptions)
        orders: dict[str, Options] = {
            ORDER_VARIANTS[order]: msgspec.structs.replace(options, order=order)
            for order in ORDERS
            if order != options.order
        }
        return orders | super().readings(options)

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[NAME] = Bazaars()

    def begin_turn(self, state: GameState) -> None:
        bazaars(state).deferred = []

    def begin_part(self, state: GameState) -> None:
        bazaars(state).placed = False

    def plan(self, state: GameState, planned: list[Entry]) -> None:
        if not bazaars(state).placed:
            return
        extra = next((i for i, e in enumerate(planned) if item_owner(state, e).opens_part(e)), None)
        plan_bazaar(POLICIES[_settings(state).order], state.current, in_round(state), planned, extra)

    def tile_placed(self, state: GameState, placed: object) -> None:
        tile = state.placed
        assert tile is not None
        bazaars(state).placed = "bazaar" in tile.tile.tags and state.from_pile

    def apply(self, state: GameState, event: Event) -> None:
        own = bazaars(state)
        auction = own.auction
        version = event.originator_version
        if isinstance(event, BazaarOpened | BazaarResumed):
            if isinstance(event, BazaarResumed):
                pop_agenda(state, ROUND_END)
                own.deferred.pop(0)
            else:
                pop_agenda(state, AUCTION)
            _take_tiles(state, event.host, event.tiles, hidden=False)
            state.agenda[:0] = round_parts(event.host, len(state.players))
        elif isinstance(event, BazaarTilesTakenFaceDown):
            pop_agenda(state, FACEDOWN)
            _take_tiles(state, event.host, event.tiles, hidden=True)
        elif isinstance(event, BazaarRevealed):
            pop_agenda(state, REVEAL)
            assert auction is not None
            auction.hidden = False
            auction.free = _free(state)  # the scores as the auction starts, builder part included
            state.phase = Phase.INTERLUDE
            state.agenda[:0] = round_parts(event.host, len(state.players))
        elif isinstance(event, BazaarDeferred):
            pop_agenda(state, DEFER)
            own.deferred.append(event.host)
        elif isinstance(event, BazaarDropped):
            pop_agenda(state, DROP)
        elif isinstance(event, BazaarTileChosen):
            assert auction is not None
            auction.open_sale(event.player, event.index, event.bid)
        elif isinstance(event, BidRaised):
            assert auction is not None
            auction.raise_bid(event.player, event.bid)
        elif isinstance(event, TileBought):
            assert auction is not None
            _pay(state, event.player, event.payee, event.price, version)
            _give(state, event.player, auction.index)
        elif isinstance(event, TileSold):
            assert auction is not None
            _pay(state, event.buyer, event.player, event.price, version)
            _give(state, event.buyer, auction.index)
        elif isinstance(event, BazaarTileAssigned):
            _give(state, event.player, event.index)
        else:
            assert isinstance(event, BazaarTileTaken)
            pop_agenda(state, TILE)
            del own.won[event.player]
            begin_part(state, event.player, PART_KIND, event.tile, False)

    def passed(self, state: GameState, step: str) -> None:
        auction = bazaars(state).auction
        assert auction is not None
        auction.skip_bidder()

    def pending(self, state: GameState) -> Decision | None:
        if state.phase != Phase.INTERLUDE:
            return None
        auction = bazaars(state).auction
        if auction is None:
            return None
        if auction.step == Step.CHOOSE:
            return None if auction.last_one else Decision("choose", auction.chooser)
        if auction.step == Step.BID:
            return Decision("bid", auction.bidders[0])
        return None if auction.high_bidder == auction.chooser else Decision("deal", auction.chooser)

    def automatic(self, state: GameState) -> Event | None:
        auction = bazaars(state).auction
        if state.phase != Phase.INTERLUDE or auction is None:
            return None
        gid, version = state.id, state.version + 1
        if auction.step == Step.CHOOSE:  # one player, one tile left (R-BAZAAR-6)
            return BazaarTileAssigned(
                originator_id=gid,
                originator_version=version,
                player=auction.without_tile(auction.chooser)[0],
                index=auction.remaining()[0],
            )
        # The chooser's own opening bid stood: paid to nobody (R-BAZAAR-5).
        return TileBought(
            originator_id=gid,
            originator_version=version,
            player=auction.chooser,
            price=auction.high,
            payee=None,
        )

    def is_live(self, state: GameState, entry: Entry) -> bool:
        """Tiles must be left for a bazaar (R-BAZAAR-3)."""
        item = entry.item
        if item in (AUCTION, FACEDOWN):
            return state.pile_left >= len(state.players)
        own = bazaars(state)
        if item == REVEAL:
            return own.auction is not None and own.auction.hidden
        if item == ROUND_END:
            return bool(own.deferred) and state.pile_left >= len(state.players)
        if item == TILE:
            return entry.player in own.won
        return True

    def agenda_event(self, state: GameState, entry: Entry) -> Event:
        gid, version, p = state.id, state.version + 1, entry.player
        item = entry.item
        top = next_tiles(state, len(state.players))
        if item == AUCTION:
            return BazaarOpened(originator_id=gid, originator_version=version, host=p, tiles=top)
        if item == FACEDOWN:
            return BazaarTilesTakenFaceDown(originator_id=gid, originator_version=version, host=p, tiles=top)
        if item == REVEAL:
            return BazaarRevealed(originator_id=gid, originator_version=version, host=p)
        if item == TILE:
            tile = bazaars(state).won[p]
            return BazaarTileTaken(originator_id=gid, originator_version=version, player=p, tile=tile)
        if item == ROUND_END:
            host = bazaars(state).deferred[0]
            return BazaarResumed(originator_id=gid, originator_version=version, host=host, tiles=top)
        if item == DEFER:
            return BazaarDeferred(originator_id=gid, originator_version=version, host=p)
        return BazaarDropped(originator_id=gid, originator_version=version, host=p)

    def rule_of(self, event: Event, rules: RuleSet) -> str:
        own = cast(BazaarOptions, self.options_of(rules))
        if isinstance(event, _ORDERED):
            return ORDER_VARIANTS[own.order]
        if isinstance(event, BazaarTileAssigned) and own.bazaar_no_auction:
            return "V-BAZAAR-NOAUCTION"
        return self.rules_of[type(event)]

    def command_options(self, state: GameState, step: str) -> list[Command]:
        auction = bazaars(state).auction
        assert auction is not None
        decision = self.pending(state)
        assert decision is not None
        player = decision.player
        if step == "choose":
            if auction.free:
                return [ChooseBazaarTile(index=i) for i in auction.remaining()]
            top = max_bid(state, player)
            return [
                ChooseBazaarTile(index=i, bid=b)
                for i in auction.remaining()
                for b in range(0, min(top, 10) + 1)
            ]
        if step == "bid":
            top = max_bid(state, player)
            return [Bid(amount=b) for b in range(auction.high + 1, min(top, auction.high + 10) + 1)]
        deal: list[Command] = [Sell()]
        if not _settings(state).bazaar_no_credit or state.scores[player] >= auction.high:
            deal.insert(0, Buy())
        return deal

    def decide(self, state: GameState, player: int, command: Command, step: str) -> list[Event]:
        auction = bazaars(state).auction
        assert auction is not None
        gid, version = state.id, state.version + 1
        if isinstance(command, ChooseBazaarTile):
            if command.index not in auction.remaining():
                raise RuleViolation(
                    "R-BAZAAR-4",
                    f"tile {command.index} is not on offer; the remaining ones are {auction.remaining()}",
                )
            if auction.free:
                if command.bid != 0:
                    raise RuleViolation(
                        "V-BAZAAR-NOAUCTION", "this bazaar has no bidding: tiles are picked free"
                    )
                return [
                    BazaarTileAssigned(
                        originator_id=gid, originator_version=version, player=player, index=command.index
                    )
                ]
            _check_bid(state, player, command.bid, -1)
            return [
                BazaarTileChosen(
                    originator_id=gid,
                    originator_version=version,
                    player=player,
                    index=command.index,
                    bid=command.bid,
                )
            ]
        if isinstance(command, Bid):
            _check_bid(state, player, command.amount, auction.high)
            return [
                BidRaised(originator_id=gid, originator_version=version, player=player, bid=command.amount)
            ]
        if isinstance(command, Buy):
            if _settings(state).bazaar_no_credit and state.scores[player] < auction.high:
                raise RuleViolation(
                    "V-BAZAAR-NOCREDIT",
                    f"cannot pay {auction.high} with a score of {state.scores[player]}; sell instead",
                )
            return [
                TileBought(
                    originator_id=gid,
                    originator_version=version,
                    player=player,
                    price=auction.high,
                    payee=auction.high_bidder,
                )
            ]
        assert isinstance(command, Sell)
        return [
            TileSold(
                originator_id=gid,
                originator_version=version,
                player=player,
                buyer=auction.high_bidder,
                price=auction.high,
            )
        ]


def _check_bid(state: GameState, player: int, amount: int, high: int) -> None:
    if amount < 0:
        raise RuleViolation("R-BAZAAR-4", f"a bid is 0 or more points, not {amount}")
    if amount <= high:
        raise RuleViolation("R-BAZAAR-4", f"a bid must raise the highest bid of {high}; {amount} does not")
    if amount > max_bid(state, player):
        raise RuleViolation(
            "V-BAZAAR-NOCREDIT", f"no bid above your score of {state.scores[player]} under V-BAZAAR-NOCREDIT"
        )


PART = BazaarsPart()
PARTS = (PART,)
