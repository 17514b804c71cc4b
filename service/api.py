"""The HTTP API (Litestar, msgspec bodies) and `serve`, which runs it under uvicorn.

Routes only translate: HTTP in, `GameService` call, Struct out. They run on the event loop;
`GameService` sends every blocking store call off it.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Litestar, Request, Response, get, post
from litestar.datastructures import State
from litestar.di import Provide
from litestar.exceptions import HTTPException
from litestar.openapi import OpenAPIConfig, ResponseSpec
from litestar.params import Parameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from domain.errors import RuleViolation
from domain.events import GameEnded
from domain.store import StoreError
from projections.scores import ScoreReport, score_report
from service.games import GameService, ServiceError
from service.limits import Limits
from service.openapi import ExactJsonPlugin
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
from service.streams import TooManyStreams
from service.viewer import ROUTES as VIEWER_ROUTES
from service.visibility import PublicView

MAX_PAGE = 1000  # games listed by one GET /games
MAX_BODY = 64 * 1024  # bytes; the largest body the service takes (a new game) is well under 2 KB

log = logging.getLogger(__name__)

AuthHeader = Annotated[str | None, Parameter(header="Authorization", required=False)]
KeyHeader = Annotated[
    str | None, Parameter(header="Idempotency-Key", required=False, min_length=1, max_length=200)
]


def _refusals(*codes: int) -> dict[int, ResponseSpec]:
    """The refusals a route documents besides its answer: each a Problem body."""
    return {code: ResponseSpec(data_container=Problem, description=_REFUSALS[code]) for code in codes}


_REFUSALS = {
    400: 'Malformed request: not JSON, invalid UTF-8, a wrong type (no coercion: "7" is no number), '
    "an unknown field, a value out of bounds, nesting the schema does not allow",
    403: "No token, a token of another seat, not that seat's decision, or no invite code for the seat",
    404: "No such game or seat",
    409: "expected_version is not the game's version, or another move was stored first",
    413: "Request body over the size limit",
    422: "A rule of the game refuses the move (its rule id given), or an idempotency key reused",
    429: "This client, or this game, has as many event streams open as it may",
    503: "The store does not answer",
}


async def strict_input(request: Request[Any, Any, Any]) -> Response[Any] | None:
    """Refuse, before anything else reads it, a body that does not decode strictly into the
    route's body type (no coercion: "7" is no number; invalid UTF-8, unknown fields and nesting
    the type does not allow all stop here) and a seat number written other than as digits."""
    if request.method == "OPTIONS":
        return _options(request)
    opt = request.route_handler.opt
    body_type = opt.get("body")
    if body_type is not None:
        refused = body_problem(await request.body(), body_type)
        if refused is not None:
            return problem(400, refused)
    if opt.get("seat_in_path") and not _SEAT.fullmatch(request.url.path.rsplit("/", 1)[-1]):
        return problem(400, "a seat is a number from 0 to 5, written as digits")
    return None


def _options(request: Request[Any, Any, Any]) -> Response[None]:
    # Litestar's own answer lists only the methods of the first handler of a path (GET /games
    # was missing beside POST): every method of every handler of the path is allowed.
    paths = request.route_handler.paths
    methods = {
        m for route in request.app.routes if route.path in paths for m in getattr(route, "methods", ())
    }
    return Response(None, status_code=204, headers={"Allow": ", ".join(sorted(methods))})


MAX_DEPTH = 32  # no body the service takes nests deeper than a few levels


def body_problem(raw: bytes, body_type: Any) -> str | None:
    """Why `raw` is not a JSON document of `body_type`, or None.

    Numbers are taken as JSON Schema takes them (1.0 is the integer 1), strings never as numbers.
    """
    try:
        document = msgspec.json.decode(raw)
    except msgspec.DecodeError as e:
        return f"malformed JSON body: {e}"
    except UnicodeDecodeError as e:  # msgspec's word for a string that is not UTF-8
        return f"malformed JSON body: a string is not valid UTF-8 ({e.reason})"
    except RecursionError:  # msgspec's word for nesting deeper than the interpreter's stack
        return f"invalid body: nested more than {MAX_DEPTH} levels deep"
    try:
        msgspec.convert(_integral(document), body_type)
    except msgspec.ValidationError as e:
        return f"invalid body: {e}"
    except _TooDeep:
        return f"invalid body: nested more than {MAX_DEPTH} levels deep"
    return None


class _TooDeep(Exception):
    pass


def _integral(document: Any) -> Any:
    """`document` with each float that is a whole number made an int, walked without recursion
    so that no nesting can exhaust the stack; _TooDeep beyond MAX_DEPTH levels."""
    root = [document]
    stack: list[tuple[Any, Any, int]] = [(root, 0, 0)]
    while stack:
        holder, key, depth = stack.pop()
        value = holder[key]
        if isinstance(value, float) and value.is_integer():
            holder[key] = int(value)
        elif isinstance(value, list | dict):
            if depth >= MAX_DEPTH:
                raise _TooDeep
            keys = range(len(value)) if isinstance(value, list) else list(value)
            stack.extend((value, k, depth + 1) for k in keys)
    return root[0]


_SEAT = re.compile("[0-5]")


@post("/games", status_code=201, opt={"body": NewGame}, responses=_refusals(400, 422, 503))
async def create_game(data: NewGame, games: GameService) -> GameCreated:
    """Start a game: its players in seat order, sets, rule set, and optionally the pile's seed."""
    game, invites = await games.create(
        data.players, data.expansions, data.rules, data.seed, invitations=data.seating == "invitation"
    )
    return GameCreated(game=game.id, version=game.version, players=game.state.players, invites=invites)


@get("/games", responses=_refusals(400, 503))
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


@get("/health", responses=_refusals(503))
async def health(games: GameService) -> Health:
    """Whether the service and its store answer (503 when the store does not)."""
    return Health(status="ok", store_position=await asyncio.to_thread(games.store.last_position))


@get("/games/{game_id:uuid}", responses=_refusals(400, 404, 503))
async def get_game(game_id: UUID, games: GameService) -> GameView:
    """The game now: board, scores, whose turn, version and that player's legal moves."""
    return await games.read(game_id, game_view)


@post(
    "/games/{game_id:uuid}/seats/{seat:int}",
    status_code=201,
    opt={"seat_in_path": True},
    responses=_refusals(400, 403, 404, 409, 503),
)
async def join_seat(
    game_id: UUID, seat: int, games: GameService, authorization: AuthHeader = None
) -> SeatToken:
    """Claim a seat; the answer holds the seat's secret token, shown only this once. A game
    seated by invitation takes the seat's invite code as "Authorization: Bearer CODE"."""
    token = await games.join(game_id, seat, bearer_token(authorization))
    player = await games.read(game_id, lambda game: game.state.players[seat])
    return SeatToken(game=game_id, seat=seat, player=player, token=token)


@post(
    "/games/{game_id:uuid}/moves",
    status_code=200,
    opt={"body": MoveBody},
    responses=_refusals(400, 403, 404, 409, 422, 503),
)
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


@get("/games/{game_id:uuid}/scores", responses=_refusals(400, 404, 503))
async def get_scores(game_id: UUID, games: GameService) -> ScoreReport:
    """Standings and every award so far, in the order they were made."""
    return await games.read(game_id, lambda game: score_report(game.state))


@get("/games/{game_id:uuid}/events", responses=_refusals(400, 404, 429, 503))
async def stream_events(
    request: Request[Any, Any, Any],
    game_id: UUID,
    games: GameService,
    after: Annotated[int, Parameter(query="after", ge=0, le=MAX_INT64)] = 0,
    last_event_id: Annotated[
        int | None, Parameter(header="Last-Event-ID", required=False, ge=0, le=MAX_INT64)
    ] = None,
) -> ServerSentEvent:
    """Server-sent events: the game's stored events after number `after` (or Last-Event-ID), then
    each new one as it is stored; the stream ends after the game's last event. A stream costs
    nothing while its game waits; each client and each game may hold a few open (429 beyond)."""
    start = last_event_id if last_event_id is not None else after
    version, over = await games.read(game_id, lambda g: (g.version, g.over))
    if start > version:
        raise ServiceError(f"the game has {version} events so far, none numbered {start}", version)
    client = request.client.host if request.client else "unknown"
    games.gate.check(client, game_id)  # 429 now rather than a stream that ends at once
    return ServerSentEvent(_follow(games, client, game_id, start, done=over and start >= version))


async def _follow(
    games: GameService, client: str, game_id: UUID, last: int, *, done: bool
) -> AsyncIterator[ServerSentEventMessage]:
    if done:
        return
    first = last
    view = PublicView(lambda: games.store.events_after(game_id, 0, first))
    watch = games.watch
    with games.gate.admit(client, game_id):
        while not done and not watch.closed:
            seen = watch.generation  # before reading: a change after it wakes the wait below
            page = await asyncio.to_thread(games.store.events_after, game_id, last)
            # A page that ends the game hides nothing; one before it shows what players may see.
            for event in view.show(page, over=any(isinstance(e, GameEnded) for e in page)):
                last = event.originator_version
                done = isinstance(event, GameEnded)
                yield ServerSentEventMessage(
                    data=msgspec.json.encode(event).decode(), event=type(event).__name__, id=last
                )
            if not done:
                await watch.wait(game_id, seen)


def bearer_token(header: str | None) -> str | None:
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


def problem(
    status: int,
    message: str,
    *,
    rule: str | None = None,
    version: int | None = None,
    headers: dict[str, str] | None = None,
) -> Response[Problem]:
    body = Problem(status=status, message=message, rule=rule, version=version)
    return Response(body, status_code=status, headers=headers)


def on_service_error(_: Request[Any, Any, Any], e: ServiceError) -> Response[Problem]:
    return problem(e.status, e.message, version=e.version)


def on_rule_violation(_: Request[Any, Any, Any], e: RuleViolation) -> Response[Problem]:
    return problem(422, e.message, rule=e.rule)


def on_http_error(_: Request[Any, Any, Any], e: HTTPException) -> Response[Problem]:
    # Litestar's validation errors keep msgspec's precise reason ("Object contains unknown
    # field `x` - at `$.command`") in `extra`; users need it, so it joins the message.
    extra = e.extra if isinstance(e.extra, list) else [e.extra] if e.extra else []
    reasons = [_reason(x) for x in extra]
    # The headers it carries stay: a 405's Allow lists the methods the path takes.
    return problem(e.status_code, "; ".join([e.detail, *reasons]), headers=dict(e.headers or {}))


def _reason(extra: object) -> str:
    if not isinstance(extra, dict):
        return str(extra)
    where = f" (at {extra['key']})" if extra.get("key") else ""
    return f"{extra.get('message', extra)}{where}"


def on_too_many(_: Request[Any, Any, Any], e: TooManyStreams) -> Response[Problem]:
    return problem(429, str(e), headers={"Retry-After": "10"})


def on_store_error(_: Request[Any, Any, Any], e: StoreError) -> Response[Problem]:
    log.error("store error: %s", e)
    return problem(503, str(e))


def create_app(db: str, limits: Limits | None = None) -> Litestar:
    limits = limits or Limits()
    games = GameService(
        open_service_store(db),
        cached_games=limits.cached_games,
        streams_per_client=limits.streams_per_client,
        streams_per_game=limits.streams_per_game,
    )
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
            *VIEWER_ROUTES,
        ],
        dependencies={"games": Provide(lambda: games, use_cache=True, sync_to_thread=False)},
        exception_handlers={
            ServiceError: on_service_error,
            RuleViolation: on_rule_violation,
            HTTPException: on_http_error,
            StoreError: on_store_error,
            TooManyStreams: on_too_many,
        },
        openapi_config=OpenAPIConfig(title="carc", version="0.1.0", render_plugins=[ExactJsonPlugin()]),
        before_request=strict_input,
        request_max_body_size=MAX_BODY,
        on_shutdown=[games.close],
        state=State({"games": games}),
    )
