"""Persistence: the eventsourcing Application that stores games, wired for msgspec.

Events are frozen msgspec Structs, so the mapper encodes them to MessagePack itself and the
transcoder only passes bytes through. `open_store` picks the backend from a URL: a file path
or ``sqlite:PATH`` (the embedded default), ``postgresql://…`` or ``memory``.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse
from uuid import UUID

import msgspec
from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import (
    Mapper,
    MapperDeserialisationError,
    PersistenceError,
    StoredEvent,
    Transcoder,
)

from domain import events as ev
from domain.aggregate import Game, project_game
from domain.defaults import DEFAULT_DB
from domain.errors import UserError
from domain.expansions import EVENT_TYPES
from domain.readings import upcast_started

_ENCODER = msgspec.msgpack.Encoder()
_DECODERS = {name: msgspec.msgpack.Decoder(cls) for name, cls in EVENT_TYPES.items()}
_STARTED_DECODER = msgspec.msgpack.Decoder(ev.GameStarted)


class PassThroughTranscoder(Transcoder):
    """The mapper already produced bytes; nothing left to transcode."""

    def encode(self, obj: Any) -> bytes:
        assert isinstance(obj, bytes)
        return obj

    def decode(self, data: bytes) -> Any:
        return data


class MsgspecMapper(Mapper[UUID]):
    """Stores each event as MessagePack, its topic being the event's type name."""

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        state = _ENCODER.encode(domain_event)
        if self.compressor:
            state = self.compressor.compress(state)
        if self.cipher:
            state = self.cipher.encrypt(state)
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=type(domain_event).__name__,
            state=state,
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        decoder = _DECODERS.get(stored_event.topic)
        if decoder is None:
            raise MapperDeserialisationError(f"unknown event type {stored_event.topic!r}")
        state = stored_event.state
        try:
            if self.cipher:
                state = self.cipher.decrypt(state)
            if self.compressor:
                state = self.compressor.decompress(state)
            try:
                return decoder.decode(state)
            except msgspec.ValidationError:
                if stored_event.topic != "GameStarted":
                    raise
                # Stored before each part owned its switches: read through the upcaster.
                raw = upcast_started(msgspec.msgpack.decode(state))
                return decoder.decode(_ENCODER.encode(raw))
        except (msgspec.DecodeError, ValueError) as e:
            raise MapperDeserialisationError(
                f"event {stored_event.originator_version} of game {stored_event.originator_id} "
                f"({stored_event.topic}) cannot be read: {e}"
            ) from e


class StoreError(UserError):
    """The store cannot be opened or read; the message says which and why."""


@contextmanager
def storage_errors(doing: str) -> Iterator[None]:
    """Database and decoding failures become a StoreError saying what could not be done."""
    try:
        yield
    except (PersistenceError, MapperDeserialisationError, sqlite3.Error) as e:
        raise StoreError(f"{doing}: {e} (is the database file corrupt or truncated?)") from e


class _Batch:
    """Events to store, in the shape the library collects from an aggregate."""

    __slots__ = ("events", "id", "version")

    def __init__(self, game_id: UUID, events: Sequence[ev.Event]) -> None:
        self.id = game_id
        self.events = events
        self.version = events[-1].originator_version

    def collect_events(self) -> list[ev.Event]:
        return list(self.events)


class GameStore(Application[UUID]):
    name = "carc"

    def construct_mapper(self) -> Mapper[UUID]:
        return MsgspecMapper(
            transcoder=PassThroughTranscoder(),
            compressor=self.factory.compressor(),
            cipher=self.factory.cipher(),
        )

    def save_game(self, game: Game) -> None:
        """Store the game's pending events in one write."""
        with storage_errors("cannot save"):
            self.save(game)

    def save_events(self, events: Sequence[ev.Event]) -> None:
        """Store one game's already-checked events (an import) in one write.

        Handed over as one batch: the library would otherwise test each event against its
        event protocol, which costs more than writing it.
        """
        if events:
            with storage_errors("cannot save"):
                self.save(_Batch(events[0].originator_id, events))

    def load(self, game_id: UUID, version: int | None = None) -> Game:
        """The game rebuilt from its stored events, as it was at `version` (default: now)."""
        with storage_errors("cannot read"):
            try:
                game = self.repository.get(game_id, version=version, projector_func=_checked_projection)
            except AggregateNotFoundError:
                raise StoreError(f"no game {game_id} in this store") from None
        assert isinstance(game, Game)
        return game

    def game_events(self, game_id: UUID, until: int | None = None) -> list[ev.Event]:
        """The stored events of one game, up to version `until` (default: all)."""
        with storage_errors("cannot read"):
            return list(self.events.get(game_id, lte=until))  # type: ignore[arg-type]

    def started_games(self) -> Iterator[ev.GameStarted]:
        """The first event of every stored game, oldest first."""
        start: int | None = None
        while True:
            page = self.started_page(start, 500)
            yield from (started for _, started in page)
            if len(page) < 500:
                return
            start = page[-1][0]

    def started_page(self, after: int | None, limit: int) -> list[tuple[int, ev.GameStarted]]:
        """Up to `limit` games' first events stored after notification `after`, each with its
        notification id (the cursor for the next page), oldest first."""
        with storage_errors("cannot list games"):
            page = self.recorder.select_notifications(
                after, limit=limit, topics=["GameStarted"], inclusive_of_start=False
            )
        return [(note.id, _STARTED_DECODER.decode(note.state)) for note in page]

    def last_position(self) -> int:
        """The id of the store's newest event (0 when empty): a cheap read that proves the store answers."""
        with storage_errors("cannot read"):
            return self.recorder.max_notification_id() or 0


def _checked_projection(game: Game | None, events: Iterable[ev.Event]) -> Game | None:
    """`project_game`, refusing stored events that do not follow each other one by one.

    evolve trusts its events; a store that lost or damaged one must fail loudly here rather
    than build a wrong game.
    """
    for event in events:
        expected = 1 if game is None else game.version + 1
        if event.originator_version != expected:
            raise StoreError(
                f"game {event.originator_id}: event {expected} is missing from the store "
                f"(found {event.originator_version}); the database is damaged"
            )
        try:
            game = project_game(game, (event,))
        except Exception as e:
            raise StoreError(
                f"game {event.originator_id}: stored event {expected} ({type(event).__name__}) "
                f"does not follow from the ones before it; the database is damaged"
            ) from e
    return game


def store_env(url: str) -> dict[str, str]:
    """eventsourcing environment settings for a store URL."""
    if url in ("memory", ":memory:"):
        return {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    if url.startswith(("postgresql://", "postgres://")):
        parts = urlparse(url)
        return {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": unquote(parts.path.lstrip("/")) or "postgres",
            "POSTGRES_HOST": parts.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(parts.port or 5432),
            "POSTGRES_USER": unquote(parts.username or os.environ.get("USER", "postgres")),
            "POSTGRES_PASSWORD": unquote(parts.password or ""),
            "POSTGRES_CONNECT_TIMEOUT": "5",
            # ?schema=NAME keeps several independent stores in one database (tests, tenants).
            **({"POSTGRES_SCHEMA": schema} if (schema := _query_value(parts.query, "schema")) else {}),
        }
    path = url.removeprefix("sqlite:")
    # Ids stay text on reading: each event carries its game id in its own payload, so turning
    # every row's id into a UUID object (a third of a rebuild's time) buys nothing.
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": path,
        "ORIGINATOR_ID_TYPE": "text",
    }


def _query_value(query: str, key: str) -> str | None:
    values = parse_qs(query).get(key)
    return values[0] if values else None


def open_store(url: str | None = None, *, create: bool = True) -> GameStore:
    """Open the store at `url` (default ``$CARC_DB`` or ./carc.sqlite), creating it if needed and
    `create`; a command that only reads passes False, so a mistyped file name is an error rather
    than a new, empty store."""
    url = url or os.environ.get("CARC_DB") or DEFAULT_DB
    env = store_env(url)
    path = env.get("SQLITE_DBNAME")
    if path is not None:
        if not create and not Path(path).is_file():
            raise StoreError(f"no store {path}: the file does not exist (check --db or $CARC_DB)")
        _check_sqlite_file(Path(path))
    try:
        with creating_tables(env):
            return GameStore(env=env)
    except (PersistenceError, sqlite3.Error, OSError) as e:
        raise StoreError(f"cannot open store {url}: {e}") from e


@contextmanager
def creating_tables(env: dict[str, str]) -> Iterator[None]:
    """Hold the store's schema lock while its tables are created.

    PostgreSQL's `CREATE TABLE IF NOT EXISTS` is not safe against itself: two servers starting
    together on an empty schema both try to create the tables and one fails (a duplicate in the
    catalogue, or "tuple concurrently updated"). An advisory lock per schema makes them take turns;
    the second then finds the tables there. SQLite serialises its writers itself.
    """
    if env.get("PERSISTENCE_MODULE") != "eventsourcing.postgres":
        yield
        return
    import psycopg  # only PostgreSQL stores need the driver

    schema = env.get("POSTGRES_SCHEMA", "public")
    try:
        conn = psycopg.connect(
            dbname=env["POSTGRES_DBNAME"],
            host=env["POSTGRES_HOST"],
            port=env["POSTGRES_PORT"],
            user=env["POSTGRES_USER"],
            password=env["POSTGRES_PASSWORD"] or None,
            connect_timeout=int(env.get("POSTGRES_CONNECT_TIMEOUT", "5")),
            autocommit=True,
        )
    except psycopg.Error as e:
        raise StoreError(f"cannot reach PostgreSQL: {e}") from e
    with conn:  # closing the session releases the lock, whatever happens in between
        conn.execute("SELECT pg_advisory_lock(hashtext(%s))", (f"carc tables {schema}",))
        yield


def _check_sqlite_file(path: Path) -> None:
    if path.is_dir():
        raise StoreError(f"{path} is a directory, not a database file")
    if not path.parent.exists():
        raise StoreError(f"cannot create {path}: folder {path.parent} does not exist")
    if path.exists() and path.stat().st_size > 0:
        with path.open("rb") as f:
            header = f.read(16)
        if header != b"SQLite format 3\x00":
            raise StoreError(f"{path} is not an SQLite database (corrupt or another kind of file)")
