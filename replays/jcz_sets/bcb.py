"""Bridges, Castles and Bazaars in JCloisterZone's saves: bridges and castles as tokens, the
bazaar's bids, purchases and sales, and the castle's choice of completion JCloisterZone makes alone."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from domain.commands import Command
from domain.expansions.bazaars import Bid, Buy, ChooseBazaarTile, Sell, bazaars
from domain.expansions.bridges import PlaceBridge
from domain.expansions.castles import ChooseCastle, is_castle
from domain.state import GameState
from domain.tiles import Kind, TileType
from replays.jcz_format import JczMessage, JczPointer, JczRefused
from replays.jcz_mapping import Element, JczSet
from replays.jcz_names import location_name, segment_pointer

if TYPE_CHECKING:
    from domain import events as ev
    from replays.jcz import SaveReader
    from replays.jcz_draws import DrawWalk
    from replays.jcz_export import Writer

WALK = "bcb.bazaar"  # the walk's note of the bazaars: `BazaarWalk`


class BridgesCastlesBazaars(JczSet):
    code = "bcb"
    tile_set = "bridges-castles-and-bazaars"
    legacy_name = "BRIDGES_CASTLES_AND_BAZAARS"
    elements = {
        "bridge": Element(part="bridges", one=True),
        "castle": Element(part="castles", one=True),
        "bazaar": Element(part="bazaars"),
    }
    reading = {
        "order": "jcz",  # JCZ-1
        "bazaar_choice_moves_on": True,
        "bridge_on_neighbours": False,  # JCZ-4
        "castle_turn_order": True,  # JCZ-CASTLE-OFFER
        "castle_target_best": True,  # JCZ-CASTLE-TARGET: JCloisterZone never asks (JCZ-3)
    }
    score_names = {"castle": "castle"}
    not_scores = frozenset({"bazaar"})  # the auction's own events, not a turn part's score
    final_only = frozenset({"castle"})

    def command(self, reader: SaveReader, index: int, message: JczMessage) -> Command | None:
        payload = message.payload
        if message.type == "PLACE_TOKEN" and payload.get("token") in ("BRIDGE", "CASTLE"):
            pointer = msgspec.convert(payload["pointer"], JczPointer)
            x, y = pointer.position
            if payload["token"] == "BRIDGE":
                return PlaceBridge(x=x, y=y, axis="NS" if pointer.location == "NS" else "EW")
            return ChooseCastle(x=x, y=y, location=location_name(pointer))
        if message.type == "BAZAAR_BID":
            price = int(payload["price"])
            if reader.step() == "choose":
                return ChooseBazaarTile(index=int(payload["supplyIndex"]), bid=price)
            return Bid(amount=price)
        if message.type == "BAZAAR_BUY_OR_SELL":
            return Buy() if payload["value"] == "BUY" else Sell()
        return None

    def messages(
        self, writer: Writer, state: GameState, seat: int, command: Command, event: ev.Event
    ) -> bool:
        send = writer.send
        if isinstance(command, PlaceBridge):
            where: dict[str, Any] = {
                "position": [command.x, command.y],
                "location": "NS" if command.axis == "NS" else "WE",
                "feature": "Road",
            }
            send("PLACE_TOKEN", seat, {"token": "BRIDGE", "pointer": where})
        elif isinstance(command, ChooseCastle):
            where = writer.pointer(state, command.x, command.y, command.location)
            send("PLACE_TOKEN", seat, {"token": "CASTLE", "pointer": where})
        elif isinstance(command, ChooseBazaarTile):
            send("BAZAAR_BID", seat, {"supplyIndex": command.index, "price": command.bid})
        elif isinstance(command, Bid):
            auction = bazaars(state).auction
            assert auction is not None
            send("BAZAAR_BID", seat, {"supplyIndex": auction.index, "price": command.amount})
        elif isinstance(command, Buy | Sell):
            send("BAZAAR_BUY_OR_SELL", seat, {"value": "BUY" if isinstance(command, Buy) else "SELL"})
        else:
            return False
        return True

    # ---- the draws: a bazaar's supply is drawn at once after its turn part, and who receives
    # which of its tiles is followed through the auction's messages.
    def pointer(self, state: GameState, x: int, y: int, location: str) -> dict[str, Any] | None:
        # A city turned castle is JCloisterZone's `Castle` from then on: a figure moved beside a
        # follower there (the fairy) is named on it, or JCloisterZone finds nobody beside her.
        placed = state.board.at.get((x, y))
        if placed is None or {n: k for n, _, k in placed.locations()}.get(location) != Kind.CITY:
            return None
        if not is_castle(state, state.board.graph.feature(placed.segment(location))):
            return None
        return {**segment_pointer(state, x, y, location), "feature": "Castle"}

    def walk_start(self, walk: DrawWalk) -> None:
        # Without the element no auction is held, and no tiles are drawn for one (4.x saves name
        # no elements: their bazaars play).
        walk.ext[WALK] = BazaarWalk(walk.elements.get("bazaar") is not None or not walk.elements)

    def walk_message(self, walk: DrawWalk, index: int, message: JczMessage) -> bool:
        own = bazaar_walk(walk)
        if message.type == "PASS" and own.auction is not None:
            own.auction.pass_(walk.sender(index, message))
        elif message.type == "BAZAAR_BID":
            own.running(index).bid(walk.sender(index, message), int(message.payload["supplyIndex"]))
        elif message.type == "BAZAAR_BUY_OR_SELL":
            own.running(index).buy_or_sell(str(message.payload.get("value")))
        else:
            return False
        auction = own.auction
        if auction is not None and auction.settle():
            own.supply = auction.supply(own.supply_tiles)
            own.auction = None
            walk.current = auction.host
            walk.next_turn(index)
        return True

    def walk_placed(self, walk: DrawWalk, index: int, tile: TileType) -> None:
        own = bazaar_walk(walk)
        if own.played and "bazaar" in tile.tags and own.supply is None:
            own.pending = True

    def part_over(self, walk: DrawWalk, index: int) -> bool:
        own = bazaar_walk(walk)
        if own.supply == []:  # the supply ends with the turn its last tile was taken in
            own.supply = None
        if not own.pending:
            return False
        own.pending = False
        tiles = walk.drawer.supply(walk.players, index, "bazaar")
        if not tiles:
            return False
        own.supply_tiles = tiles
        own.auction = _Auction(walk.current, walk.players, len(tiles))
        return True

    def held_tile(self, walk: DrawWalk, player: int) -> str | None:
        supply = bazaar_walk(walk).supply
        return supply.pop(0)[0] if supply and supply[0][1] == player else None

    def tiles_owed(self, walk: DrawWalk) -> bool:
        return bool(bazaar_walk(walk).supply)


class BazaarWalk:
    """The bazaars as the draw walk follows them."""

    __slots__ = ("auction", "pending", "played", "supply", "supply_tiles")

    def __init__(self, played: bool) -> None:
        self.played = played
        self.pending = False  # a bazaar tile placed: a supply is drawn when the turn is over
        self.supply: list[tuple[str, int]] | None = None  # (tile, owner); from auction to round end
        self.supply_tiles: list[str] = []
        self.auction: _Auction | None = None

    def running(self, index: int) -> _Auction:
        if self.auction is None:
            raise JczRefused(f"message {index}: a bazaar message outside an auction", index)
        return self.auction


def bazaar_walk(walk: DrawWalk) -> BazaarWalk:
    found: BazaarWalk = walk.ext[WALK]
    return found


class _Auction:
    """Who receives which bazaar tile, followed through BAZAAR_BID, PASS and BAZAAR_BUY_OR_SELL."""

    __slots__ = ("bidders", "highest", "host", "item", "owner", "players", "selector")

    def __init__(self, host: int, players: int, tiles: int) -> None:
        self.host = host
        self.players = players
        self.owner: list[int | None] = [None] * tiles
        self.item: int | None = None  # supply index being auctioned
        self.selector = -1  # the player who chose it
        self.highest = -1  # the highest bidder so far
        self.bidders: list[int] = []  # players still to raise or pass

    def bid(self, player: int, item: int) -> None:
        if self.item is None:  # a choice with an opening bid
            self.item, self.selector = item, player
            others = self._seats_after(player)[:-1]  # the list ends with the chooser
            self.bidders = [p for p in others if p not in self.owner]
        else:
            self.bidders.remove(player)
        self.highest = player

    def pass_(self, player: int) -> None:
        self.bidders.remove(player)

    def buy_or_sell(self, value: str) -> None:
        self._assign(self.selector if value == "BUY" else self.highest)

    def settle(self) -> bool:
        """Assign what goes without a message; True once every tile has its owner."""
        if self.item is not None and not self.bidders and self.highest == self.selector:
            self._assign(self.selector)
        if self.owner.count(None) == 1:  # the last tile goes free to the last player without one
            last = next(p for p in self._seats_after(self.host) if p not in self.owner)
            self.owner[self.owner.index(None)] = last
        return None not in self.owner

    def supply(self, tiles: list[str]) -> list[tuple[str, int]]:
        """The supply reordered by owner, from the player after the host round the table."""
        order = {p: i for i, p in enumerate(self._seats_after(self.host))}
        owned = [(tile, owner) for tile, owner in zip(tiles, self.owner, strict=True) if owner is not None]
        return sorted(owned, key=lambda item: order[item[1]])

    def _assign(self, player: int) -> None:
        assert self.item is not None
        self.owner[self.item] = player
        self.item = None

    def _seats_after(self, player: int) -> list[int]:
        return [(player + i) % self.players for i in range(1, self.players + 1)]


MAPPING = BridgesCastlesBazaars()
