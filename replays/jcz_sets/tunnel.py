"""The Tunnel in JCloisterZone's saves: a tunnel token as a PLACE_TOKEN (`TUNNEL_A`, `_B`, `_C`)
pointing at the road that ends at the mouth."""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.commands import Command
from domain.expansions.tunnel import COUNTS, PlaceTunnelToken
from domain.state import GameState
from replays.jcz_format import JczMessage
from replays.jcz_mapping import Element, JczSet

if TYPE_CHECKING:
    from domain import events as ev
    from replays.jcz import SaveReader
    from replays.jcz_export import Writer

TOKEN = "TUNNEL_"  # JCloisterZone's tokens: TUNNEL_ and the pair's colour


class Tunnel(JczSet):
    code = "tunnel"
    tile_set = "tunnel"
    edition = None  # the client's id of the set names no edition
    elements = {"tunnel": Element(part="tunnel", one=True)}
    # The client's defaults (3/2, true) are what a save that leaves them out plays: our defaults.
    rule_switches = {
        **{("more-tunnel-tokens", n): {"tunnel_tokens": n} for n in COUNTS},  # V-TUNNEL-TOKENS
        ("tunnelize-other-expansions", True): {"plain_underpass": False},
        ("tunnelize-other-expansions", False): {"plain_underpass": True},  # V-TUNNEL-PLAIN-UNDERPASS
    }
    reading = {"tunnel_rescore": True}  # JCZ-TUNNEL-RESCORE

    def command(self, reader: SaveReader, index: int, message: JczMessage) -> Command | None:
        payload = message.payload
        token = str(payload.get("token", ""))
        if message.type != "PLACE_TOKEN" or not token.startswith(TOKEN):
            return None
        pointer = reader.pointer(index, payload["pointer"])
        x, y = pointer.position
        return PlaceTunnelToken(token=token.removeprefix(TOKEN), x=x, y=y, location=reader.location(pointer))

    def messages(
        self, writer: Writer, state: GameState, seat: int, command: Command, event: ev.Event
    ) -> bool:
        if not isinstance(command, PlaceTunnelToken):
            return False
        where = writer.pointer(state, command.x, command.y, command.location)
        writer.send("PLACE_TOKEN", seat, {"token": TOKEN + command.token, "pointer": where})
        return True


MAPPING = Tunnel()
