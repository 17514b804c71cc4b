"""One rule for the sets of a new game (issue 25.3), the same from the command line, the Python
API and the HTTP API: the base game added when not named, each set once, unknown codes refused.
One function (`domain.sets.game_sets`) states it; each door calls it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

import carc
from domain.errors import RuleViolation
from domain.sets import game_sets
from service.client import local_server
from tests.test_cli import carc as cli

CASES = [
    (("bcb",), ("base", "bcb")),
    (("base", "bcb"), ("base", "bcb")),
    (("tb", "base", "bcb"), ("base", "tb", "bcb")),
    (("bcb", "bcb"), ("base", "bcb")),
    ((), ("base",)),
]


@pytest.mark.parametrize(("named", "played"), CASES)
def test_the_rule(named: tuple[str, ...], played: tuple[str, ...]) -> None:
    assert game_sets(named) == played


def test_an_unknown_set_is_refused_by_its_rule() -> None:
    with pytest.raises(RuleViolation) as refused:
        game_sets(["bcb", "moon"])
    assert refused.value.rule == "R-BASE-2" and "'moon'" in str(refused.value)


@pytest.mark.parametrize(("named", "played"), [c for c in CASES if c[0]])
def test_the_command_line_and_the_python_api(
    named: tuple[str, ...], played: tuple[str, ...], tmp_path: Path
) -> None:
    code, out, err = cli(
        "play", "--db", str(tmp_path / "s.sqlite"), "--expansions", ",".join(named), "--json"
    )
    assert code == 0, err
    assert tuple(json.loads(out)["expansions"]) == played
    assert carc.new_game(["Ann", "Bob"], expansions=named, seed=1).game.state.expansions == played


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with local_server(str(tmp_path_factory.mktemp("sets") / "s.sqlite")) as url:
        yield url


@pytest.mark.parametrize(("named", "played"), CASES)
def test_the_http_api(named: tuple[str, ...], played: tuple[str, ...], server: str) -> None:
    created = httpx.post(
        f"{server}/games", json={"players": ["Ann", "Bob"], "expansions": list(named), "seed": 3}
    )
    assert created.status_code == 201, created.text
    game = created.json()["game"]
    listed = {g["game"]: g for g in httpx.get(f"{server}/games", params={"limit": 1000}).json()["games"]}
    assert tuple(listed[game]["expansions"]) == played


def test_the_http_api_refuses_an_unknown_set(server: str) -> None:
    refused = httpx.post(f"{server}/games", json={"players": ["Ann", "Bob"], "expansions": ["bcb", "moon"]})
    assert refused.status_code in (400, 422) and "moon" in refused.text
