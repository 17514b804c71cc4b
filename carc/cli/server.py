"""The commands that run beside a store: `serve` (the HTTP service), `project` (its tracked
tables) and `db init`."""

from __future__ import annotations

import signal
import threading
from typing import Annotated

import typer

from carc.cli.common import DbOption, JsonOption, err, fail, out, print_json, progress_bar, user_errors
from carc.cli.tables import printable
from domain.defaults import DEFAULT_DB


def serve(
    db: DbOption = DEFAULT_DB,
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", min=0, max=65535, help="TCP port to listen on (0: any free port).")
    ] = 8000,
    access_log: Annotated[
        bool, typer.Option("--access-log/--no-access-log", help="Log each request on stderr.")
    ] = True,
    request_timeout: Annotated[
        float,
        typer.Option("--request-timeout", min=0.1, help="Seconds a client has to send a whole request."),
    ] = 10.0,
    keep_alive: Annotated[
        float, typer.Option("--keep-alive", min=1, help="Seconds an idle connection stays open.")
    ] = 5.0,
    max_connections: Annotated[
        int, typer.Option("--max-connections", min=1, help="Connections at once; beyond, 503.")
    ] = 1000,
    shutdown_timeout: Annotated[
        float,
        typer.Option("--shutdown-timeout", min=1, help="On SIGTERM, seconds for requests under way."),
    ] = 10.0,
    cache_games: Annotated[
        int, typer.Option("--cache-games", min=1, help="Games kept in memory (least recently used out).")
    ] = 2_000,
    streams_per_client: Annotated[
        int, typer.Option("--streams-per-client", min=1, help="Event streams one address may hold open.")
    ] = 20,
    streams_per_game: Annotated[
        int, typer.Option("--streams-per-game", min=1, help="Event streams open on one game.")
    ] = 500,
) -> None:
    """Run the game service over HTTP until SIGTERM or Ctrl-C (API description at /schema).

    Says on stderr where it listens, then logs one line per request. GET /health answers
    whether the service and its store are up; GET /games lists the stored games.
    """
    # Imported here: the web stack costs every other command start-up time it does not need.
    from service.limits import Limits
    from service.server import serve as serve_http

    limits = Limits(
        request_seconds=request_timeout,
        keep_alive_seconds=keep_alive,
        connections=max_connections,
        shutdown_seconds=shutdown_timeout,
        cached_games=cache_games,
        streams_per_client=streams_per_client,
        streams_per_game=streams_per_game,
    )
    with user_errors():
        try:
            serve_http(db, host, port, access_log=access_log, limits=limits)
        except OSError as e:
            fail(f"cannot listen on {host}:{port}: {e.strerror or e}")


def project(
    db: DbOption = DEFAULT_DB,
    once: Annotated[bool, typer.Option("--once", help="Catch up with the store, then exit.")] = False,
    json: JsonOption = False,
) -> None:
    """Keep the game summary and score tables up to date with the store, until interrupted."""

    from projections.projector import run_projection
    from projections.worker_lock import ProjectionLock

    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    lock = ProjectionLock(db)
    with user_errors():
        held = lock.try_acquire()
    if not held:
        if once:
            err.print(
                printable(f"another carc project worker is keeping {db} up to date: nothing to do"),
                markup=False,
                soft_wrap=True,
            )
            if json:
                print_json({"events": 0, "another_worker": True})
            raise typer.Exit(0)
        err.print(
            printable(f"another carc project worker holds {db}: standing by to take over"),
            markup=False,
            soft_wrap=True,
        )
        while not lock.try_acquire():
            if stop.wait(1.0):
                raise typer.Exit(0)
    if not once:
        err.print(
            printable(f"projecting {db} as events arrive (Ctrl-C or SIGTERM to stop)"),
            highlight=False,
            markup=False,
        )
    # Progress goes to stderr, so that --json keeps stdout to its one document.
    with user_errors(), progress_bar() as progress:
        task = progress.add_task("projecting", total=None)

        def advance(position: int, start: int, end: int) -> None:
            progress.update(task, completed=position - start, total=max(end - start, 1))

        try:
            events = run_projection(db, once=once, stop=stop, on_progress=advance)
        except ValueError as e:
            fail(str(e))
        finally:
            lock.release()
    if json:
        print_json({"events": events})
    else:
        out.print(f"projected {events} event(s) from {printable(db)}", highlight=False, markup=False)


def db_init(db: DbOption = DEFAULT_DB, json: JsonOption = False) -> None:
    """Create every table a store needs, if missing.

    The games, the service's records and the projected views. Servers and workers create them
    too as they start, taking turns on PostgreSQL; run this once to have them find all ready.
    """
    from domain.store import store_env
    from projections.views import open_views
    from service.store import open_service_store

    with user_errors():
        open_service_store(db).close()
        if store_env(db)["PERSISTENCE_MODULE"] != "eventsourcing.popo":  # memory: nothing to keep
            open_views(db)
    if json:
        print_json({"db": db, "ready": True})
    else:
        out.print(printable(f"store {db} is ready"), highlight=False, markup=False)
