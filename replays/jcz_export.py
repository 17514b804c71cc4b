"""Our games as JCloisterZone 5.x saves (``.jcz``), the reverse of `replays.jcz`.

A save is JCloisterZone's setup (sets, elements, rules, start tile), the players and the message
log its client would have sent for the same decisions. The pile goes into
``gameAnnotations.drawOrder``: the client hands it to the engine as a forced draw order, so the
tiles come in exactly our order, whatever the random numbers in the save.

Each decision event of ours becomes the message JCloisterZone expects for it, with a ``COMMIT``
wherever its engine closes a turn part or a phase of a set's own. Figures are named by JCloisterZone's
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
from domain.moves import expected_step
from domain.readings import flat, switch
from domain.replay import DECISIONS, describe
from domain.rules import RuleSet
from domain.state import GameState, segment_location
from domain.turns import automatic_event
from replays.jcz import (
    JCZ_RULE_DEFAULTS,
    JCZ_RULE_SWITCHES,
    JczSave,
    jcz_rules,
    replay_jcz,
)
from replays.jcz_draws import plan_draws
from replays.jcz_format import JczExportError as JczExportError
from replays.jcz_mapping import JczSet, Place
from replays.jcz_names import jcz_location as jcz_location, segment_pointer
from replays.jcz_sets import FIGURES, MAPPINGS, in_play

APP_VERSION = "5.12.1"  # the client whose save format this is
_JCZ_FIGURE = {ours: theirs for theirs, ours in FIGURES.items()}
Key = Place  # where a figure stands: (x, y, location), or a place of a set's own


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

    def _first(self, seat: int, kind: str, key: Key, latest: bool = False) -> tuple[int, str, int]:
        found = [ident for ident, where in self.out.items() if ident[:2] == (seat, kind) and where == key]
        if not found:
            raise JczExportError(f"no {kind} of player {seat} at {key}")
        return found[-1] if latest else found[0]

    def at(self, seat: int, kind: str, key: Key, latest: bool = False) -> str:
        """The id of the figure of `seat` and `kind` standing at `key`: of several (prisoners of
        one jailer, two followers in one place), the first that came there, or the last."""
        return self.name(*self._first(seat, kind, key, latest))

    def move(self, seat: int, kind: str, old: Key, new: Key) -> None:
        for ident, where in self.out.items():
            if ident[:2] == (seat, kind) and where == old:
                del self.out[ident]
                self.out[ident] = new  # the last to come there
                return

    def release(self, seat: int, kind: str, key: Key, latest: bool = False) -> None:
        """The first figure of `seat` and `kind` that came to `key` (or the last) goes home: a
        prisoner freed by an exchange or a ransom (JCloisterZone frees the first taken of the kind)."""
        ident = self._first(seat, kind, key, latest)
        del self.out[ident]
        self.home[(seat, kind)] = sorted([*self.home[(seat, kind)], ident[2]])

    def settle(self, state: GameState, mappings: tuple[JczSet, ...]) -> None:
        """Bring the ids in line with the board: a figure no longer where it stood went elsewhere
        (waiting to move) if a new place of its player and kind appeared, else home."""
        present = figure_places(state, mappings)
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


def figure_places(state: GameState, mappings: tuple[JczSet, ...]) -> Counter[tuple[int, str, Key]]:
    """Every player's figure away from home, by (seat, kind, where): those on the board's features
    (a figure a set turns into something else stays on its feature, so it is among them), and
    those the sets in play
    keep elsewhere."""
    board = state.board
    found: Counter[tuple[int, str, Key]] = Counter()
    for feature in board.graph.roots():
        for player, sid, kind in feature.figures:
            if player >= 0:
                found[(player, kind, segment_location(board, sid))] += 1
    for mapping in mappings:
        mapping.figure_places(state, found)
    return found


class Writer:
    """Turns our decisions, in order, into JCloisterZone's messages."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.mappings = in_play(game.state.expansions)
        self.ids = MeepleIds(game.state)
        self.messages: list[dict[str, Any]] = []
        self.follow = 0  # events of the last command still to come
        # The save's `initialRandom`: JCloisterZone's generator before any message reseeds it,
        # which a set's draw of chance in the first turn may need to set.
        self.initial_random = _random(-1 & 0xFFFF)

    def send(self, kind: str, player: int, payload: dict[str, Any]) -> None:
        self.messages.append(
            {"type": kind, "payload": payload, "player": player, "clock": 1000 * (len(self.messages) + 1)}
        )

    def commit(self, player: int) -> None:
        # The client's server stamps each COMMIT with a random number; with a forced draw order
        # nothing reads it, so a fixed one keeps a save reproducible.
        self.send("COMMIT", player, {"random": _random(len(self.messages))})

    def pointer(self, state: GameState, x: int, y: int, location: str) -> dict[str, Any]:
        """A feature pointer: a set's own place, or a segment's."""
        for mapping in self.mappings:
            found = mapping.pointer(state, x, y, location)
            if found is not None:
                return found
        return segment_pointer(state, x, y, location)

    def figure_pointer(self, state: GameState, kind: str, x: int, y: int, location: str) -> dict[str, Any]:
        """The pointer JCloisterZone names a figure standing at a place by: the one its deployment
        used (a set may name its figure's place otherwise than its segment)."""
        for mapping in self.mappings:
            found = mapping.figure_pointer(self, state, kind, x, y, location)
            if found is not None:
                return found
        return self.pointer(state, x, y, location)

    @staticmethod
    def placement(tile: str, rotation: int, x: int, y: int) -> dict[str, Any]:
        return {"tileId": tile, "rotation": f"R{rotation}", "position": [x, y]}

    def event(self, event: ev.Event) -> None:
        state = self.game.state
        step = expected_step(state)
        # A player's decision, unless the engine records this event itself or it is one more
        # event of the last command (a piece a placement brings, an answer nobody else can give).
        decided = not self.follow and automatic_event(state) is None
        if self.follow:
            self.follow -= 1
        command: Command | None = None
        if decided:
            seat, command = DECISIONS[type(event)].command(event)
            self.follow = len(decide(state, seat, command)) - 1
            self.decide(state, seat, command, event)
        self.game.replay(event)
        for mapping in self.mappings:
            mapping.moved(self, event)
        self.ids.settle(state, self.mappings)
        if isinstance(event, ev.TurnEnded):
            self.commit(event.player)
        elif any(mapping.commits(event, command, step) for mapping in self.mappings):
            assert step is not None
            self.commit(step.player)

    def decide(self, state: GameState, seat: int, command: Command, event: ev.Event) -> None:
        """The message(s) of one decision, against the state before it."""
        if any(mapping.messages(self, state, seat, command, event) for mapping in self.mappings):
            return
        if isinstance(command, PlaceTile):
            assert isinstance(event, ev.TilePlaced)
            self.send("PLACE_TILE", seat, self.placement(event.tile, command.rotation, command.x, command.y))
        elif isinstance(command, Deploy):
            assert isinstance(event, ev.FollowerDeployed)
            meeple = self.ids.take(seat, event.figure, (event.x, event.y, event.location))
            where = self.pointer(state, event.x, event.y, event.location)
            self.send("DEPLOY_MEEPLE", seat, {"pointer": where, "meepleId": meeple})
        elif isinstance(command, Pass):
            self.send("PASS", seat, {})
        else:
            raise JczExportError(f"JCloisterZone has no message we read for {type(command).__name__}")


def _random(index: int) -> float:
    """A number in [0, 1) of the kind JavaScript's Math.random gives, fixed by `index`."""
    digest = hashlib.sha256(index.to_bytes(8, "big")).digest()
    return (int.from_bytes(digest[:7], "big") >> 4) / 2**52


def jcz_setup(started: ev.GameStarted) -> dict[str, Any]:
    """JCloisterZone's setup for our sets and rule set."""
    rules = started.rules
    # JCloisterZone plays with farmers whenever the key is there, whatever its value.
    elements: dict[str, Any] = {"small-follower": rules.followers}
    if rules.farmers:
        elements["farmers"] = True
    for mapping in in_play(started.expansions):
        for name, element in sorted(mapping.elements.items()):
            if not element.written or (element.part is not None and element.part in rules.without):
                continue
            if element.number is not None:
                elements[name] = switch(rules, element.number)
            else:
                elements[name] = 1 if element.one else True
    chosen = {
        name: value for (name, value), switches in JCZ_RULE_SWITCHES.items() if _applies(rules, switches)
    }
    return {
        "sets": {MAPPINGS[code].set_key(): 1 for code in started.expansions},
        "elements": elements,
        "rules": {name: value for name, value in chosen.items() if JCZ_RULE_DEFAULTS.get(name) != value},
        "timer": None,
        "start": [{"tile": started.start_tile, "x": 0, "y": 0, "rotation": 0}],
        "options": {},
    }


def _applies(rules: RuleSet, switches: dict[str, Any]) -> bool:
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
        "initialRandom": writer.initial_random,
        "created": "1970-01-01T00:00:00.000Z",
        "clock": 1000 * len(writer.messages),
        "setup": jcz_setup(started),
        "players": [
            {"name": name, "slot": seat, "clientId": f"carc-{seat}"}
            for seat, name in enumerate(started.players)
        ],
        "replay": writer.messages,
        # The pile as it was drawn: a tile held back (R-PD-2) is drawn later than its place in it;
        # tiles a part took off the pile's end without a draw come last, as they lay.
        # Our game's id and seed: importing the save gives back this very game, stored once.
        "gameAnnotations": {
            "drawOrder": _as_drawn(started.draw_order, writer.game.state.draw_order),
            "carc": {
                "game": str(started.originator_id),
                "seed": started.seed,
                "rules": msgspec.to_builtins(started.rules),
            },
        },
    }


def _as_drawn(pile: Sequence[str], drawn: Sequence[str]) -> list[str]:
    """The order the game drew its pile in, then the tiles of the pile it never drew nor kept (taken
    off the end), in the pile's order."""
    surplus = Counter(pile) - Counter(drawn)
    tail: list[str] = []
    for tile in reversed(pile):
        if surplus[tile] > 0:
            surplus[tile] -= 1
            tail.append(tile)
    return [*drawn, *reversed(tail)]


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
        plan = plan_draws(save)
        again = replay_jcz(
            save, plan.order, game_id=started.originator_id, randoms=plan.randoms
        ).collect_events()
        _same_game(list(events), again)
    except UserError as e:
        why = (
            f" (the game was played under {readings}, which JCloisterZone reads otherwise)"
            if readings
            else ""
        )
        way = "; games played by its reading (`carc play --jcz`) export" if readings else ""
        raise JczExportError(f"JCloisterZone would not replay this game{why}: {e}{way}") from e
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
