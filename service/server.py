"""`carc serve`: the API under uvicorn, with the limits a server open to the network needs.

uvicorn closes a connection idle between requests (keep-alive) but waits for ever for a request
that is sent slowly or only in part, so a client could hold connections open by sending half a
request line. `DeadlineProtocol` gives each request a deadline from its first byte (or from the
connection, for the first one) to its last. SIGTERM ends the event streams at once, so that the
requests under way finish and the server stops within its shutdown time.
"""

from __future__ import annotations

import asyncio
import socket
import sys
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from service.api import create_app
from service.games import GameService
from service.limits import Limits


class DeadlineProtocol(HttpToolsProtocol):
    """HTTP/1.1 whose requests must arrive whole within `request_seconds`."""

    request_seconds = Limits().request_seconds

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._deadline: asyncio.TimerHandle | None = None
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_seconds, self._too_slow)

    def _disarm(self) -> None:
        if getattr(self, "_deadline", None) is not None:
            assert self._deadline is not None
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()


class Server(uvicorn.Server):
    """uvicorn's server; on SIGTERM or Ctrl-C it first ends the games' event streams."""

    def __init__(self, config: uvicorn.Config, games: GameService) -> None:
        super().__init__(config)
        self.games = games

    def handle_exit(self, sig: int, frame: Any) -> None:
        self.games.watch.close()
        super().handle_exit(sig, frame)


def serve(db: str, host: str, port: int, *, access_log: bool = True, limits: Limits | None = None) -> None:
    """Run the service until SIGTERM or Ctrl-C; OSError if it cannot listen on host:port.

    Says where it listens on stderr once the port is bound, then logs each request there.
    """
    limits = limits or Limits()
    app = create_app(db, limits)
    # Bound here rather than by uvicorn, which reports a busy port in its log and exits 3:
    # the caller gets the error itself.
    listener = socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET)
    bound_host, bound_port = listener.getsockname()[:2]
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    print(f"carc serve: listening on http://{shown}:{bound_port} (store {db})", file=sys.stderr, flush=True)
    protocol = type("Deadline", (DeadlineProtocol,), {"request_seconds": limits.request_seconds})
    config = uvicorn.Config(
        app,
        http=protocol,
        log_config=log_config(access_log),
        log_level=None,
        timeout_keep_alive=max(1, round(limits.keep_alive_seconds)),
        limit_concurrency=limits.connections,
        timeout_graceful_shutdown=max(1, round(limits.shutdown_seconds)),
    )
    Server(config, app.state["games"]).run(sockets=[listener])


def log_config(access_log: bool) -> dict[str, Any]:
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
