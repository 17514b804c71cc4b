"""A running bazaar (R-BAZAAR-4..6): the revealed tiles, who holds which, and the current sale."""

from __future__ import annotations

from enum import StrEnum


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
