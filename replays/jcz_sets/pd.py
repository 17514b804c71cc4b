"""Princess & Dragon in JCloisterZone's saves: the dragon's steps and the fairy's moves as moves of
neutral figures, a knight the princess sends home as a meeple returned."""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from domain.commands import Command
from domain.expansions.dragon import MoveDragon
from domain.expansions.fairy import ON_TILE, MoveFairy
from domain.expansions.portal_princess import RemoveKnight
from domain.state import GameState
from domain.tiles import TileType
from replays.jcz_format import JczMessage, JczPointer, JczSave
from replays.jcz_mapping import Element, JczSet
from replays.jcz_names import meeple_pointer, owner_of

if TYPE_CHECKING:
    from domain import events as ev
    from replays.jcz import SaveReader
    from replays.jcz_draws import DrawWalk, JczPack
    from replays.jcz_export import Writer

DRAGON = "dragon"  # the pack group of the dragon tiles while they wait for a volcano


class PrincessDragon(JczSet):
    code = "pd"
    tile_set = "princess-and-dragon"
    elements = {
        "dragon": Element(part="dragon", one=True),
        "fairy": Element(part="fairy", one=True),
        "princess": Element(part="princess"),
        "portal": Element(part="portal"),
    }
    figures = {"fairy": "fairy", "dragon": "dragon", "princess": "princess", "portal": "portal"}
    rule_switches = {
        ("princess-action", "may"): {"princess_must": False},
        ("princess-action", "must"): {"princess_must": True},  # V-PRINCESS-MUST
        ("fairy-placement", "next-follower"): {"fairy_on_tile": False},
        ("fairy-placement", "on-tile"): {"fairy_on_tile": True},  # V-FAIRY-ON-TILE
        ("dragon-move", "before-scoring"): {"dragon_after_scoring": False},
        ("dragon-move", "after-scoring"): {"dragon_after_scoring": True},  # V-DRAGON-AFTER-SCORING
    }
    reading = {"fairy_pyramid_counts": True}  # JCZ-FAIRY-PYRAMID
    score_names = {"fairy.turn": "fairy.turn", "fairy.completed": "fairy.completed"}
    final_only = frozenset({"fairy.turn", "fairy.completed"})

    def command(self, reader: SaveReader, index: int, message: JczMessage) -> Command | None:
        payload = message.payload
        if message.type == "MOVE_NEUTRAL_FIGURE":
            figure = str(payload.get("figureId", ""))
            if figure.startswith("dragon"):
                x, y = payload["to"]
                return MoveDragon(x=x, y=y)
            if not figure.startswith("fairy"):
                return None
            target = payload["to"]
            if isinstance(target, list):  # a tile's position: `fairy-placement` on-tile (V-FAIRY-ON-TILE)
                x, y = target
                return MoveFairy(x=x, y=y, location=ON_TILE, figure="")
            pointer = msgspec.convert(target["featurePointer"], JczPointer)
            x, y = pointer.position
            meeple = str(target["meepleId"])
            return MoveFairy(
                x=x, y=y, location=reader.location(pointer), figure=reader.figure_of(index, meeple)
            )
        if message.type == "RETURN_MEEPLE" and payload.get("source", "PRINCESS") == "PRINCESS":
            returned = payload["pointer"]
            pointer = msgspec.convert(returned["featurePointer"], JczPointer)
            meeple = str(returned["meepleId"])
            x, y = pointer.position
            return RemoveKnight(
                x=x,
                y=y,
                location=reader.location(pointer),
                owner=owner_of(meeple),
                figure=reader.figure_of(index, meeple),
            )
        return None

    def messages(
        self, writer: Writer, state: GameState, seat: int, command: Command, event: ev.Event
    ) -> bool:
        send = writer.send
        if isinstance(command, MoveDragon):
            send("MOVE_NEUTRAL_FIGURE", seat, {"figureId": "dragon.1", "to": [command.x, command.y]})
        elif isinstance(command, MoveFairy) and command.location == ON_TILE:
            send("MOVE_NEUTRAL_FIGURE", seat, {"figureId": "fairy.1", "to": [command.x, command.y]})
        elif isinstance(command, MoveFairy):
            where = writer.pointer(state, command.x, command.y, command.location)
            meeple = writer.ids.at(seat, command.figure, (command.x, command.y, command.location))
            send("MOVE_NEUTRAL_FIGURE", seat, {"figureId": "fairy.1", "to": meeple_pointer(where, meeple)})
        elif isinstance(command, RemoveKnight):
            where = writer.pointer(state, command.x, command.y, command.location)
            at = (command.x, command.y, command.location)
            # The last of two knights of one player in one place goes home, as a festival's return.
            meeple = writer.ids.at(command.owner, command.figure, at, latest=True)
            writer.ids.release(command.owner, command.figure, at, latest=True)
            send("RETURN_MEEPLE", seat, {"source": "PRINCESS", "pointer": meeple_pointer(where, meeple)})
        else:
            return False
        return True

    def pack_group(self, tile: TileType, save: JczSave) -> str | None:
        return DRAGON if _dragons_wait(save) and "dragon" in tile.tags else None

    def arrange_pack(self, pack: JczPack, save: JczSave) -> None:
        if _dragons_wait(save):
            pack.active.discard(DRAGON)

    def walk_placed(self, walk: DrawWalk, index: int, tile: TileType) -> None:
        if "volcano" in tile.tags:
            walk.drawer.pack.activate(DRAGON)  # dragon tiles may be drawn from now on

    def closing(self, walk: DrawWalk, index: int, message: JczMessage) -> bool:
        # The dragon's steps after scoring (V-DRAGON-AFTER-SCORING) still belong to the turn part.
        return message.type == "MOVE_NEUTRAL_FIGURE" and str(message.payload.get("figureId", "")).startswith(
            "dragon"
        )


def _dragons_wait(save: JczSave) -> bool:
    """Dragon tiles wait in a group of their own while the dragon is played: named, even as 0."""
    return save.setup.elements.get("dragon") is not None


MAPPING = PrincessDragon()
