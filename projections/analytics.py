"""Analytics tables over stored games, written as Parquet or CSV for DuckDB, pandas, spreadsheets.

Tables (one file each in the output folder):

* ``games``    one row per game: setup (players and sets as lists, the rule set as a struct),
  number of events and turns, finished or not, each player's points and the winners.
* ``events``   one row per event: its type, turn and the usual fields; the rest as JSON (`detail`).
* ``scores``   the score timeline: every award with player, points, feature kind, rule id, turn.
* ``features`` every feature completed during play (occupied or not): kind, size, points, scorers.
* ``bids``     every bazaar bid: the chooser's opening bid and each raise (game, version, turn,
  player, amount, tile, opening).

A player is always named by name (`player`, `players`, `winners`), with the seat number beside
it where a table names one player (`seat`, 0 = the first to play). Parquet keeps lists, structs
and maps as such; CSV, which has none, writes each such cell as JSON text.

Games are read one at a time and rows are written every `batch` games, so memory stays bounded
whatever the number of games.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Literal, Protocol
from uuid import UUID

import msgspec
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from domain import events as ev
from domain.aggregate import Game
from domain.expansions import bazaars as bz
from domain.readings import flat
from domain.rules import RuleSet
from domain.scoring import category
from domain.state import GameState, feature_value
from domain.store import GameStore

Format = Literal["parquet", "csv"]
Rows = dict[str, list[dict[str, Any]]]

_S, _I, _B = pa.string(), pa.int64(), pa.bool_()
_NAMES = pa.list_(_S)


def _arrow_type(value: object) -> pa.DataType:
    """The column type of one rule-set switch, from its default value."""
    if isinstance(value, bool):
        return _B
    if isinstance(value, int):
        return _I
    if isinstance(value, tuple):
        return _NAMES
    return _S


# Every switch of every part by name, defaults included: one column each, whatever the sets in play.
_RULES = pa.struct([(name, _arrow_type(value)) for name, value in flat(RuleSet()).items()])
SCHEMAS: dict[str, pa.Schema] = {
    "games": pa.schema(
        [
            ("game", _S),
            ("seed", _I),
            ("players", _NAMES),  # in seat order
            ("expansions", _NAMES),
            ("rules", _RULES),
            ("events", _I),
            ("turns", _I),
            ("over", _B),
            ("final", pa.map_(_S, _I)),  # player -> points, at the game's end (or where it stops)
            ("winners", _NAMES),  # the players with the most points, once the game is over
        ]
    ),
    "events": pa.schema(
        [
            ("game", _S),
            ("version", _I),
            ("turn", _I),
            ("type", _S),
            ("seat", _I),
            ("player", _S),
            ("tile", _S),
            ("x", _I),
            ("y", _I),
            ("rotation", _I),
            ("location", _S),
            ("detail", _S),  # any other fields, as JSON
        ]
    ),
    "scores": pa.schema(
        [
            ("game", _S),
            ("seat", _I),
            ("player", _S),
            ("points", _I),
            ("kind", _S),
            ("rule", _S),
            ("turn", _I),
            ("version", _I),
            ("final", _B),
        ]
    ),
    "features": pa.schema(
        [
            ("game", _S),
            ("turn", _I),
            ("version", _I),
            ("kind", _S),
            ("size", _I),  # tiles
            ("points", _I),
            ("players", _NAMES),  # the scorers; empty if nobody held it
        ]
    ),
    "bids": pa.schema(
        [
            ("game", _S),
            ("version", _I),
            ("turn", _I),
            ("seat", _I),
            ("player", _S),
            ("amount", _I),
            ("tile", _S),
            ("opening", pa.bool_()),
        ]
    ),
}

_EVENT_COLUMNS = ("tile", "x", "y", "rotation", "location")
_NOT_DETAIL = {*_EVENT_COLUMNS, "player", "originator_id", "originator_version"}


def _bid_row(state: GameState, event: bz.BazaarTileChosen | bz.BidRaised) -> dict[str, object]:
    """A bid, read before it is applied: the auction still shows the tile on sale."""
    auction = bz.bazaars(state).auction
    assert auction is not None
    opening = isinstance(event, bz.BazaarTileChosen)
    return {
        "game": str(state.id),
        "version": event.originator_version,
        "turn": state.turn,
        "seat": event.player,
        "player": state.players[event.player],
        "amount": event.bid,
        "tile": auction.tiles[event.index if isinstance(event, bz.BazaarTileChosen) else auction.index],
        "opening": opening,
    }


def game_rows(events: Sequence[ev.Event]) -> Rows:
    """The rows one game adds to each table, from its events alone."""
    rows: Rows = {name: [] for name in SCHEMAS}
    if not events:
        return rows
    started = events[0]
    assert isinstance(started, ev.GameStarted)
    game = Game(started.originator_id)
    state = game.state
    for event in events:
        if isinstance(event, ev.TurnEnded) and state.placed is not None:
            # Completed features are only visible before the turn's end returns their followers.
            names = state.players
            for feature in state.completions():
                rows["features"].append(
                    {
                        "game": str(state.id),
                        "turn": state.turn,
                        "version": event.originator_version,
                        "kind": category(feature),
                        "size": len(feature.tiles),
                        "points": feature_value(state, feature, completed=True)[0],
                        "players": [names[p] for p in state.majority(feature)],
                    }
                )
        if isinstance(event, bz.BazaarTileChosen | bz.BidRaised):
            rows["bids"].append(_bid_row(state, event))
        game.replay(event)
        fields = msgspec.to_builtins(event)
        del fields["type"]
        seat = fields.get("player")
        rows["events"].append(
            {
                "game": str(state.id),
                "version": event.originator_version,
                "turn": state.turn,
                "type": type(event).__name__,
                "seat": seat,
                "player": state.players[seat] if isinstance(seat, int) else None,
                **{column: fields.get(column) for column in _EVENT_COLUMNS},
                "detail": msgspec.json.encode(
                    {k: v for k, v in fields.items() if k not in _NOT_DETAIL}
                ).decode(),
            }
        )
    gid = str(state.id)
    rows["scores"] = [
        {
            "game": gid,
            "seat": a.player,
            "player": state.players[a.player],
            "points": a.points,
            "kind": a.category,
            "rule": a.rule,
            "turn": a.turn,
            "version": a.version,
            "final": a.final,
        }
        for a in state.awards
    ]
    best = max(state.scores)
    rows["games"] = [
        {
            "game": gid,
            "seed": started.seed,
            "players": list(state.players),
            "expansions": list(state.expansions),
            "rules": flat(state.rules),
            "events": state.version,
            "turns": state.turn,
            "over": state.over,
            "final": list(zip(state.players, state.scores, strict=True)),
            "winners": [n for n, p in zip(state.players, state.scores, strict=True) if p == best]
            if state.over
            else [],
        }
    ]
    return rows


class _Writer(Protocol):
    def write_table(self, table: pa.Table) -> None: ...
    def close(self) -> None: ...


def _open(path: Path, fmt: Format, schema: pa.Schema) -> _Writer:
    if fmt == "parquet":
        writer: _Writer = pq.ParquetWriter(path, schema)
    else:
        writer = pacsv.CSVWriter(path, csv_schema(schema))
    return writer


def _nested(kind: pa.DataType) -> bool:
    return bool(pa.types.is_nested(kind))


def csv_schema(schema: pa.Schema) -> pa.Schema:
    """The schema a table has in CSV: its lists, structs and maps become JSON text."""
    return pa.schema([(f.name, _S if _nested(f.type) else f.type) for f in schema])


def _table(rows: list[dict[str, Any]], schema: pa.Schema, fmt: Format) -> pa.Table:
    if fmt == "csv":
        nested = [f.name for f in schema if _nested(f.type)]
        rows = [{**row, **{name: _json_cell(row[name]) for name in nested}} for row in rows]
        schema = csv_schema(schema)
        texts = [f.name for f in schema if pa.types.is_string(f.type)]
        rows = [{**row, **{name: inert(row[name]) for name in texts}} for row in rows]
    return pa.Table.from_pylist(rows, schema=schema)


# A spreadsheet opening a CSV runs a cell that starts with one of these as a formula (OWASP's
# "CSV injection"): such a cell gets a leading apostrophe, which shows as text. Parquet keeps
# every value exactly.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def inert(value: str | None) -> str | None:
    """A text cell a spreadsheet shows rather than evaluates."""
    return "'" + value if value is not None and value.startswith(_FORMULA_STARTS) else value


def _json_cell(value: object) -> str:
    """A nested cell as JSON; a map (a list of pairs here) as an object."""
    if isinstance(value, list) and value and isinstance(value[0], tuple):
        value = dict(value)
    return msgspec.json.encode(value).decode()


class TableFiles:
    """The analytics tables' files in `folder` (``games.parquet``…), written as rows arrive.

    Every table's file is written, even an empty one, so queries find the schema.
    """

    def __init__(self, folder: Path, fmt: Format) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.fmt = fmt
        self.writers = {
            name: _open(folder / f"{name}.{fmt}", fmt, schema) for name, schema in SCHEMAS.items()
        }
        self.written = dict.fromkeys(SCHEMAS, 0)

    def write(self, rows: Rows) -> None:
        for name, table_rows in rows.items():
            if table_rows:
                self.writers[name].write_table(_table(table_rows, SCHEMAS[name], self.fmt))
                self.written[name] += len(table_rows)

    def close(self) -> None:
        for writer in self.writers.values():
            writer.close()


def rows_of_games(games: Iterable[Sequence[ev.Event]]) -> Rows:
    """Every table's rows of several games, together."""
    together: Rows = {name: [] for name in SCHEMAS}
    for events in games:
        for name, rows in game_rows(events).items():
            together[name].extend(rows)
    return together


def export_analytics(
    store: GameStore,
    games: Iterable[UUID],
    fmt: Format,
    folder: Path,
    *,
    batch: int = 100,
    on_game: Callable[[], None] = lambda: None,
) -> dict[str, int]:
    """Write every table of `games` into `folder`, `batch` games at a time, in this process; rows
    written per table. (`carc export-analytics` spreads the same work over `replays.batch`.)"""
    files = TableFiles(folder, fmt)
    try:
        pending: list[Sequence[ev.Event]] = []
        for game_id in games:
            pending.append(store.game_events(game_id))
            on_game()
            if len(pending) == batch:
                files.write(rows_of_games(pending))
                pending.clear()
        files.write(rows_of_games(pending))
    finally:
        files.close()
    return files.written
