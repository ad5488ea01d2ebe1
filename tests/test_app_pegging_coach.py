"""The pegging coach on the device (teaching mode): on each turn of a player whose dealt cards
were entered, one line on the play screen naming the card to lay, looking two cards ahead; each
statement it makes is checked by the scorer."""

from __future__ import annotations

import random

from pegboard.coach.lookahead import coach_line, look_ahead
from pegboard.rules.cards import DECK, Card, parse_cards
from pegboard.rules.pegging import score_play
from pegboard.rules.speech import say_play
from pegboard.ui.render import render
from tests.support.app_driver import OK, App, new_game
from tests.test_app_teaching import lay_away, menu, teaching_game

DEALT = (("7", "7♥"), ("7", "7♠"), ("8", "8♦"), ("J", "J♣"), ("4", "4♣"), ("K", "K♠"))


def to_p1s_turn(app: App) -> App:
    """P1's dealt cards entered for advice (in a teaching game, J♣ K♠ laid away: the box
    asks), the starter turned and P2's lead laid; the pages the lead brings up are left on
    screen."""
    menu(app, "Discard advice")
    app.feed(OK)  # P1, the dealer
    for rank, suit in DEALT:
        app.pick(rank)
        app.pick(suit)
    app.read()
    if app.state.teaching:
        lay_away(app, "J♣", "K♠")
    app.pick("2")  # the starter
    while app.pages:
        app.read()
    return app.pick("3")  # P2 leads a 3


def _dealt_for_p1(app: App) -> App:
    to_p1s_turn(app)
    while app.pages:
        app.read()
    return app


def test_the_coach_gives_one_line_on_each_turn_of_a_known_hand() -> None:
    app = _dealt_for_p1(teaching_game())
    held = parse_cards("7H 7S 8D 4C")  # the hand kept: J♣ K♠ were laid away
    assert app.view.turn == "P1"
    seen = [app.game.starter or DECK[0], *parse_cards("JC KS")]
    assert app.view.coach == coach_line(app.game.pile, held, seen, next_left=3)
    assert app.view.coach.startswith("Lay ")
    before = render(app.view)
    app.pick("7")
    while app.pages:
        app.read()
    assert app.view.turn == "P2" and app.view.coach == ""  # P2's hand is not known
    app.pick("7")  # P2 pairs: P1's other 7 makes a pair royal
    while app.pages:
        app.read()
    assert app.view.coach == "Lay 7: pair royal for 6"
    assert render(app.view).tobytes() != before.tobytes()


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


def test_a_card_that_gave_points_away_gets_one_line_from_the_coach() -> None:
    """P2 led a 3; P1's 4 lets a 2 make a run of three: the coach says so after the play, on
    a page of its own (which the voice says as it says every coach page)."""
    from pegboard.app.teach import PLAY_NOTE
    from pegboard.coach.lookahead import known_for, play_note

    app = _dealt_for_p1(teaching_game())
    known = known_for(app.game)
    assert known is not None and known.holds == 4 and known.next_left == 3
    note = play_note(known, parse_cards("4C")[0])
    assert note == "Gave away: a 2 back made run of 3 for 3; 7 was safer"
    app.pick("4")
    pages = [page for page in app.pages if page.title == PLAY_NOTE]
    assert [" ".join(page.lines) for page in pages] == [note]


def test_a_card_as_good_as_the_coach_s_gets_no_note() -> None:
    from pegboard.app.teach import PLAY_NOTE

    app = _dealt_for_p1(teaching_game())
    app.pick("8")  # the coach's own card
    assert not [page for page in app.pages if page.title == PLAY_NOTE]


def test_the_coach_s_note_is_said_aloud() -> None:
    from pegboard.voice.announce import Announcer

    app = _dealt_for_p1(teaching_game())
    announcer = Announcer()
    announcer.begin(app.state)
    app.take_changes()
    app.pick("4")
    said = [a.text for a in announcer.heard(app.state, app.take_changes()).said
            if a.kind == "coach"]
    assert said == ["Gave away: a 2 back made run of 3 for 3; 7 was safer"]


def test_the_pegging_hint_of_a_known_hand_is_the_coach_s_line_in_full() -> None:
    """The play screen's one line is cut to the screen's 21 columns; the menu's pegging hint
    shows it whole at once, without asking for the cards again."""
    from pegboard.app.menus import HINT_TITLE

    app = _dealt_for_p1(teaching_game())
    line = app.view.coach
    assert len(line) > 21
    menu(app, "Pegging hint")
    assert app.view.title == HINT_TITLE
    assert " ".join(app.view.lines) == line
    app.feed(OK)
    assert app.view.turn == "P1" and app.view.coach == line  # back at the play
