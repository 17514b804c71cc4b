"""Mage & Witch in JCloisterZone's saves: the mage and the witch as neutral figures moved onto a
feature pointer (`MOVE_NEUTRAL_FIGURE`, figure ids `mage.1`, `witch.1`), or off the board with
`to` null. Their points are items of the feature's own score (`mage`, `witch`), so the set has
no score of its own: our awards carry them as parts of a road's or city's value."""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.commands import Command
from domain.expansions.magic import FIGURES, Figure, MoveMagicFigure, RemoveMagicFigure
from domain.state import GameState
from replays.jcz_format import JczMessage
from replays.jcz_mapping import Element, JczSet

if TYPE_CHECKING:
    from domain import events as ev
    from replays.jcz import SaveReader
    from replays.jcz_export import Writer

MESSAGE = "MOVE_NEUTRAL_FIGURE"  # the Princess & Dragon's dragon and fairy move with it too
_IDS = {figure: f"{figure}.1" for figure in FIGURES}  # JCloisterZone's figure ids
_OURS: dict[str, Figure] = {ident: figure for figure, ident in _IDS.items()}


class MageWitch(JczSet):
    code = "mw"
    tile_set = "mage-and-witch"
    # JCloisterZone plays the set when `mage` is there, whatever `witch` says; the client writes both.
    elements = {"mage": Element(part="magic", one=True), "witch": Element(one=True)}
    reading = {"magic_late_join": True}  # JCZ-MW-LATE-JOIN

    def command(self, reader: SaveReader, index: int, message: JczMessage) -> Command | None:
        if message.type != MESSAGE:
            return None
        figure = _OURS.get(str(message.payload.get("figureId", "")))
        if figure is None:  # another set's neutral figure
            return None
        target = message.payload["to"]
        if target is None:  # nowhere left to go (R-MW-4)
            return RemoveMagicFigure(figure=figure)
        pointer = reader.pointer(index, target)
        x, y = pointer.position
        return MoveMagicFigure(figure=figure, x=x, y=y, location=reader.location(pointer))

    def messages(
        self, writer: Writer, state: GameState, seat: int, command: Command, event: ev.Event
    ) -> bool:
        if isinstance(command, MoveMagicFigure):
            where = writer.pointer(state, command.x, command.y, command.location)
            writer.send(MESSAGE, seat, {"figureId": _IDS[command.figure], "to": where})
        elif isinstance(command, RemoveMagicFigure):
            writer.send(MESSAGE, seat, {"figureId": _IDS[command.figure], "to": None})
        else:
            return False
        return True


MAPPING = MageWitch()
