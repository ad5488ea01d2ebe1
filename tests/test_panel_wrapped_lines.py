"""The 80x24 text panel and the voice show a page's lines whole: a line the 21-column screen
broke is joined back whatever the next part starts with (a digit, a capital, a card, a
bracket), and a line wider than the panel goes on over rows of its own, never cut.

The screen's wrap marks each line it broke off (``Continued``), on every page kind; the
panel's and the voice's join follow that mark, so "First to" / "121 wins." reads as one
sentence again."""

from __future__ import annotations

import itertools

import pytest

from pegboard.app.inputs import RankKey
from pegboard.app.state import Count
from pegboard.app.view import PageKind, Screen, SideView, View
from pegboard.app.words import count_lines, wrap
from pegboard.coach import rulehelp
from pegboard.coach.help_shape import Continued
from pegboard.rules.cards import Card, Rank, parse_cards
from pegboard.rules.show import score_hand
from pegboard.sim.screen import LEGEND_ROWS, box_size, choose_layout
from pegboard.sim.terminal import words_below
from pegboard.voice.audio import screen_words
from pegboard.voice.phrases import speakable
from tests.support.app_driver import OK, UNDO, App
from tests.test_app_teaching import menu
from tests.test_first_screen import dealer_screen

SIDES = (SideView("Ann", 45, dealer=True), SideView("Ben", 38, to_act=True))

GOES_ON = {
    "a digit": "Show: pone's hand, dealer's hand, then the crib. First to 121 wins.",
    "a capital": "Go: one point goes to Ben for the last card.",
    "a card": "Fifteen two with the nine and the six: 6\u2663 9\u2663 pegs two.",
    "a bracket": "Two for his heels, pegged by the dealer (before the play).",
}
"""Sentences whose 21-column lines each go on with a part that is not lower case."""

SCREEN_OF = {PageKind.COUNT: Screen.SHOW, PageKind.END_OF_PLAY: Screen.SHOW,
             PageKind.COACH: Screen.HELP, PageKind.SHOW_ORDER: Screen.HELP}
"""The screen each kind of page is read on (the rest on a notice's)."""


def panel_rows(view: View) -> list[str]:
    """The words the simulator prints below the frame on an 80x24 terminal, in the rows its
    layout leaves them."""
    layout = choose_layout(80, 24)
    assert layout is not None and not layout.beside
    rows = 24 - LEGEND_ROWS - box_size(layout.mode)[1]
    assert rows == 4  # the panel of the issue: four rows of 80 columns
    return [row for row in words_below(view, view.sides, view.target, rows=rows, width=80)
            if row]


def panel_text(view: View) -> str:
    """The panel's rows one after another, joined with a space."""
    return " ".join(panel_rows(view))


def test_the_screen_wrap_marks_every_line_it_broke() -> None:
    lines = wrap(GOES_ON["a digit"])
    assert lines[-2:] == ("the crib. First to", "121 wins.")
    assert [isinstance(line, Continued) for line in lines] == [False, True, True, True]
    assert all(isinstance(line, Continued) for line in rulehelp.topic("how-to-play").pages[0][1:])


@pytest.mark.parametrize("kind", [*PageKind, None], ids=lambda kind: getattr(kind, "name", "none"))
@pytest.mark.parametrize("start", GOES_ON)
def test_every_page_kind_shows_a_wrapped_line_whole(kind: PageKind | None, start: str) -> None:
    text = GOES_ON[start]
    lines = wrap(text)
    assert any(not line[:1].islower() for line in lines[1:])  # the case alone cannot tell
    screen = SCREEN_OF.get(kind, Screen.MESSAGE) if kind is not None else Screen.HELP
    view = View(screen, "A page", (*lines, "OK next"), sides=SIDES, page=kind)
    shown = panel_text(view)
    assert text in shown and shown.endswith("OK next"), shown
    if screen is not Screen.SHOW:  # a count's page is said by what it is about
        assert speakable(text) in screen_words(view)


def test_a_joined_line_wider_than_the_panel_goes_on_over_rows_never_cut() -> None:
    text = ("The first to reach 121 wins at that moment, even in the middle of a count, and "
            "the rest of the show is not counted.")
    view = View(Screen.HELP, "Rule", wrap(text), sides=SIDES)
    rows = words_below(view, SIDES, 121, rows=6, width=80)
    assert all(len(row) <= 80 for row in rows)
    assert text in " ".join(row for row in rows if row)


def test_the_basics_read_in_a_teaching_game_show_every_sentence_whole_on_the_panel() -> None:
    app = menu(dealer_screen(), "Teaching").feed(UNDO)  # the menu left: the basics offered
    assert app.view.title == "The basics"
    shown: list[str] = []
    rows: list[str] = []
    while app.view.screen is Screen.HELP:
        shown.append(panel_text(app.view))
        rows.append("\n".join(panel_rows(app.view)))
        app.feed(OK)
    assert app.view.title == "Who deals first?"
    assert any("then the crib. First to 121 wins." in page for page in shown), shown
    # The reference under a topic's last page is a line of its own.
    assert not any("= 6 rules:" in page for page in rows), rows
    assert any("+ 7D = 6\nrules: Card values" in page or "+ 7D = 6 \u2502 rules: Card values"
               in page for page in rows), rows
    for name in ("how-to-play", "counting"):
        for page in rulehelp.topic(name).pages:
            parts: list[str] = []
            for line in page:  # the page's sentences as the screen broke them, joined
                if parts and isinstance(line, Continued):
                    parts[-1] += " " + line
                else:
                    parts.append(line)
            assert any(all(part in text for part in parts) for text in shown), (parts, shown)
            # Nor is a paragraph run on into the next ("... + 7D = 6 rules: The show").
            for part, after in itertools.pairwise(parts):
                assert not any(f"{part} {after}" in text for text in rows), (part, after)


def test_a_wrapped_notice_is_one_sentence_by_ear_too() -> None:
    view = View(Screen.MESSAGE, "Go", wrap(GOES_ON["a capital"]))
    assert view.lines[1] == "Ben for the last"
    assert screen_words(view) == "Go. Go: one point goes to Ben for the last card."


def test_the_discard_advice_reads_its_sentences_whole() -> None:
    """Learn to play on the keypad, P2 dealing (cut 9 to 6): P1's six cards 5\u2666 5\u2663
    10\u2665 J\u2663 4\u2660 6\u2666, each a rank key and its suit's holds; the coach's advice
    says "At least 12, 16.0 on average." as one sentence."""
    app = App.start("keypad")
    app.feed(RankKey(Rank.TWO), OK, UNDO)  # Learn to play, Start, the basics skipped
    app.feed(RankKey(Rank.THREE))  # P2 deals
    app.read()
    for rank, holds in ((Rank.FIVE, 1), (Rank.FIVE, 0), (Rank.TEN, 2), (Rank.JACK, 0),
                        (Rank.FOUR, 3), (Rank.SIX, 1)):
        app.feed(RankKey(rank), *[RankKey(rank, long=True)] * holds, RankKey(rank))
    assert app.view.title == "Coach: P1 lays away", app.view
    assert app.view.lines[2:4] == ("At least 12,", "16.0 on average.")
    assert "\u2502 At least 12, 16.0 on average. \u2502" in panel_text(app.view)


@pytest.mark.parametrize("screen", [Screen.CLAIM, Screen.SHOW])
def test_a_claims_and_a_counts_phrases_are_never_run_together(screen: Screen) -> None:
    """One fact a line, lower case or not: the panel keeps each apart."""
    lines = ("hand: 4", "cards: 10 A 3 5", "suits: plain", "GO: flush of four")
    view = View(screen, "P2 claims", lines, sides=SIDES, hint="OK claim  GO +flush 4")
    rows = "\n".join(panel_rows(view))
    assert all(line in rows for line in lines), rows
    for line, after in itertools.pairwise(lines):
        assert f"{line} {after}" not in rows, rows


@pytest.mark.parametrize(("hand", "starter", "phrase"), [
    ("5C 5D AH 2S", "5H", "pair royal is 8 (5 5 5)"),
    ("5C 6D 7H JS", "5H", "double run is 12 (5 5 6 7)"),
])
def test_a_counts_phrase_the_screen_broke_before_its_cards_reads_whole(
        hand: str, starter: str, phrase: str) -> None:
    """A count's phrase too long for the screen puts its cards on a line of their own; the
    panel joins them back to their phrase and keeps the phrases apart."""
    count = score_hand(parse_cards(hand), Card.parse(starter))
    lines = count_lines(Count(0, False, tuple(parse_cards(hand)), count.items))
    words = phrase.split(" (")[0]
    assert words in lines and phrase not in lines, lines  # the screen's two lines
    view = View(Screen.SHOW, "P2's hand: 8", lines, sides=SIDES, hint="OK next")
    rows = "\n".join(panel_rows(view))
    assert phrase in rows, rows
    assert f"\u2502 ({phrase.split(' (')[1]}" not in rows, rows
