"""What one `carc serve` process allows its clients: its timeouts, caps and memory bound."""

from __future__ import annotations

import msgspec


class Limits(msgspec.Struct, frozen=True, kw_only=True):
    request_seconds: float = 10.0  # to send a whole request (line, headers, body); then it is closed
    keep_alive_seconds: float = 5.0  # an idle connection between requests
    connections: int = 1000  # open at once; beyond, new requests are answered 503
    shutdown_seconds: float = 10.0  # on SIGTERM, for requests under way to finish
    cached_games: int = 2_000  # games kept in memory, least recently used out (~136 MB a 1,000)
    streams_per_client: int = 20  # event streams one client address may hold open
    streams_per_game: int = 500  # event streams open on one game
