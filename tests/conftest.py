"""Shared fixtures: a PostgreSQL store of its own for each test.

Each test gets a fresh schema in the server's ``test`` database, dropped afterwards, so tests
never see each other's games nor games left behind by other programs using that database.
In CI an unreachable server fails the test instead of skipping it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from urllib.parse import urlparse
from uuid import uuid4

import psycopg
import pytest

from tests.compiled import stale_extensions
from tests.reference import in_ci


def pytest_configure(config: pytest.Config) -> None:
    """Refuse to test code other than the sources: an extension older than its source shadows it."""
    stale = stale_extensions()
    if stale:
        pytest.exit(f"compiled modules older than their source: {', '.join(stale)}; run `make compile`", 2)


POSTGRES_URL = os.environ.get("CARC_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


def _connect() -> psycopg.Connection[tuple[object, ...]]:
    parts = urlparse(POSTGRES_URL)
    return psycopg.connect(
        host=parts.hostname or "127.0.0.1",
        port=parts.port or 5432,
        user=parts.username or "postgres",
        dbname=parts.path.lstrip("/") or "test",
        connect_timeout=5,
        autocommit=True,
    )


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """URL of a fresh, empty schema on the test server."""
    schema = f"carc_test_{uuid4().hex[:12]}"
    try:
        with _connect() as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
    except psycopg.OperationalError as e:
        message = f"PostgreSQL at {POSTGRES_URL} is unreachable: {e}"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)
    try:
        yield f"{POSTGRES_URL}?schema={schema}"
    finally:
        with _connect() as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
