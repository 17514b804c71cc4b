"""The HTTP API (Litestar, msgspec bodies) and `serve`, which runs it under uvicorn.

Routes only translate: HTTP in, `GameService` call, Struct out. They run on the event loop;
`GameService` sends every blocking store call off it.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import sys
from collections.abc import AsyncIterator
from typing import Annotated, Any
from uuid import UUID

import msgspec
import uvicorn
from litestar import Litestar, Request, Response, get, post
from litestar.di import Provide
from litestar.exceptions import HTTPException
from litestar.openapi import OpenAPIConfig
from litestar.params import Parameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from domain.errors import RuleViolation
from domain.events import GameEnded
from domain.store import StoreError
from projections.scores import ScoreReport, score_report
from service.games import GameService, ServiceError
from service.schema import (
    MAX_INT64,
    GameCreated,
    GameList,
    GameListed,
    GameView,
    Health,
    MoveAnswer,
    MoveBody,
    NewGame,
    Problem,
    SeatToken,
    game_view,
)
from service.store import open_service_store
from service.visibility import PublicView

POLL_SECONDS = 0.1  # how often an event stream looks for events stored by any process
MAX_PAGE = 1000  # games listed by one GET /games

log = logging.getLogger(__name__)

AuthHeader = Annotated[str | None, Parameter(header="Authorization", required=False)]
KeyHeader = Annotated[
    str | None, Parameter(header="Idempotency-Key", required=False, min_length=1, max_length=200)
]


@post("/games", status_code=201)
async def create_game(data: NewGame, games: GameService) -> GameCreated:
    """Start a game: its players in seat order, sets, rule set, and optionally the pile's seed."""
    game = await games.create(data.players, data.expansions, data.rules, data.seed)
    return GameCreated(game=game.id, version=game.version, players=game.state.players)


@get("/games")
async def list_games(
    games: GameService,
    after: Annotated[int | None, Parameter(query="after", ge=0, le=MAX_INT64)] = None,
    limit: Annotated[int, Parameter(query="limit", ge=1, le=MAX_PAGE)] = 100,
) -> GameList:
    """The stored games, oldest first, a page at a time: pass a page's `next` as `after`."""
    page = await asyncio.to_thread(games.store.started_page, after, limit + 1)
    listed = tuple(
        GameListed(game=s.originator_id, players=s.players, expansions=s.expansions, rules=s.rules)
        for _, s in page[:limit]
    )
    return GameList(games=listed, next=page[limit - 1][0] if len(page) > limit else None)


@get("/health")
async def health(games: GameService) -> Health:
    """Whether the service and its store answer (503 when the store does not)."""
    return Health(status="ok", store_position=await asyncio.to_thread(games.store.last_position))


@get("/games/{game_id:uuid}")
async def get_game(game_id: UUID, games: GameService) -> GameView:
    """The game now: board, scores, whose turn, version and that player's legal moves."""
    return await games.read(game_id, game_view)


@post("/games/{game_id:uuid}/seats/{seat:int}", status_code=201)
async def join_seat(game_id: UUID, seat: int, games: GameService) -> SeatToken:
    """Claim a seat; the answer holds the seat's secret token, shown only this once."""
    token = await games.join(game_id, seat)
    player = await games.read(game_id, lambda game: game.state.players[seat])
    return SeatToken(game=game_id, seat=seat, player=player, token=token)


@post("/games/{game_id:uuid}/moves", status_code=200)
async def submit_move(
    game_id: UUID,
    data: MoveBody,
    games: GameService,
    authorization: AuthHeader = None,
    idempotency_key: KeyHeader = None,
) -> MoveAnswer:
    """One command of the seat whose turn it is (Authorization: Bearer TOKEN).

    `expected_version` makes the move conditional; an `Idempotency-Key` header makes a retry
    return the first answer without applying anything twice.
    """
    return await games.move(
        game_id,
        bearer_token(authorization),
        data.command,
        expected_version=data.expected_version,
        idempotency_key=idempotency_key,
    )


@get("/games/{game_id:uuid}/scores")
async def get_scores(game_id: UUID, games: GameService) -> ScoreReport:
    """Standings and every award so far, in the order they were made."""
    return await games.read(game_id, lambda game: score_report(game.state))


@get("/games/{game_id:uuid}/events")
async def stream_events(
    game_id: UUID,
    games: GameService,
    after: Annotated[int, Parameter(query="after", ge=0, le=MAX_INT64)] = 0,
    last_event_id: Annotated[
        int | None, Parameter(header="Last-Event-ID", required=False, ge=0, le=MAX_INT64)
    ] = None,
) -> ServerSentEvent:
    """Server-sent events: the game's stored events after number `after` (or Last-Event-ID), then
    each new one as it is stored; the stream ends after the game's last event."""
    start = last_event_id if last_event_id is not None else after
    version, over = await games.read(game_id, lambda g: (g.version, g.over))
    return ServerSentEvent(_follow(games, game_id, start, done=over and start >= version))


async def _follow(
    games: GameService, game_id: UUID, last: int, *, done: bool
) -> AsyncIterator[ServerSentEventMessage]:
    first = last
    view = PublicView(lambda: games.store.events_after(game_id, 0, first))
    while not done:
        page = await asyncio.to_thread(games.store.events_after, game_id, last)
        # A page that ends the game hides nothing; one before it shows what players may see.
        for event in view.show(page, over=any(isinstance(e, GameEnded) for e in page)):
            last = event.originator_version
            done = isinstance(event, GameEnded)
            yield ServerSentEventMessage(
                data=msgspec.json.encode(event).decode(), event=type(event).__name__, id=last
            )
        if not done:
            await asyncio.sleep(POLL_SECONDS)


def bearer_token(header: str | None) -> str | None:
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


def problem(
    status: int, message: str, *, rule: str | None = None, version: int | None = None
) -> Response[Problem]:
    return Response(Problem(status=status, message=message, rule=rule, version=version), status_code=status)


def on_service_error(_: Request[Any, Any, Any], e: ServiceError) -> Response[Problem]:
    return problem(e.status, e.message, version=e.version)


def on_rule_violation(_: Request[Any, Any, Any], e: RuleViolation) -> Response[Problem]:
    return problem(422, e.message, rule=e.rule)


def on_http_error(_: Request[Any, Any, Any], e: HTTPException) -> Response[Problem]:
    # Litestar's validation errors keep msgspec's precise reason ("Object contains unknown
    # field `x` - at `$.command`") in `extra`; users need it, so it joins the message.
    extra = e.extra if isinstance(e.extra, list) else [e.extra] if e.extra else []
    reasons = [_reason(x) for x in extra]
    return problem(e.status_code, "; ".join([e.detail, *reasons]))


def _reason(extra: object) -> str:
    if not isinstance(extra, dict):
        return str(extra)
    where = f" (at {extra['key']})" if extra.get("key") else ""
    return f"{extra.get('message', extra)}{where}"


def on_store_error(_: Request[Any, Any, Any], e: StoreError) -> Response[Problem]:
    log.error("store error: %s", e)
    return problem(503, str(e))


def create_app(db: str) -> Litestar:
    games = GameService(open_service_store(db))
    return Litestar(
        route_handlers=[
            create_game,
            list_games,
            health,
            get_game,
            join_seat,
            submit_move,
            get_scores,
            stream_events,
        ],
        dependencies={"games": Provide(lambda: games, use_cache=True, sync_to_thread=False)},
        exception_handlers={
            ServiceError: on_service_error,
            RuleViolation: on_rule_violation,
            HTTPException: on_http_error,
            StoreError: on_store_error,
        },
        openapi_config=OpenAPIConfig(title="carc", version="0.1.0"),
        on_shutdown=[games.close],
    )


def serve(db: str, host: str, port: int, *, access_log: bool = True) -> None:
    """Run the service until interrupted; OSError if it cannot listen on host:port.

    Says where it listens on stderr once the port is bound, then logs each request there.
    """
    app = create_app(db)
    # Bound here rather than by uvicorn, which reports a busy port in its log and exits 3:
    # the caller gets the error itself.
    listener = socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET)
    bound_host, bound_port = listener.getsockname()[:2]
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    print(f"carc serve: listening on http://{shown}:{bound_port} (store {db})", file=sys.stderr, flush=True)
    config = uvicorn.Config(app, log_config=_log_config(access_log), log_level=None)
    uvicorn.Server(config).run(sockets=[listener])


def _log_config(access_log: bool) -> dict[str, Any]:
    """uvicorn's own messages at warning level; one access line per request unless turned off."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "plain": {"format": "carc serve: %(levelname)s %(message)s"},
            "access": {
                "()": "uvicorn.logging.AccessFormatter",
                "fmt": '%(asctime)s %(client_addr)s "%(request_line)s" %(status_code)s',
                "use_colors": False,
            },
        },
        "handlers": {
            "plain": {"class": "logging.StreamHandler", "formatter": "plain", "stream": "ext://sys.stderr"},
            "access": {"class": "logging.StreamHandler", "formatter": "access", "stream": "ext://sys.stderr"},
        },
        "loggers": {
            "uvicorn.error": {"handlers": ["plain"], "level": "WARNING", "propagate": False},
            "uvicorn.access": {
                "handlers": ["access"] if access_log else [],
                "level": "INFO" if access_log else "CRITICAL",
                "propagate": False,
            },
            "service": {"handlers": ["plain"], "level": "WARNING", "propagate": False},
        },
    }
