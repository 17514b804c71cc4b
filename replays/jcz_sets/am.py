"""Abbey & Mayor in JCloisterZone's saves: the abbey placed as a tile of the player's own, the
mayor, the wagon moved after its feature scored, and the barn named by the tile whose north-west
corner it stands on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain import events as ev
from domain.commands import Command, Deploy, Pass
from domain.expansions.abbey import TILE as ABBEY, PlaceAbbey
from domain.expansions.barn import corner_field, crossing_field
from domain.expansions.wagon import MoveWagon, WagonMoved, wagons
from domain.moves import Decision, legal_commands
from domain.state import GameState
from domain.tiles import TileType
from replays.jcz_format import JczError, JczExportError, JczMessage, JczPointer
from replays.jcz_mapping import Element, JczSet, Place
from replays.jcz_names import location_name

if TYPE_CHECKING:
    from collections import Counter

    from replays.jcz import SaveReader
    from replays.jcz_draws import DrawWalk
    from replays.jcz_export import Writer

OWNERS = "am.wagon-owners"  # the walk's note: the players who have put a wagon on the board

WAITING = "waiting"  # where a wagon stands while its scored feature's wagons move (figure places)


class AbbeyMayor(JczSet):
    code = "am"
    tile_set = "abbey-and-mayor"
    elements = {
        "abbey": Element(part="abbey", one=True),
        "barn": Element(part="barn", number="barns"),
        "mayor": Element(part="mayor", number="mayors"),
        "wagon": Element(part="wagon", number="wagons"),
    }
    figures = {"mayor": "mayor", "wagon": "wagon", "barn": "barn"}
    rule_switches = {
        ("wagon-move", "C2"): {"wagon_connected": False},
        ("wagon-move", "C1"): {"wagon_connected": True},  # V-WAGON-C1
        ("barn-placement", "not-occupied"): {"barn_occupied": False},
        ("barn-placement", "occupied"): {"barn_occupied": True},  # V-BARN-OCCUPIED
    }
    reading = {"abbey_end_rounds": True}  # JCZ-ABBEY-END-ROUNDS
    score_names = {"farm.barn-placed": "field.barn-placed", "farm.barn-connected": "field.barn-connected"}
    final_only = frozenset({"farm.barn-placed", "farm.barn-connected"})
    # JCloisterZone lists an abbey placed, or declined, with the tile placements.
    placement_steps = {"abbey": ABBEY}

    def command(self, reader: SaveReader, index: int, message: JczMessage) -> Command | None:
        payload = message.payload
        step = reader.step()
        if message.type == "PLACE_TILE" and step == "abbey":
            x, y = payload["position"]
            return PlaceAbbey(x=x, y=y, rotation=int(payload["rotation"][1:]))
        if message.type != "DEPLOY_MEEPLE":
            return None
        if step != "wagon" and reader.figure(index, payload) != "barn":
            return None
        pointer = reader.pointer(index, payload["pointer"])
        if step == "wagon":
            x, y = pointer.position
            return MoveWagon(x=x, y=y, location=location_name(pointer))
        return Deploy(location=_barn_field(reader.state, pointer), figure="barn")

    def placement_options(self, state: GameState, step: str) -> list[tuple[int, int, int]]:
        return [(c.x, c.y, c.rotation) for c in legal_commands(state) if isinstance(c, PlaceAbbey)]

    def messages(
        self, writer: Writer, state: GameState, seat: int, command: Command, event: ev.Event
    ) -> bool:
        if isinstance(command, PlaceAbbey):
            writer.send("PLACE_TILE", seat, writer.placement(ABBEY, command.rotation, command.x, command.y))
        elif isinstance(command, MoveWagon):
            where = writer.pointer(state, command.x, command.y, command.location)
            meeple = writer.ids.at(seat, "wagon", _wagon(writer, seat))
            writer.send("DEPLOY_MEEPLE", seat, {"pointer": where, "meepleId": meeple})
        elif isinstance(command, Deploy) and command.figure == "barn":
            assert isinstance(event, ev.FollowerDeployed)
            meeple = writer.ids.take(seat, event.figure, (event.x, event.y, event.location))
            where = _barn_pointer(writer, state, event.x, event.y, event.location)
            writer.send("DEPLOY_MEEPLE", seat, {"pointer": where, "meepleId": meeple})
        else:
            return False
        return True

    def figure_pointer(
        self, writer: Writer, state: GameState, kind: str, x: int, y: int, location: str
    ) -> dict[str, Any] | None:
        return _barn_pointer(writer, state, x, y, location) if kind == "barn" else None

    def moved(self, writer: Writer, event: ev.Event) -> None:
        if isinstance(event, WagonMoved):
            writer.ids.move(
                event.player, "wagon", _wagon(writer, event.player), (event.x, event.y, event.location)
            )

    def commits(self, event: ev.Event, command: Command | None, step: Decision | None) -> bool:
        # JCloisterZone closes a wagon's move and an abbey declined with a commit of their own (a
        # wagon left where it stands is not).
        return isinstance(event, WagonMoved) or (
            isinstance(command, Pass) and step is not None and step.step == "abbey"
        )

    def walk_start(self, walk: DrawWalk) -> None:
        walk.ext[OWNERS] = set()

    def walk_message(self, walk: DrawWalk, index: int, message: JczMessage) -> bool:
        if message.type == "DEPLOY_MEEPLE" and message.player is not None and _is_wagon(message):
            walk.ext[OWNERS].add(message.player)
        return False

    def drawn_instead(self, tile: TileType) -> bool:
        return "abbey" in tile.tags  # the player's abbey, instead of a draw

    def keeps_tile(self, walk: DrawWalk, message: JczMessage) -> bool:
        """A PASS may leave a returned wagon where it is: only a wagon's owner is asked to move it,
        so anyone else's PASS declines a tile."""
        wagons = bool(walk.elements.get("wagon"))
        return wagons and (message.player is None or message.player in walk.ext[OWNERS])

    def closing(self, walk: DrawWalk, index: int, message: JczMessage) -> bool:
        """A turn part's wagon phase: a returned wagon moved (with a COMMIT of its own) or left
        with a PASS, which no COMMIT follows. It comes before a builder's second part and before
        a bazaar's supply."""
        if message.type == "DEPLOY_MEEPLE":
            return _is_wagon(message)
        following = walk.following(index)
        return (
            message.type == "PASS"
            and self.keeps_tile(walk, message)
            and (following is None or following.type != "COMMIT")
        )

    def figure_places(self, state: GameState, found: Counter[tuple[int, str, Place]]) -> None:
        if "wagon" in state.ext:
            for player, source in wagons(state).waiting:
                found[(player, "wagon", (WAITING, source))] += 1


def _is_wagon(message: JczMessage) -> bool:
    return ".wagon." in str(message.payload.get("meepleId", ""))


def _wagon(writer: Writer, seat: int) -> Place:
    """Where the player's wagon stands, as the writer's ids know it."""
    return next(
        where for (owner, kind, _), where in writer.ids.out.items() if (owner, kind) == (seat, "wagon")
    )


def _barn_field(state: GameState, pointer: JczPointer) -> str:
    """Our name for a barn's place: JCloisterZone names the field of the tile whose north-west
    corner the barn stands on; we name the field of the tile just placed at that corner."""
    placed = state.placed
    if placed is None:
        raise JczError("a barn with no tile placed")
    dx, dy = pointer.position[0] - placed.pos[0], pointer.position[1] - placed.pos[1]
    corner = {(0, 0): "NW", (1, 0): "NE", (0, 1): "SW", (1, 1): "SE"}.get((dx, dy))
    sid = -1 if corner is None else corner_field(state.board, placed.pos, corner)
    if sid < 0:
        raise JczError(f"no corner of the tile just placed at {pointer.position}")
    return placed.location(sid)


def _barn_pointer(writer: Writer, state: GameState, x: int, y: int, location: str) -> dict[str, Any]:
    """JCloisterZone puts a barn on the tile whose north-west corner is the barn's crossing and
    names that tile's field there (the barn at `location` of the tile at (x, y), ours)."""
    board = state.board
    placed = board.at[(x, y)]
    segment = placed.segment(location)
    for corner, (dx, dy) in (("NW", (0, 0)), ("NE", (1, 0)), ("SW", (0, 1)), ("SE", (1, 1))):
        mine = corner_field(board, placed.pos, corner)
        at = (x + dx, y + dy)
        theirs = corner_field(board, at, "NW")
        if mine == segment and crossing_field(board, at) >= 0:
            return writer.pointer(state, *at, board.at[at].location(theirs))
    raise JczExportError(f"no crossing for the barn on {location} of {(x, y)}")


MAPPING = AbbeyMayor()
