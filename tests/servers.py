"""`carc project` as a real process, for the service tests (servers: `service.client.local_server`)."""

from __future__ import annotations

import subprocess

from service.client import CARC


def start_projector(db: str) -> subprocess.Popen[bytes]:
    """A `carc project` worker following the store at `db`."""
    return subprocess.Popen([CARC, "project", "--db", db])
