"""Corn Circles in JCloisterZone's saves (`corn-circles/1`, element `corn-circle`): the placer's
choice (`CIRCLE_REMOVE_OR_DEPLOY`), then each player's follower deployed (`DEPLOY_MEEPLE`) or
taken home (`RETURN_MEEPLE` whose source is `CORN_CIRCLE`), each closed by a COMMIT of its own,
or a pass (`PASS`, no COMMIT).

JCloisterZone plays the crop circle after the turn part's COMMIT, as a phase closing that part:
the next tile is drawn once the phase is over, with the generator its last COMMIT reseeded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from domain.commands import Command
from domain.expansions.corn import (
    CHOICES,
    DEPLOY,
    MUST,
    ChooseCorn,
    CornDeploy,
    CornDeployed,
    CornReturn,
    CornReturned,
)
from domain.state import GameState
from replays.jcz_format import JczError, JczMessage, JczPointer
from replays.jcz_mapping import Element, JczSet
from replays.jcz_names import meeple_pointer

if TYPE_CHECKING:
    from domain import events as ev
    from domain.moves import Decision
    from replays.jcz import SaveReader
    from replays.jcz_draws import DrawWalk
    from replays.jcz_export import Writer

CHOICE = "CIRCLE_REMOVE_OR_DEPLOY"
SOURCE = "CORN_CIRCLE"  # the source of a RETURN_MEEPLE of the crop circle's
_ACTS = frozenset({"DEPLOY_MEEPLE", "RETURN_MEEPLE", "PASS"})  # a player's go in the phase


class CornCircles(JczSet):
    code = "corn"
    tile_set = "corn-circles/1"
    edition = None  # the client writes `corn-circles/1`, no `:1`
    # The client adds the element whenever the tiles are chosen, written in the save or not.
    elements = {"corn-circle": Element(part="corn", enforced=True)}
    reading = {"corn_ask_when_figures": True}  # JCZ-CORN-ASK

    def command(self, reader: SaveReader, index: int, message: JczMessage) -> Command | None:
        payload = message.payload
        if message.type == CHOICE:
            value = str(payload["value"]).lower()
            if value not in CHOICES:
                raise JczError(f"message {index}: a crop circle's choice of {payload['value']!r}")
            return ChooseCorn(value="deploy" if value == "deploy" else "remove")
        if message.type == "RETURN_MEEPLE" and payload.get("source") == SOURCE:
            returned = payload["pointer"]
            pointer = msgspec.convert(returned["featurePointer"], JczPointer)
            meeple = str(returned["meepleId"])
            x, y = pointer.position
            return CornReturn(
                x=x, y=y, location=reader.location(pointer), figure=reader.figure_of(index, meeple)
            )
        if message.type == "DEPLOY_MEEPLE" and reader.step() in (DEPLOY, MUST):
            pointer = reader.pointer(index, payload["pointer"])
            x, y = pointer.position
            return CornDeploy(
                x=x, y=y, location=reader.location(pointer), figure=reader.figure(index, payload)
            )
        return None

    def messages(
        self, writer: Writer, state: GameState, seat: int, command: Command, event: ev.Event
    ) -> bool:
        if isinstance(command, ChooseCorn):
            writer.send(CHOICE, seat, {"value": command.value.upper()})
        elif isinstance(command, CornDeploy):
            meeple = writer.ids.take(seat, command.figure, (command.x, command.y, command.location))
            where = writer.pointer(state, command.x, command.y, command.location)
            writer.send("DEPLOY_MEEPLE", seat, {"pointer": where, "meepleId": meeple})
        elif isinstance(command, CornReturn):
            where = writer.pointer(state, command.x, command.y, command.location)
            meeple = writer.ids.at(
                seat, command.figure, (command.x, command.y, command.location), latest=True
            )
            writer.send("RETURN_MEEPLE", seat, {"source": SOURCE, "pointer": meeple_pointer(where, meeple)})
        else:
            return False
        return True

    def moved(self, writer: Writer, event: ev.Event) -> None:
        # Of two followers of one player in one place (one deployed beside the other), the one
        # the message named goes home: the last that came there. The figures that stand beside a
        # follower (the fairy) were put beside the first: it stays, as our rules keep them beside
        # the one left.
        if isinstance(event, CornReturned):
            writer.ids.release(event.player, event.figure, (event.x, event.y, event.location), latest=True)

    def commits(self, event: ev.Event, command: Command | None, step: Decision | None) -> bool:
        # Each player's deployment or return is confirmed by a COMMIT of its own; the choice and a
        # pass are not.
        return isinstance(event, CornDeployed | CornReturned)

    def closing(self, walk: DrawWalk, index: int, message: JczMessage) -> bool:
        """The crop circle's phase, after the turn part's COMMIT: the choice, then each player's
        go, from the placer's left round to the placer, each at most once: a deployment or a
        return (its COMMIT follows), or a pass (none follows). It comes before a builder's second
        part and a bazaar's supply."""
        if message.type == CHOICE:
            return True
        if message.type not in _ACTS or message.player is None:
            return False
        if message.type == "RETURN_MEEPLE" and message.payload.get("source") != SOURCE:
            return False
        if message.type == "PASS":
            following = walk.following(index)
            if following is not None and following.type == "COMMIT":
                return False  # a choice of another phase declined, with its COMMIT
        # Back to the choice: only the phase's own messages may lie between.
        acted: list[int] = []
        at = walk.before_kept[index]
        while at >= 0:
            earlier = walk.messages[at]
            if earlier.type == CHOICE:
                break
            if earlier.type not in _ACTS and earlier.type != "COMMIT":
                return False
            if earlier.type != "COMMIT" and earlier.player is not None:
                acted.append(earlier.player)
            at = walk.before_kept[at]
        else:
            return False
        placer = walk.messages[at].player
        if placer is None:
            return False
        n = walk.players
        seat = (message.player - placer - 1) % n  # 0 for the placer's left, n - 1 for the placer
        return all((p - placer - 1) % n < seat for p in acted)

    def turn_draw(self, walk: DrawWalk, index: int) -> str | None:
        """The oracle names a tile drawn while JCloisterZone processes anything but a COMMIT a
        redraw (in a plain game only a tile declined is followed by one): so it names the next
        turn's tile when the circle's phase ends with the choice (nobody asked) or a pass."""
        message = walk.messages[index] if index >= 0 else None
        if message is not None and message.type in (CHOICE, "PASS") and self.closing(walk, index, message):
            return "redraw"
        return None


MAPPING = CornCircles()
