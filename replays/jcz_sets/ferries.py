"""The Ferries in JCloisterZone's saves (`ferries`, element `ferry`): a ferry put down or moved
as a PLACE_TOKEN `FERRY` pointing at the two road ends it joins (`NE`, `WE`: a road pointer whose
location is both ends' edges); a pass declines the moves."""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.commands import Command
from domain.expansions.ferries import PlaceFerry
from domain.state import GameState
from replays.jcz_format import JczMessage
from replays.jcz_mapping import Element, JczSet
from replays.jcz_names import jcz_location, location_name

if TYPE_CHECKING:
    from domain import events as ev
    from replays.jcz import SaveReader
    from replays.jcz_export import Writer

TOKEN = "FERRY"


class TheFerries(JczSet):
    code = "ferries"
    tile_set = "ferries"
    edition = None  # the client writes `ferries`, not `ferries:1`
    elements = {"ferry": Element(part="ferries", one=True)}
    reading = {"ferry_per_part": True}  # JCZ-FERRY-PER-PART

    def command(self, reader: SaveReader, index: int, message: JczMessage) -> Command | None:
        payload = message.payload
        if message.type != "PLACE_TOKEN" or payload.get("token") != TOKEN:
            return None
        pointer = reader.pointer(index, payload["pointer"])
        x, y = pointer.position
        return PlaceFerry(x=x, y=y, location=location_name(pointer))

    def messages(
        self, writer: Writer, state: GameState, seat: int, command: Command, event: ev.Event
    ) -> bool:
        if not isinstance(command, PlaceFerry):
            return False
        where = {
            "position": [command.x, command.y],
            "location": jcz_location(command.location),
            "feature": "Road",
        }
        writer.send("PLACE_TOKEN", seat, {"token": TOKEN, "pointer": where})
        return True


MAPPING = TheFerries()
