"""Teaching on the device: rule help from the menu and on its own, pegging hints, discard
advice from the dealt cards, what a hand could have been, and what a low claim missed."""

from __future__ import annotations

import json

from pegboard.app.inputs import KnobTurn
from pegboard.app.picker import rank_label
from pegboard.app.view import PageKind, Screen
from pegboard.coach import rulehelp
from pegboard.coach.review import points_text, review_discard
from pegboard.rules.cards import parse_cards
from pegboard.rules.state import Phase
from pegboard.voice.announce import Announcer
from tests.support.announcing import added
from tests.support.app_driver import GO, MENU, OK, UNDO, App, muggins_game, new_game

DEALT = ("5♥", "5♠", "6♦", "J♣", "4♣", "K♠")
"""The six cards the discard-advice tests enter, in order."""


def enter_dealt(app: App) -> None:
    """Enter :data:`DEALT` on the picker, each card by its rank and then its suit."""
    for card in DEALT:
        app.pick(card[:-1])
        app.pick(card)


def lay_away(app: App, *cards: str) -> App:
    """Answer the teaching game's question of the cards laid away: each on its wheel."""
    assert app.view.title.endswith(" lays away"), app.view
    for card in cards:
        app.pick(card)
    return app


def menu(app: App, label: str) -> App:
    app.feed(MENU)
    rows = [row.split(" ", 1)[1] if app.state.keypad else row for row in app.view.lines]
    matches = [i for i, row in enumerate(rows) if row.startswith(label)]
    assert matches, (label, rows)
    return app.feed(KnobTurn(matches[0]), OK)


def teaching_game() -> App:
    app = new_game()
    menu(app, "Teaching")
    assert app.view.lines[app.view.selected or 0] == "Teaching: on"  # the menu shows the change
    app.feed(UNDO)
    # Turned on before the first card: the basics are offered as the menu is left.
    assert app.view.title == "The basics"
    return app.feed(UNDO)  # skipped


def test_rule_help_from_the_menu() -> None:
    app = menu(new_game(), "Rule help")
    assert app.view.screen is Screen.MENU and app.view.title == "Rule help"
    assert list(app.view.lines) == [t.title for t in rulehelp.TOPICS]
    renege = [t.id for t in rulehelp.TOPICS].index("renege")
    app.feed(KnobTurn(renege), OK)
    topic = rulehelp.topic("renege")
    assert app.view.screen is Screen.HELP  # type: ignore[comparison-overlap]
    for page in range(len(topic.pages)):
        assert app.view.lines[: len(topic.pages[page])] == topic.pages[page]
        if page < len(topic.pages) - 1:
            app.feed(OK)
    assert app.view.lines[-1] == "ACC 7.3 (2020)"
    app.feed(OK)
    assert app.view.title == "Rule help"
    app.feed(UNDO)
    assert app.view.screen is Screen.STARTER


def test_teaching_shows_rule_help_once_when_it_arises() -> None:
    app = teaching_game()
    assert app.state.teaching
    app.pick("5")
    app.read()  # the coach: the starter
    for label in ("K", "Q", "J"):
        app.pick(label)
        app.read()  # the coach's lead; "no pair: a king and a queen both count 10 ..."
    app.feed(GO)
    app.pick("A")  # 31
    titles = [p.title for p in app.pages]
    go31 = rulehelp.topic("go-and-31").title
    assert any(t.startswith(go31) for t in titles), titles
    app.read()
    # A later 31 does not show it again.
    assert "go-and-31" in app.state.helped


def test_no_rule_help_pages_without_teaching() -> None:
    app = new_game()
    app.pick("5")
    for label in ("K", "Q", "J"):
        app.pick(label)
    app.feed(GO)
    app.pick("A")
    assert not app.pages


def test_pegging_hint_in_a_closed_game_asks_for_no_cards() -> None:
    """A closed game, the hand unknown: the menu's pegging hint says at once what the count
    offers, as a patient teacher would across a shared table: it never asks the player to
    put their cards on the table's screen, and so never names one of them."""
    from pegboard.app.menus import HINT_COUNT_TITLE
    from pegboard.coach.lookahead import count_line

    app = new_game()
    app.pick("5")
    app.pick("10")  # P2 leads a ten: P1 to play
    before = len(app.record)
    menu(app, "Pegging hint")
    assert app.view.screen is not Screen.HAND  # no card is asked for
    assert app.pages[0].title == HINT_COUNT_TITLE
    text = " ".join(app.pages[0].lines)
    assert text == count_line(app.game.pile) == "At 10: 10 for a pair", text
    app.read()
    assert app.view.screen is Screen.PLAY and app.game.count == 10  # nothing was entered
    assert len(app.record) == before


def test_discard_advice_records_the_dealt_cards() -> None:
    app = new_game()
    menu(app, "Discard advice")
    assert app.view.title == "Whose cards?"
    app.feed(OK)  # P1, the dealer
    enter_dealt(app)
    page = app.pages[0]
    assert page.title == "Advice for P1"
    assert page.lines[0] == "lay J♣ K♠: +19.9"
    assert json.loads(app.record[-1])["type"] == "dealt"
    assert app.game.dealt[0] is not None and len(app.game.dealt[0]) == 6
    app.read()
    assert app.view.screen is Screen.STARTER
    app.pick("2")
    app.pick("3")  # P2
    # The advice is used: P1's wheel shows ranks, as for any player, never P1's hand.
    assert app.view.picker is not None
    shown = app.view.picker.options
    assert not set("♣♦♥♠") & set("".join(shown)), shown
    assert {"7", "9", "Q"} <= set(shown)  # ranks P1 was not dealt are on the wheel too
    app.pick("5")  # on P2's 3: P1's 5 enters the very card dealt
    assert app.game.played[0] == (parse_cards("5H")[0],)
    app.pick("5")  # P2
    app.pick("9")  # P1 was not dealt a 9: refused, without listing the hand
    page = app.pages[0]
    assert page.title == "Not allowed"
    assert " ".join(page.lines) == "P1 holds no 9: not one of the cards dealt"
    assert app.game.played[0] == (parse_cards("5H")[0],)


def test_teaching_reviews_the_discard_by_expected_value() -> None:
    app = teaching_game()
    menu(app, "Discard advice")
    app.feed(KnobTurn(1), OK)  # P2, the pone
    enter_dealt(app)
    advice = app.pages[0]
    assert advice.title == "Advice for P2"
    # Before the cards are laid away: the discard advised and why. The pone's crib is the
    # dealer's: what it may make is given away.
    assert advice.lines == ("Lay J♣ K♠ away.", "Keep 5♥ 5♠ 6♦ 4♣.", "At least 12,",
                            "16.0 on average.",
                            "Their crib gets 3.9.", "6♦ 4♣ away: 4.0 less.",
                            "6♦ K♠ away: 5.7 less.")
    assert max(len(line) for line in advice.lines) <= 21  # the screen's width
    app.read()
    # The wheel starts on the advice; P2 lays the 5s away instead.
    assert app.view.picker is not None and app.view.picker.candidate == "J♣"
    lay_away(app, "5♥", "5♠")
    assert json.loads(app.record[-1]) == {"type": "laid_away", "player": 1,
                                          "cards": ["5H", "5S"]}
    app.pick("5")  # starter
    app.read()
    # Not an open-handed game: P2's wheel lists ranks, never the hand kept.
    assert app.view.picker is not None and app.view.title != "P2 lays away"
    assert not set("♣♦♥♠") & set("".join(app.view.picker.options))
    assert {"7", "9", "Q"} <= set(app.view.picker.options)
    # P2 keeps J K 6 4 (a poor keep) and plays them out.
    for label in ("J", "A", "K", "K", "6", "A", "4", "2"):
        app.read()  # rule help pages on the way
        app.pick(label)
    # P2's J♣ was entered with its suit and the starter by its rank: the box asks the
    # starter's suit before counting P2's hand (his nobs with a club).
    asked = app.read().game.asked
    assert asked is not None and asked.player == 1 and not asked.crib
    app.feed(OK)  # clubs, where the suit wheel starts
    assert app.game.phase is Phase.CRIB
    titles = [p.title for p in app.pages]
    assert not any("could have" in t.lower() for t in titles), titles
    # The pone laid away 5-5 to the dealer's crib: the review gives the average lost and why.
    found = review_discard(parse_cards("5H 5S 6D JC 4C KS"), parse_cards("6D JC 4C KS"),
                           dealer=False, starter=app.game.starter)
    page = next(p for p in app.pages if p.title.startswith("Discard: "))
    assert page.title == f"Discard: {points_text(found.loss)} lost"
    kept = found.kept  # the advice engine's own figures for this keep
    assert page.lines == ("kept 6♦ J♣ 4♣ K♠", f"hand {float(kept.hand):.1f} crib "
                          f"-{float(kept.crib):.1f}", "best 5♥ 5♠ 6♦ 4♣", "hand 16.0 crib -3.9")
    assert kept.crib > 8  # a pair of 5s given to the dealer: a cost, shown with its minus
    assert titles[titles.index(page.title) + 1] == "Why 1/2"


def test_muggins_missed_combinations_in_teaching_mode() -> None:
    app = muggins_game("Teaching: off")
    assert app.view.title == "Coach: the deal"  # teaching was on from setup
    assert " ".join(app.view.lines) == "6 cards each. Lay 2 away, face down, to P1's crib. " \
        "Keep what scores."
    app.read()
    app.pick("5")
    app.read()  # the coach: the starter
    app.pick("10")
    app.read()  # the coach: the lead
    app.pick("5")  # fifteen for P1: 2
    assert app.view.title == "P1 claims"
    app.feed(KnobTurn(-2), OK)  # claims nothing
    missed = [p for p in app.pages if p.title == "Missed 2"]
    assert missed, app.pages
    assert missed[0].lines == ("Claimed 0, worth 2.", "Missed 2:", "fifteen 2 10 5")
    app.read()
    assert app.view.title == "P1 missed 2"


def test_teaching_says_why_a_card_scored_nothing() -> None:
    app = teaching_game()
    app.pick("K")  # the starter
    for label in ("5", "6", "9", "7"):
        app.read()  # the coach's pages: the starter, the lead
        app.pick(label)
    pages = [p for p in app.pages if p.kind is PageKind.NO_SCORE]
    assert pages and "no run" in " ".join(pages[-1].lines), app.pages
    assert pages[-1].title == "27, no score"


def test_a_near_fifteen_is_said_as_players_say_it_on_the_screen_and_by_the_voice() -> None:
    """9 then 7: the count first, then that it scored nothing ("16, no score"), then why;
    the voice says the page's own words."""
    app = teaching_game()
    app.pick("K")  # the starter
    app.read()
    app.pick("9")
    app.read()
    announcer = Announcer()
    announcer.begin(app.state)
    app.pick("7")
    (page,) = [p for p in app.pages if p.kind is PageKind.NO_SCORE]
    assert (page.title, page.lines) == ("16, no score", ("no fifteen: one past it",))
    session = app.state.session
    assert session is not None and session.report is not None
    said = announcer.heard(app.state, added(session.report)).said
    assert "16, no score. No fifteen: one past it" in [a.text for a in said], said


def test_no_why_pages_without_teaching() -> None:
    app = new_game()
    app.pick("K")
    for label in ("5", "6", "9", "7"):
        app.pick(label)
    assert not [p for p in app.pages if p.kind is PageKind.NO_SCORE]


def test_the_coach_teaches_each_step_of_a_deal_once() -> None:
    """A first game with the coach: one page at each step the first time it happens."""
    app = teaching_game()
    coached: list[tuple[str, tuple[str, ...]]] = []

    def note() -> None:
        coached.extend((p.title, p.lines) for p in app.pages if p.title.startswith("Coach: "))
        app.read()

    app.pick("5")  # the starter: P2 (the pone) cut, P1 (the dealer) turned it
    note()
    for label in ("K", "Q", "J"):
        app.pick(label)
        note()
    app.feed(GO)
    note()
    app.pick("A")  # 31
    note()
    titles = [title for title, _ in coached]
    # P1's Q on P2's K let P2's J make a run (K-Q-J), but nothing of P1's cards is known:
    # no note says another card would have done better.
    assert titles == ["Coach: the starter", "Coach: the lead", "Coach: the go"]
    # The starter was entered by its rank: the coach never names a suit the box made up.
    assert " ".join(coached[0][1]) == ("P2 cut, P1 turned the starter: 5 (suit not entered). "
                                       "It counts in every hand.")
    assert " ".join(coached[1][1]).startswith("P2 leads.")
    assert {"coach the starter", "coach the lead", "coach the go"} <= app.state.helped


def test_the_coach_is_silent_without_teaching() -> None:
    app = new_game()
    app.pick("5")
    app.pick("K")
    assert not [p for p in app.pages if p.title.startswith("Coach: ")]


def test_a_coach_page_is_said_aloud_once() -> None:
    from pegboard.app.state import Reading
    from pegboard.rules.value import replace
    from pegboard.voice.acts import Importance
    from pegboard.voice.phrases import coach_phrase
    from tests.support.announcing import announcer_after

    app = teaching_game()
    app.pick("5")
    page = next(p for p in app.pages if p.title == "Coach: the starter")
    announcer, state, entered = announcer_after(("P1", "P2"), "deal 0; starter 5C")
    state = replace(state, screen=Reading((page,)))
    said = [(a.text, a.importance) for a in announcer.heard(state, entered).said]
    assert (coach_phrase(page.lines), Importance.TEACHING) in said
    spoken = coach_phrase(page.lines)
    assert "5 (suit not entered)" in spoken and not set("♣♦♥♠") & set(spoken)
    assert announcer.heard(state).said == ()


def test_the_first_screen_offers_learning_and_setup_says_what_teaching_does() -> None:
    from pegboard.app.start import TEACHING_HINT

    app = App.start()
    assert list(app.view.lines) == ["New game", "Learn to play", "Shut down"]
    app.feed(KnobTurn(1), OK)
    assert app.view.screen is Screen.SETUP
    rows = list(app.view.lines)
    assert "Teaching: on" in rows
    assert app.view.hint != TEACHING_HINT  # on Start
    app.feed(KnobTurn(rows.index("Teaching: on")))
    assert app.view.hint == TEACHING_HINT == "teaches a first game"
    assert "Open hands: on" in rows  # a first game is taught open-handed
    app.feed(KnobTurn(-rows.index("Teaching: on")), OK)  # Start
    # The basics are offered before the first entry; UNDO skips them.
    assert app.state.teaching and app.view.title == "The basics"
    assert app.view.hint == "OK next  UNDO skip"
    app.feed(UNDO)
    assert app.view.title == "Who deals first?"
    app.feed(KnobTurn(1), OK)  # P1 deals
    assert app.view.title == "Coach: the deal"


def learn_to_play() -> App:
    """Learn to play from the first screen, started with the defaults: the basics read
    through, P1 named dealer; the coach's page on the deal left on screen."""
    app = App.start()
    app.feed(KnobTurn(1), OK, OK)  # Learn to play, Start
    titles = []
    while app.pages:
        titles.append(app.pages[0].title)
        app.feed(OK)
    assert titles[0] == "The basics"
    assert [t for t in titles[1:] if not t.startswith(("How to play", "Counting a hand"))] == []
    assert titles[-1].startswith("Counting a hand")
    assert app.view.title == "Who deals first?"
    return app.feed(KnobTurn(1), OK)


def test_cut_for_deal_leads_to_the_deal_coach() -> None:
    app = App.start()
    app.feed(KnobTurn(1), OK, OK, UNDO)  # Learn to play, Start, the basics skipped
    app.feed(OK)  # Cut for deal (the default)
    app.pick("9")
    app.pick("3")  # P2 cuts low: P2 deals
    titles = [p.title for p in app.pages]
    assert titles == ["The cut", "Coach: the deal", "Coach: open hands"]
    assert " ".join(app.pages[1].lines).startswith("6 cards each. Lay 2 away")
    app.read()
    assert app.view.title == "Dealt to P1"  # open hands: the pone's cards first


def test_an_open_handed_first_deal_asks_every_hand_and_needs_no_show() -> None:
    """Learn to play: each player's six cards at the deal, the advice and its reasons before
    the discard (laid away as advised: two presses), the play from the known hand only, the
    show and the crib counted with no entry."""
    app = learn_to_play()
    assert app.view.title == "Coach: the deal"
    app.read()
    for who, dealt, advised in (("P2", DEALT, "J♣"), ("P1", ("A♥", "2♠", "3♦", "9♣", "10♣",
                                                             "Q♠"), "9♣")):
        assert app.view.title == f"Dealt to {who}"
        for card in dealt:
            app.pick(card[:-1])
            app.pick(card)
        # Open hands: the advice is the coach's (said aloud with the voice on).
        assert app.pages[0].title == f"Coach: {who} lays away"
        assert app.pages[0].lines[0].startswith(f"Lay {advised} ")
        app.read()
        assert app.view.title == f"{who} lays away"
        assert app.view.picker is not None and app.view.picker.candidate == advised
        app.feed(OK, OK)  # as advised
    assert app.game.laid_away == (tuple(parse_cards("9C TC")), tuple(parse_cards("JC KS")))
    assert app.view.screen is Screen.STARTER
    app.pick("7")
    while app.pages:
        app.read()
    # The play's wheel offers the player's own cards and nothing else.
    assert app.view.picker is not None and app.view.picker.options == ("4♣", "5♥", "5♠", "6♦")
    assert app.view.coach.startswith("Lay ")
    def lay(*cards: str) -> None:
        for card in cards:
            if card == "go":
                app.feed(GO)
            else:
                app.pick(card)
            while app.pages:
                app.read()

    lay("5♥")
    assert app.view.picker is not None and app.view.picker.options == ("A♥", "2♠", "3♦", "Q♠")
    lay("Q♠", "5♠", "A♥", "6♦")
    app.feed(GO)  # at 27 P1 holds the 2 and the 3, which fit: a go is refused
    assert app.pages and app.pages[0].title == "Not allowed"
    assert " ".join(app.pages[0].lines).startswith("P1 holds 2S 3D, which fits at 27")
    app.read()
    lay("2♠", "go", "go", "4♣", "3♦")
    # The crib holds the J♣ and the starter was entered by its rank: before the crib's count
    # the box asks the starter's suit (his nobs with a club), the one entry the show needs.
    asked = app.game.asked
    assert asked is not None and asked.crib
    app.feed(KnobTurn(1), OK)  # a diamond: no nobs
    while app.pages:
        app.read()
    # The hands and the crib were counted with no other entry: the next deal is dealt.
    assert app.game.deal_no == 2
    reasons = [a.reason.value for a in app.game.awards]
    assert "hand" in reasons and app.replayed() == app.game


def test_the_coach_notes_points_given_away_to_the_player_who_laid_the_card() -> None:
    """P2 kept 5♠ 9♥ 9♣ A♦ and the box knows it: the 5 lead lets any ten-card make fifteen,
    and a card P2 then held was better, so P1's fifteen brings a note for P2. Without P2's
    hand known the same fifteen brings none: P2 may have held nothing better."""
    from pegboard.coach.knowledge import knowledge_for
    from pegboard.coach.lookahead import given_up
    from pegboard.rules.cards import Card
    from pegboard.rules.pegging import score_play

    def five_led(known: bool) -> App:
        app = teaching_game()
        if known:
            menu(app, "Discard advice")
            app.feed(KnobTurn(1), OK)  # P2
            for label in ("5", "5♠", "9", "9♥", "9", "9♣", "A", "A♦", "K", "K♣", "Q", "Q♣"):
                app.pick(label)
            app.read()
            lay_away(app, "K♣", "Q♣")
        app.pick("K")  # the starter
        app.read()
        if known:
            held = knowledge_for(app.game)
            assert held is not None and held.held
            lost = given_up(held, Card.parse("5S"))
            assert lost is not None and lost > 0
        app.pick("5")  # P2 leads a 5
        app.read()
        return app.pick("10")  # P1: fifteen

    app = five_led(True)
    notes = [p for p in app.pages if p.title == "Coach: points given"]
    assert len(notes) == 1
    text = " ".join(notes[0].lines)
    assert text.startswith("P2's 5") and "left the count at 5: any ten-card made fifteen for P1" \
        in text
    # The scorer agrees: any ten-card on that 5 makes fifteen.
    for ten in ("TH", "JH", "QH", "KH"):
        assert score_play((Card.parse("5S"), Card.parse(ten))).items[0].kind == "fifteen"
    app.read()
    assert "coach given fifteen" in app.state.helped
    blind = five_led(False)
    assert blind.game.scores[0] == 2
    assert not [p for p in blind.pages if p.title == "Coach: points given"]


def play_to_the_last_card(app: App) -> None:
    """The teaching game's play, card by card with each page read, to its last card (a 6)."""
    for label in ("5", "K", "Q", "J"):
        app.pick(label)
        app.read()
    app.feed(GO)
    for label in ("A", "2", "3", "4"):
        app.read()
        app.pick(label)
    app.read()
    app.pick("6")


def test_the_coach_says_the_show_order_before_the_counts() -> None:
    """The show-order page comes after the end of the play and before the first count."""
    app = teaching_game()
    play_to_the_last_card(app)  # the play ends and the hands are counted
    titles = [p.title for p in app.pages]
    assert titles[:4] == ["End of the play", "Coach: the show", "P2's hand: 4", "P1's hand: 7"]


def test_count_it_yourself_asks_the_owner_first_then_shows_the_whole_count() -> None:
    """A teaching option with no penalty: the owner turns in a count, then one page shows
    the whole count, what was said and what was missed; the option is in the record."""
    app = teaching_game()
    menu(app, "Count it yourself")
    assert app.view.lines[app.view.selected or 0] == "Count it yourself: on"
    app.feed(UNDO)
    assert json.loads(app.record[-1]) == {"type": "option", "count_yourself": True}
    play_to_the_last_card(app)  # the play ends
    scores = app.game.scores
    titles = []
    while app.pages and not app.view.title.endswith("count your hand"):
        titles.append(app.view.title)
        app.feed(OK)
    assert titles == ["End of the play", "Coach: the show"]
    assert app.view.title == "P2, count your hand"
    app.feed(KnobTurn(2), OK)  # P2 says 2 of the 4 there are
    page = app.pages[0]
    assert page.title == "P2's hand: 4" and page.lines[0] == "said 2"
    assert page.lines[1].startswith("fifteen 2")
    assert page.lines[-2:] == ("Missed 2:", "fifteen (2)")
    app.read()
    assert app.view.title == "P1, count your hand"
    app.feed(KnobTurn(7), OK)  # all found
    assert app.pages[0].title == "P1's hand: 7" and app.pages[0].lines[-1] == "all found"
    assert app.game.scores == scores  # no penalty: the engine's count stands


def test_count_it_yourself_in_the_record_and_old_records_read_the_same() -> None:
    from pegboard.record.parse import parse_line
    from pegboard.record.writer import dump
    from pegboard.rules.events import GameHeader, TableOptions

    old = parse_line('{"type": "game", "players": ["A", "B"], "table": {"teaching": true}}')
    assert isinstance(old, GameHeader)
    assert old.table == TableOptions(teaching=True)  # count it yourself stays off
    new = parse_line('{"type": "game", "players": ["A", "B"], '
                     '"table": {"teaching": true, "count_yourself": true}}')
    assert isinstance(new, GameHeader) and new.table.count_yourself
    assert dump(new)["table"] == {"teaching": True, "count_yourself": True}
    assert "count_yourself" not in str(dump(old))


def test_a_closed_hand_kept_is_never_listed_when_a_go_is_refused() -> None:
    """Hands closed: P2's cards entered for advice and the 5s laid away; P2 keeps 6 J 4 K.
    A go while one of them fits is refused in words that name no card of the hand."""
    app = teaching_game()
    menu(app, "Discard advice")
    app.feed(KnobTurn(1), OK)  # P2, the pone
    enter_dealt(app)
    app.read()
    lay_away(app, "5♥", "5♠")
    app.pick("2")  # starter
    for label in ("J", "9"):  # P2 leads the jack, P1 a 9: 19
        app.read()
        app.pick(label)
    app.read()
    app.feed(GO)  # P2 holds the 6 and the 4, which fit
    page = app.pages[0]
    assert page.title == "Not allowed"
    said = " ".join(page.lines)
    assert said == "P2 holds a card that fits at 19: play it (a go now would be a renege)"
    assert app.game.said_go == frozenset() and app.game.count == 19


def test_a_restart_asks_for_the_cards_the_table_still_owes() -> None:
    """Open hands: a power cut after P2's dealt cards puts the question of P2's cards laid
    away back on screen; after them, P1's dealt cards; UNDO there takes P2's answer back."""
    from pegboard.app.machine import initial_state
    from pegboard.config import Config

    app = learn_to_play()
    app.read()
    for card in DEALT:
        app.pick(card[:-1])
        app.pick(card)
    resumed = App(initial_state(Config(), resume=app.record), record=list(app.record)).read()
    assert resumed.view.title == "P2 lays away"
    resumed.feed(OK, OK)
    again = App(initial_state(Config(), resume=resumed.record)).read()
    assert json.loads(resumed.record[-1])["type"] == "laid_away"
    assert again.game.laid_away[1] == tuple(parse_cards("JC KS"))
    assert again.view.title == "Dealt to P1"
    again.feed(UNDO)
    assert again.game.laid_away[1] is None and again.view.title == "P2 lays away"


def test_an_open_handed_play_wheel_starts_on_the_coachs_card() -> None:
    """Learn to play, the hands open: at each turn of the play the card wheel rests on the
    card the coach's line names ("Lay 5: ..."), so that following the coach is one OK on the
    encoder; the card entered is that very card. Where no card fits, nothing is named and the
    wheel is the one every closed game has."""
    app = learn_to_play()
    app.read()
    for dealt in (DEALT, ("A♥", "2♠", "3♦", "9♣", "10♣", "Q♠")):
        for card in dealt:
            app.pick(card[:-1])
            app.pick(card)
        app.read()
        app.feed(OK, OK)  # laid away as advised
    app.pick("7")
    followed = 0
    while app.game.phase is Phase.PLAY:
        while app.pages:
            app.read()
        if app.game.phase is not Phase.PLAY:
            break
        coach, picker = app.view.coach, app.view.picker
        gs = app.game
        seat = gs.to_act
        assert seat is not None and picker is not None
        if not gs.legal_cards():
            app.feed(GO)
            continue
        assert coach.startswith("Lay "), coach
        named = coach.removeprefix("Lay ").split(":")[0]
        assert picker.candidate.rstrip("♣♦♥♠") == named, (coach, picker)
        laid = len(gs.played[seat])
        app.feed(OK)
        assert len(app.game.played[seat]) == laid + 1
        assert rank_label(app.game.played[seat][-1].rank) == named
        followed += 1
    assert followed == 8
