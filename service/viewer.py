"""The replay viewer: a page that steps through a game, and the data it draws.

Everything the page shows is computed here by the projections (the board as SVG, the turn parts
with their rule ids, the score timeline, the audit's readings); the page only places it. Stored
games are read from the service's store; a recorded file (our `.jsonl` or a `.jcz` save) can be
sent to the server, which checks it like `carc import` and keeps it in memory, never in the
store, for a while. A game still being played is shown as its players see it (no pile).
"""

from __future__ import annotations

import asyncio
import tempfile
from collections import OrderedDict
from importlib.resources import files
from pathlib import Path
from typing import Any, Literal
from uuid import UUID, uuid4

import msgspec
from litestar import Request, Response, get, post

from domain import events as ev
from domain.errors import RuleViolation, UserError
from domain.replay import replay
from projections.audit import audit_rows
from projections.explain import Step, explain_turn, turns_in
from projections.svg import render_svg
from projections.timeline import TurnMark, score_timeline, timeline_svg
from service.games import GameService, NotFound, ServiceError
from service.visibility import PublicView

MAX_FILE = 5 * 1024 * 1024  # bytes of a recorded game sent to the viewer
KEPT_FILES = 32  # recorded games sent to the viewer, kept in memory, least recently viewed out
PAGE = files("service").joinpath("static/viewer.html").read_text(encoding="utf-8")

Kind = Literal["game", "file"]


class Reading(msgspec.Struct, frozen=True):
    reading: str
    legal: bool
    refused_event: int | None
    rule: str | None
    winner: tuple[str, ...]


class Summary(msgspec.Struct, frozen=True):
    game: str
    players: tuple[str, ...]
    events: int
    over: bool
    turns: tuple[TurnMark, ...]
    timeline_svg: str
    readings: tuple[Reading, ...]


class Frame(msgspec.Struct, frozen=True):
    version: int
    turn: int
    svg: str
    scores: tuple[int, ...]
    parts: tuple[Step, ...]  # the turn's parts so far, each with its rule id


class Uploaded(msgspec.Struct, frozen=True):
    id: UUID


class UploadedGames:
    """Recorded games sent to the viewer, by the id they were given."""

    def __init__(self) -> None:
        self.games: OrderedDict[UUID, list[ev.Event]] = OrderedDict()

    def add(self, events: list[ev.Event]) -> UUID:
        key = uuid4()
        self.games[key] = events
        while len(self.games) > KEPT_FILES:
            self.games.popitem(last=False)
        return key

    def get(self, key: UUID) -> list[ev.Event]:
        events = self.games.get(key)
        if events is None:
            raise NotFound(f"no recorded game {key} here (kept for a while only: send it again)")
        self.games.move_to_end(key)
        return events


UPLOADED = UploadedGames()


async def _events(games: GameService, kind: Kind, key: UUID) -> tuple[list[ev.Event], bool]:
    """The game's events as a viewer may see them, and whether the game is over."""
    if kind == "file":
        events = UPLOADED.get(key)
        return events, isinstance(events[-1], ev.GameEnded)
    events = await asyncio.to_thread(games.store.events_after, key, 0)
    if not events:
        raise NotFound(f"no game {key}")
    over = isinstance(events[-1], ev.GameEnded)
    return events, over


def _public(events: list[ev.Event], over: bool) -> list[ev.Event]:
    return list(PublicView(lambda: []).show(events, over=over))


@get("/view", include_in_schema=False)
async def view_upload() -> Response[str]:
    """The viewer, opening a recorded game file."""
    return Response(PAGE, media_type="text/html")


@get("/view/{game_id:uuid}", include_in_schema=False)
async def view_game(game_id: UUID) -> Response[str]:
    """The viewer of a stored game."""
    return Response(PAGE, media_type="text/html")


@post("/view/files", status_code=201, include_in_schema=False, request_max_body_size=MAX_FILE)
async def upload(request: Request[Any, Any, Any]) -> Uploaded:
    """Check a recorded game sent as the body (a `.jsonl` record or a `.jcz` save) and keep it."""
    body = await request.body()
    if len(body) > MAX_FILE:
        raise ServiceError(f"a recorded game is at most {MAX_FILE // 2**20} MB")
    events = await asyncio.to_thread(_read, body)
    return Uploaded(id=UPLOADED.add(events))


def _read(body: bytes) -> list[ev.Event]:
    from replays.sources import read_source

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game"
        path.write_bytes(body)
        try:
            return read_source(path)[1]
        except (UserError, RuleViolation) as e:
            raise ServiceError(str(e).replace(str(path), "the file")) from None


@get("/view/data/{kind:str}/{key:uuid}/summary", include_in_schema=False)
async def summary(kind: Kind, key: UUID, games: GameService) -> Summary:
    events, over = await _events(games, _kind(kind), key)
    return await asyncio.to_thread(_summary, events, over)


def _summary(events: list[ev.Event], over: bool) -> Summary:
    started = events[0]
    assert isinstance(started, ev.GameStarted)
    marks = score_timeline(events)
    readings = tuple(
        Reading(reading=r.reading, legal=r.legal, refused_event=r.refused_event, rule=r.rule, winner=r.winner)
        for r in (audit_rows(events) if over else [])
    )
    return Summary(
        game=str(started.originator_id),
        players=started.players,
        events=len(events),
        over=over,
        turns=tuple(marks),
        timeline_svg=timeline_svg(started.players, marks),
        readings=readings,
    )


@get("/view/data/{kind:str}/{key:uuid}/frame/{at:int}", include_in_schema=False)
async def frame(kind: Kind, key: UUID, at: int, games: GameService) -> Frame:
    events, over = await _events(games, _kind(kind), key)
    if not 1 <= at <= len(events):
        raise ServiceError(f"the game has events 1 to {len(events)}, not {at}")
    return await asyncio.to_thread(_frame, events, at, over)


def _frame(events: list[ev.Event], at: int, over: bool) -> Frame:
    state = replay(events[:at]).state
    shown = _public(events[:at], over)
    turn = min(turns_in(shown), max(state.turn, 1))
    parts = explain_turn(shown, turn).steps if turn >= 1 and turns_in(shown) else ()
    return Frame(
        version=state.version,
        turn=state.turn,
        svg=render_svg(state),
        scores=tuple(state.scores),
        parts=tuple(parts),
    )


def _kind(kind: str) -> Kind:
    if kind not in ("game", "file"):
        raise NotFound(f"nothing of kind {kind!r} to view")
    return "game" if kind == "game" else "file"


ROUTES = [view_upload, view_game, upload, summary, frame]
