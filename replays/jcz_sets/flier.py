"""The Flying Machines in JCloisterZone's saves (`flier:1`, element `flier`): a follower deployed
on a tile's `FlyingMachine` (location `I`) flies, the message carrying the `random` its die is
rolled from (JCloisterZone re-seeds its generator with it and draws an int below 3: the distance
less one); a landing is a plain DEPLOY_MEEPLE on the tile reached."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.commands import Command
from domain.expansions.flier import MACHINE, STEP, FlierLanded, FlierRolled, Fly, Land
from domain.state import GameState
from replays.jcz_format import JczError, JczMessage, JczPointer
from replays.jcz_mapping import Element, JczSet

if TYPE_CHECKING:
    from domain import events as ev
    from domain.turns import Chance
    from replays.jcz import SaveReader
    from replays.jcz_draws import Draw
    from replays.jcz_export import Writer

FLYING_MACHINE = "FlyingMachine"  # JCloisterZone's feature of a flying machine
SIDES = 3  # JCloisterZone's die: next_int(3) + 1


def distance(random: float) -> int:
    """The distance JCloisterZone flies for a message's `random`: its generator re-seeded with
    it gives floor(random * 3) as its first int below 3."""
    return int(random * SIDES) + 1


class Flier(JczSet):
    code = "flier"
    tile_set = "flier"
    # Without the element, JCloisterZone's tiles have no flying machine: plain tiles.
    elements = {"flier": Element(part="flier")}
    reading = {"no_tower": True}  # JCZ-FLIER-NO-TOWER

    def location(self, pointer: JczPointer) -> str | None:
        return MACHINE if pointer.feature == FLYING_MACHINE else None

    def pointer(self, state: GameState, x: int, y: int, location: str) -> dict[str, Any] | None:
        if location != MACHINE:
            return None
        return {"position": [x, y], "location": "I", "feature": FLYING_MACHINE}

    def command(self, reader: SaveReader, index: int, message: JczMessage) -> Command | None:
        if message.type != "DEPLOY_MEEPLE":
            return None
        payload = message.payload
        pointer = reader.pointer(index, payload["pointer"])
        if pointer.feature == FLYING_MACHINE:
            return Fly(figure=reader.figure(index, payload))
        if reader.step() == STEP:  # the flier's landing
            x, y = pointer.position
            return Land(x=x, y=y, location=reader.location(pointer))
        return None

    def roll(self, reader: SaveReader, chance: Chance, message: JczMessage | None) -> ev.Event | None:
        if not isinstance(chance.outcomes[0], FlierRolled):
            return None
        random = None if message is None else message.payload.get("random")
        if not isinstance(random, float | int) or not 0 <= random < 1:
            raise JczError(f"message {reader.index}: a flight without the `random` its die is rolled from")
        rolled = reader.next_int(SIDES) + 1  # the flight's own `random` re-seeded the generator
        return next(e for e in chance.outcomes if isinstance(e, FlierRolled) and e.distance == rolled)

    def messages(
        self, writer: Writer, state: GameState, seat: int, command: Command, event: ev.Event
    ) -> bool:
        if isinstance(command, Fly):
            placed = state.placed
            assert placed is not None
            home = writer.ids.home.get((seat, command.figure))
            if not home:
                raise JczError(f"player {seat} flies a {command.figure} with none at home")
            meeple = writer.ids.name(seat, command.figure, home[0])  # it stays at home while it flies
            where = self.pointer(state, placed.pos[0], placed.pos[1], MACHINE)
            # It re-seeds JCloisterZone's generator: the writer picks its `random` once the die is
            # rolled (`chance_draw`).
            writer.send("DEPLOY_MEEPLE", seat, {"pointer": where, "meepleId": meeple, "random": 0.0})
        elif isinstance(command, Land):
            assert isinstance(event, FlierLanded)
            where = writer.pointer(state, command.x, command.y, command.location)
            meeple = writer.ids.take(seat, event.figure, (command.x, command.y, command.location))
            writer.send("DEPLOY_MEEPLE", seat, {"pointer": where, "meepleId": meeple})
        else:
            return False
        return True

    def chance_draw(self, state: GameState, event: ev.Event) -> Draw | None:
        """The die rolled: the first int below 3 after the flight's own `random`."""
        if not isinstance(event, FlierRolled):
            return None
        return event.distance - 1, SIDES


MAPPING = Flier()
