"""Analytics tables over stored games, written as Parquet or CSV for DuckDB, pandas, spreadsheets.

Tables (one file each in the output folder):

* ``games``    one row per game: setup, rule set, number of events and turns, finished or not.
* ``events``   one row per event: its type, turn and the usual fields; the rest as JSON (`detail`).
* ``scores``   the score timeline: every award with player, points, feature kind, rule id, turn.
* ``features`` every feature completed during play (occupied or not): kind, size, points, scorers.
* ``bids``     every bazaar bid: the chooser's opening bid and each raise (game, version, turn,
  player, amount, tile, opening).

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
from domain.scoring import category, majority
from domain.state import GameState, feature_value
from domain.store import GameStore

Format = Literal["parquet", "csv"]
Rows = dict[str, list[dict[str, Any]]]

_S, _I, _B = pa.string(), pa.int64(), pa.bool_()
SCHEMAS: dict[str, pa.Schema] = {
    "games": pa.schema(
        [
            ("game", _S),
            ("seed", _I),
            ("players", _S),  # names in seat order, comma-separated (CSV has no lists)
            ("expansions", _S),
            ("rules", _S),  # the rule set as JSON
            ("events", _I),
            ("turns", _I),
            ("over", _B),
        ]
    ),
    "events": pa.schema(
        [
            ("game", _S),
            ("version", _I),
            ("turn", _I),
            ("type", _S),
            ("player", _I),
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
            ("players", _S),  # the scorers, comma-separated; empty if nobody held it
        ]
    ),
    "bids": pa.schema(
        [
            ("game", _S),
            ("version", _I),
            ("turn", _I),
            ("player", _S),
            ("amount", _I),
            ("tile", _S),
            ("opening", pa.bool_()),
        ]
    ),
}

_EVENT_COLUMNS = ("player", "tile", "x", "y", "rotation", "location")
_NOT_DETAIL = {*_EVENT_COLUMNS, "originator_id", "originator_version"}


def _bid_row(state: GameState, event: bz.BazaarTileChosen | bz.BidRaised) -> dict[str, object]:
    """A bid, read before it is applied: the auction still shows the tile on sale."""
    auction = bz.bazaars(state).auction
    assert auction is not None
    opening = isinstance(event, bz.BazaarTileChosen)
    return {
        "game": str(state.id),
        "version": event.originator_version,
        "turn": state.turn,
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
                        "players": ", ".join(names[p] for p in majority(feature)),
                    }
                )
        if isinstance(event, bz.BazaarTileChosen | bz.BidRaised):
            rows["bids"].append(_bid_row(state, event))
        game.replay(event)
        fields = msgspec.to_builtins(event)
        del fields["type"]
        rows["events"].append(
            {
                "game": str(state.id),
                "version": event.originator_version,
                "turn": state.turn,
                "type": type(event).__name__,
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
    rows["games"] = [
        {
            "game": gid,
            "seed": started.seed,
            "players": ", ".join(state.players),
            "expansions": ", ".join(state.expansions),
            "rules": msgspec.json.encode(state.rules).decode(),
            "events": state.version,
            "turns": state.turn,
            "over": state.over,
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
        writer = pacsv.CSVWriter(path, schema)
    return writer


def export_analytics(
    store: GameStore,
    games: Iterable[UUID],
    fmt: Format,
    folder: Path,
    *,
    batch: int = 100,
    on_game: Callable[[], None] = lambda: None,
) -> dict[str, int]:
    """Write every table of `games` into `folder` (``games.parquet``…); rows written per table.

    Every table's file is written, even an empty one, so queries find the schema.
    """
    folder.mkdir(parents=True, exist_ok=True)
    writers = {name: _open(folder / f"{name}.{fmt}", fmt, schema) for name, schema in SCHEMAS.items()}
    written = dict.fromkeys(SCHEMAS, 0)
    pending: Rows = {name: [] for name in SCHEMAS}

    def flush() -> None:
        for name, rows in pending.items():
            if rows:
                writers[name].write_table(pa.Table.from_pylist(rows, schema=SCHEMAS[name]))
                written[name] += len(rows)
                rows.clear()

    try:
        for count, game_id in enumerate(games, start=1):
            for name, rows in game_rows(store.game_events(game_id)).items():
                pending[name].extend(rows)
            on_game()
            if count % batch == 0:
                flush()
        flush()
    finally:
        for writer in writers.values():
            writer.close()
    return written
