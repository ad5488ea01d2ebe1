"""The pegging coach on the device (teaching mode): on each turn of a player the box knows
something of, one line on the play screen. It names the player's cards only in an open-handed
game with their hand known; with only their dealt cards entered (any of which may be in the
crib), or a closed hand, it says what the count offers, naming no one's cards. Each statement
it makes is checked by the scorer."""

from __future__ import annotations

import random
import re

import pytest

from pegboard.app.picker import rank_label
from pegboard.coach.knowledge import knowledge_for
from pegboard.coach.lookahead import card_line, count_line, look_ahead, play_note
from pegboard.rules.cards import DECK, Card, parse_cards
from pegboard.rules.pegging import score_play
from pegboard.rules.speech import say_play
from pegboard.ui.render import render
from pegboard.voice.audio import screen_words
from tests.support.app_driver import OK, App, new_game
from tests.test_app_teaching import lay_away, menu, teaching_game

DEALT = (("7", "7♥"), ("7", "7♠"), ("8", "8♦"), ("J", "J♣"), ("4", "4♣"), ("K", "K♠"))
"""P1 lays away 7♥ K♠ and keeps 7♠ 8♦ J♣ 4♣."""


def to_p1s_turn(app: App) -> App:
    """P1's dealt cards entered for advice (in a teaching game, 7♥ K♠ laid away: the box
    asks), the starter turned and P2's lead laid; the pages the lead brings up are left on
    screen."""
    menu(app, "Discard advice")
    app.feed(OK)  # P1, the dealer
    for rank, suit in DEALT:
        app.pick(rank)
        app.pick(suit)
    app.read()
    if app.state.teaching:
        lay_away(app, "7♥", "K♠")
    app.pick("2")  # the starter
    while app.pages:
        app.read()
    return app.pick("3")  # P2 leads a 3


def opened(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table played open-handed, as the coach sees it."""
    monkeypatch.setattr("pegboard.app.teach.open_hands", lambda state: True)
    monkeypatch.setattr("pegboard.app.menus.open_hands", lambda state: True)


def _dealt_for_p1(app: App) -> App:
    to_p1s_turn(app)
    while app.pages:
        app.read()
    return app


def test_a_closed_hand_is_not_shown_the_coach_speaks_of_the_count() -> None:
    """P1's hand is known (the cards laid away entered) but the game is closed: the line is
    what the count offers, the same whatever P1 holds, never a card of P1's; P2, of whose
    cards nothing is known, gets no line."""
    app = _dealt_for_p1(teaching_game())
    known = knowledge_for(app.game)
    assert known is not None and known.held == tuple(parse_cards("7S 8D JC 4C"))
    assert app.view.turn == "P1"
    assert app.view.coach == count_line(app.game.pile) == "At 3: 3 for a pair"
    before = render(app.view)
    app.pick("7")
    while app.pages:
        app.read()
    assert app.view.turn == "P2" and app.view.coach == ""  # nothing known of P2's cards
    app.pick("7")  # P2 pairs
    # Longer than the play screen's line: whole on a page first, titled as what the count
    # offers (it names no card of P1's), never as P1's card.
    titles = [page.title for page in app.pages]
    assert "Coach: the count" in titles and not [t for t in titles if t.endswith("'s card")]
    while app.pages:
        app.read()
    assert app.view.coach == count_line(app.game.pile) == "At 17: 7 for a pair royal"
    assert render(app.view).tobytes() != before.tobytes()


def test_an_open_hand_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    opened(monkeypatch)
    app = _dealt_for_p1(teaching_game())
    known = knowledge_for(app.game)
    assert known is not None
    assert app.view.coach == card_line(known) == (
        "Lay 8: a J back, your J makes thirty-one for 2 and a pair is 4")


def test_no_coach_line_without_teaching() -> None:
    app = _dealt_for_p1(new_game())
    assert app.view.turn == "P1" and app.view.coach == ""


def test_every_trap_the_coach_names_is_what_the_scorer_says() -> None:
    """Over random deals: the trap named (their answer, then your card) scores exactly what
    the line says, and the card advised fits under 31."""
    rng = random.Random(25)
    for _ in range(200):
        cards = rng.sample(DECK, 8)
        pile: list[Card] = []
        for card in cards[:3]:
            if sum(c.pips for c in pile) + card.pips <= 31:
                pile.append(card)
        hand = cards[3:7]
        for ahead in look_ahead(pile, hand):
            count = sum(c.pips for c in pile) + ahead.card.pips
            assert count <= 31
            if ahead.trap is None:
                continue
            answer, mine, said = ahead.trap
            reply = next(c for c in DECK if c.rank is answer and c not in (*pile, *hand))
            laid = (*pile, ahead.card, reply, mine)
            made = sum(c.pips for c in laid)
            assert made <= 31
            assert said == say_play(score_play(laid), made).lower()
            assert score_play(laid).total > 0


def _pages_after(app: App, rank: str) -> list[str]:
    app.pick(rank)
    return [page.title for page in app.pages]


def test_a_card_that_gave_points_away_gets_one_line_from_the_coach(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """P1 kept 7♠ 8♦ J♣ 4♣ and the box knows it: the 4 lets a 2 make a run of three. Open
    handed, the note says the 8 was safer; closed, it names no card P1 still holds. P2's run
    then brings the "points given" page (another card then held was better)."""
    from pegboard.app.teach import PLAY_NOTE

    for open_hands, said in ((True, "Gave away: a 2 back made run of 3 for 3; 8 was safer"),
                             (False, "Gave away: a 2 back made run of 3 for 3")):
        monkeypatch.setattr("pegboard.app.teach.open_hands",
                            lambda state, shown=open_hands: shown)
        app = _dealt_for_p1(teaching_game())
        known = knowledge_for(app.game)
        assert known is not None and known.holds == 4 and known.next_left == 3
        assert play_note(known, parse_cards("4C")[0], open_hand=open_hands) == said
        app.pick("4")
        pages = [page for page in app.pages if page.title == PLAY_NOTE]
        assert [" ".join(page.lines) for page in pages] == [said]
        app.read()
        assert "Coach: points given" in _pages_after(app, "2")


def test_a_card_as_good_as_the_coach_s_gets_no_note_nor_blame(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from pegboard.app.teach import PLAY_NOTE

    opened(monkeypatch)
    app = _dealt_for_p1(teaching_game())
    assert app.view.coach.startswith("Lay 8:")
    assert PLAY_NOTE not in _pages_after(app, "8")  # the coach's own card
    app.read()
    assert app.game.count == 11
    titles = _pages_after(app, "4")  # P2's 4 makes fifteen: the 8 was still the best card
    assert app.game.scores[1] == 2
    assert not [t for t in titles if t.startswith("Coach: points given")]


def test_the_coach_s_note_is_said_aloud(monkeypatch: pytest.MonkeyPatch) -> None:
    from pegboard.voice.announce import Announcer

    opened(monkeypatch)
    app = _dealt_for_p1(teaching_game())
    announcer = Announcer()
    announcer.begin(app.state)
    app.pick("4")
    said = [a.text for a in announcer.heard(app.state).said if a.kind == "coach"]
    assert said == ["Gave away: a 2 back made run of 3 for 3; 8 was safer"]


def _names_a_card(words: str, cards: tuple[Card, ...]) -> bool:
    """Whether ``words`` name any of ``cards``: its rank as the screen or the voice says it."""
    names = {name.lower() for card in cards for name in (
        card.rank.symbol.replace("T", "10"), card.rank.spoken, rank_label(card.rank))}
    return bool(names & set(re.findall(r"[a-z]+|\d+", words.lower())))


def test_the_pegging_hint_in_a_closed_game_names_none_of_the_player_s_cards() -> None:
    """A closed teaching game, P1's hand known (the cards laid away entered): the menu's
    pegging hint says what the count offers, as the coach's line does, without asking for
    the cards; neither the shared screen nor the voice (audio mode reads the page whole)
    names a card P1 holds. With only the dealt cards known it says the same, asking for no
    card (one of them may be in the crib, and the hand is the player's own)."""
    from pegboard.voice.announce import Announcer

    app = _dealt_for_p1(teaching_game())
    known = knowledge_for(app.game)
    assert known is not None and known.held == tuple(parse_cards("7S 8D JC 4C"))
    assert _names_a_card(card_line(known) or "", known.held)  # what an open game shows
    announcer = Announcer()
    announcer.begin(app.state)
    menu(app, "Pegging hint")
    said = " ".join([screen_words(app.view), *(a.text for a in announcer.heard(app.state).said)])
    for words in (" ".join([app.view.title, *app.view.lines]), said):
        assert not _names_a_card(words, known.held), words
    from pegboard.app.menus import HINT_COUNT_TITLE

    assert app.view.title == HINT_COUNT_TITLE
    assert " ".join(app.view.lines) == count_line(app.game.pile) == "At 3: 3 for a pair"
    assert "3 for a pair" in said
    app.feed(OK)
    assert app.view.turn == "P1" and app.game.count == 3  # nothing was entered
    dealt = _dealt_for_p1(new_game())  # no teaching: the dealt cards only
    menu(dealt, "Pegging hint")
    assert dealt.view.title == HINT_COUNT_TITLE  # no card asked for, none named
    assert " ".join(dealt.view.lines) == count_line(dealt.game.pile)


def test_the_pegging_hint_of_an_open_hand_is_the_coach_s_card_in_full(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In an open-handed game the menu's pegging hint shows the coach's card and why, whole
    (the play screen's line is cut to its width), without asking for the cards again."""
    from pegboard.app.menus import HINT_TITLE

    opened(monkeypatch)
    app = _dealt_for_p1(teaching_game())
    known = knowledge_for(app.game)
    assert known is not None
    line = card_line(known)
    assert line is not None and len(line) > 21
    menu(app, "Pegging hint")
    assert app.view.title == HINT_TITLE
    assert " ".join(app.view.lines) == line
    app.feed(OK)
    assert app.view.turn == "P1" and app.view.coach == line
