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
from domain.expansions import PARTS, SETS, start_tile_of
from domain.expansions.abbey import PlaceAbbey
from domain.expansions.barn import corner_field as barn_corner_field
from domain.expansions.bazaars import Bid, Buy, ChooseBazaarTile, Sell
from domain.expansions.bridges import PlaceBridge
from domain.expansions.castles import ChooseCastle, ChooseCastleTarget, target_pending
from domain.expansions.dragon import MoveDragon
from domain.expansions.fairy import ON_TILE as FAIRY_ON_TILE, MoveFairy
from domain.expansions.portal_princess import RemoveKnight
from domain.expansions.tower import (
    ON_TOWER,
    CaptureFollower,
    ExchangePrisoner,
    GuardTower,
    PayRansom,
    PlaceTowerPiece,
    towers,
)
from domain.expansions.wagon import MoveWagon
from domain.geometry import EDGE_BY_NAME, EDGE_NAMES, HALF_BY_NAME, HALF_NAMES
from domain.moves import expected_step, feature_handle, may_pass
from domain.readings import checked, rule_set, switch
from domain.rules import RuleSet
from domain.state import GameState, feature_value
from domain.tiles import TILES
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

# Our expansion codes -> the JCloisterZone tile set and the setup elements each one brings.
JCZ_EXPANSIONS: dict[str, tuple[str, frozenset[str]]] = {
    "base": ("basic", frozenset({"small-follower", "farmers"})),
    "bcb": ("bridges-castles-and-bazaars", frozenset({"bridge", "castle", "bazaar"})),
    # pig-herd: JCZ switches on the pig herd of a tile none of our sets has; without it, no effect.
    "tb": ("traders-and-builders", frozenset({"builder", "pig", "traders", "pig-herd"})),
    "ic": ("inns-and-cathedrals", frozenset({"big-follower", "cathedral", "inn"})),
    "river": ("river/1", frozenset({"river"})),
    "tower": ("tower", frozenset({"tower"})),
    "am": ("abbey-and-mayor", frozenset({"abbey", "barn", "mayor", "wagon"})),
    "pd": ("princess-and-dragon", frozenset({"dragon", "fairy", "princess", "portal"})),
}
# The setup element that switches each of our parts on; a part of a set in play whose element
# the save leaves out is played without (RuleSet.without), as JCloisterZone does. JCloisterZone
# asks only whether the key is there (its client deletes a switched-off element): `"inn": false`
# still plays inns, and a figure counted 0 is a part in play without figures.
PART_ELEMENTS: dict[str, str] = {
    "bridges": "bridge",
    "castles": "castle",
    "bazaars": "bazaar",
    "builders": "builder",
    "pigs": "pig",
    "goods": "traders",
    "inns": "inn",
    "cathedrals": "cathedral",
    "big_follower": "big-follower",
    "abbey": "abbey",
    "mayor": "mayor",
    "wagon": "wagon",
    "barn": "barn",
    "fairy": "fairy",
    "dragon": "dragon",
    "princess": "princess",
    "portal": "portal",
    "tower": "tower",
}
# The expansions whose saves we import; a save needing anything else is refused or reported
# "unsupported".
SUPPORTED: frozenset[str] = frozenset({"base", "bcb", "tb", "ic", "river", "tower", "am", "pd"})

SET_CODES = {jcz_set: code for code, (jcz_set, _) in JCZ_EXPANSIONS.items()}
# Switches of our RuleSet that reproduce how JCloisterZone 5.x plays (RULES.md section 9); only
# the ones the engine has are set, so they take effect as the engine gains them.
JCZ_READING: dict[str, Any] = {
    "order": "jcz",
    "bazaar_choice_moves_on": True,
    "bridge_on_neighbours": False,
    "builder_on_completed": False,
    "ransom_alone": False,
    "ransom_limited": True,
    "ransom_any_step": True,
    "castle_turn_order": True,
    "abbey_end_rounds": True,
}
# JCloisterZone's setup rules we play, by (name, value): the rule-set switches each sets.
JCZ_RULE_SWITCHES: dict[tuple[str, Any], dict[str, Any]] = {
    ("tiny-city-scoring", "4"): {"tiny_city": False},
    ("tiny-city-scoring", "2"): {"tiny_city": True},  # V-TINY-CITY
    ("princess-action", "may"): {"princess_must": False},
    ("princess-action", "must"): {"princess_must": True},  # V-PRINCESS-MUST
    ("fairy-placement", "next-follower"): {"fairy_on_tile": False},
    ("fairy-placement", "on-tile"): {"fairy_on_tile": True},  # V-FAIRY-ON-TILE
    ("dragon-move", "before-scoring"): {"dragon_after_scoring": False},
    ("dragon-move", "after-scoring"): {"dragon_after_scoring": True},  # V-DRAGON-AFTER-SCORING
    ("wagon-move", "C2"): {"wagon_connected": False},
    ("wagon-move", "C1"): {"wagon_connected": True},  # V-WAGON-C1
    ("barn-placement", "not-occupied"): {"barn_occupied": False},
    ("barn-placement", "occupied"): {"barn_occupied": True},  # V-BARN-OCCUPIED
}


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
# Half-edges: JCloisterZone names each edge's halves left/right as seen from the tile centre.
JCZ_HALVES = {"NL": "Nw", "NR": "Ne", "EL": "En", "ER": "Es", "SL": "Se", "SR": "Sw", "WL": "Ws", "WR": "Wn"}


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
_JCZ4_SETS = {
    "BASIC": "basic",
    "BRIDGES_CASTLES_AND_BAZAARS": "bridges-castles-and-bazaars",
    "TRADERS_AND_BUILDERS": "traders-and-builders",
}
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
    (an engine fixture may use pigs without a Traders & Builders tile)."""
    setup = save.setup
    found = {SET_CODES.get(set_name(key), set_name(key)) for key, copies in setup.sets.items() if copies > 0}
    for element, value in setup.elements.items():
        if value:
            found.update(code for code, (_, elements) in JCZ_EXPANSIONS.items() if element in elements)
    ours = [code for code in JCZ_EXPANSIONS if code in found]
    return (*ours, *sorted(found - set(ours)))


def unsupported(save: JczSave) -> str | None:
    """What the save needs that our engine does not implement, or None if it can be replayed.

    An expansion of ours is needed when its tile set or one of its elements is in play; sets,
    elements and rules we do not know at all are named one by one.
    """
    setup = save.setup
    needs: dict[str, list[str]] = {}
    unknown: list[str] = []
    for key, copies in setup.sets.items():
        code = SET_CODES.get(set_name(key))
        if copies > 0 and code is None:
            unknown.append(f"set {set_name(key)}")
        elif copies > 0 and code is not None:
            needs.setdefault(code, []).append(f"{set_name(key)} tiles")
            if key.partition(":")[2] not in ("", "1"):  # the catalogue holds first editions only
                unknown.append(f"set {key} (a later edition)")
    for element, value in setup.elements.items():
        if not value:  # 0 figures, or switched off: not in play
            continue
        code = next((c for c, (_, elements) in JCZ_EXPANSIONS.items() if element in elements), None)
        if code is None:
            unknown.append(f"element {element}")
        else:
            needs.setdefault(code, []).append(element)
    missing = [f"{code} ({', '.join(what)})" for code, what in needs.items() if code not in SUPPORTED]
    missing += unknown
    played = {part.name for part in PARTS}
    missing += [
        f"element {element} (not played yet)"
        for part, element in PART_ELEMENTS.items()
        if setup.elements.get(element) and part not in played
    ]
    missing += [
        f"rule {name}={value}"
        for name, value in setup.rules.items()
        if not rule_switches(name, value)
    ]
    if "river" in needs and setup.elements and "river" not in setup.elements:
        # JCloisterZone then shuffles the river into the pile, unchecked (its engine can fail on it)
        missing.append("river tiles without the river element")
    if not 1 <= len(save.players) <= 6:
        missing.append(f"{len(save.players)} player(s) (1 to 6 supported)")
    start = start_tile_of(tuple(c for c in expansions_of(save) if c in SETS))
    if setup.start != (JczStart(tile=start, x=0, y=0, rotation=0),):  # R-BASE-2
        given = "; ".join(f"{s.tile} at ({s.x},{s.y}) rotated {s.rotation}" for s in setup.start)
        missing.append(f"start {given or 'without a tile'} (only {start} at (0,0) rotated 0)")
    return ", ".join(missing) or None


def jcz_rules(save: JczSave) -> RuleSet:
    """The rule set that replays a save: its follower count and farmers, read the JCZ way."""
    elements = save.setup.elements
    return checked(
        rule_set(
            followers=elements.get("small-follower", 7),
            # Like any element, on when named at all (4.x saves name none: farmers on).
            farmers="farmers" in elements or not elements,
            builders=elements.get("builder", 1),
            pigs=elements.get("pig", 1),
            big_followers=elements.get("big-follower", 1),
            mayors=elements.get("mayor", 1),
            wagons=elements.get("wagon", 1),
            barns=elements.get("barn", 1),
            without=_parts_left_out(save),
            solo=len(save.players) == 1,  # JCZ's rule tests play alone
            **{k: v for rule in save.setup.rules.items() for k, v in rule_switches(*rule).items()},
            **JCZ_READING,
        )
    )


def _parts_left_out(save: JczSave) -> tuple[str, ...]:
    """Parts of the sets in play whose setup element the save switches off (4.x saves name no
    elements: their sets play whole)."""
    elements = save.setup.elements
    if not elements:
        return ()
    in_play = {name for code in expansions_of(save) for name in SETS.get(code, ())}
    return tuple(
        sorted(
            part
            for part, element in PART_ELEMENTS.items()
            if part in in_play and elements.get(element) is None
        )
    )


def location_name(pointer: JczPointer) -> str:
    """Our name for a JCloisterZone feature location (both in board orientation)."""
    where = pointer.location
    if pointer.feature == "Monastery" or where == "CLOISTER":
        return "cloister"
    if where == "II":  # a second field touching no edge
        return "inner2"
    if where == "I":  # a field touching no edge
        return "inner"
    if pointer.feature == "Field" or any(c in where for c in "LR"):  # only half-edges say L/R
        halves = sorted(HALF_BY_NAME[JCZ_HALVES[token]] for token in where.split("."))
        return "+".join(HALF_NAMES[h] for h in halves)
    if where.startswith("_"):  # every edge but one
        edges = [e for e, name in enumerate(EDGE_NAMES) if name != where[1]]
    else:
        edges = sorted(EDGE_BY_NAME[c] for c in where)
    return "+".join(EDGE_NAMES[e] for e in edges)


# ---------------------------------------------------------------- replaying


@mypyc_attr(allow_interpreted_subclasses=True)  # callers subclass it
class ReplayVisitor:
    """Hooks `replay_jcz` calls; they do nothing unless overridden."""

    def placement(self, index: int, state: GameState) -> None:
        """Message `index` is about to place the tile `state` holds."""

    def committed(self, index: int, state: GameState) -> None:
        """Message `index` committed a turn part; its scoring is in `state.awards`."""


def replay_jcz(
    save: JczSave,
    draw_order: Sequence[str],
    visitor: ReplayVisitor | None = None,
    game_id: UUID | None = None,
) -> Game:
    """Replay a save through our engine; every message is checked by our rules.

    `draw_order` is the whole pile as JCloisterZone drew it (see `replays.jcz_draws`).
    """
    missing = unsupported(save)
    if missing:
        raise JczError(f"needs what this engine does not support: {missing}")
    strangers = sorted({t for t in draw_order if t not in TILES})
    if strangers:
        raise JczError(f"unknown tile id(s): {', '.join(strangers)}")
    names = [p.name for p in sorted(save.players, key=lambda p: p.slot)]
    try:
        game = Game.start(
            names, draw_order, expansions=expansions_of(save), rules=jcz_rules(save), game_id=game_id
        )
    except RuleViolation as e:
        raise JczError(f"setup refused: {e}") from e
    hooks = visitor or ReplayVisitor()
    state = game.state
    placed = False  # a tile placed since the last COMMIT: that COMMIT ends a turn part
    # Who took each meeple prisoner last, by JCloisterZone's meeple id: a ransom names the
    # prisoner, and with its owner's followers of one kind held by two players, only the id
    # says whom the ransom goes to (R-TOWER-7).
    jailers: dict[str, int] = {}
    for index, message in enumerate(save.replay):
        _answer_unasked(game)
        placed = placed or message.type == "PLACE_TILE"
        try:
            command = _command(index, message, state, jailers)
        except (KeyError, ValueError, TypeError) as e:  # a payload without its fields
            raise JczError(f"message {index} ({message.type}) is malformed: {e!r}") from e
        if command is None:
            # A COMMIT with no tile since the last one closes a phase of JCloisterZone's own (a
            # wagon moved, an abbey declined), not a turn part.
            if message.type == "COMMIT" and placed:
                hooks.committed(index, state)
            placed = placed and message.type != "COMMIT"
            continue
        if isinstance(command, PlaceTile | PlaceAbbey) or (
            isinstance(command, Pass) and _step(state) in ("abbey", "place")
        ):
            # JCloisterZone lists an abbey declined, and a tile declined that fits only with a
            # bridge (R-BRIDGE-7), as placement decisions too.
            hooks.placement(index, state)
        try:
            decision = expected_step(state)
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
        if isinstance(command, CaptureFollower):
            jailers[str(message.payload["pointer"]["meepleId"])] = seat
    _answer_unasked(game)
    return game


def _answer_unasked(game: Game) -> None:
    """Decisions JCloisterZone takes without a message: a castle scores its most valuable
    completion (JCZ-3, R-CASTLE-7)."""
    state = game.state
    while (decision := expected_step(state)) is not None and decision.step == "castle-target":
        pending = target_pending(state)
        assert pending is not None
        best = max(pending[1], key=lambda f: feature_value(state, f, completed=True)[0])
        x, y, location = feature_handle(state, best.id)
        game.execute(decision.player, ChooseCastleTarget(x=x, y=y, location=location))


# JCloisterZone's figure names (in meeple ids like ``0.big.1``) -> ours.
JCZ_FIGURES = {
    "small": "follower",
    "big": "big",
    "builder": "builder",
    "pig": "pig",
    "mayor": "mayor",
    "wagon": "wagon",
    "barn": "barn",
    "fairy": "fairy",
    "dragon": "dragon",
    "princess": "princess",
    "portal": "portal",
}


def _figure(index: int, meeple_id: str) -> str:
    name = "".join(meeple_id.split(".")[1:2])
    if name not in JCZ_FIGURES:
        raise JczError(f"message {index} moves a {name or 'figure'} we do not support")
    return JCZ_FIGURES[name]


def _step(state: GameState) -> str | None:
    decision = expected_step(state)
    return None if decision is None else decision.step


def _barn_field(state: GameState, pointer: JczPointer) -> str:
    """Our name for a barn's place: JCloisterZone names the field of the tile whose north-west
    corner the barn stands on; we name the field of the tile just placed at that corner."""
    placed = state.placed
    if placed is None:
        raise JczError("a barn with no tile placed")
    dx, dy = pointer.position[0] - placed.pos[0], pointer.position[1] - placed.pos[1]
    corner = {(0, 0): "NW", (1, 0): "NE", (0, 1): "SW", (1, 1): "SE"}.get((dx, dy))
    sid = -1 if corner is None else barn_corner_field(state.board, placed.pos, corner)
    if sid < 0:
        raise JczError(f"no corner of the tile just placed at {pointer.position}")
    return placed.location(sid)


def _token(index: int, payload: dict[str, Any]) -> Command:
    pointer = msgspec.convert(payload["pointer"], JczPointer)
    x, y = pointer.position
    token = payload.get("token")
    if token == "BRIDGE":
        return PlaceBridge(x=x, y=y, axis="NS" if pointer.location == "NS" else "EW")
    if token == "CASTLE":
        return ChooseCastle(x=x, y=y, location=location_name(pointer))
    if token == "TOWER_PIECE":
        return PlaceTowerPiece(x=x, y=y)
    raise JczError(f"message {index} places a {token} token we do not support")


def _command(index: int, message: JczMessage, state: GameState, jailers: dict[str, int]) -> Command | None:
    payload = message.payload
    kind = message.type
    if kind == "PLACE_TILE":
        x, y = payload["position"]
        tile_id = payload["tileId"]
        if _step(state) == "abbey":
            return PlaceAbbey(x=x, y=y, rotation=int(payload["rotation"][1:]))
        if tile_id not in TILES:
            raise JczError(f"message {index} places an unknown tile id {tile_id!r}")
        return PlaceTile(x=x, y=y, rotation=int(payload["rotation"][1:]), tile=tile_id)
    if kind == "DEPLOY_MEEPLE":
        ours = _figure(index, payload.get("meepleId", ""))
        try:
            pointer = msgspec.convert(payload["pointer"], JczPointer)
            if pointer.feature == "Tower":
                return GuardTower(x=pointer.position[0], y=pointer.position[1], figure=ours)
            if _step(state) == "wagon":
                x, y = pointer.position
                return MoveWagon(x=x, y=y, location=location_name(pointer))
            if ours == "barn":
                return Deploy(location=_barn_field(state, pointer), figure=ours)
            x, y = pointer.position
            return Deploy(location=location_name(pointer), figure=ours, x=x, y=y)
        except (KeyError, msgspec.ValidationError) as e:
            raise JczError(f"message {index}: unreadable pointer {payload.get('pointer')!r}") from e
    if kind == "PASS":
        # Whatever step the engine is at, if passing is legal there; JCloisterZone skips the
        # follower step when nothing can be deployed, and so do we, so some PASSes answer nothing.
        return Pass() if may_pass(state) else None
    if kind == "PLACE_TOKEN":
        return _token(index, payload)
    if kind == "BAZAAR_BID":
        decision = expected_step(state)
        price = int(payload["price"])
        if decision is not None and decision.step == "choose":
            return ChooseBazaarTile(index=int(payload["supplyIndex"]), bid=price)
        return Bid(amount=price)
    if kind == "MOVE_NEUTRAL_FIGURE" and str(payload.get("figureId", "")).startswith("dragon"):
        x, y = payload["to"]
        return MoveDragon(x=x, y=y)
    if kind == "RETURN_MEEPLE":
        returned = payload["pointer"]
        pointer = msgspec.convert(returned["featurePointer"], JczPointer)
        meeple = str(returned["meepleId"])
        x, y = pointer.position
        owner = int(meeple.split(".")[0])
        return RemoveKnight(
            x=x, y=y, location=location_name(pointer), owner=owner, figure=_figure(index, meeple)
        )
    if kind == "MOVE_NEUTRAL_FIGURE" and str(payload.get("figureId", "")).startswith("fairy"):
        target = payload["to"]
        if isinstance(target, list):  # a tile's position: `fairy-placement` on-tile (V-FAIRY-ON-TILE)
            x, y = target
            return MoveFairy(x=x, y=y, location=FAIRY_ON_TILE, figure="")
        pointer = msgspec.convert(target["featurePointer"], JczPointer)
        x, y = pointer.position
        where = ON_TOWER if pointer.feature == "Tower" else location_name(pointer)
        return MoveFairy(x=x, y=y, location=where, figure=_figure(index, str(target["meepleId"])))
    if kind == "CAPTURE_FOLLOWER":
        captured = payload["pointer"]
        pointer = msgspec.convert(captured["featurePointer"], JczPointer)
        where = ON_TOWER if pointer.feature == "Tower" else location_name(pointer)
        meeple = str(captured["meepleId"])
        x, y = pointer.position
        return CaptureFollower(
            x=x, y=y, location=where, owner=int(meeple.split(".")[0]), figure=_figure(index, meeple)
        )
    if kind == "PAY_RANSOM":
        meeple = str(payload["meepleId"])
        figure = _figure(index, meeple)
        owner = int(meeple.split(".")[0])
        held = towers(state).prisoners if "tower" in state.ext else []
        jailer = jailers.get(meeple)
        if jailer is None or (owner, figure) not in held[jailer]:
            raise JczError(f"message {index}: nobody holds {meeple} prisoner")
        return PayRansom(jailer=jailer, figure=figure)
    if kind == "EXCHANGE_FOLLOWER":  # the capturer's choice of which of theirs comes back
        return ExchangePrisoner(figure=_figure(index, str(payload["meepleId"])))
    if kind == "BAZAAR_BUY_OR_SELL":
        return Buy() if payload["value"] == "BUY" else Sell()
    if kind in ("COMMIT", "GAME_OVER"):  # GAME_OVER: 4.x's explicit end; our pile ends the game
        return None
    raise JczError(f"message {index}: unsupported message type {kind}")
