"""Seating by invitation (issue 16.5): a game's creator may choose that only the holders of its
invite codes, one per seat and shown once, take its seats; open seating stays a choice."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from service.client import ApiError, CarcClient, local_server


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("invites") / "s.sqlite"


@pytest.fixture(scope="module")
def server(db: Path) -> Iterator[str]:
    with local_server(str(db)) as url:
        yield url


def test_only_a_seat_s_invite_code_takes_it(server: str) -> None:
    async def scenario() -> None:
        async with CarcClient(server) as client:
            created = await client.create_game(["Ann", "Bob"], invitation=True)
            assert len(created.invites) == 2 and len(set(created.invites)) == 2
            for code in (None, "guess", created.invites[1]):  # none, a wrong one, another seat's
                with pytest.raises(ApiError) as refused:
                    await client.join(created.game, 0, code)
                assert refused.value.problem.status == 403
            token = await client.join(created.game, 0, created.invites[0])
            assert token.player == "Ann"
            with pytest.raises(ApiError) as again:  # a code takes its seat once
                await client.join(created.game, 0, created.invites[0])
            assert again.value.problem.status == 409

    asyncio.run(scenario())


def test_open_seating_stays_the_default_and_shows_no_codes(server: str) -> None:
    created = httpx.post(f"{server}/games", json={"players": ["Ann", "Bob"]}).json()
    assert "invites" not in created
    assert httpx.post(f"{server}/games/{created['game']}/seats/1").status_code == 201


def test_codes_are_shown_once_and_stored_only_as_hashes(server: str, db: Path) -> None:
    created = httpx.post(f"{server}/games", json={"players": ["Ann", "Bob"], "seating": "invitation"}).json()
    listed = httpx.get(f"{server}/games").text + httpx.get(f"{server}/games/{created['game']}").text
    stored = b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))
    for code in created["invites"]:
        assert code not in listed
        assert code.encode() not in stored
