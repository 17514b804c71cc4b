"""The Festival in JCloisterZone's saves: a figure taken back on a festival tile is a meeple returned
with the source `FESTIVAL` (the princess's, `PRINCESS`, is Princess & Dragon's)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from domain.commands import Command
from domain.expansions.festival import TakeBackFigure
from domain.moves import root_at
from domain.state import GameState, board_figures
from replays.jcz_format import JczMessage, JczPointer
from replays.jcz_mapping import Element, JczSet
from replays.jcz_names import meeple_pointer, owner_of

if TYPE_CHECKING:
    from domain import events as ev
    from replays.jcz import SaveReader
    from replays.jcz_export import Writer

SOURCE = "FESTIVAL"  # the `source` of its RETURN_MEEPLE messages


class Festival(JczSet):
    code = "festival"
    tile_set = "festival"
    edition = None  # the client writes `"festival": 1`, naming no edition
    elements = {"festival": Element(part="festival")}
    rule_switches = {
        ("festival-return", "meeple"): {"festival_followers_only": False},
        ("festival-return", "follower"): {"festival_followers_only": True},  # V-FESTIVAL-FOLLOWERS
    }
    reading = {"festival_followers_none": True}  # JCZ-FESTIVAL-FOLLOWERS-NONE

    def command(self, reader: SaveReader, index: int, message: JczMessage) -> Command | None:
        payload = message.payload
        if message.type != "RETURN_MEEPLE" or payload.get("source") != SOURCE:
            return None
        returned = payload["pointer"]
        pointer = msgspec.convert(returned["featurePointer"], JczPointer)
        meeple = str(returned["meepleId"])
        figure = reader.figure_of(index, meeple)
        x, y, location = _standing(reader, pointer, owner_of(meeple), figure)
        return TakeBackFigure(x=x, y=y, location=location, figure=figure)

    def messages(
        self, writer: Writer, state: GameState, seat: int, command: Command, event: ev.Event
    ) -> bool:
        if not isinstance(command, TakeBackFigure):
            return False
        at = (command.x, command.y, command.location)
        where = writer.figure_pointer(state, command.figure, *at)
        # Of two figures of one kind and player in one place, the last that came there goes home:
        # the one a fairy stands beside is the first, whom our rules keep (as the crop circle's
        # return). Its id is freed at once, or the ids would send the other home.
        meeple = writer.ids.at(seat, command.figure, at, latest=True)
        writer.ids.release(seat, command.figure, at, latest=True)
        writer.send("RETURN_MEEPLE", seat, {"source": SOURCE, "pointer": meeple_pointer(where, meeple)})
        return True


def _standing(reader: SaveReader, pointer: JczPointer, owner: int, figure: str) -> tuple[int, int, str]:
    """Where our board has the figure a pointer names: its own place, or, where JCloisterZone
    names it by another tile of its feature (a barn, by the tile whose north-west corner it stands
    on), the owner's figure of that kind on the same feature. Found nowhere, the pointer's own
    place: our rules then refuse the command, saying why."""
    x, y = pointer.position
    location = reader.location(pointer)
    state = reader.state
    spots = board_figures(state, owner)
    if (x, y, location, figure) in spots:
        return x, y, location
    root = root_at(state, x, y, location)
    for sx, sy, slocation, kind in spots:
        if kind == figure and root >= 0 and root_at(state, sx, sy, slocation) == root:
            return sx, sy, slocation
    return x, y, location


MAPPING = Festival()
