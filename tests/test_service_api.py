"""The game service end to end: `carc serve` on loopback with an SQLite store, real HTTP."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args
from uuid import UUID, uuid4

import httpx
import msgspec
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from domain.commands import Pass, PlaceTile
from domain.events import Event
from domain.expansions import SETS, AnyCommand
from domain.readings import audit_variants
from domain.rules import RuleSet
from domain.store import open_store
from service.client import CARC, ApiError, CarcClient, local_server, play_random_game
from service.schema import MoveAnswer
from service.visibility import PublicView

# The default rules and every named variant of them the engine defines (orderings, switches),
# each played with every expansion, so variants the engine adds are played here too.
RULE_SETS = {"default": RuleSet(), **audit_variants(RuleSet())}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("service") / "games.sqlite")


@pytest.fixture(scope="module")
def server(db: str) -> Iterator[str]:
    with local_server(db) as url:
        yield url


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


async def new_game(url: str, seed: int = 1) -> tuple[UUID, list[str]]:
    async with CarcClient(url) as client:
        game = (await client.create_game(["Ann", "Bob"], seed=seed)).game
        return game, [(await client.join(game, seat)).token for seat in (0, 1)]


def stored_events(db: str, game: UUID) -> list[Event]:
    store = open_store(db)
    try:
        return store.game_events(game)
    finally:
        store.close()


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_a_bot_game_played_through_the_api_is_the_stored_game(server: str, db: str, rules: RuleSet) -> None:
    async def play() -> tuple[UUID, Any, list[MoveAnswer]]:
        answers: list[MoveAnswer] = []
        async with CarcClient(server) as client:
            game = await play_random_game(
                [client],
                ["Ann", "Bob", "Cy"],
                11,
                expansions=tuple(SETS),
                rules=rules,
                after_move=lambda a, _: answers.append(a),
            )
            return game, await client.scores(game), answers

    game, report, answers = run(play())
    store = open_store(db)
    stored = store.load(game)
    store.close()
    assert stored.over and report.over
    assert stored.state.rules == rules
    assert report.final == {name: stored.state.scores[i] for i, name in enumerate(stored.state.players)}
    # Every event after the game's creation is reported by exactly one move.
    reported = [e.originator_version for a in answers for e in a.events]
    assert reported == list(range(stored.version - len(reported) + 1, stored.version + 1))
    assert reported[0] > 1


def test_spectators_see_exactly_the_stored_events(server: str, db: str) -> None:
    async def watch_while_playing() -> tuple[UUID, list[Event], list[Event]]:
        async with CarcClient(server) as players, CarcClient(server) as spectator:
            game, tokens = await new_game(server, seed=5)
            from_start = asyncio.create_task(collect(spectator, game, 0))
            await asyncio.sleep(0.2)  # the spectator is waiting for the first move
            view: Any = await players.game(game)
            while not view.over:
                view = await players.move(game, tokens[view.current], view.legal_moves[0])
            late = await collect(spectator, game, 10)  # joins after the end, from event 10 on
            return game, await from_start, late

    async def collect(client: CarcClient, game: UUID, after: int) -> list[Event]:
        return [e async for e in client.events(game, after)]

    game, seen, late = run(watch_while_playing())
    stored = stored_events(db, game)
    # While the game ran, its first event came without the pile (the game is over now: a late
    # spectator sees every event whole).
    assert seen[1:] == stored[1:]
    assert seen[0] == PublicView(lambda: []).show(stored[:1], over=False)[0] != stored[0]
    assert late == stored[10:]


def test_racing_moves_one_wins_per_version_the_others_get_409(server: str, db: str) -> None:
    async def race() -> list[tuple[int, int]]:
        game, tokens = await new_game(server, seed=3)
        outcomes: list[tuple[int, int]] = []
        async with CarcClient(server) as client:
            for _ in range(4):
                view = await client.game(game)
                token = tokens[view.current]
                tries = [
                    client.move(
                        game,
                        token,
                        view.legal_moves[i % len(view.legal_moves)],
                        expected_version=view.version,
                    )
                    for i in range(12)
                ]
                results = await asyncio.gather(*tries, return_exceptions=True)
                wins = [r for r in results if isinstance(r, MoveAnswer)]
                losses = [r for r in results if isinstance(r, ApiError)]
                assert len(wins) + len(losses) == len(results)
                assert {e.status for e in losses} == {409}
                now = (await client.game(game)).version
                assert {e.problem.version for e in losses} == {now}
                outcomes.append((len(wins), now - view.version))
        return outcomes

    for wins, advanced in run(race()):
        assert wins == 1
        assert advanced >= 1


def test_a_retry_with_the_same_idempotency_key_gets_the_first_answer_and_changes_nothing(server: str) -> None:
    async def retry() -> None:
        game, tokens = await new_game(server, seed=8)
        async with CarcClient(server) as client:
            view = await client.game(game)
            move = view.legal_moves[0]
            first = await client.move(game, tokens[0], move, idempotency_key="k-1")
            again = await asyncio.gather(
                *(client.move(game, tokens[0], move, idempotency_key="k-1") for _ in range(5))
            )
            assert all(a == first for a in again)
            assert (await client.game(game)).version == first.version
            with pytest.raises(ApiError) as refused:
                await client.move(game, tokens[0], Pass(), idempotency_key="k-1")
            assert refused.value.status == 422
            assert (await client.game(game)).version == first.version

    run(retry())


def test_moves_need_the_token_of_the_seat_whose_turn_it_is(server: str, db: str) -> None:
    async def intruders() -> None:
        game, tokens = await new_game(server, seed=2)
        _, others = await new_game(server, seed=2)
        async with CarcClient(server) as client:
            view = await client.game(game)
            move = view.legal_moves[0]
            for token in (None, "not-a-token", others[0], others[1], tokens[1]):
                with pytest.raises(ApiError) as refused:
                    await client.move(game, token, move)
                assert refused.value.status == 403, token
            body = msgspec.json.encode({"command": move})
            no_scheme = {"Authorization": tokens[0]}
            status, _ = await client.request("POST", f"/games/{game}/moves", body, no_scheme)
            assert status == 403  # the token without "Bearer"
            assert (await client.game(game)).version == view.version
            await client.move(game, tokens[0], move)
            with pytest.raises(ApiError) as taken:
                await client.join(game, 0)
            assert taken.value.status == 409

    run(intruders())


def test_tokens_are_not_in_the_database(server: str, db: str) -> None:
    _, tokens = run(new_game(server))
    content = Path(db).read_bytes()
    assert all(t.encode() not in content for t in tokens)


def test_unknown_games_and_seats_are_404(server: str) -> None:
    game, _ = run(new_game(server))
    with httpx.Client(base_url=server) as http:
        for method, path in [
            ("GET", f"/games/{uuid4()}"),
            ("GET", f"/games/{uuid4()}/scores"),
            ("GET", f"/games/{uuid4()}/events"),
            ("POST", f"/games/{uuid4()}/seats/0"),
            ("POST", f"/games/{game}/seats/2"),
        ]:
            answer = http.request(method, path)
            assert answer.status_code == 404, path
            assert answer.json()["message"]
        assert http.get("/games/not-a-uuid").status_code in (400, 404)


def test_setup_errors_name_the_rule(server: str) -> None:
    with httpx.Client(base_url=server) as http:
        answer = http.post("/games", json={"players": ["Ann", "Ann"]})
        assert answer.status_code == 422
        assert answer.json()["rule"] == "R-BASE-1"
        answer = http.post("/games", json={"players": ["Solo"]})  # the schema's bounds: 2 to 6
        assert answer.status_code == 400
        assert "$.players" in answer.json()["message"]
        answer = http.post("/games", json={"players": ["A", "B"], "rules": {"farmers": "yes"}})
        assert answer.status_code == 400
        assert "farmers" in answer.json()["message"]


def test_the_openapi_document_lists_the_routes(server: str) -> None:
    document = httpx.get(f"{server}/schema/openapi.json").json()
    assert {"/games", "/games/{game_id}/moves", "/games/{game_id}/events"} <= set(document["paths"])


# Every command type the domain defines, plus one it does not.
COMMAND_TAGS = [str(t.__struct_config__.tag) for t in get_args(AnyCommand)] + ["Unknown"]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
commands = st.fixed_dictionaries(
    {"type": st.sampled_from(COMMAND_TAGS)},
    optional={
        "x": json_values,
        "y": json_values,
        "rotation": json_values,
        "location": json_values,
        "tile": json_values,
        "extra": json_values,
    },
)
new_games = st.fixed_dictionaries(
    {"players": st.lists(st.text(max_size=4), max_size=8) | json_values},
    optional={
        "expansions": st.lists(st.sampled_from(["base", "bcb", "tb", "nope", ""]), max_size=4) | json_values,
        "rules": st.fixed_dictionaries({}, optional={"followers": json_values, "farmers": json_values}),
        "seed": st.integers() | json_values,
    },
)
bodies = st.one_of(
    st.binary(max_size=40),
    new_games.map(lambda v: json.dumps(v).encode()),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.fixed_dictionaries({"command": commands}, optional={"expected_version": json_values}).map(
        lambda v: json.dumps(v).encode()
    ),
)


def test_fuzzed_bodies_never_cause_a_server_error(server: str, db: str) -> None:
    game, tokens = run(new_game(server, seed=4))
    http = httpx.Client(base_url=server, headers={"Authorization": f"Bearer {tokens[0]}"})

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(body=bodies, target=st.sampled_from(["moves", "create"]))
    def post(body: bytes, target: str) -> None:
        path = f"/games/{game}/moves" if target == "moves" else "/games"
        answer = http.post(path, content=body, headers={"Content-Type": "application/json"})
        assert answer.status_code < 500, answer.text
        if answer.status_code >= 400:
            assert answer.json()["message"]

    with http:
        post()
    # Whatever was accepted was stored whole: the game still rebuilds from its events.
    store = open_store(db)
    assert store.load(game).version == len(store.game_events(game))
    store.close()


def test_place_tile_commands_carry_only_known_fields(server: str) -> None:
    game, tokens = run(new_game(server, seed=6))
    with httpx.Client(base_url=server) as http:
        body = {"command": {**msgspec.to_builtins(PlaceTile(x=0, y=-1, rotation=0)), "bogus": 1}}
        answer = http.post(
            f"/games/{game}/moves", json=body, headers={"Authorization": f"Bearer {tokens[0]}"}
        )
        assert answer.status_code == 400
        assert "bogus" in answer.json()["message"]


def test_serve_on_a_busy_port_fails_with_a_message(db: str) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        done = subprocess.run([CARC, "serve", "--db", db, "--port", port], capture_output=True, timeout=30)
    assert done.returncode == 1
    assert b"cannot listen on 127.0.0.1:" in done.stderr
