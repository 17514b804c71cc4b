"""JCloisterZone saved games (``.jcz``): reading them and replaying them through our engine.

A save holds the setup (sets, elements, rules, start tile), the players and the message log the
client sent (PLACE_TILE, DEPLOY_MEEPLE, PASS, COMMIT, …). Positions use the same axes as ours
(x east, y south) and rotations are clockwise, so placements map one to one; feature locations
are translated to our board-oriented segment names. 5.x saves are read as they are; 4.x saves
(the older schema of `reference/jcz/legacy-4x`) are converted to the same structures on reading.

The reference games add a top-level ``oracle`` block (what JCloisterZone computed) and the
engine's own fixtures a ``test`` block (assertion sentences); both are typed in
`replays.jcz_format`.

Replaying drives a visitor, in the manner of python-chess's PGN reader: `placement` sees each
tile-placement decision before it is made and `committed` each end of a turn part, so callers
can compare our legal placements and scores with what JCloisterZone offered and computed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec
from mypy_extensions import mypyc_attr

from domain.aggregate import Game
from domain.catalogue import START_TILE
from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.events import Event
from domain.expansions import SETS, start_tile_of
from domain.moves import Decision, expected_step, may_pass
from domain.readings import checked, rule_set, switch
from domain.rules import RuleSet
from domain.state import GameState, Phase
from domain.tiles import TILES
from domain.turns import Chance
from replays.jcz_format import (
    Jcz4Save as Jcz4Save,
    Jcz4Setup as Jcz4Setup,
    Jcz4Slot as Jcz4Slot,
    JczAnnotations as JczAnnotations,
    JczDecision as JczDecision,
    JczDraw as JczDraw,
    JczError as JczError,
    JczMessage as JczMessage,
    JczOracle as JczOracle,
    JczPart as JczPart,
    JczPlayer as JczPlayer,
    JczPointer as JczPointer,
    JczRefused as JczRefused,
    JczSave as JczSave,
    JczScore as JczScore,
    JczSetup as JczSetup,
    JczStart as JczStart,
    JczTest as JczTest,
)
from replays.jcz_mapping import JczSet, commits_after
from replays.jcz_names import JCZ_HALVES as JCZ_HALVES, location_name as location_name
from replays.jcz_random import JczRandom, Seeded
from replays.jcz_sets import (
    ELEMENTS,
    FIGURES,
    MAPPINGS,
    PLACEMENT_STEPS,
    READING,
    RULE_SWITCHES,
    in_play,
)

# Switches of our rule set that reproduce how JCloisterZone 5.x plays (the specification's section 9), each
# set's from its mapping.
JCZ_READING: dict[str, Any] = dict(READING)
# JCloisterZone's setup rules we play, by (name, value): the rule-set switches each sets.
JCZ_RULE_SWITCHES: dict[tuple[str, Any], dict[str, Any]] = dict(RULE_SWITCHES)
SET_CODES = {m.tile_set: code for code, m in MAPPINGS.items()}  # JCloisterZone's tile sets -> our codes


def rule_switches(name: str, value: Any) -> dict[str, Any]:
    """The rule-set switches a save's setup rule sets; none for a rule we do not play."""
    if not isinstance(value, str | int | float | bool | None):  # a list or an object: no value of any rule
        return {}
    return JCZ_RULE_SWITCHES.get((name, value), {})


# The value JCloisterZone plays when a save leaves a rule out (the one that sets our defaults): an
# export leaves these out too.
JCZ_RULE_DEFAULTS: dict[str, Any] = {
    name: value
    for (name, value), switches in JCZ_RULE_SWITCHES.items()
    if all(switch(RuleSet(), field) == on for field, on in switches.items())
}


# What a message whose payload has the wrong shape (a field missing, a list where a number is
# due, an empty figure name) makes the replay raise; reported as the save being malformed.
MALFORMED = (KeyError, ValueError, TypeError, IndexError, AttributeError, RecursionError)


@contextmanager
def malformed_save(path: str | Path) -> Iterator[None]:
    """A save whose messages do not have the shapes JCloisterZone writes is refused as such."""
    try:
        yield
    except MALFORMED as e:
        raise JczError(f"{path}: a message is malformed ({type(e).__name__}: {e})") from None


# 4.x expansion names -> 5.x set ids; others are lower-cased, and `unsupported` names them.
_JCZ4_SETS = {m.legacy_name: m.tile_set for m in MAPPINGS.values() if m.legacy_name}
_JCZ4_END = "#END"  # marks the end of a 4.x forced draw order: the pack is empty there


def _from_4x(old: Jcz4Save) -> JczSave:
    """A 4.x save in 5.x terms: tile ids `BA.Rr` become `BA/Rr`, `#END` becomes `endTurn`."""
    params = old.annotations.get("tilePack", {}).get("params", {})
    order = [_tile_id_4x(t) for t in params.get("drawOrder", [])]
    # The pack ends at `#END`; a log closed by GAME_OVER also ended with its forced draws.
    end = order.index(_JCZ4_END) if _JCZ4_END in order else None
    if end is None and any(m.type == "GAME_OVER" for m in old.replay):
        end = len(order)
    replay = []
    for m in old.replay:
        payload = m.payload
        if m.type == "PLACE_TILE":
            payload = {**payload, "tileId": _tile_id_4x(payload["tileId"])}
        replay.append(JczMessage(type=m.type, payload=payload))
    return JczSave(
        setup=JczSetup(
            sets={
                _JCZ4_SETS.get(name, name.lower()): copies for name, copies in old.setup.expansions.items()
            },
            rules=old.setup.rules,
            start=(JczStart(tile=START_TILE, x=0, y=0, rotation=0),),
        ),
        players=tuple(JczPlayer(name=s.nickname, slot=s.number) for s in old.slots),
        replay=tuple(replay),
        appVersion="4.x",
        gameAnnotations=JczAnnotations(drawOrder=tuple(order[:end]), endTurn=end) if order else None,
    )


def _tile_id_4x(old: str) -> str:
    return old if old == _JCZ4_END else old.replace(".", "/", 1)


# ---------------------------------------------------------------- reading


def read_jcz(path: str | Path) -> JczSave:
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise JczError(f"{path}: cannot read: {e.strerror}") from e
    try:
        return _DECODE_5X.decode(data)
    except msgspec.DecodeError as e:
        error: Exception = e
    except UnicodeDecodeError as e:
        raise JczError(f"{path}: not UTF-8 ({e.reason} at byte {e.start})") from None
    except RecursionError:
        raise JczError(f"{path}: nested too deeply") from None
    try:  # the older schema, tried only when the file is no 5.x save
        return _from_4x(_DECODE_4X.decode(data))
    except (msgspec.DecodeError, RecursionError):
        pass
    kind = "not a JCloisterZone save" if isinstance(error, msgspec.ValidationError) else "not JSON"
    raise JczError(f"{path}: {kind}: {error}")


_DECODE_5X = msgspec.json.Decoder(JczSave)
_DECODE_4X = msgspec.json.Decoder(Jcz4Save)


def set_name(key: str) -> str:
    """The tile set a `setup.sets` key names (`basic:1` -> `basic`)."""
    return key.split(":")[0]


def expansions_of(save: JczSave) -> tuple[str, ...]:
    """Our expansion codes in play: by their tile sets, or by their figures and tokens alone
    (an engine fixture may play a set's figures without its tiles)."""
    setup = save.setup
    found = {SET_CODES.get(set_name(key), set_name(key)) for key, copies in setup.sets.items() if copies > 0}
    for element, value in setup.elements.items():
        if value and element in ELEMENTS:
            found.add(ELEMENTS[element][0].code)
    ours = [code for code in MAPPINGS if code in found]
    return (*ours, *sorted(found - set(ours)))


def unsupported(save: JczSave) -> str | None:
    """What the save needs that our engine does not implement, or None if it can be replayed.

    Sets, elements and rules we do not know at all are named one by one, then what a set in play
    cannot replay of it (its mapping says).
    """
    setup = save.setup
    missing: list[str] = []
    for key, copies in setup.sets.items():
        if copies <= 0:
            continue
        if set_name(key) not in SET_CODES:
            missing.append(f"set {set_name(key)}")
        elif key.partition(":")[2] not in ("", "1"):  # the catalogue holds first editions only
            missing.append(f"set {key} (a later edition)")
    missing += [f"element {name}" for name, value in setup.elements.items() if value and name not in ELEMENTS]
    rules = setup.rules.items()
    missing += [f"rule {name}={value}" for name, value in rules if not rule_switches(name, value)]
    missing += [why for m in in_play(expansions_of(save)) if (why := m.unsupported(save))]
    if not 1 <= len(save.players) <= 6:
        missing.append(f"{len(save.players)} player(s) (1 to 6 supported)")
    start = start_tile_of(tuple(c for c in expansions_of(save) if c in SETS))
    if setup.start != (JczStart(tile=start, x=0, y=0, rotation=0),):  # R-BASE-2
        given = "; ".join(f"{s.tile} at ({s.x},{s.y}) rotated {s.rotation}" for s in setup.start)
        missing.append(f"start {given or 'without a tile'} (only {start} at (0,0) rotated 0)")
    return ", ".join(missing) or None


def jcz_rules(save: JczSave) -> RuleSet:
    """The rule set that replays a save: its follower count and farmers, the figure counts its
    elements give, the readings its setup rules select, read the JCZ way."""
    elements = save.setup.elements
    counts = {
        element.number: elements[name]
        for name, (_, element) in ELEMENTS.items()
        if element.number is not None and name in elements
    }
    return checked(
        rule_set(
            # Like any element, on when named at all (4.x saves name none: farmers on).
            farmers="farmers" in elements or not elements,
            without=_parts_left_out(save),
            solo=len(save.players) == 1,  # JCZ's rule tests play alone
            **counts,
            **{k: v for rule in save.setup.rules.items() for k, v in rule_switches(*rule).items()},
            **JCZ_READING,
        )
    )


def _parts_left_out(save: JczSave) -> tuple[str, ...]:
    """Parts of the sets in play whose setup element the save leaves out. JCloisterZone asks only
    whether the key is there (its client deletes a switched-off element): an element set to
    false still plays its part, and a figure counted 0 is a part in play without figures. 4.x saves name no
    elements: their sets play whole. An element the client adds whenever its set's tiles are chosen
    (`Element.enforced`) is never left out with them."""
    elements = save.setup.elements
    if not elements:
        return ()
    in_play = {name for code in expansions_of(save) for name in SETS.get(code, ())}
    chosen = {set_name(key) for key, copies in save.setup.sets.items() if copies > 0}
    return tuple(
        sorted(
            element.part
            for name, (mapping, element) in ELEMENTS.items()
            if element.part is not None
            and element.part in in_play
            and elements.get(name) is None
            and not (element.enforced and mapping.tile_set in chosen)
        )
    )


# ---------------------------------------------------------------- replaying


def _decided_apart(messages: Sequence[JczMessage], index: int) -> bool:
    """Whether the COMMIT at `index` is followed by decisions and another COMMIT before any tile."""
    following = messages[index + 1 :]
    for n, message in enumerate(following):
        if message.type == "PLACE_TILE":
            return False
        if message.type == "COMMIT":
            return n > 0
    return False


@mypyc_attr(allow_interpreted_subclasses=True)  # callers subclass it
class ReplayVisitor:
    """Hooks `replay_jcz` calls; they do nothing unless overridden."""

    def placement(self, index: int, state: GameState, *, aside: bool = False) -> None:
        """Message `index` is about to place the tile `state` holds (or, `aside`, takes another
        action while a placement is offered: a payment made before a set's own tile is placed)."""

    def committed(self, index: int, state: GameState) -> None:
        """Message `index` committed a turn part; its scoring is in `state.awards`."""


class _Chain:
    """JCloisterZone's generator along the draws made after one seed (message `seed`), and the
    walk's tile draws it has stepped over."""

    __slots__ = ("random", "seed", "tile_ints")

    def __init__(self, seed: int, random: JczRandom) -> None:
        self.seed = seed
        self.random = random
        self.tile_ints = 0


class SaveReader:
    """What a set's mapping reads a message against: the game so far, and what it remembers."""

    def __init__(
        self,
        game: Game,
        mappings: tuple[JczSet, ...],
        messages: Sequence[JczMessage] = (),
        randoms: Sequence[Seeded | None] = (),
    ) -> None:
        self.game = game
        self.messages = messages
        # JCloisterZone's generator as each message came (`replays.jcz_draws.DrawPlan.randoms`).
        self.randoms = randoms
        self.state = game.state
        self.mappings = mappings
        self.scratch: dict[str, Any] = {}  # each mapping's memory of the log, by its own keys
        self.index = -1  # the message being played
        self.recorded = 0  # the game's events recorded before it
        self.command: Command | None = None  # its command, and the decision it answers
        self.decision: Decision | None = None
        # JCloisterZone's generator along the draws of chance made after one message: (its index,
        # the generator), so that several sets' draws after one seed follow each other.
        self.chain = _Chain(-2, JczRandom(0.0))
        game.roll = self.roll

    def play(self, index: int, command: Command | None = None, decision: Decision | None = None) -> None:
        """Message `index` is played next (as `command`, answering `decision`)."""
        self.index = index
        self.command = command
        self.decision = decision
        self.recorded = len(self.game.pending)

    def roll(self, state: GameState, chance: Chance) -> Event:
        """What JCloisterZone drew where our rules draw by chance, as the log tells (a random number
        a message carries, a token it names): a set of the save's knows how."""
        message = self.game_message()
        for mapping in self.mappings:
            found = mapping.roll(self, chance, message)
            if found is not None:
                return found
        raise JczError(f"message {self.index}: our rules draw by chance here; no set of the save says what")

    def next_int(self, bound: int) -> int:
        """The int below `bound` JCloisterZone's generator gives for a draw of chance now: the sets'
        draws after one seed follow each other, with the walk's tile draws among them where they
        came (a set's draw after a turn part's COMMIT, the next tile, another set's draw)."""
        seeded = self._generator_at(self._drawn_after())
        chain = self.chain
        if chain.seed != seeded.seed:
            chain = self.chain = _Chain(seeded.seed, JczRandom(seeded.random))
        for _ in range(seeded.tile_ints - chain.tile_ints):
            chain.random.next_int(1)
        chain.tile_ints = max(chain.tile_ints, seeded.tile_ints)
        return chain.random.next_int(bound)

    def _drawn_after(self) -> int:
        """The message after which JCloisterZone draws now: the one being played, or, once our engine
        has ended a turn part or a set's phase that JCloisterZone closes with a COMMIT, that COMMIT,
        which follows it and re-seeds the generator before the phases after it draw (the export
        writes it there, `commits_after`)."""
        closed = sum(
            commits_after(self.mappings, e, self.command, self.decision)
            for e in self.game.pending[self.recorded :]
        )
        at = self.index
        while closed and at + 1 < len(self.messages) and self.messages[at + 1].type == "COMMIT":
            at, closed = at + 1, closed - 1
        return at

    def _generator_at(self, index: int) -> Seeded:
        """The generator as message `index` came: the draw walk's, else the last `random` given (a
        forced draw order takes no int)."""
        known = self.randoms[index] if 0 <= index < len(self.randoms) else None
        if known is not None:
            return known
        seeds = ((i, self.messages[i].payload.get("random")) for i in range(index, -1, -1))
        seeded = next(((i, r) for i, r in seeds if isinstance(r, float | int) and 0 <= r < 1), None)
        if seeded is None:
            raise JczError(f"message {index}: a draw of chance without JCloisterZone's generator to draw it")
        return Seeded(seeded[0], float(seeded[1]), 0)

    def game_message(self) -> JczMessage | None:
        return self.messages[self.index] if 0 <= self.index < len(self.messages) else None

    def step(self) -> str | None:
        """The decision our rules wait for now."""
        decision = expected_step(self.state)
        return None if decision is None else decision.step

    def pointer(self, index: int, pointer: object) -> JczPointer:
        try:
            return msgspec.convert(pointer, JczPointer)
        except msgspec.ValidationError as e:
            raise JczError(f"message {index}: unreadable pointer {pointer!r}") from e

    def location(self, pointer: JczPointer) -> str:
        """Our location for a pointer: a set's own place, else a segment."""
        for mapping in self.mappings:
            found = mapping.location(pointer)
            if found is not None:
                return found
        return location_name(pointer)

    def figure(self, index: int, payload: dict[str, Any]) -> str:
        """Our figure of the meeple a message names in its `meepleId`."""
        return self.figure_of(index, str(payload.get("meepleId", "")))

    def figure_of(self, index: int, meeple_id: str) -> str:
        name = "".join(meeple_id.split(".")[1:2])
        if name not in FIGURES:
            raise JczError(f"message {index} moves a {name or 'figure'} we do not support")
        return FIGURES[name]


def replay_jcz(
    save: JczSave,
    draw_order: Sequence[str],
    visitor: ReplayVisitor | None = None,
    game_id: UUID | None = None,
    rules: RuleSet | None = None,
    seed: int | None = None,
    randoms: Sequence[Seeded | None] = (),
) -> Game:
    """Replay a save through our engine; every message is checked by our rules: JCloisterZone's
    reading of its setup unless `rules` are given (our own export's, as it was played).

    `draw_order` is the whole pile as JCloisterZone drew it, `randoms` its generator as each
    message came (see `replays.jcz_draws`).
    """
    missing = unsupported(save)
    if missing:
        raise JczError(f"needs what this engine does not support: {missing}")
    strangers = sorted({t for t in draw_order if t not in TILES})
    if strangers:
        raise JczError(f"unknown tile id(s): {', '.join(strangers)}")
    names = [p.name for p in sorted(save.players, key=lambda p: p.slot)]
    expansions = expansions_of(save)
    try:
        game = Game.start(
            names,
            draw_order,
            expansions=expansions,
            rules=rules or jcz_rules(save),
            seed=seed,
            game_id=game_id,
        )
    except RuleViolation as e:
        raise JczError(f"setup refused: {e}") from e
    hooks = visitor or ReplayVisitor()
    mappings = in_play(expansions)
    reader = SaveReader(game, mappings, save.replay, randoms)
    state = game.state
    placed = False  # a tile placed since the last COMMIT: that COMMIT ends a turn part
    for index, message in enumerate(save.replay):
        reader.play(index)
        placed = placed or message.type == "PLACE_TILE"
        try:
            command = _command(reader, index, message)
        except (KeyError, ValueError, TypeError) as e:  # a payload without its fields
            raise JczError(f"message {index} ({message.type}) is malformed: {e!r}") from e
        if command is None:
            # A COMMIT with no tile since the last one closes a phase of JCloisterZone's own (a
            # set's own phase ended), not a turn part.
            if message.type == "COMMIT" and placed:
                due = state.phase == Phase.PART_OVER and expected_step(state) is not None
                if due and _decided_apart(save.replay, index):
                    # The part scored, yet a decision of its own is still due (a figure moving
                    # on after the scoring): JCloisterZone commits it apart, before any tile, and
                    # what scores after it belongs to this turn part: it ends at that COMMIT.
                    continue
                hooks.committed(index, state)
            placed = placed and message.type != "COMMIT"
            continue
        decision = expected_step(state)
        reader.play(index, command, decision)
        if message.type == "PLACE_TILE" or (
            message.type == "PASS" and decision is not None and decision.step in _PLACING
        ):
            # JCloisterZone lists a tile placed or declined (one that fits only in a way a set
            # allows), and a set's own placement step, as placement decisions.
            hooks.placement(index, state)
        elif message.type != "PASS" and decision is not None and decision.step in _PLACING:
            hooks.placement(index, state, aside=True)
        try:
            seat = state.current if decision is None else decision.player
            if message.player is not None and message.player != seat:  # 4.x messages name nobody
                raise JczRefused(
                    f"message {index} ({message.type}) is player {message.player}'s, but our rules "
                    f"wait for player {seat}",
                    index,
                )
            game.execute(seat, command)
        except RuleViolation as e:
            raise JczRefused(f"message {index} ({message.type}) refused: {e}", index) from e
        for mapping in mappings:
            mapping.executed(reader, index, message, seat, command)
    return game


_PLACING = frozenset({"place", *PLACEMENT_STEPS})  # the steps JCloisterZone lists placements at


# JCloisterZone's figure names (in meeple ids like ``0.big.1``) -> ours, every set's.
JCZ_FIGURES = dict(FIGURES)


def _command(reader: SaveReader, index: int, message: JczMessage) -> Command | None:
    payload = message.payload
    kind = message.type
    if kind == "DEPLOY_MEEPLE":
        reader.figure(index, payload)  # a figure we do not play is named as such, before all else
    for mapping in reader.mappings:
        command = mapping.command(reader, index, message)
        if command is not None:
            return command
    if kind == "PLACE_TILE":
        x, y = payload["position"]
        tile_id = payload["tileId"]
        if tile_id not in TILES:
            raise JczError(f"message {index} places an unknown tile id {tile_id!r}")
        return PlaceTile(x=x, y=y, rotation=int(payload["rotation"][1:]), tile=tile_id)
    if kind == "DEPLOY_MEEPLE":
        pointer = reader.pointer(index, payload["pointer"])
        x, y = pointer.position
        return Deploy(location=reader.location(pointer), figure=reader.figure(index, payload), x=x, y=y)
    if kind == "PASS":
        # Whatever step the engine is at, if passing is legal there; JCloisterZone skips the
        # follower step when nothing can be deployed, and so do we, so some PASSes answer nothing.
        return Pass() if may_pass(reader.state) else None
    if kind in ("COMMIT", "GAME_OVER"):  # GAME_OVER: 4.x's explicit end; our pile ends the game
        return None
    if kind == "PLACE_TOKEN":
        raise JczError(f"message {index} places a {payload.get('token')} token we do not support")
    raise JczError(f"message {index}: unsupported message type {kind}")
