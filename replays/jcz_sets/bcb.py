"""Bridges, Castles and Bazaars in JCloisterZone's saves: bridges and castles as tokens, the
bazaar's bids, purchases and sales, and the castle's choice of completion JCloisterZone makes alone."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from domain.commands import Command
from domain.expansions.bazaars import Bid, Buy, ChooseBazaarTile, Sell, bazaars
from domain.expansions.bridges import PlaceBridge
from domain.expansions.castles import ChooseCastle, ChooseCastleTarget, target_pending
from domain.moves import Decision, feature_handle
from domain.state import GameState, feature_value
from replays.jcz_format import JczMessage, JczPointer
from replays.jcz_mapping import Element, JczSet
from replays.jcz_names import location_name

if TYPE_CHECKING:
    from domain import events as ev
    from domain.aggregate import Game
    from replays.jcz import SaveReader
    from replays.jcz_export import Writer


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

    def answer_unasked(self, game: Game, decision: Decision) -> bool:
        """A castle scores its most valuable completion: JCloisterZone does not ask (JCZ-3, R-CASTLE-7)."""
        if decision.step != "castle-target":
            return False
        state = game.state
        pending = target_pending(state)
        assert pending is not None
        best = max(pending[1], key=lambda f: feature_value(state, f, completed=True)[0])
        x, y, location = feature_handle(state, best.id)
        game.execute(decision.player, ChooseCastleTarget(x=x, y=y, location=location))
        return True

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
        elif isinstance(command, ChooseCastleTarget):
            pass  # JCloisterZone decides it alone (JCZ-3); the re-import checks it chose the same
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


MAPPING = BridgesCastlesBazaars()
