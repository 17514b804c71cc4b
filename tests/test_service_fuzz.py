"""Hostile HTTP (issue 16.1): whatever a client sends, the service answers 4xx with a problem
body, never 5xx; its OpenAPI document says what it accepts and what it refuses, and the running
server agrees with it (schemathesis drives every route from the document, every check on)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from service.client import local_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with local_server(str(tmp_path_factory.mktemp("fuzz") / "s.sqlite")) as url:
        yield url


def test_every_route_agrees_with_its_openapi_document(server: str, tmp_path: Path) -> None:
    # schemathesis's own command with every check on: answers conform to the document (status,
    # body, headers), valid requests are taken, invalid ones refused with a 4xx, never a 5xx.
    run = subprocess.run(
        [
            str(Path(sys.executable).with_name("schemathesis")),
            "run",
            f"{server}/schema/openapi.json",
            "--checks",
            "all",
            "--max-examples",
            "40",
            "--seed",
            "16",
            "--no-color",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=tmp_path,  # schemathesis keeps a cache of what it found in the folder it runs in
    )
    assert run.returncode == 0, run.stdout[-4000:]


def post(url: str, body: bytes) -> httpx.Response:
    return httpx.post(url, content=body, headers={"content-type": "application/json"})


BAD_BODIES = {
    "invalid UTF-8 in a name": b'{"players":["\xff\xfe","Bob"]}',
    "nested 1,200 deep in rules": b'{"players":["a","b"],"rules":' + b"[" * 1200 + b"]" * 1200 + b"}",
    "nested 1,200 deep in players": b'{"players":' + b"[" * 1200 + b"]" * 1200 + b"}",
    "nested deep in an unknown field": b'{"players":["a","b"],"x":' + b"[" * 5000 + b"]" * 5000 + b"}",
    "a seed as a string": b'{"players":["a","b"],"seed":"7"}',
    "a seed beyond 64 bits": b'{"players":["a","b"],"seed":100000000000000000000000}',
    "a seed of 1e400": b'{"players":["a","b"],"seed":1e400}',
    "one player": b'{"players":["a"]}',
    "seven players": b'{"players":["a","b","c","d","e","f","g"]}',
    "an escape code in a name": b'{"players":["a\\u001b[2J","b"]}',
    "a bidi override in a name": b'{"players":["a\\u202eb","c"]}',
    "a name of 41 characters": b'{"players":["' + b"x" * 41 + b'","b"]}',
    "cut off": b'{"players":["a",',
    "not JSON": b"players=a,b",
    "empty": b"",
}


@pytest.mark.parametrize("body", BAD_BODIES.values(), ids=BAD_BODIES.keys())
def test_a_bad_new_game_is_a_400_with_a_problem(server: str, body: bytes) -> None:
    answer = post(f"{server}/games", body)
    assert answer.status_code == 400, answer.text
    assert set(answer.json()) >= {"status", "message"}


def test_a_seat_is_plain_digits(server: str) -> None:
    game = httpx.post(f"{server}/games", json={"players": ["a", "b"]}).json()["game"]
    for seat in ("+1", "01", " 1", "1.0"):
        assert httpx.post(f"{server}/games/{game}/seats/{seat}").status_code in (400, 404), seat
    assert httpx.post(f"{server}/games/{game}/seats/1").status_code == 201


def test_loose_types_in_a_move_are_refused(server: str) -> None:
    game = httpx.post(f"{server}/games", json={"players": ["a", "b"], "seed": 3}).json()["game"]
    move = {"command": {"type": "PlaceTile", "x": "1", "y": 0, "rotation": 0}, "expected_version": "2"}
    answer = httpx.post(f"{server}/games/{game}/moves", json=move)
    assert answer.status_code == 400
    assert "$.command.x" in answer.json()["message"] or "$.expected_version" in answer.json()["message"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@given(
    body=st.one_of(
        st.binary(max_size=200),
        json_values.map(lambda v: json.dumps(v).encode()),
        st.dictionaries(st.sampled_from(["players", "expansions", "rules", "seed", "x"]), json_values).map(
            lambda v: json.dumps(v).encode()
        ),
    ),
    route=st.sampled_from(["/games", "/games/00000000-0000-0000-0000-000000000000/moves"]),
)
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_body_makes_the_server_fail(server: str, body: bytes, route: str) -> None:
    answer = post(f"{server}{route}", body)
    assert answer.status_code < 500, answer.text
    if answer.status_code >= 400:
        assert "message" in answer.json()


def test_the_document_states_the_bounds_and_the_refusals(server: str) -> None:
    document = httpx.get(f"{server}/schema/openapi.json").json()
    create = document["paths"]["/games"]["post"]
    assert {"400", "422"} <= set(create["responses"])
    body = json.dumps(document["components"])
    assert '"minItems": 2' in body and '"maxItems": 6' in body and '"maxLength": 40' in body
    move = document["paths"]["/games/{game_id}/moves"]["post"]
    assert {"400", "403", "404", "409", "422"} <= set(move["responses"])
