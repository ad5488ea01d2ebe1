"""The scoreboard gives nothing away, as a player sees it: Debian's Chromium on a phone's
viewport, driven by Playwright, against ``pegboard web`` while games are written into real
stores (issue 31, item 7).

- While a muggins call can still be made, a right claim and a short one look and read the
  same: the page's whole text, and its picture, are alike.
- A count nobody claimed says so; it never reads "said 0".
- No total on the page passes the target, live or read again after a restart: the figures and
  the pegs, the screen reader's log, the result, the race chart and the finished games.

Waiting is Playwright's (a selector on the page), never a sleep.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import cast

import pytest
from PIL import Image, ImageChops
from playwright.sync_api import Browser, Page

from pegboard.record import dump_line
from tests.support.games import random_game
from tests.support.web import (
    EXAMPLES,
    SHOWN_WITHIN_MS,
    ScriptedGame,
    WebServer,
    chromium,
    shown_lines,
)
from tests.test_web_fair import (
    ANN_CLAIMS,
    ANN_SHOWS,
    RIGHT,
    SHORT,
    SHOWN,
    show_game,
)
from tools.web_shots import PHONE

CHROMIUM = chromium()
pytestmark = pytest.mark.skipif(CHROMIUM is None,
                                reason="needs chromium (`make test` installs it)")


"""The longest the test waits for the page to show an entry (a hang guard)."""


def page_text(page: Page) -> str:
    """What a reader of the page gets: its visible text and the screen reader's log."""
    return page.inner_text("main") + "\n" + (page.text_content("#announce") or "")


SAME_WITHIN = 8
"""The most two screenshots of one page may differ by, in any channel of any pixel: Chromium's
software rasteriser can shade the antialiased edge of a rounded corner a unit apart between
two paints of the same page (seen on a busy machine); a word or a mark that differs changes
pixels by far more."""


def test_a_right_claim_and_a_short_one_look_and_read_the_same_on_a_phone(
        browser: Browser, tmp_path: Path) -> None:
    games = {"right": show_game(RIGHT, *SHOWN), "short": show_game(SHORT, *SHOWN)}
    texts: dict[str, list[str]] = {}
    pictures: dict[str, Image.Image] = {}
    for which, lines in games.items():
        store = tmp_path / which
        game = ScriptedGame(store, lines)
        with WebServer(store, poll=0.02) as server:
            # Reduced motion: the pegs do not glide, so both pictures are of a still page.
            page = browser.new_page(viewport=PHONE, reduced_motion="reduce")
            page.goto(server.url)
            game.play_to(5)  # Ben shows; his claim is awaited
            shown_lines(page, 5)
            page.wait_for_selector("#finished li", timeout=SHOWN_WITHIN_MS)  # "None yet."
            texts[which] = []
            for line in (6, 7):  # Ben claims 4; Ann shows: a call on Ben can still be made
                game.play_to(line)
                shown_lines(page, line)
                texts[which].append(page_text(page))
            assert page.locator("#show h3").all_text_contents() == ["Ben's hand: claimed 4"]
            assert page.locator("#show li").count() == 0
            assert page.locator("#award li").all_text_contents() == ["Ben's hand: claimed 4"]
            shot = tmp_path / f"{which}.png"
            page.screenshot(path=shot)
            pictures[which] = Image.open(shot).convert("RGB")
            game.play_to(8)  # Ann's claim shuts the window: now the page may tell
            shown_lines(page, 8)
            texts[which].append(page_text(page))
            page.close()
        game.close()
    assert texts["right"][:2] == texts["short"][:2]
    assert "Ben's hand: claimed 4" in texts["right"][0]
    difference = ImageChops.difference(pictures["right"], pictures["short"])
    channels = cast(tuple[tuple[int, int], ...], difference.getextrema())  # RGB: per channel
    assert max(high for _, high in channels) <= SAME_WITHIN, (
        f"the pictures differ at {difference.getbbox()}")
    assert "Ben's hand: 4\n" in texts["right"][2]
    assert "Ben's hand: 6 (said 4)" in texts["short"][2]


def test_a_count_nobody_claimed_reads_not_claimed(browser: Browser, tmp_path: Path) -> None:
    lines = show_game(RIGHT, {"type": "muggins", "player": 0, "points": 4}, ANN_SHOWS,
                      ANN_CLAIMS)
    store = tmp_path / "store"
    game = ScriptedGame(store, lines)
    with WebServer(store, poll=0.02) as server:
        page = browser.new_page(viewport=PHONE)
        page.goto(server.url)
        game.play_to(6)  # Ann calls muggins before Ben has claimed
        shown_lines(page, 6)
        assert page.locator("#show h3").all_text_contents() == ["Ben's hand: 4 (not claimed)"]
        assert "said 0" not in page_text(page)
        page.close()
    game.close()
def totals_in(text: str) -> list[int]:
    """Every whole number in ``text``."""
    return [int(number) for number in re.findall(r"\d+", text)]


def race_legend(page: Page, within: str) -> list[str]:
    """The race chart's legend under ``within``: one "Name score" text per side."""
    texts = page.locator(f"{within} svg text").all_text_contents()
    return [text for text in texts if re.fullmatch(r"(Ann|Ben) \d+\D*", text)]


def test_no_total_on_the_page_passes_the_target_live_or_after_a_restart(
        browser: Browser, tmp_path: Path) -> None:
    lines = (EXAMPLES / "muggins.jsonl").read_text(encoding="utf-8").splitlines()
    store = tmp_path / "store"
    game = ScriptedGame(store, lines)
    game.play_to(len(lines) - 1)  # Ann on 115, Ben on 120
    with WebServer(store, poll=0.02) as server:
        page = browser.new_page(viewport=PHONE)
        page.goto(server.url)
        shown_lines(page, len(lines) - 1)
        game.play_to(len(lines))  # Ann's crib claim of 10 takes her to 125 in the record
        shown_lines(page, len(lines))
        page.wait_for_selector("#result-box:not([hidden])", timeout=SHOWN_WITHIN_MS)
        page.wait_for_selector("#race svg", timeout=SHOWN_WITHIN_MS)
        assert page.text_content("#score0") == "121"
        log = page.text_content("#announce") or ""
        assert log.endswith("Ann wins. No skunk: 2 game pts") and "Ann 121, Ben 120" in log
        assert race_legend(page, "#race") == ["Ann 121  won", "Ben 120"]
        assert max(totals_in(page_text(page))) == 121
        page.close()
    # The scoreboard started again on the game as the store keeps it: the same page.
    with WebServer(store, poll=0.02) as server:
        page = browser.new_page(viewport=PHONE)
        page.goto(server.url)
        shown_lines(page, len(lines))
        page.wait_for_selector("#race svg", timeout=SHOWN_WITHIN_MS)
        assert page.text_content("#score0") == "121"
        assert race_legend(page, "#race") == ["Ann 121  won", "Ben 120"]
        game.finish()  # the device moves it into the history
        page.wait_for_selector("#finished li .race svg", timeout=SHOWN_WITHIN_MS)
        assert page.text_content("#finished li p") == "Ann v Ben: 121–120, Ann won"
        assert race_legend(page, "#finished") == ["Ann 121  won", "Ben 120"]
        finished = page.inner_text("#finished li p")
        assert max(totals_in(finished)) == 121
        page.close()
    game.close()
    assert json.loads(lines[-1])["points"] == 10


def test_a_winner_past_a_target_of_61_is_pegged_and_shown_at_61(browser: Browser,
                                                                 tmp_path: Path) -> None:
    played = random_game(0, 2, target=61)  # Ann's last count takes her from 58 to 64
    assert max(played.scores) > 61
    lines = [dump_line(played.header, 2), *(dump_line(event, 2) for event in played.events)]
    store = tmp_path / "store"
    game = ScriptedGame(store, lines)
    game.play_to(len(lines))
    with WebServer(store, poll=0.02) as server:
        page = browser.new_page(viewport=PHONE, reduced_motion="reduce")
        page.goto(server.url)
        shown_lines(page, len(lines))
        winner = played.winner
        assert page.text_content(f"#score{winner}") == "61"
        assert page.get_attribute(f"#peg{winner}-front", "data-hole") == "61"
        page.wait_for_selector("#race svg", timeout=SHOWN_WITHIN_MS)
        assert max(totals_in(page_text(page))) == 61
        page.close()
    game.close()
