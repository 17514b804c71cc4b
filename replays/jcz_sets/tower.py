"""The Tower in JCloisterZone's saves: tower pieces as tokens, a follower on a tower's top (its
feature `Tower`), captures, exchanges and ransoms, each prisoner named by its meeple id."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from domain import events as ev
from domain.commands import Command
from domain.expansions.tower import (
    ON_TOWER,
    CaptureFollower,
    ExchangePrisoner,
    FollowerCaptured,
    GuardTower,
    PayRansom,
    PlaceTowerPiece,
    PrisonersExchanged,
    RansomPaid,
    towers,
)
from domain.state import GameState
from replays.jcz_format import JczError, JczMessage, JczPointer
from replays.jcz_mapping import Element, JczSet, Place
from replays.jcz_names import meeple_pointer, owner_of

if TYPE_CHECKING:
    from collections import Counter

    from replays.jcz import SaveReader
    from replays.jcz_export import Writer

TOWER = "Tower"  # JCloisterZone's feature of a tower's top
PRISON = "prison"  # where a prisoner stands among the figure places: (PRISON, jailer)


class Tower(JczSet):
    code = "tower"
    tile_set = "tower"
    elements = {"tower": Element(part="tower", one=True)}
    reading = {
        "ransom_alone": False,  # JCZ-TOWER-RANSOM
        "ransom_limited": True,  # JCZ-TOWER-RANSOM-LIMITS
        "ransom_any_step": True,  # JCZ-RANSOM-ANY-STEP
    }
    # A ransom may be paid whenever its payer is asked (JCZ-RANSOM-ANY-STEP): it draws nothing
    # and reseeds nothing.
    walk_ignores = frozenset({"PAY_RANSOM"})
    score_names = {"ransom": "ransom"}
    not_scores = frozenset({"ransom"})  # the ransom's own event, not a turn part's score
    final_only = frozenset({"ransom"})

    def location(self, pointer: JczPointer) -> str | None:
        return ON_TOWER if pointer.feature == TOWER else None

    def command(self, reader: SaveReader, index: int, message: JczMessage) -> Command | None:
        payload = message.payload
        kind = message.type
        if kind == "DEPLOY_MEEPLE":
            pointer = reader.pointer(index, payload["pointer"])
            if pointer.feature != TOWER:
                return None
            x, y = pointer.position
            return GuardTower(x=x, y=y, figure=reader.figure(index, payload))
        if kind == "PLACE_TOKEN" and payload.get("token") == "TOWER_PIECE":
            x, y = msgspec.convert(payload["pointer"], JczPointer).position
            return PlaceTowerPiece(x=x, y=y)
        if kind == "CAPTURE_FOLLOWER":
            captured = payload["pointer"]
            pointer = msgspec.convert(captured["featurePointer"], JczPointer)
            meeple = str(captured["meepleId"])
            x, y = pointer.position
            return CaptureFollower(
                x=x,
                y=y,
                location=reader.location(pointer),
                owner=owner_of(meeple),
                figure=reader.figure_of(index, meeple),
            )
        if kind == "PAY_RANSOM":
            meeple = str(payload["meepleId"])
            figure = reader.figure_of(index, meeple)
            held = towers(reader.state).prisoners if "tower" in reader.state.ext else []
            # With its owner's followers of one kind held by two players, only the meeple id says
            # whom the ransom goes to (R-TOWER-7): who took it prisoner last.
            jailer = _jailers(reader).get(meeple)
            if jailer is None or (owner_of(meeple), figure) not in held[jailer]:
                raise JczError(f"message {index}: nobody holds {meeple} prisoner")
            return PayRansom(jailer=jailer, figure=figure)
        if kind == "EXCHANGE_FOLLOWER":  # the capturer's choice of which of theirs comes back
            return ExchangePrisoner(figure=reader.figure_of(index, str(payload["meepleId"])))
        return None

    def executed(
        self, reader: SaveReader, index: int, message: JczMessage, seat: int, command: Command
    ) -> None:
        if isinstance(command, CaptureFollower):
            _jailers(reader)[str(message.payload["pointer"]["meepleId"])] = seat

    def pointer(self, state: GameState, x: int, y: int, location: str) -> dict[str, Any] | None:
        return {"position": [x, y], "location": "I", "feature": TOWER} if location == ON_TOWER else None

    def messages(
        self, writer: Writer, state: GameState, seat: int, command: Command, event: ev.Event
    ) -> bool:
        send = writer.send
        if isinstance(command, GuardTower):
            meeple = writer.ids.take(seat, command.figure, (command.x, command.y, ON_TOWER))
            where = writer.pointer(state, command.x, command.y, ON_TOWER)
            send("DEPLOY_MEEPLE", seat, {"pointer": where, "meepleId": meeple})
        elif isinstance(command, CaptureFollower):
            where = writer.pointer(state, command.x, command.y, command.location)
            meeple = writer.ids.at(command.owner, command.figure, (command.x, command.y, command.location))
            send("CAPTURE_FOLLOWER", seat, {"pointer": meeple_pointer(where, meeple)})
        elif isinstance(command, PayRansom):
            meeple = writer.ids.at(seat, command.figure, (PRISON, command.jailer))
            send("PAY_RANSOM", seat, {"meepleId": meeple})
        elif isinstance(command, ExchangePrisoner):
            exchange = towers(state).exchange
            assert exchange is not None
            meeple = writer.ids.at(seat, command.figure, (PRISON, exchange[1]))
            send("EXCHANGE_FOLLOWER", seat, {"meepleId": meeple})
        elif isinstance(command, PlaceTowerPiece):
            where = {"position": [command.x, command.y], "feature": TOWER, "location": "I"}
            send("PLACE_TOKEN", seat, {"token": "TOWER_PIECE", "pointer": where})
        else:
            return False
        return True

    def moved(self, writer: Writer, event: ev.Event) -> None:
        ids = writer.ids
        if isinstance(event, FollowerCaptured) and event.owner != event.player:
            ids.move(event.owner, event.figure, (event.x, event.y, event.location), (PRISON, event.player))
        elif isinstance(event, FollowerCaptured):
            # One's own follower goes home (R-TOWER-5): the one the message named, the first that
            # came there, while another of theirs of that kind in the same place stays.
            ids.release(event.owner, event.figure, (event.x, event.y, event.location))
        elif isinstance(event, PrisonersExchanged):
            ids.release(event.player, event.figure, (PRISON, event.other))
            ids.release(event.other, event.other_figure, (PRISON, event.player))
        elif isinstance(event, RansomPaid):
            ids.release(event.player, event.figure, (PRISON, event.jailer))

    def figure_places(self, state: GameState, found: Counter[tuple[int, str, Place]]) -> None:
        if "tower" not in state.ext:
            return
        own = towers(state)
        for (x, y), (player, kind) in own.guards.items():
            found[(player, kind, (x, y, ON_TOWER))] += 1
        for jailer, held in enumerate(own.prisoners):
            for player, kind in held:
                found[(player, kind, (PRISON, jailer))] += 1


def _jailers(reader: SaveReader) -> dict[str, int]:
    """Who took each meeple prisoner last, by its JCloisterZone id."""
    found: dict[str, int] = reader.scratch.setdefault("tower.jailers", {})
    return found


MAPPING = Tower()
