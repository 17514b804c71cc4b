"""The Goldmines in JCloisterZone's saves: the second gold bar as a token placed on a bare
position; the bars laid by the engine and those shared out leave no message."""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.commands import Command
from domain.expansions.gold import PlaceGold
from domain.state import GameState
from replays.jcz_format import JczMessage
from replays.jcz_mapping import Element, JczSet

if TYPE_CHECKING:
    from domain import events as ev
    from replays.jcz import SaveReader
    from replays.jcz_export import Writer

TOKEN = "GOLD"


class Goldmines(JczSet):
    code = "gold"
    tile_set = "goldmines"
    edition = None  # the client writes `goldmines`, not `goldmines:1`
    elements = {"gold": Element(part="gold")}  # without it the gold tiles play as plain tiles
    reading = {"gold_share_auto": True}  # JCZ-GOLD-SHARE
    score_names = {"gold": "gold"}
    final_only = frozenset({"gold"})

    def command(self, reader: SaveReader, index: int, message: JczMessage) -> Command | None:
        payload = message.payload
        if message.type != "PLACE_TOKEN" or payload.get("token") != TOKEN:
            return None
        x, y = payload["pointer"]  # a position, not a feature pointer
        return PlaceGold(x=int(x), y=int(y))

    def messages(
        self, writer: Writer, state: GameState, seat: int, command: Command, event: ev.Event
    ) -> bool:
        if not isinstance(command, PlaceGold):
            return False
        writer.send("PLACE_TOKEN", seat, {"token": TOKEN, "pointer": [command.x, command.y]})
        return True


MAPPING = Goldmines()
