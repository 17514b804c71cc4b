"""The replay viewer in a real browser (Debian's chromium driven by Playwright): a stored game
stepped forward and back, a jump to a turn, the scores shown checked against `carc scores`, and
a recorded file opened from disk."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, sync_playwright

from domain.bots import play_bot_game
from domain.store import open_store
from replays import records
from service.client import local_server
from tests.reference import JCZ, in_ci, require
from tests.test_cli import carc

CHROMIUM = Path(os.environ.get("CARC_CHROMIUM", "/usr/bin/chromium"))


@pytest.fixture(scope="module")
def page() -> Iterator[Page]:
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: `make browser` installs Debian's chromium"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield browser.new_page(viewport={"width": 1400, "height": 1000})
        browser.close()


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, str]]:
    db = str(tmp_path_factory.mktemp("viewer") / "games.sqlite")
    game = play_bot_game(3, 5, expansions=("base", "bcb", "tb"))
    open_store(db).save_game(game)
    with local_server(db) as url:
        yield url, db, str(game.id)


def shown_at(page: Page) -> int:
    return int(page.get_by_test_id("at").inner_text())


def scores_shown(page: Page) -> list[int]:
    rows = page.locator("[data-testid=scores] tr")
    return [int(rows.nth(i).locator("td").nth(1).inner_text()) for i in range(rows.count())]


def test_step_jump_and_scores_agree_with_carc_scores(
    page: Page, stored: tuple[str, str, str], tmp_path: Path
) -> None:
    url, db, game = stored
    page.goto(f"{url}/view/{game}")
    page.wait_for_selector("[data-testid=board] svg.carc-board")
    last = shown_at(page)
    assert last == int(page.get_by_test_id("total").inner_text())
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"document.querySelector('[data-testid=at]').textContent == '{last - 1}'")
    page.get_by_test_id("next").click()
    page.wait_for_function(f"document.querySelector('[data-testid=at]').textContent == '{last}'")
    page.get_by_test_id("goto").fill("12")
    page.get_by_test_id("jump").click()
    page.wait_for_function("document.querySelector('[data-testid=turn]').textContent == '12'")
    at = shown_at(page)
    code, out, err = carc("scores", game, "--db", db, "--until", str(at), "--json")
    assert code == 0, err
    assert scores_shown(page) == list(json.loads(out)["final"].values())
    assert page.locator("[data-testid=parts] tr").count() > 0  # the turn's parts, with rule ids
    assert page.locator("[data-testid=readings] tr").count() > 1  # every reading of the rules
    assert page.locator("[data-testid=timeline] svg polyline").count() == 3
    page.screenshot(path=str(tmp_path / "viewer.png"))
    assert (tmp_path / "viewer.png").stat().st_size > 0


def test_a_recorded_file_opens_in_the_viewer(
    page: Page, stored: tuple[str, str, str], tmp_path: Path
) -> None:
    url, _, _ = stored
    path = tmp_path / "game.jsonl"
    game = play_bot_game(2, 8)
    records.write(game.collect_events(), path)
    page.goto(f"{url}/view")
    page.get_by_test_id("file").set_input_files(str(path))
    page.wait_for_selector("[data-testid=board] svg.carc-board")
    assert scores_shown(page) == list(game.state.scores)
    # A JCloisterZone save of a few hundred kilobytes opens too (the API's bodies are far smaller).
    save = JCZ / "oracle" / "basic_bcb_tb-p3-s200022.jcz"
    page.get_by_test_id("file").set_input_files(str(require(save)))
    page.wait_for_function(
        "document.querySelector('[data-testid=title]').textContent.includes('Alice, Bob, Carol')"
    )
    assert page.get_by_test_id("error").inner_text() == ""
    (tmp_path / "bad.jsonl").write_text("not a game")
    page.get_by_test_id("file").set_input_files(str(tmp_path / "bad.jsonl"))
    page.wait_for_function("document.querySelector('[data-testid=error]').textContent.includes('the file')")
