"""The keypad's suit step for a dealt card (Learn to play: each card's rank, then its suit):
the wheel rests on the clubs, and the first hold of the rank key moves off them at once, on
the screen, on the 80x24 text panel and by ear, so a player never told the keys sees and
hears that the hold did something."""

from __future__ import annotations

from pegboard.app.inputs import RankKey
from pegboard.config import VoiceConfig
from pegboard.rules.cards import Rank
from tests.support.app_driver import OK, UNDO, App
from tests.test_panel_wrapped_lines import panel_text
from tests.test_suit_fact_words import Heard

HOLD_5 = RankKey(Rank.FIVE, long=True)


def dealt_card_suit_step() -> tuple[App, Heard]:
    """Learn to play on the keypad in audio mode, P1 dealing, a 5 keyed as P2's first card."""
    app = App.start("keypad", voice=VoiceConfig(audio=True))
    app.feed(RankKey(Rank.TWO), OK, UNDO)  # Learn to play, Start, the basics skipped
    app.feed(RankKey(Rank.TWO))  # P1 deals
    while app.pages:
        app.read()
    assert app.view.title == "Dealt to P2"
    heard = Heard(app)
    heard.feed(RankKey(Rank.FIVE))
    return app, heard


def test_the_first_hold_shows_and_says_the_next_suit() -> None:
    app, heard = dealt_card_suit_step()
    pv = app.view.picker
    assert pv is not None and pv.prompt == "Suit (hold 5: next)" and pv.candidate == "5\u2663"
    said = heard.feed(HOLD_5)
    pv = app.view.picker
    assert pv is not None and pv.candidate == "5\u2666"
    assert said == ["5 of diamonds"]
    assert "Suit (hold 5: next): > 5\u2666 <" in panel_text(app.view)


def test_holds_go_round_every_suit_and_a_tap_enters_the_one_shown() -> None:
    app, heard = dealt_card_suit_step()
    seen = []
    for _ in range(4):
        heard.feed(HOLD_5)
        pv = app.view.picker
        assert pv is not None
        seen.append(pv.candidate)
    assert seen == ["5\u2666", "5\u2665", "5\u2660", "5\u2663"]  # round to the clubs again
    heard.feed(HOLD_5, RankKey(Rank.FIVE))
    assert app.view.lines == ("5\u2666",)
