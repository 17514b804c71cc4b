"""Our games as JCloisterZone 5.x saves (``.jcz``), the reverse of `replays.jcz`.

A save is JCloisterZone's setup (sets, elements, rules, start tile), the players and the message
log its client would have sent for the same decisions. The pile goes into
``gameAnnotations.drawOrder``: the client hands it to the engine as a forced draw order, so the
tiles come in exactly our order, whatever the random numbers in the save.

Each decision event of ours becomes the message JCloisterZone expects for it, with a ``COMMIT``
wherever its engine closes a turn part or a wagon's move. Figures are named by JCloisterZone's
meeple ids (``seat.kind.n``, numbered from 1, the first in supply used first, as its client
does), so the ids in our log are tracked: which are at home, which stand where.

`export_jcz` checks its own work: the save is imported again under JCloisterZone's reading and
must give back the same events. A game JCloisterZone would have played differently (one played
under another reading of the rules, or with a decision its client cannot send) is refused,
naming the first event that differs.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from typing import Any

import msgspec

from domain import events as ev
from domain.aggregate import Game
from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.decide import decide
from domain.errors import UserError
from domain.expansions.abbey import PlaceAbbey
from domain.expansions.barn import corner_field, crossing_field
from domain.expansions.bazaars import Bid, Buy, ChooseBazaarTile, Sell, bazaars
from domain.expansions.bridges import PlaceBridge
from domain.expansions.castles import ChooseCastle, ChooseCastleTarget
from domain.expansions.dragon import MoveDragon
from domain.expansions.fairy import ON_TILE as FAIRY_ON_TILE, MoveFairy
from domain.expansions.portal_princess import RemoveKnight
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
    TowerGuarded,
    towers,
)
from domain.expansions.wagon import MoveWagon, WagonMoved, wagons
from domain.geometry import EDGE_BY_NAME, HALF_BY_NAME
from domain.moves import expected_step
from domain.readings import flat, switch
from domain.replay import DECISIONS, describe
from domain.rules import RuleSet
from domain.state import GameState, segment_location
from domain.tiles import Kind
from domain.turns import automatic_event
from replays.jcz import (
    JCZ_EXPANSIONS,
    JCZ_FIGURES,
    JCZ_HALVES,
    JCZ_RULE_DEFAULTS,
    JCZ_RULE_SWITCHES,
    PART_ELEMENTS,
    SUPPORTED,
    JczSave,
    jcz_rules,
    replay_jcz,
)
from replays.jcz_draws import plan_draws

APP_VERSION = "5.12.1"  # the client whose save format this is
ABBEY_TILE = "AM/A"
_JCZ_FIGURE = {ours: theirs for theirs, ours in JCZ_FIGURES.items()}
_FEATURES = {Kind.CITY: "City", Kind.ROAD: "Road", Kind.FIELD: "Field", Kind.CLOISTER: "Monastery"}
# JCloisterZone's names of edge sets: one edge, two, all but one, all four.
_EDGE_SETS = {
    frozenset("N"): "N",
    frozenset("E"): "E",
    frozenset("S"): "S",
    frozenset("W"): "W",
    frozenset("NW"): "NW",
    frozenset("SW"): "SW",
    frozenset("SE"): "SE",
    frozenset("NE"): "NE",
    frozenset("WE"): "WE",
    frozenset("NS"): "NS",
    frozenset("NWSE"): "NWSE",
    **{frozenset("NESW") - {edge}: f"_{edge}" for edge in "NESW"},
}
_FIELD_ATOMS = ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")  # JCloisterZone's order
_OUR_HALF = {ours: theirs for theirs, ours in JCZ_HALVES.items()}
# Setup elements whose value is a number of figures, with the rule-set field giving it.
_COUNTED = {
    "builder": "builders",
    "pig": "pigs",
    "big-follower": "big_followers",
    "mayor": "mayors",
    "wagon": "wagons",
    "barn": "barns",
}
# Elements JCloisterZone's client writes as a count although each is one switch.
_ONE = frozenset({"bridge", "castle", "abbey", "dragon", "fairy", "tower"})


class JczExportError(UserError):
    """A game that cannot be written as a JCloisterZone save."""


Key = tuple[Any, ...]  # where a figure stands: (x, y, location), (x, y, "tower"), ("prison", jailer), …


class MeepleIds:
    """JCloisterZone's ids of each player's figures: which are at home, where the others stand."""

    def __init__(self, state: GameState) -> None:
        self.home: dict[tuple[int, str], list[int]] = {}
        for seat in range(len(state.players)):
            self.home[(seat, "follower")] = list(range(1, state.supply[seat] + 1))
            for kind, counts in state.ext.get("figures", {}).items():
                self.home[(seat, kind)] = list(range(1, counts[seat] + 1))
        # Where each figure away from home stands, in the order they came there: at a prison the
        # first is the one taken first, whom JCloisterZone frees first.
        self.out: dict[tuple[int, str, int], Key] = {}

    def name(self, seat: int, kind: str, number: int) -> str:
        return f"{seat}.{_JCZ_FIGURE[kind]}.{number}"

    def take(self, seat: int, kind: str, key: Key) -> str:
        """The id of the figure a player deploys: the first at home."""
        free = self.home.get((seat, kind))
        if not free:
            raise JczExportError(f"player {seat} deploys a {kind} with none at home")
        number = free.pop(0)
        self.out[(seat, kind, number)] = key
        return self.name(seat, kind, number)

    def _first(self, seat: int, kind: str, key: Key) -> tuple[int, str, int]:
        for ident, where in self.out.items():
            if ident[:2] == (seat, kind) and where == key:
                return ident
        raise JczExportError(f"no {kind} of player {seat} at {key}")

    def at(self, seat: int, kind: str, key: Key) -> str:
        """The id of the figure of `seat` and `kind` standing at `key`: of several (prisoners of
        one jailer), the first that came there."""
        return self.name(*self._first(seat, kind, key))

    def move(self, seat: int, kind: str, old: Key, new: Key) -> None:
        for ident, where in self.out.items():
            if ident[:2] == (seat, kind) and where == old:
                del self.out[ident]
                self.out[ident] = new  # the last to come there
                return

    def release(self, seat: int, kind: str, key: Key) -> None:
        """The first figure of `seat` and `kind` that came to `key` goes home: a prisoner freed by
        an exchange or a ransom (JCloisterZone frees the first taken of the kind)."""
        ident = self._first(seat, kind, key)
        del self.out[ident]
        self.home[(seat, kind)] = sorted([*self.home[(seat, kind)], ident[2]])

    def settle(self, state: GameState) -> None:
        """Bring the ids in line with the board: a figure no longer where it stood went elsewhere
        (a wagon waiting to move) if a new place of its player and kind appeared, else home."""
        present = figure_places(state)
        lost = []
        for ident, where in self.out.items():
            seat, kind, _ = ident
            if present[(seat, kind, where)] > 0:
                present[(seat, kind, where)] -= 1
            else:
                lost.append(ident)
        for ident in lost:
            seat, kind, number = ident
            new = next(
                (p for p, n in present.items() if n > 0 and p[:2] == (seat, kind)),
                None,
            )
            if new is not None:
                present[new] -= 1
                self.out[ident] = new[2]
            else:
                del self.out[ident]
                self.home[(seat, kind)] = sorted([*self.home[(seat, kind)], number])


def figure_places(state: GameState) -> Counter[tuple[int, str, Key]]:
    """Every player's figure away from home, by (seat, kind, where); a castle's knights stay on
    its city, so they are among the board's."""
    board = state.board
    found: Counter[tuple[int, str, Key]] = Counter()
    for feature in board.graph.roots():
        for player, sid, kind in feature.figures:
            if player >= 0:
                found[(player, kind, segment_location(board, sid))] += 1
    if "tower" in state.ext:
        found_towers = towers(state)
        for (x, y), (player, kind) in found_towers.guards.items():
            found[(player, kind, (x, y, ON_TOWER))] += 1
        for jailer, held in enumerate(found_towers.prisoners):
            for player, kind in held:
                found[(player, kind, ("prison", jailer))] += 1
    if "wagon" in state.ext:
        for player, source in wagons(state).waiting:
            found[(player, "wagon", ("waiting", source))] += 1
    return found


def jcz_location(location: str) -> str:
    """JCloisterZone's name for one of our locations (both board-oriented)."""
    if location in ("cloister", "inner", ON_TOWER):
        return "I"
    if location == "inner2":
        return "II"
    tokens = location.split("+")
    if all(t in HALF_BY_NAME for t in tokens):
        atoms = {_OUR_HALF[t] for t in tokens}
        return ".".join(a for a in _FIELD_ATOMS if a in atoms)
    if all(t in EDGE_BY_NAME for t in tokens):
        return _EDGE_SETS[frozenset(tokens)]
    raise JczExportError(f"no JCloisterZone name for the location {location}")


def pointer(state: GameState, x: int, y: int, location: str) -> dict[str, Any]:
    """A feature pointer: position, location and kind of feature."""
    if location == ON_TOWER:
        return {"position": [x, y], "location": "I", "feature": "Tower"}
    placed = state.board.at[(x, y)]
    kind = next(k for name, _, k in placed.locations() if name == location)
    if kind not in _FEATURES:
        raise JczExportError(f"no JCloisterZone feature for {location} of {(x, y)}")
    return {"position": [x, y], "location": jcz_location(location), "feature": _FEATURES[kind]}


class Writer:
    """Turns our decisions, in order, into JCloisterZone's messages."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.ids = MeepleIds(game.state)
        self.messages: list[dict[str, Any]] = []
        self.follow = 0  # events of the last command still to come

    def send(self, kind: str, player: int, payload: dict[str, Any]) -> None:
        self.messages.append(
            {"type": kind, "payload": payload, "player": player, "clock": 1000 * (len(self.messages) + 1)}
        )

    def commit(self, player: int) -> None:
        # The client's server stamps each COMMIT with a random number; with a forced draw order
        # nothing reads it, so a fixed one keeps a save reproducible.
        self.send("COMMIT", player, {"random": _random(len(self.messages))})

    def event(self, event: ev.Event) -> None:
        state = self.game.state
        step = expected_step(state)
        # A player's decision, unless the engine records this event itself or it is one more
        # event of the last command (a placement's forced bridge, an unchallenged purchase).
        decided = not self.follow and automatic_event(state) is None
        if self.follow:
            self.follow -= 1
        command: Command | None = None
        if decided:
            seat, command = DECISIONS[type(event)].command(event)
            self.follow = len(decide(state, seat, command)) - 1
            self.decide(state, seat, command, event)
        self.game.replay(event)
        if isinstance(event, ev.FollowerDeployed | TowerGuarded):
            pass  # registered by `decide`, where the id was taken
        elif isinstance(event, FollowerCaptured) and event.owner != event.player:
            old = (event.x, event.y, event.location)
            self.ids.move(event.owner, event.figure, old, ("prison", event.player))
        elif isinstance(event, PrisonersExchanged):
            self.ids.release(event.player, event.figure, ("prison", event.other))
            self.ids.release(event.other, event.other_figure, ("prison", event.player))
        elif isinstance(event, RansomPaid):
            self.ids.release(event.player, event.figure, ("prison", event.jailer))
        elif isinstance(event, WagonMoved):
            self.ids.move(
                event.player, "wagon", self._wagon(event.player), (event.x, event.y, event.location)
            )
        self.ids.settle(state)
        if isinstance(event, ev.TurnEnded):
            self.commit(event.player)
        elif isinstance(event, WagonMoved) or (isinstance(command, Pass) and step and step.step == "abbey"):
            # JCloisterZone closes a wagon's move and an abbey declined with a commit of their own
            # (a wagon left where it stands is not).
            assert step is not None
            self.commit(step.player)

    def _wagon(self, seat: int) -> Key:
        return next(
            where for (owner, kind, _), where in self.ids.out.items() if (owner, kind) == (seat, "wagon")
        )

    def decide(self, state: GameState, seat: int, command: Command, event: ev.Event) -> None:
        """The message(s) of one decision, against the state before it."""
        send = self.send
        if isinstance(command, PlaceTile):
            assert isinstance(event, ev.TilePlaced)
            send("PLACE_TILE", seat, _placement(event.tile, command.rotation, command.x, command.y))
        elif isinstance(command, PlaceAbbey):
            send("PLACE_TILE", seat, _placement(ABBEY_TILE, command.rotation, command.x, command.y))
        elif isinstance(command, Deploy):
            assert isinstance(event, ev.FollowerDeployed)
            key = (event.x, event.y, event.location)
            meeple = self.ids.take(seat, event.figure, key)
            if event.figure == "barn":
                where = _barn_pointer(state, event)
            else:
                where = pointer(state, event.x, event.y, event.location)
            send("DEPLOY_MEEPLE", seat, {"pointer": where, "meepleId": meeple})
        elif isinstance(command, GuardTower):
            meeple = self.ids.take(seat, command.figure, (command.x, command.y, ON_TOWER))
            where = pointer(state, command.x, command.y, ON_TOWER)
            send("DEPLOY_MEEPLE", seat, {"pointer": where, "meepleId": meeple})
        elif isinstance(command, MoveWagon):
            where = pointer(state, command.x, command.y, command.location)
            meeple = self.ids.at(seat, "wagon", self._wagon(seat))
            send("DEPLOY_MEEPLE", seat, {"pointer": where, "meepleId": meeple})
        elif isinstance(command, Pass):
            send("PASS", seat, {})
        elif isinstance(command, PlaceBridge):
            where = {"position": [command.x, command.y], "location": "NS" if command.axis == "NS" else "WE"}
            send("PLACE_TOKEN", seat, {"token": "BRIDGE", "pointer": {**where, "feature": "Road"}})
        elif isinstance(command, ChooseCastle):
            where = pointer(state, command.x, command.y, command.location)
            send("PLACE_TOKEN", seat, {"token": "CASTLE", "pointer": where})
        elif isinstance(command, ChooseCastleTarget):
            pass  # JCloisterZone decides it alone (JCZ-3); the re-import checks it chose the same
        elif isinstance(command, ChooseBazaarTile):
            send("BAZAAR_BID", seat, {"supplyIndex": command.index, "price": command.bid})
        elif isinstance(command, Bid):
            auction = bazaars(state).auction
            assert auction is not None
            send("BAZAAR_BID", seat, {"supplyIndex": auction.index, "price": command.amount})
        elif isinstance(command, Buy | Sell):
            send("BAZAAR_BUY_OR_SELL", seat, {"value": "BUY" if isinstance(command, Buy) else "SELL"})
        elif isinstance(command, MoveDragon):
            send("MOVE_NEUTRAL_FIGURE", seat, {"figureId": "dragon.1", "to": [command.x, command.y]})
        elif isinstance(command, MoveFairy) and command.location == FAIRY_ON_TILE:
            send("MOVE_NEUTRAL_FIGURE", seat, {"figureId": "fairy.1", "to": [command.x, command.y]})
        elif isinstance(command, MoveFairy):
            where = pointer(state, command.x, command.y, command.location)
            meeple = self.ids.at(seat, command.figure, (command.x, command.y, command.location))
            send("MOVE_NEUTRAL_FIGURE", seat, {"figureId": "fairy.1", "to": _meeple_pointer(where, meeple)})
        elif isinstance(command, RemoveKnight | CaptureFollower):
            where = pointer(state, command.x, command.y, command.location)
            key = (command.x, command.y, command.location)
            meeple = self.ids.at(command.owner, command.figure, key)
            if isinstance(command, RemoveKnight):
                send("RETURN_MEEPLE", seat, {"source": "PRINCESS", "pointer": _meeple_pointer(where, meeple)})
            else:
                send("CAPTURE_FOLLOWER", seat, {"pointer": _meeple_pointer(where, meeple)})
        elif isinstance(command, PayRansom):
            meeple = self.ids.at(seat, command.figure, ("prison", command.jailer))
            send("PAY_RANSOM", seat, {"meepleId": meeple})
        elif isinstance(command, ExchangePrisoner):
            exchange = towers(state).exchange
            assert exchange is not None
            meeple = self.ids.at(seat, command.figure, ("prison", exchange[1]))
            send("EXCHANGE_FOLLOWER", seat, {"meepleId": meeple})
        elif isinstance(command, PlaceTowerPiece):
            where = {"position": [command.x, command.y], "feature": "Tower", "location": "I"}
            send("PLACE_TOKEN", seat, {"token": "TOWER_PIECE", "pointer": where})
        else:
            raise JczExportError(f"JCloisterZone has no message we read for {type(command).__name__}")


def _placement(tile: str, rotation: int, x: int, y: int) -> dict[str, Any]:
    return {"tileId": tile, "rotation": f"R{rotation}", "position": [x, y]}


def _meeple_pointer(where: dict[str, Any], meeple: str) -> dict[str, Any]:
    return {"featurePointer": where, "meepleId": meeple}


def _barn_pointer(state: GameState, event: ev.FollowerDeployed) -> dict[str, Any]:
    """JCloisterZone puts a barn on the tile whose north-west corner is the barn's crossing and
    names that tile's field there."""
    board = state.board
    placed = board.at[(event.x, event.y)]
    segment = placed.segment(event.location)
    for corner, (dx, dy) in (("NW", (0, 0)), ("NE", (1, 0)), ("SW", (0, 1)), ("SE", (1, 1))):
        mine = corner_field(board, placed.pos, corner)
        at = (event.x + dx, event.y + dy)
        theirs = corner_field(board, at, "NW")
        if mine == segment and crossing_field(board, at) >= 0:
            return pointer(state, *at, board.at[at].location(theirs))
    raise JczExportError(f"no crossing for the barn on {event.location} of {(event.x, event.y)}")


def _random(index: int) -> float:
    """A number in [0, 1) of the kind JavaScript's Math.random gives, fixed by `index`."""
    digest = hashlib.sha256(index.to_bytes(8, "big")).digest()
    return (int.from_bytes(digest[:7], "big") >> 4) / 2**52


def jcz_setup(started: ev.GameStarted) -> dict[str, Any]:
    """JCloisterZone's setup for our sets and rule set."""
    missing = [code for code in started.expansions if code not in SUPPORTED]
    if missing:
        raise JczExportError(f"JCloisterZone saves of {', '.join(missing)} are not supported")
    rules = started.rules
    # JCloisterZone plays with farmers whenever the key is there, whatever its value.
    elements: dict[str, Any] = {"small-follower": rules.followers}
    if rules.farmers:
        elements["farmers"] = True
    for code in started.expansions:
        for element in sorted(JCZ_EXPANSIONS[code][1]):
            part = next((p for p, e in PART_ELEMENTS.items() if e == element), None)
            if (part is not None and part in rules.without) or element in ("small-follower", "farmers"):
                continue
            if element in _COUNTED:
                elements[element] = switch(rules, _COUNTED[element])
            elif element == "pig-herd":
                continue  # a figure of a tile none of our sets has
            else:
                elements[element] = 1 if element in _ONE else True
    chosen = {
        name: value for (name, value), switches in JCZ_RULE_SWITCHES.items() if _applies(rules, switches)
    }
    return {
        "sets": {f"{JCZ_EXPANSIONS[code][0]}:1": 1 for code in started.expansions},
        "elements": elements,
        "rules": {name: value for name, value in chosen.items() if JCZ_RULE_DEFAULTS.get(name) != value},
        "timer": None,
        "start": [{"tile": started.start_tile, "x": 0, "y": 0, "rotation": 0}],
        "options": {},
    }


def _applies(rules: Any, switches: dict[str, Any]) -> bool:
    return all(switch(rules, name) == value for name, value in switches.items())


def jcz_document(events: Sequence[ev.Event]) -> dict[str, Any]:
    """The save of a game, as the JSON document the client writes (not yet checked)."""
    if not events or not isinstance(events[0], ev.GameStarted):
        raise JczExportError("the game's first event is not GameStarted")
    started = events[0]
    if not started.draw_order:
        raise JczExportError("the game's pile is not in its log (a game whose pile is kept secret elsewhere)")
    game = Game(started.originator_id)
    game.replay(started)
    writer = Writer(game)
    for event in events[1:]:
        writer.event(event)
    return {
        "appVersion": APP_VERSION,
        "gameId": started.originator_id.hex[:16],
        "name": "",
        "initialRandom": _random(-1 & 0xFFFF),
        "created": "1970-01-01T00:00:00.000Z",
        "clock": 1000 * len(writer.messages),
        "setup": jcz_setup(started),
        "players": [
            {"name": name, "slot": seat, "clientId": f"carc-{seat}"}
            for seat, name in enumerate(started.players)
        ],
        "replay": writer.messages,
        # The pile as it was drawn: a tile held back (R-PD-2) is drawn later than its place in it.
        "gameAnnotations": {"drawOrder": list(writer.game.state.draw_order)},
    }


def export_jcz(events: Sequence[ev.Event]) -> bytes:
    """The game as a JCloisterZone save, checked by importing it again: the same events must come
    back, or JczExportError names the first that does not."""
    document = jcz_document(events)
    data = msgspec.json.encode(document)
    save = msgspec.json.decode(data, type=JczSave)
    started = events[0]
    assert isinstance(started, ev.GameStarted)
    readings = _readings_apart(started.rules, jcz_rules(save))
    try:
        again = replay_jcz(save, plan_draws(save).order, game_id=started.originator_id).collect_events()
        _same_game(list(events), again)
    except UserError as e:
        why = (
            f" (the game was played under {readings}, which JCloisterZone reads otherwise)"
            if readings
            else ""
        )
        raise JczExportError(f"JCloisterZone would not replay this game{why}: {e}") from e
    return data


def _readings_apart(ours: RuleSet, theirs: RuleSet) -> str:
    """The switches of our rule set that JCloisterZone's reading sets otherwise, as `name=value`."""
    return ", ".join(
        f"{name}={value}"
        for name, value in flat(ours).items()
        if name != "without" and value != switch(theirs, name)
    )


def _same_game(ours: list[ev.Event], theirs: list[ev.Event]) -> None:
    for index, (a, b) in enumerate(zip(ours[1:], theirs[1:], strict=False), start=2):
        if a != b:
            raise JczExportError(
                f"it would play it otherwise from event {index}: ours {describe(a)}, theirs {describe(b)}"
            )
    if len(ours) != len(theirs):
        raise JczExportError(f"its replay has {len(theirs)} events, ours {len(ours)}")
