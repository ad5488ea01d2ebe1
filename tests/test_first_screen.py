"""From power-on to the first entry, as a first-time player meets it (issue 31, item 6).

A plain new game cut for deal (the default) says how to deal on the cut's page, which the
table reads anyway: not a key more than before. A teaching game's cut leads to the coach's
page on the deal (tests/test_app_teaching.py). Teaching turned on from the menu before the
game's first card offers the basics as a teaching game's start does, once a game, a restart
included; after the first card it does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from pegboard.app.inputs import InputEvent, KnobTurn, RankKey
from pegboard.app.view import Screen
from pegboard.rules.cards import Rank
from tests.support.app_driver import GO, MENU, OK, UNDO, App
from tests.test_app_offer_restart import power_cut_and_start
from tests.test_app_teaching import menu

TO_THE_CUT_PAGE: dict[str, tuple[InputEvent, ...]] = {
    # New game, Start, Cut for deal; P1 cuts the 6 the wheel starts on, P2 a 7.
    "encoder": (OK, OK, OK, OK, KnobTurn(1), OK),
    "keypad": (OK, OK, OK, RankKey(Rank.SIX), RankKey(Rank.SEVEN)),
}


@pytest.mark.parametrize("kit", ["encoder", "keypad"])
def test_a_plain_game_cut_for_deal_says_how_to_deal_on_the_page_it_reads(kit: str) -> None:
    app = App.start(kit)
    app.feed(*TO_THE_CUT_PAGE[kit])
    assert [page.title for page in app.pages] == ["The cut"]  # the one page, as before
    assert app.view.lines == ("P1 cut 6", "P2 cut 7", "P1 deals: low card",
                              "Deal 6, lay 2 away")
    app.feed(OK)  # the page read: the first card is the starter, asked at once
    assert app.view.screen is Screen.STARTER and app.view.picker is not None


def dealer_screen() -> App:
    """A plain new game on its first screen, "Who deals first?"."""
    app = App.start()
    app.feed(OK, OK)
    assert app.view.title == "Who deals first?"
    return app


def test_teaching_turned_on_before_the_first_card_offers_the_basics_once(
        tmp_path: Path) -> None:
    app = menu(dealer_screen(), "Teaching")
    assert app.view.lines[app.view.selected or 0] == "Teaching: on"  # still on its row
    app.feed(UNDO)  # the menu left: the basics offered, as at a teaching game's start
    assert app.view.title == "The basics" and app.view.hint == "OK next  UNDO skip"
    titles = []
    while app.view.screen is Screen.HELP:
        titles.append(app.view.title)
        app.feed(OK)
    assert titles[1].startswith("How to play") and titles[-1].startswith("Counting a hand")
    assert app.view.title == "Who deals first?"
    # Off and on again: not offered twice.
    menu(app, "Teaching").feed(OK).feed(UNDO)
    assert app.state.teaching and app.view.title == "Who deals first?"
    # Nor after a power cut: the record says they were offered.
    resumed = power_cut_and_start(tmp_path, app.record)
    resumed.read()
    menu(resumed, "Teaching").feed(OK).feed(UNDO)
    assert resumed.state.teaching and resumed.view.title == "Who deals first?"
    # The cut then leads to the coach's page on the deal, as in any teaching game.
    resumed.feed(OK)  # Cut for deal
    resumed.pick("6")
    resumed.pick("7")
    assert [p.title for p in resumed.pages][:2] == ["The cut", "Coach: the deal"]
    assert "Deal 6, lay 2 away" not in resumed.view.lines  # the coach's page says it whole


def test_teaching_turned_on_after_the_first_card_offers_no_basics() -> None:
    app = dealer_screen()
    app.feed(KnobTurn(1), OK)  # P1 deals
    app.pick("5")  # the starter: the first card
    menu(app, "Teaching").feed(UNDO)
    assert app.state.teaching and app.view.screen is Screen.PLAY


def test_a_teaching_game_turned_on_in_the_menu_before_its_cut_is_still_offered_them() -> None:
    """On the cut's own wheel too (no card of the game entered yet)."""
    app = dealer_screen()
    app.feed(OK)  # Cut for deal
    app.feed(MENU)
    rows = list(app.view.lines)
    app.feed(KnobTurn(rows.index("Teaching: off")), OK, UNDO)
    assert app.view.title == "The basics"
    app.feed(UNDO)  # skipped: back on the cut
    assert app.view.screen is Screen.CUT
    app.feed(GO)  # the wheel still takes its keys
    assert app.view.screen is Screen.CUT


def test_the_keypad_says_how_a_dealt_cards_suit_is_chosen() -> None:
    """Learn to play on the keypad: a dealt card's rank, then its suit, which the line says
    how to choose (no knob to turn): held, the rank key shows the next suit; tapped, it
    enters the one shown."""
    app = App.start("keypad")
    app.feed(RankKey(Rank.TWO), OK, UNDO)  # Learn to play, Start, the basics skipped
    app.feed(RankKey(Rank.TWO))  # P1 deals
    while app.pages:
        app.read()
    assert app.view.title == "Dealt to P2"
    app.feed(RankKey(Rank.FIVE))
    pv = app.view.picker
    assert pv is not None and pv.prompt == "Suit (hold 5: next)" and pv.candidate == "5♣"
    app.feed(RankKey(Rank.FIVE, long=True))  # the first hold already moves off the clubs
    pv = app.view.picker
    assert pv is not None and pv.candidate == "5♦"
    app.feed(RankKey(Rank.FIVE, long=True))
    pv = app.view.picker
    assert pv is not None and pv.candidate == "5♥"
    app.feed(RankKey(Rank.FIVE))
    assert app.view.lines == ("5♥",)
