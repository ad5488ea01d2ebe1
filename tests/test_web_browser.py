"""The scoreboard in a real browser: Debian's Chromium, driven by Playwright, against
``pegboard web`` on 127.0.0.1 while a game is written into the store entry by entry.

Waiting is Playwright's (a selector on the page), never a sleep. The page's content security
policy stays on: the tests read the page through selectors and attributes only.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Browser

from pegboard.app.words import awards_text, result_lines
from tests.support.web import (
    EXAMPLES,
    SHOWN_WITHIN_MS,
    ScriptedGame,
    WebServer,
    chromium,
    shown_lines,
)
from tools import web_shots

CHROMIUM = chromium()
pytestmark = pytest.mark.skipif(CHROMIUM is None,
                                reason="needs chromium (`make test` installs it)")

LINES = (EXAMPLES / "two-player.jsonl").read_text(encoding="utf-8").splitlines()
"""The longest the test waits for the page to show an entry: a page that stops following the
game fails, a busy machine does not (how soon it shows one is ``make bench``'s figure:
``bench/bench_web.py``, median and 99th percentile within 250 ms)."""


SCORES = """sides => {
    const text = id => document.getElementById(id)?.textContent ?? null;
    const hole = id => document.getElementById(id)?.getAttribute("data-hole") ?? null;
    const every = [...Array(sides).keys()];
    return {scores: every.map(side => text(`score${side}`)),
            pegs: every.map(side => [hole(`peg${side}-front`), hole(`peg${side}-back`)]),
            count: text("count")};
}"""
"""Each side's score and the holes of its two pegs, and the count, as the page shows them:
read at once (one round trip to the browser for every entry of the game, not seven)."""


def test_the_page_follows_a_whole_game_entry_by_entry(browser: Browser, tmp_path: Path) -> None:
    store = tmp_path / "store"
    game = ScriptedGame(store, LINES)
    errors: list[str] = []
    with WebServer(store, poll=0.02) as server:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.on("console", lambda message: errors.append(message.text)
                if message.type == "error" else None)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(server.url)
        shown_lines(page, 1)
        while not game.done:
            line = game.step()
            shown_lines(page, line)
            gs = game.state
            shown = page.evaluate(SCORES, gs.sides)
            for side in range(gs.sides):
                assert shown["scores"][side] == str(gs.scores[side])
                assert shown["pegs"][side] == [str(min(gs.scores[side], 121)),
                                               str(min(gs.back_pegs[side], 121))]
            if gs.phase.value == "play":
                assert shown["count"] == str(gs.count)
        title, result = result_lines(game.state)
        page.wait_for_selector("#result-box:not([hidden])", timeout=SHOWN_WITHIN_MS)
        assert page.text_content("#result-title") == title == "Ben wins"
        assert page.locator("#result-lines li").all_text_contents() == list(result)
        assert page.locator("#race svg polyline").count() == 2
        game.finish()
        page.wait_for_selector("#finished li .race svg", timeout=SHOWN_WITHIN_MS)
        assert page.text_content("#finished li p") == "Ann v Ben: 116–121, Ben won"
        assert page.text_content("#status") == "Live"
    game.close()
    assert errors == []


def test_the_award_line_is_live_text_in_the_apps_words(browser: Browser, tmp_path: Path) -> None:
    store = tmp_path / "store"
    game = ScriptedGame(store, LINES)
    with WebServer(store, poll=0.02) as server:
        page = browser.new_page()
        page.goto(server.url + "?tv=1")
        while True:
            before = len(game.state.awards)
            line = game.step()
            if len(game.state.awards) > before:
                break
        shown_lines(page, line)
        report = game.game.report
        assert report is not None
        acts = [awards_text(list(act.awards), game.state.names) for act in report.scored]
        assert page.get_attribute("#announce", "role") == "log"  # the live region (a11y)
        assert page.locator("#award li").all_text_contents() == acts
        assert page.get_attribute("html", "class") == "tv"
    game.close()


def test_the_heading_says_whose_claim_is_awaited_and_who_deals_next(
        browser: Browser, tmp_path: Path) -> None:
    muggins = (EXAMPLES / "muggins.jsonl").read_text(encoding="utf-8").splitlines()
    store = tmp_path / "store"
    game = ScriptedGame(store, muggins)
    with WebServer(store, poll=0.02) as server:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(server.url)
        game.play_to(19)  # the hands are being claimed: Ben's is awaited, the crib after
        shown_lines(page, 19)
        assert page.text_content("#doing") == "Waiting for Ben's claim: hand — deal 1"
        assert page.is_hidden("#show-box")  # no count shown before it is claimed
        game.play_to(21)  # Ann claims 5 of her 12: the 7 are open to muggins
        shown_lines(page, 21)
        assert page.locator("#show h3").all_text_contents() == [
            "Ben's hand: 7", "Ann's hand: claimed 5"]
        game.play_to(23)  # the crib counted: Ben deals the next hand
        shown_lines(page, 23)
        assert page.text_content("#doing") == "Ben to deal"
        # Ann's claim for her crib can still be called on: what she claimed, no more.
        assert page.locator("#award li").all_text_contents() == ["Ann's crib: claimed 1"]
        assert page.locator("#show h3").all_text_contents() == [
            "Ben's hand: 7", "Ann's hand: 12 (said 5)", "Ann's crib: claimed 1"]
        game.play_to(len(muggins))  # Ann's crib takes her past the target: shown at it
        shown_lines(page, len(muggins))
        assert page.text_content("#score0") == "121"
    game.close()


def test_a_missing_store_is_a_friendly_page_in_the_browser(browser: Browser,
                                                           tmp_path: Path) -> None:
    store = tmp_path / "store"
    ScriptedGame(store, LINES[:5]).close()
    with WebServer(store, poll=0.02) as server:
        page = browser.new_page()
        page.goto(server.url)
        shown_lines(page, 1)
        shutil.rmtree(store)
        page.wait_for_selector("#problem:not([hidden])", timeout=SHOWN_WITHIN_MS)
        assert page.text_content("#problem-text") == (
            f"The game store {store} is not there. Start a game on the Pegboard, or check the "
            "store folder.")
        assert page.is_hidden("#game")
        missing = page.goto(server.url + "no/such/page")
        assert missing is not None and missing.status == 404
        assert page.text_content("h1") == "Not found"


def test_the_pictures_command_takes_the_phone_and_tv_pictures(browser: Browser,
                                                             tmp_path: Path) -> None:
    taken = web_shots.take(tmp_path, browser)
    assert [path.name for path in taken] == [f"{name}.png" for name in web_shots.PICTURES]
    sizes = {path.stem: Image.open(path).size for path in taken}
    assert sizes == {"web-phone": (780, 1688), "web-tv": (1920, 1080), "web-end": (780, 1688)}
    for name in web_shots.PICTURES:  # the committed pictures are this command's
        assert Image.open(web_shots.DOCS_IMG / f"{name}.png").size == sizes[name]
