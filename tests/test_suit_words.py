"""Suit facts in words, and no suit the box made up: a count shows a card's suit only when
a player entered it (a dealt hand, a starter named or asked); a count page and a claim say in
words what the suits make and what GO would make them ("suits: plain", "GO: with nobs"), and
audio mode says it; the count page's and the replay's starter is its rank when its suit was
not entered."""

from __future__ import annotations

import io

from pegboard.app.inputs import Button, Press
from pegboard.app.resuit import suit_lines
from pegboard.app.state import Count
from pegboard.app.words import count_lines
from pegboard.commands.replay import replay
from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.scoring import ScoreItem
from pegboard.rules.show import score_hand
from pegboard.ui.render import COLUMNS
from pegboard.ui.text import wrap
from pegboard.voice.audio import screen_words
from tests.support.app_driver import OK, new_game
from tests.support.rulings_records import entry, header, play


def _count(cards: str, starter: str, entered: frozenset[Card] = frozenset()) -> Count:
    hand = tuple(parse_cards(cards))
    return Count(0, False, hand, score_hand(hand, Card.parse(starter)).items, entered=entered)


def test_a_suit_the_wheel_chose_is_never_shown_in_a_count() -> None:
    count = _count("5C 5D 6H 7S", "4C")
    assert "run of 3 is 8 (4 5 5 6)" not in count_lines(count)  # (the double run's words)
    assert not [line for line in count_lines(count) if any(s in line for s in "♣♦♥♠")]
    named = _count("5C 5D 6H 7S", "4C", frozenset(parse_cards("5C 5D 6H 7S")))
    assert any("5♣" in line and "5♦" in line for line in count_lines(named))


def test_a_count_page_says_its_suits_and_what_go_makes_them() -> None:
    app = new_game(dealer=0)
    app.pick("5")  # the starter, by its rank
    # P2 7, P1 J, P2 8, P1 6 (31), P2 10, P1 Q, P2 2, P1 3: each card by its rank.
    for label in ("7", "J", "8", "6", "10", "Q", "2", "3"):
        app.read()
        app.pick(label)
    while not app.view.title.startswith("P1's hand"):
        app.feed(OK)
    view = app.view
    assert "suits: plain" in view.lines and "GO: with nobs" in view.lines
    assert view.suits == ("suits: plain", "GO: with nobs")
    said = screen_words(view)
    assert said.endswith("suits: plain. GO: with nobs"), said
    app.feed(Press(Button.GO))
    view = app.view
    assert "suits: with nobs" in view.lines and "his nob is" in " ".join(view.lines)
    assert screen_words(view).endswith("suits: with nobs. GO: flush of four")


def test_the_replay_names_the_starter_by_rank_until_its_suit_is_asked() -> None:
    lines = [header(players=("Ann", "Ben")), entry("deal", dealer=0),
             entry("dealt", player=0, cards=["JH", "2H", "3C", "9S", "KD", "QD"]),
             entry("starter", card="AD", suit_known=False),
             *(play(p, c) for p, c in ((1, "5C"), (0, "JH"), (1, "5D"), (0, "2H"),
                                        (1, "6H"), (0, "3C"), (1, "7S"), (0, "9S"))),
             entry("starter_suit", suit="H")]
    out = io.StringIO()
    replay(lines, out)
    told = out.getvalue()
    assert "Starter A (suit not entered)" in told and "A♦" not in told
    # Ben's cards were entered by rank: no suit the wheel chose is shown
    assert "Ben's hand 5 5 6 7 with A (suit not entered): eight" in told
    assert "  Ben plays 5: five" in told and "  Ann plays J♥: fifteen" in told
    assert "The starter's suit, asked for the count: hearts" in told
    assert "Ann's hand J♥ 2♥ 3♣ 9♠ with A♥: eight" in told


def test_suit_lines_say_the_facts_in_words_and_the_screen_wraps_them_whole() -> None:
    items = (ScoreItem("flush", tuple(parse_cards("2H 4H 6H 8H AH")), 5),
             ScoreItem("nobs", (Card.parse("JH"),), 1))
    lines = suit_lines(items, (4, False))
    assert lines == ("suits: with nobs, flush of five", "GO: flush of four")
    assert suit_lines(items, None) == ()
    assert suit_lines((), (0, True)) == ("suits: plain", "GO: with nobs")
    # the OLED wraps a line longer than its 21 columns at a space: every word is drawn
    rows = [row for line in lines for row in wrap(line, COLUMNS - 1)]
    assert all(len(row) <= COLUMNS - 1 for row in rows)
    assert " ".join(rows).split() == " ".join(lines).split()
