"""Whole games on phones in Chromium (mobile viewports, 360x740), to the referee's scores
after every deal and at the end (the driver, :class:`tests.test_phone_games.Table`):

* a game to 121 on two phones, one seat saying its gos on the box's encoder GO key;
* a phone against a seat on the box: a whole game with the keypad, two deals with the
  encoder, the phone's seat falling back to the box for a card;
* a game to 61 on four phones at a partners' table;
* ``-m soak``: games to 121 on two and on four phones, every tap a pointer click.

Kept apart from tests/test_phone_games.py so that the suite's workers (one file each) share
the two files' time.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from pegboard.config import Config
from pegboard.rules.value import replace
from pegboard.rules.variants import Rules
from tests.support.phones import phone_board
from tests.support.web import chromium
from tests.test_phone_games import NAMES, Checks, Table, shows, whole_game

pytestmark = [pytest.mark.skipif(chromium() is None,
                                 reason="needs chromium (`make test` installs it)"),
              pytest.mark.timeout(600), pytest.mark.usefixtures("patient")]


def test_a_whole_game_on_two_phones_and_the_box_to_the_referees_scores(
        browser: Browser, tmp_path: Path) -> None:
    """A whole game to 121: both hands entered and played on the phones, Ben's gos said on
    the box's GO key (the encoder's pins): the referee's scores after every deal and at the
    end, each of the first two deals' counts on every phone through the next deal, the
    game's end on both phones, and at most 16 taps a player a deal. The first deal is
    tapped with Playwright's pointer clicks, the rest in the page (:class:`Table`)."""
    checks = Checks()
    with phone_board(tmp_path, dealer=0) as board:
        table = Table(board, browser, 2, 0, checks, real_deals=1)
        checks.look(table.pages[1], "six cards")
        deals = whole_game(table, random.Random(21), box_go=1, last_count=2)
        gs = table.gs
        assert gs.winner is not None and deals >= 5, (deals, gs.scores)
        assert max(gs.scores) >= 121 and gs.rules.target == 121
        assert board.recorded().scores == gs.scores
        assert table.referee_scores() == list(gs.scores), table.record
        # A player's taps a deal: at most 16 on average (9 to enter a hand, a tap a card).
        assert max(table.taps) / deals <= 16, (table.taps, deals)
        assert table.box.keys >= 1, "no go was said on the box"
        shown = [min(score, 121) for score in gs.scores]
        for page in table.pages.values():
            shows(page, "#asked", "The game is over.", whole=True)
            expect(page.locator("#scores")).to_have_text(f"Ann {shown[0]}Ben {shown[1]}")
        checks.look(table.pages[0], "game over")
    checks.assert_clean({"six cards", "the starter", "the play", "last count", "game over"})


@pytest.mark.parametrize(("kit", "seed", "deals_at_most"),
                         [("keypad", 6, None), ("encoder", 5, 2)])
def test_a_phone_against_a_seat_on_the_box_to_the_referees_scores(
        browser: Browser, tmp_path: Path, kit: str, seed: int,
        deals_at_most: int | None) -> None:
    """Mixed seats: Ann on her phone, Ben on the box (every card he lays, the starter when he
    deals, his cards laid away for the crib, a count his stand-in suits made short put right:
    keys on the kit's mock pins); in the second deal Ann lays her first card on the box
    (her phone falls back) and goes on on her phone. A whole game with the keypad, two
    deals with the encoder; to the referee's scores."""
    checks = Checks()
    config = replace(Config(), input=replace(Config().input, kit=kit))
    with phone_board(tmp_path, dealer=0, config=config) as board:
        table = Table(board, browser, 2, 0, checks, on_box=(1,), real_deals=1)
        deals = whole_game(table, random.Random(seed), fall_back=0,
                           deals_at_most=deals_at_most)
        gs = table.gs
        assert board.recorded().scores == gs.scores
        assert table.referee_scores() == list(gs.scores), table.record
        assert table.box.keys >= 8 * deals, table.box.keys  # Ben's every card, on the box
        if deals_at_most is not None:
            assert deals == deals_at_most and gs.winner is None
            checks.assert_clean({"the starter", "the play", "last count"})
            return
        assert gs.winner is not None and deals >= 5
        shown = [min(score, gs.rules.target) for score in gs.scores]
        page = table.pages[0]
        expect(page.locator("#asked")).to_have_text("The game is over.")
        expect(page.locator("#scores")).to_have_text(f"Ann {shown[0]}Ben {shown[1]}")
        checks.look(page, "game over")
    checks.assert_clean({"the starter", "the play", "last count", "game over"})


def test_a_whole_game_on_four_phones_to_the_referees_scores(
        browser: Browser, tmp_path: Path) -> None:
    """Four players, partners, on four phones: a whole game to 61 (RULES.md's short game;
    a game to 121 on four phones is the soak's), every hand, starter, card and go tapped on
    the phones, to the referee's scores after every deal and at the end, the first deal's
    counts on every phone through the next deal, and the game's end on every phone."""
    # The states met are those of the game on two phones: looked at here, four players'.
    checks = Checks({"five cards, four players", "game over"})
    with phone_board(tmp_path, dealer=3, names=NAMES, rules=Rules(target=61)) as board:
        table = Table(board, browser, 4, 3, checks, real_deals=0)
        assert board.game.rules.dealt_size(4) == 5
        checks.look(table.pages[2], "five cards, four players")
        deals = whole_game(table, random.Random(4), last_count=1)
        gs = table.gs
        assert gs.winner is not None and deals >= 3, (deals, gs.scores)
        assert max(gs.scores) >= 61
        assert board.recorded().scores == gs.scores
        assert table.referee_scores() == list(gs.scores), table.record
        shown = [min(score, 61) for score in gs.scores]
        for page in table.pages.values():  # partners: two sides on every phone
            shows(page, "#asked", "The game is over.", whole=True)
            expect(page.locator("#scores li")).to_have_count(2)
            expect(page.locator("#scores")).to_contain_text(str(shown[0]))
        checks.look(table.pages[0], "game over")
    checks.assert_clean({"five cards, four players", "game over"})


@pytest.mark.soak
@pytest.mark.parametrize(("players", "seed"), [(2, 21), (4, 4)])
def test_whole_games_on_two_and_on_four_phones_to_the_referees_scores(
        browser: Browser, tmp_path: Path, players: int, seed: int) -> None:
    """The long variant (``-m soak``; the suite plays a game to 121 on two phones, one to 61
    on four, most taps made in the page): whole games to 121 with every hand, starter, card
    and go tapped on the phones with Playwright's pointer clicks, two players, then four at
    a partners' table, to the referee's scores after every deal and at the end, and the
    game's end on every phone."""
    checks = Checks()
    dealer = players - 1
    with phone_board(tmp_path, dealer=dealer, names=NAMES[:players]) as board:
        table = Table(board, browser, players, dealer, checks)
        deals = whole_game(table, random.Random(seed))
        gs = table.gs
        assert gs.winner is not None and deals >= 4, (deals, gs.scores)
        assert board.recorded().scores == gs.scores
        assert table.referee_scores() == list(gs.scores), table.record
        sides = 2
        for page in table.pages.values():
            expect(page.locator("#asked")).to_have_text("The game is over.")
            expect(page.locator("#scores li")).to_have_count(sides)
        checks.look(table.pages[0], "game over")
    checks.assert_clean({"the starter", "the play", "last count", "game over"})
