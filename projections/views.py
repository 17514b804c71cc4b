"""Materialised views of the games: one summary row per game, one row per score award, and the
board as rows that say from which event to which each piece lay there (the board at any event).

Each view is an eventsourcing `TrackingRecorder`: every write carries the `Tracking` of the
notification it comes from, stored in the same transaction, so a worker that crashed resumes
exactly after the last event it wrote, and an event delivered twice is refused as a whole
(the tracking insert fails and the transaction rolls back). One implementation, two backends:
only the placeholder style and the table qualification differ.
"""

from __future__ import annotations

import json
import re
from abc import abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import InfrastructureFactory, Tracking, TrackingRecorder
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder
from eventsourcing.utils import Environment
from psycopg.sql import SQL

from domain.store import creating_tables, store_env


class GameSummary(msgspec.Struct, frozen=True, kw_only=True):
    game: UUID
    players: tuple[str, ...]
    expansions: tuple[str, ...]
    version: int
    turn: int
    over: bool
    scores: tuple[int, ...]


class ScoreRow(msgspec.Struct, frozen=True, kw_only=True):
    """One award, `seq` being its place in the game's award timeline (0 first)."""

    game: UUID
    seq: int
    version: int
    turn: int
    player: int
    points: int
    category: str
    rule: str
    final: bool


class BoardItem(msgspec.Struct, frozen=True, kw_only=True, order=True):
    """One thing on the table: a tile (`what` = id@rotation), a figure (`what` = its location), or
    a part's mark (`kind` its style, `what` its location, label, spots and whether it is closed),
    once for each owner; `player` -1 for what belongs to nobody."""

    kind: str
    x: int
    y: int
    what: str
    player: int = -1


_TABLES = (
    "CREATE TABLE IF NOT EXISTS {summaries} ("
    "game TEXT PRIMARY KEY, players TEXT NOT NULL, expansions TEXT NOT NULL, version INTEGER NOT NULL, "
    "turn INTEGER NOT NULL, over BOOLEAN NOT NULL, scores TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS {scores} ("
    "game TEXT NOT NULL, seq INTEGER NOT NULL, version INTEGER NOT NULL, turn INTEGER NOT NULL, "
    "player INTEGER NOT NULL, points INTEGER NOT NULL, category TEXT NOT NULL, rule TEXT NOT NULL, "
    "final BOOLEAN NOT NULL, PRIMARY KEY (game, seq))",
    "CREATE TABLE IF NOT EXISTS {board} ("
    "game TEXT NOT NULL, kind TEXT NOT NULL, x INTEGER NOT NULL, y INTEGER NOT NULL, what TEXT NOT NULL, "
    "player INTEGER NOT NULL, since INTEGER NOT NULL, until INTEGER, "
    "PRIMARY KEY (game, kind, x, y, what, player, since))",
)
_INSERT_BOARD = (
    "INSERT INTO {board} VALUES (%(game)s, %(kind)s, %(x)s, %(y)s, %(what)s, %(player)s, %(since)s, NULL)"
)
_CLOSE_BOARD = (
    "UPDATE {board} SET until = %(until)s WHERE game = %(game)s AND kind = %(kind)s AND x = %(x)s "
    "AND y = %(y)s AND what = %(what)s AND player = %(player)s AND until IS NULL"
)
_SELECT_BOARD = (
    "SELECT * FROM {board} WHERE game = %(game)s AND since <= %(version)s "
    "AND (until IS NULL OR until > %(version)s) ORDER BY kind, x, y, what, player"
)
_UPSERT_SUMMARY = (
    "INSERT INTO {summaries} VALUES (%(game)s, %(players)s, %(expansions)s, %(version)s, %(turn)s, "
    "%(over)s, %(scores)s) ON CONFLICT (game) DO UPDATE SET version = excluded.version, "
    "turn = excluded.turn, over = excluded.over, scores = excluded.scores"
)
_INSERT_SCORE = (
    "INSERT INTO {scores} VALUES (%(game)s, %(seq)s, %(version)s, %(turn)s, %(player)s, %(points)s, "
    "%(category)s, %(rule)s, %(final)s)"
)
_SELECT_SUMMARY = "SELECT * FROM {summaries} WHERE game = %(game)s"
_SELECT_SCORES = "SELECT * FROM {scores} WHERE game = %(game)s ORDER BY seq"


class BoardChange(msgspec.Struct, frozen=True):
    """What one event put on the board and took off it."""

    new: tuple[BoardItem, ...]
    gone: tuple[BoardItem, ...]


class GameViews(TrackingRecorder):
    """Game summaries and score rows, with the position of the last event written."""

    datastore: Any  # the backend's datastore: `transaction(commit=…)` yields a cursor

    @abstractmethod
    def _table(self, name: str) -> str:
        """`name` qualified for this backend."""

    _insert_tracking: Callable[[Any, Tracking], None]  # the backend's, inside our transaction

    def _sql(self, statement: str) -> str:
        return statement.format(
            summaries=self._table("game_summaries"),
            scores=self._table("game_scores"),
            board=self._table("game_board"),
        )

    def view_tables(self) -> list[str]:
        return [self._sql(s) for s in _TABLES]

    @contextmanager
    def _cursor(self, *, commit: bool) -> Iterator[Any]:
        with self.datastore.transaction(commit=commit) as c:
            yield c

    def write(
        self,
        summary: GameSummary,
        rows: Sequence[ScoreRow],
        tracking: Tracking,
        board: BoardChange | None = None,
    ) -> None:
        """The game's new summary, its new score rows and what changed on its board, recorded
        with `tracking`, or nothing."""
        game = str(summary.game)
        with self._cursor(commit=True) as c:
            c.execute(self._sql(_UPSERT_SUMMARY), _summary_row(summary))
            for row in rows:
                c.execute(self._sql(_INSERT_SCORE), {**msgspec.structs.asdict(row), "game": str(row.game)})
            if board is not None:
                for item in board.gone:
                    fields = {**msgspec.structs.asdict(item), "game": game, "until": summary.version}
                    c.execute(self._sql(_CLOSE_BOARD), fields)
                for item in board.new:
                    fields = {**msgspec.structs.asdict(item), "game": game, "since": summary.version}
                    c.execute(self._sql(_INSERT_BOARD), fields)
            self._insert_tracking(c, tracking)

    def board_at(self, game_id: UUID, version: int) -> list[BoardItem]:
        """What lay on the game's table just after event `version`."""
        with self._cursor(commit=False) as c:
            c.execute(self._sql(_SELECT_BOARD), {"game": str(game_id), "version": version})
            rows = c.fetchall()
        return [
            BoardItem(kind=r["kind"], x=r["x"], y=r["y"], what=r["what"], player=r["player"]) for r in rows
        ]

    def summary(self, game_id: UUID) -> GameSummary | None:
        with self._cursor(commit=False) as c:
            c.execute(self._sql(_SELECT_SUMMARY), {"game": str(game_id)})
            found = c.fetchone()
        if found is None:
            return None
        return GameSummary(
            game=UUID(found["game"]),
            players=tuple(json.loads(found["players"])),
            expansions=tuple(json.loads(found["expansions"])),
            version=found["version"],
            turn=found["turn"],
            over=bool(found["over"]),
            scores=tuple(json.loads(found["scores"])),
        )

    def score_rows(self, game_id: UUID) -> list[ScoreRow]:
        with self._cursor(commit=False) as c:
            c.execute(self._sql(_SELECT_SCORES), {"game": str(game_id)})
            rows = c.fetchall()
        fields = ScoreRow.__struct_fields__
        return [
            ScoreRow(**{**{k: r[k] for k in fields}, "game": game_id, "final": bool(r["final"])})
            for r in rows
        ]


def _summary_row(s: GameSummary) -> dict[str, object]:
    return {
        "game": str(s.game),
        "players": json.dumps(s.players),
        "expansions": json.dumps(s.expansions),
        "version": s.version,
        "turn": s.turn,
        "over": s.over,
        "scores": json.dumps(s.scores),
    }


class SQLiteGameViews(GameViews, SQLiteTrackingRecorder):
    def construct_create_table_statements(self) -> list[str]:
        return [*super().construct_create_table_statements(), *self.view_tables()]

    def _table(self, name: str) -> str:
        return name

    def _sql(self, statement: str) -> str:
        # sqlite3 spells named parameters :name where psycopg spells them %(name)s.
        return re.sub(r"%\((\w+)\)s", r":\1", super()._sql(statement))


class PostgresGameViews(GameViews, PostgresTrackingRecorder):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The library types these as Composed; plain SQL executes the same way.
        self.sql_create_statements.extend(SQL(s) for s in self.view_tables())  # type: ignore[misc]

    def _table(self, name: str) -> str:
        schema = self.datastore.schema.replace('"', '""')
        return f'"{schema}".{name}'


def open_views(url: str) -> GameViews:
    """The views in the store at `url` (an SQLite file or a PostgreSQL database), tables created."""
    env = store_env(url)
    kinds: dict[str, type[GameViews]] = {
        "eventsourcing.sqlite": SQLiteGameViews,
        "eventsourcing.postgres": PostgresGameViews,
    }
    kind = kinds.get(env["PERSISTENCE_MODULE"])
    if kind is None:
        raise ValueError(f"projections need a shared database (an SQLite file or PostgreSQL), not {url!r}")
    with creating_tables(env):
        factory = InfrastructureFactory[TrackingRecorder].construct(env=Environment("GameProjection", env))
        views = factory.tracking_recorder(kind)
    assert isinstance(views, GameViews)
    return views
