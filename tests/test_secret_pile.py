"""The pile is hidden information (issue 14.1): players and spectators never see a tile before it
is drawn, in any set; the store keeps the game whole and checks the order against the commitment
the players saw."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any
from uuid import UUID

import httpx
import msgspec
import pytest

from domain import events as ev
from domain.aggregate import Game
from domain.bots import shuffled_pile
from domain.expansions import SETS, bazaars as bz
from domain.readings import rule_set
from domain.replay import ReplayError, replay
from domain.rules import RuleSet
from service.client import CarcClient, local_server
from service.visibility import PublicView
from tests.test_explain import game_with


def test_players_see_the_commitment_not_the_order() -> None:
    pile = shuffled_pile(("base",), random.Random(1))
    game = Game.start(("Ann", "Bob"), pile, seed=1, pile_salt="s3cret")
    started = game.collect_events()[0]
    assert isinstance(started, ev.GameStarted)
    (shown,) = PublicView(lambda: []).show([started], over=False)
    assert isinstance(shown, ev.GameStarted)
    assert (shown.draw_order, shown.pile_salt, shown.seed) == ((), "", None)
    assert shown.pile_commitment == started.pile_commitment == ev.pile_commitment("s3cret", tuple(pile))
    assert PublicView(lambda: []).show([started], over=True) == [started]  # the game over: all shown


def test_a_stored_order_that_is_not_the_committed_one_is_refused() -> None:
    pile = shuffled_pile(("base",), random.Random(2))
    events = Game.start(("Ann", "Bob"), pile, pile_salt="salt").collect_events()
    assert replay(events).version == len(events)
    started = events[0]
    assert isinstance(started, ev.GameStarted)
    swapped = (started.draw_order[1], started.draw_order[0], *started.draw_order[2:])
    with pytest.raises(ReplayError, match="R-BASE-2: the draw order is not the one its commitment fixed"):
        replay([msgspec.structs.replace(started, draw_order=swapped), *events[1:]])


def test_face_down_bazaar_tiles_are_shown_only_once_revealed() -> None:
    events = game_with("facedown", bz.BazaarRevealed).collect_events()
    taken = next(e for e in events if isinstance(e, bz.BazaarTilesTakenFaceDown))
    cut = events.index(taken)
    revealed = next(e for e in events[cut:] if isinstance(e, bz.BazaarRevealed))
    # One view over the whole log, and one that starts after the face-down event (a stream
    # opened later, or a move's answer): the revealed bazaar names the tiles in both.
    whole = PublicView(lambda: []).show(events, over=False)
    late = PublicView(lambda: events[: cut + 1]).show(events[cut + 1 :], over=False)
    assert next(e for e in whole if isinstance(e, bz.BazaarTilesTakenFaceDown)).tiles == ()
    for shown in (whole, late):
        public = next(e for e in shown if e.originator_version == revealed.originator_version)
        assert msgspec.json.decode(msgspec.json.encode(public))["tiles"] == list(taken.tiles)


def _events_of(body: Any) -> list[dict[str, Any]]:
    """Every event (a dict with a `type`) anywhere in a JSON answer."""
    if isinstance(body, dict):
        found = [body] if "type" in body and "originator_version" in body else []
        return found + [e for v in body.values() for e in _events_of(v)]
    if isinstance(body, list):
        return [e for v in body for e in _events_of(v)]
    return []


async def _running_stream(url: str, game: UUID) -> list[dict[str, Any]]:
    """What a spectator's stream shows of a running game before it goes quiet."""
    shown: list[dict[str, Any]] = []
    async with httpx.AsyncClient(base_url=url) as http:
        try:
            async with asyncio.timeout(1.5):
                async with http.stream("GET", f"/games/{game}/events") as response:
                    async for line in response.aiter_lines():
                        if line.startswith("data:"):
                            shown.append(json.loads(line.removeprefix("data:")))
        except TimeoutError:
            pass  # the stream stays open while the game runs
    return shown


async def _play_watching(
    url: str, expansions: tuple[str, ...], rules: RuleSet, moves: int
) -> tuple[UUID, list[Any]]:
    """A game played `moves` moves through the service; every answer a player could read."""
    rng = random.Random(7)
    seen: list[Any] = []
    async with CarcClient(url) as client, httpx.AsyncClient(base_url=url) as http:
        created = await http.post(
            "/games",
            json={
                "players": ["Ann", "Bob"],
                "expansions": expansions,
                "rules": msgspec.to_builtins(rules),
                "seed": 7,
            },
        )
        seen.append(created.json())
        game = UUID(created.json()["game"])
        tokens = [(await client.join(game, seat)).token for seat in (0, 1)]
        for _ in range(moves):
            view = (await http.get(f"/games/{game}")).json()
            seen.append(view)
            if view["over"]:
                break
            command = rng.choice(view["legal_moves"])
            answer = await http.post(
                f"/games/{game}/moves",
                json={"command": command},
                headers={"Authorization": f"Bearer {tokens[view['current']]}"},
            )
            seen.append(answer.json())
        seen.append(await _running_stream(url, game))
    return game, seen


@pytest.mark.parametrize("code", [c for c in SETS if c != "base"] + ["base"])
def test_no_answer_shows_a_tile_before_it_is_drawn(code: str, tmp_path: Any) -> None:
    # Traders & Builders with bazaars: the builder's part before a face-down bazaar is revealed.
    expansions: tuple[str, ...] = {"base": ("base",), "tb": ("base", "bcb", "tb")}.get(code, ("base", code))
    rules = rule_set(order="facedown")
    with local_server(str(tmp_path / "s.sqlite")) as url:
        game, seen = asyncio.run(_play_watching(url, expansions, rules, moves=60))
        events = [e for body in seen for e in _events_of(body)]
        started = [e for e in events if e["type"] == "GameStarted"]
        assert started, "the stream showed the game's first event"
        for event in started:
            assert (event["draw_order"], event["pile_salt"], event["seed"]) == ([], "", None)
            assert len(event["pile_commitment"]) == 64
        assert all(e["tiles"] == [] for e in events if e["type"] == "BazaarTilesTakenFaceDown")
        text = json.dumps(seen)
        assert '"pile_salt": ""' in text and 'draw_order": ["' not in text
        # The store keeps the whole game; the commitment players saw fixes its order.
        with httpx.Client(base_url=url) as http:
            stored = http.get(f"/games/{game}")
        assert stored.status_code == 200
    from domain.store import open_store

    whole = open_store(str(tmp_path / "s.sqlite")).game_events(game)[0]
    assert isinstance(whole, ev.GameStarted) and whole.draw_order and whole.pile_salt
    assert ev.pile_commitment(whole.pile_salt, whole.draw_order) == started[0]["pile_commitment"]


def test_a_finished_game_s_stream_reveals_the_order(tmp_path: Any) -> None:
    async def finished(url: str) -> list[ev.Event]:
        async with CarcClient(url) as client:
            from service.client import play_random_game

            game = await play_random_game([client], ["Ann", "Bob"], 3)
            return [e async for e in client.events(game)]

    with local_server(str(tmp_path / "s.sqlite")) as url:
        events = asyncio.run(finished(url))
    started = events[0]
    assert isinstance(started, ev.GameStarted) and started.draw_order
    assert ev.pile_commitment(started.pile_salt, started.draw_order) == started.pile_commitment
