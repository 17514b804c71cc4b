"""The service's records, kept in the game store itself beside the games' events.

Seat claims and idempotency records are events of small aggregates of their own (one per seat,
one per idempotency key), written to the same eventsourcing recorder as the game events:

* they survive restarts and are shared by every process using the database;
* each is version 1 of an aggregate whose id is derived from what must be unique (a game's
  seat, a game's idempotency key), so the recorder's (originator_id, originator_version)
  uniqueness makes "claimed twice" or "applied twice" impossible, without locks;
* an idempotency record is written in the same insert as the move's game events, so either
  both are stored or neither is, even if the process dies in between.

Only a SHA-256 of a seat's token is stored; the token itself never reaches the database.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID, uuid5

import msgspec
from eventsourcing.persistence import IntegrityError, Mapper, StoredEvent

from domain import events as ev
from domain.store import (
    GameStore,
    MsgspecMapper,
    PassThroughTranscoder,
    creating_tables,
    open_store,
    storage_errors,
    store_env,
)


class SeatClaimed(ev.Event, frozen=True, kw_only=True):
    """Seat `seat` of game `game` is taken by whoever holds the token hashing to `token_sha256`."""

    game: UUID
    seat: int
    token_sha256: str


class MoveAccepted(ev.Event, frozen=True, kw_only=True):
    """A move sent with an idempotency key was stored as game events `before_version + 1 … after_version`."""

    game: UUID
    seat: int
    request_sha256: str  # what was asked, so a key reused for another move is refused
    before_version: int
    after_version: int


class SeatsByInvitation(ev.Event, frozen=True, kw_only=True):
    """Game `game` seats only whoever brings a seat's invite code; the SHA-256 of each seat's
    code, in seat order (the codes themselves were shown once, to the game's creator)."""

    game: UUID
    codes_sha256: tuple[str, ...]


ServiceRecord = SeatClaimed | MoveAccepted | SeatsByInvitation
_DECODERS = {
    cls.__name__: msgspec.msgpack.Decoder(cls) for cls in (SeatClaimed, MoveAccepted, SeatsByInvitation)
}


def seat_record_id(game_id: UUID, seat: int) -> UUID:
    return uuid5(game_id, f"seat/{seat}")


def invitation_record_id(game_id: UUID) -> UUID:
    return uuid5(game_id, "invitations")


def move_record_id(game_id: UUID, key: str) -> UUID:
    return uuid5(game_id, f"idempotency-key/{key}")


class Conflict(Exception):
    """An event with the same (originator id, version) is already stored; nothing was written."""


class ServiceMapper(MsgspecMapper):
    """The game mapper, also reading the service's own records."""

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        decoder = _DECODERS.get(stored_event.topic)
        if decoder is None:
            return super().to_domain_event(stored_event)
        return decoder.decode(stored_event.state)


class ServiceStore(GameStore):
    """The game store plus seat claims and idempotency records (see the module docstring)."""

    name = GameStore.name  # the same tables and notification log as every other reader of the games

    def construct_mapper(self) -> Mapper[UUID]:
        return ServiceMapper(
            transcoder=PassThroughTranscoder(),
            compressor=self.factory.compressor(),
            cipher=self.factory.cipher(),
        )

    def append(self, events: Sequence[ev.Event]) -> None:
        """Store `events` (of any aggregates) in one transaction, or raise Conflict and store none."""
        with storage_errors("cannot save"):
            try:
                self.events.put(list(events))
            except IntegrityError as e:
                raise Conflict(str(e)) from e

    def record(self, record_id: UUID) -> ServiceRecord | None:
        """The service record stored under `record_id`, if any."""
        with storage_errors("cannot read"):
            found = list(self.events.get(record_id, limit=1))
        if not found:
            return None
        record = found[0]
        assert isinstance(record, SeatClaimed | MoveAccepted | SeatsByInvitation)
        return record

    def games_changed(self, after: int, until: int) -> set[UUID] | None:
        """The ids of what has events between store positions `after` and `until` (None: too
        many to list)."""
        return _games_changed(self, after, until)

    def events_after(self, game_id: UUID, version: int, until: int | None = None) -> list[ev.Event]:
        """A game's stored events with version > `version` (and ≤ `until`), in order."""
        with storage_errors("cannot read"):
            return list(self.events.get(game_id, gt=version, lte=until))  # type: ignore[arg-type]


CHANGED_AT_MOST = 10_000  # events read to learn which games changed; beyond, "all of them"


def _games_changed(store: GameStore, after: int, until: int) -> set[UUID] | None:
    with storage_errors("cannot read"):
        notes = store.recorder.select_notifications(
            after, limit=CHANGED_AT_MOST, stop=until, inclusive_of_start=False
        )
    if len(notes) >= CHANGED_AT_MOST:
        return None
    return {n.originator_id if isinstance(n.originator_id, UUID) else UUID(n.originator_id) for n in notes}


def open_service_store(url: str) -> ServiceStore:
    """The store at `url` opened for the service.

    `open_store` checks the URL and the file and creates the tables, with its clear errors;
    the store is then reopened as a ServiceStore, whose mapper also reads the service records.
    """
    open_store(url).close()
    env = store_env(url)
    with creating_tables(env):
        return ServiceStore(env=env)
