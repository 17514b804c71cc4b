"""Recorded games from files, whatever wrote them (our JSON Lines records or JCloisterZone saves),
and from stores, by id or a unique prefix of it.

A file comes back as a game with every event checked by our rules and the event list to store;
`load_events` names either kind of source as the command line and the batches take it. The store's
engine is imported only when a store is read.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any
from uuid import UUID, uuid5

import msgspec

from domain import events as ev
from domain.aggregate import Game
from domain.errors import UserError
from domain.readings import checked, upcast_rules
from domain.rules import RuleSet
from replays import records
from replays.jcz import (
    JczError,
    JczRefused,
    JczSave,
    malformed_save,
    read_jcz,
    replay_jcz,
    unsupported,
)
from replays.jcz_draws import plan_draws

if TYPE_CHECKING:
    from domain.store import GameStore

# Ids of imported JCloisterZone games: a name-based UUID of what the save records of the game.
_JCZ_NAMESPACE = UUID("6f1d3c1e-8a0b-4c55-9d39-4c2a1f0e7b21")


def jcz_game_id(save: JczSave) -> UUID:
    """The id an imported save is stored under: derived from the game it records (JCloisterZone's
    game id, setup, players, seed and every message), so the same save imported twice is the same
    game, while saves that merely share a JCloisterZone game id (its own test fixtures do; so do
    two saves of one game at different moments) are different games. Names, dates and the clock
    are left out: they do not change the game."""
    note = save.gameAnnotations.carc if save.gameAnnotations else None
    if note is not None:
        try:
            return UUID(note.game)  # our own export: the game it was written from
        except ValueError:
            raise JczError(f"the save's carc game id {note.game!r} is no UUID") from None
    recorded = (save.gameId, save.setup, save.players, save.initialRandom, save.replay)
    return uuid5(_JCZ_NAMESPACE, hashlib.sha256(msgspec.json.encode(recorded)).hexdigest())


# Keys only a JCloisterZone save has at its top level (5.x and 4.x), never one of our events.
_JCZ_KEYS = (b'"replay"', b'"setup"', b'"slots"', b'"appVersion"')


def is_jcz(path: Path) -> bool:
    """Whether a file is a JCloisterZone save, judged by what it holds, not by its name: our
    records open with their header line (`"format": "carc-record"`) or an event (an object with
    a `type`), a save is one object with JCloisterZone's keys. A file that is neither is taken
    by its extension, so that its reader names what is wrong."""
    try:
        with path.open("rb") as f:
            head = f.read(65536)
    except OSError:
        return path.suffix.lower() == ".jcz"  # the reader reports why it cannot be read
    first = head.lstrip(b"\xef\xbb\xbf \t\r\n").split(b"\n", 1)[0]
    try:
        line = msgspec.json.decode(first)
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError, RecursionError):
        line = None
    if isinstance(line, dict) and (line.get("format") == records.FORMAT or "type" in line):
        return False
    if head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{") and any(key in head for key in _JCZ_KEYS):
        return True
    return path.suffix.lower() == ".jcz"


def import_jcz(path: Path) -> tuple[Game, list[ev.Event]]:
    """A JCloisterZone 5.x (or 4.x) save as our game, under its JCZ reading (or, our own export,
    under the rule set it was played under).

    The draws follow from the save: its draw order, or JCloisterZone's own generator for a
    client's save. Saves needing what we do not support are refused, naming it.
    """
    save = read_jcz(path)
    missing = unsupported(save)
    if missing:
        raise JczError(f"{path}: needs what this engine does not support: {missing}")
    with malformed_save(path):
        note = save.gameAnnotations.carc if save.gameAnnotations else None
        try:
            rules = _note_rules(note.rules) if note and note.rules is not None else None
            seed = note.seed if note else None
            plan = plan_draws(save)
            game = replay_jcz(
                save, plan.order, game_id=jcz_game_id(save), rules=rules, seed=seed, randoms=plan.randoms
            )
        except JczRefused as e:  # the refusal names the message; the file is named before it
            raise JczRefused(f"{path}: {e}", e.index) from None
        except JczError as e:
            raise JczError(f"{path}: {e}") from None
    return game, game.collect_events()


def _note_rules(raw: dict[str, Any]) -> RuleSet:
    """The rule set our export recorded: the game was played under it, so it is replayed under it
    (the export made sure JCloisterZone's reading gives the same events)."""
    try:
        return checked(msgspec.convert(upcast_rules(raw), RuleSet))
    except msgspec.ValidationError as e:
        raise JczError(f"the save's carc rule set is invalid: {e}") from None


def read_source(path: Path) -> tuple[Game, list[ev.Event]]:
    """A recorded-game file of either kind, checked event by event."""
    return import_jcz(path) if is_jcz(path) else records.read(path)


NO_NAME = "no game named: give a recorded-game file or a stored game's id"


def file_events(path: Path, *, check: bool = True) -> list[ev.Event]:
    """The events of a recorded-game file. A JCloisterZone save is always replayed (its events
    come from our engine); our records are checked for form, and against their rules when `check`
    (errors then name the line). The audit checks rules itself, under each rule set: it passes
    False."""
    if is_jcz(path) or check:
        return read_source(path)[1]
    return records.read_events(path)


def load_events(source: str, db: str | None, *, check: bool = True) -> list[ev.Event]:
    """The events of a recorded-game file or, when no such file exists, of the game of the store
    `db` whose id (or a unique prefix of it) `source` is."""
    if not source.strip():
        raise UserError(NO_NAME)
    path = Path(source)
    if path.is_file():
        return file_events(path, check=check)
    if path.is_dir():
        raise UserError(f"{source} is a folder, not a recorded-game file")
    if any(c in source for c in "./\\"):  # a game id (or prefix) is hex digits and dashes only
        raise UserError(f"file not found: {source}")
    from domain.store import open_store

    store = open_store(db, create=False)
    try:
        return stored_events(store, source)
    finally:
        store.close()


def resolve_game(store: GameStore, text: str) -> UUID:
    """A stored game's id from its full form or a unique prefix."""
    from domain.store import StoreError

    try:
        return UUID(text)
    except ValueError:
        pass
    matches = [s.originator_id for s in store.started_games() if str(s.originator_id).startswith(text)]
    if not matches:
        raise StoreError(f"no game with id {text!r} in this store")
    if len(matches) > 1:
        raise StoreError(f"{text!r} matches {len(matches)} games; give more of the id")
    return matches[0]


def stored_events(store: GameStore, game: str) -> list[ev.Event]:
    """The events of a stored game, by id or a unique prefix of it."""
    from domain.store import StoreError

    game_id = resolve_game(store, game)
    events = store.game_events(game_id)
    if not events:
        raise StoreError(f"no game {game_id} in this store")
    return events
