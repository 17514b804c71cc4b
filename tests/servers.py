"""`carc serve` and `carc project` as real processes on loopback, for the service tests."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from uuid import uuid4

import httpx

CARC = str(Path(sys.executable).parent / "carc")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def running_server(db: str, timeout: float = 20.0) -> Iterator[str]:
    """A `carc serve` process on a free port of 127.0.0.1; yields its base URL."""
    port = free_port()
    process = subprocess.Popen([CARC, "serve", "--db", db, "--port", str(port)])
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            assert process.poll() is None, f"carc serve exited with {process.returncode}"
            try:
                # An unknown game: a cheap request that answers 404 once the app is up.
                if httpx.get(f"{url}/games/{uuid4()}", timeout=1).status_code == 404:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "carc serve did not start"
            time.sleep(0.05)
        yield url
    finally:
        process.terminate()
        process.wait(10)


def start_projector(db: str) -> subprocess.Popen[bytes]:
    """A `carc project` worker following the store at `db`."""
    return subprocess.Popen([CARC, "project", "--db", db])
