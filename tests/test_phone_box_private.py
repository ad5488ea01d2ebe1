"""The box says nothing of a phone's hand: the starter's wheel and the starter's suit.

A seat on a phone enters its cards in private (pegboard.app.private). The box's starter
wheel, its suit question and its refusals are the same whatever a phone's hand holds; a
starter (or a suit) a phone's hand holds is refused on the box without saying whose or
why; the suit a count asks for is asked on the counting seat's phone too, and the first
answer, from the box or the phone, is the one entry; an open-handed game never asks the box
for a phone seat's cards; the app learns the seats phones hold from the pairing.
"""

from __future__ import annotations

import json
import random
from types import SimpleNamespace
from typing import Any, cast

import pytest

from pegboard.app import open_hands, private, table, teach, wheels
from pegboard.app.effects import SeatNotice
from pegboard.app.inputs import KnobTurn, Pairing, PhoneSeats, RankKey, SeatCode
from pegboard.app.picker import rank_label
from pegboard.app.state import CardEntry, WheelScreen
from pegboard.app.view import PageKind, Screen
from pegboard.app.words import wrap
from pegboard.rules.cards import DECK, Card, EnteredCard, Rank, Suit
from pegboard.rules.events import Dealt, Go, LaidAway, Play, Starter, StarterSuit
from pegboard.rules.state import GameState, Phase
from pegboard.ui.marks import LINK_W
from pegboard.ui.render import COLUMNS
from pegboard.ui.text import CHAR_W
from pegboard.ui.text import wrap as text_wrap
from pegboard.web.phone_view import ActionError, asks, read_action, seat_json
from tests.support.app_driver import GO, HOLD_OK, OK, UNDO, App, new_game, started
from tests.test_seat_entry import Phones, names_card


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(word) for word in text.split())


def starter_wheel(app: App) -> list[list[tuple[str, Card | None]]]:
    """The box's starter wheel: each place's choices, their labels, and the card of each
    choice named with its suit (a rank alone enters a stand-in nobody sees)."""
    found = wheels.table_wheel(app.game, (), (), None, phones=app.state.phones)
    assert found is not None and found[0] == "Starter"
    return [[(choice.label, None if choice.plain else choice.card) for choice in slot]
            for slot in found[1]]


def hands_in(seed: int, dealer: int = 1) -> Phones:
    """Both seats' phones enter a random deal; the box is on the starter."""
    phones = Phones(new_game(dealer=dealer), random.Random(seed))
    deck = list(DECK)
    phones.rng.shuffle(deck)
    for seat in (0, 1):
        six = tuple(deck[6 * seat: 6 * seat + 6])
        assert phones.send(seat, Dealt(seat, six), LaidAway(seat, six[:2])).taken
    assert phones.app.state.phones == {0, 1}
    return phones


def test_the_starter_wheel_is_the_same_whatever_the_phones_hold() -> None:
    wheels_seen = [starter_wheel(hands_in(seed).app) for seed in range(6)]
    first = wheels_seen[0]
    assert all(wheel == first for wheel in wheels_seen)
    # Every rank, and held OK every card of it: nothing is seen before the starter.
    assert [slot[0][0] for slot in first] == ["A", "2", "3", "4", "5", "6", "7", "8", "9",
                                              "10", "J", "Q", "K"]
    named = {card for slot in first for _, card in slot if card is not None}
    assert named == set(DECK)


def test_held_ok_on_the_box_lists_every_suit_of_a_rank_a_phone_holds() -> None:
    phones = hands_in(11)
    app = phones.app
    held = phones.gs.dealt[0]
    assert held is not None
    rank = held[3].rank
    label = rank_label(rank)
    picker = app.view.picker
    assert picker is not None
    app.feed(KnobTurn(list(picker.options).index(label) - picker.index))  # on to the rank
    shown = set()
    for _ in range(5):
        picker = app.view.picker
        assert picker is not None
        shown.add(picker.candidate)
        app.feed(HOLD_OK)
    assert {f"{label}{suit.symbol}" for suit in Suit} <= shown  # the card named whole
    assert app.game.phase is Phase.STARTER  # nothing entered by holding OK


def test_a_starter_a_phone_holds_is_refused_on_the_box_naming_nobody() -> None:
    phones = hands_in(5)
    app = phones.app
    held = phones.gs.dealt[0]
    assert held is not None
    card = held[4]  # a card Ann kept, in private on her phone
    label = card.pretty
    before = app.state.session
    record = list(app.record)
    app.pick(label)
    assert app.pages and app.pages[0].kind is PageKind.REFUSED
    text = " ".join(app.pages[0].lines)
    assert " ".join(text.split()) == " ".join(private.CLASH.split())
    assert not names_card(repr(app.view), card)
    # Ann's phone alone is told, privately, which card and what to do; Ben's is told nothing.
    told = [e for e in app.effects if isinstance(e, SeatNotice)]
    assert told == [SeatNotice(0, private.holder_words(card, suit=False))], app.effects
    assert EnteredCard.of(card).spoken in told[0].text and "Undo on the box" in told[0].text
    assert not names_card(told[0].text, card)  # in words, as a phone's screen reader reads it
    assert app.state.session is before and app.record == record  # nothing entered
    app.read()
    assert app.game.phase is Phase.STARTER
    # The card on the table is entered by its rank alone: a stand-in no hand holds.
    other = next(c for c in DECK if c not in (phones.gs.dealt[0] or ())
                 and c not in (phones.gs.dealt[1] or ()))
    app.pick(rank_label(other.rank))
    assert app.game.phase is Phase.PLAY  # type: ignore[comparison-overlap]
    assert app.game.starter is not None
    assert all(app.game.starter not in (d or ()) for d in app.game.dealt)


def test_without_phones_the_starter_wheel_is_as_it_was() -> None:
    """A teaching game's hand entered on the box is the table's to know: its cards stay off
    the starter's wheel (no phone is involved, nothing changes)."""
    app = new_game(dealer=1)
    assert starter_wheel(app)[0] == [("A", None)]  # no named card: the rank alone
    assert app.state.phones == frozenset()


def suit_question_deal(crib_six: str) -> Phones:
    """Ann (pone, seat 0) keeps J♥ 2♣ 3♦ 4♠ on her phone; Ben (dealing) lays away his first
    two of ``crib_six``; Ben turns the starter on the box by its rank alone (a 6), and both
    play from their phones: Ann's count needs the starter's suit (his nobs)."""
    phones = Phones(new_game(dealer=1), random.Random(1))
    ann = cards("9C KD JH 2C 3D 4S")
    ben = cards(crib_six)
    assert phones.send(0, Dealt(0, ann), LaidAway(0, ann[:2])).taken
    assert phones.send(1, Dealt(1, ben), LaidAway(1, ben[:2])).taken
    phones.app.pick("6")
    assert phones.gs.phase is Phase.PLAY and not phones.gs.starter_suit_known
    phones.play()
    phones.app.read()
    asked = phones.gs.asked
    assert asked is not None and asked.player == 0 and asked.rank is Rank.SIX
    return phones


def test_the_suit_question_on_the_box_lists_the_same_suits_whatever_the_crib_holds() -> None:
    plain = suit_question_deal("AH 5S 7C 8D TH QS")
    hidden = suit_question_deal("6D 5S 7C 8D TH QS")  # a six in Ben's crib, unseen
    assert hidden.gs.asked is not None and Suit.DIAMONDS not in hidden.gs.asked.suits
    offered = [wheels.offered_suits(p.gs, p.app.state.phones) for p in (plain, hidden)]
    assert offered[0] == offered[1]
    assert plain.app.view.picker == hidden.app.view.picker
    # The diamond, entered on the box, is refused without a word of Ben's crib.
    app = hidden.app
    app.pick("6♦")
    text = " ".join(app.pages[0].lines)
    assert " ".join(text.split()) == " ".join(private.CLASH.split())
    # Ben's phone (the crib's six is his, laid away) is told which card; Ann's nothing.
    assert [e for e in app.effects if isinstance(e, SeatNotice)] == [
        SeatNotice(1, private.holder_words(Card.parse("6D"), suit=True))], app.effects
    assert hidden.gs.asked is not None
    # Asked on Ann's phone too: the suits the table has not ruled out, hers aside.
    app.read()
    mine = seat_json(app.state.session.game, 0, game_id=None, phones=app.state.phones)  # type: ignore[union-attr]
    assert mine["asks"] == "suit" and mine["suit"]["rank"] == "6"
    assert set(mine["suit"]["suits"]) == {"C", "D", "H", "S"} - {
        c.suit.letter for c in hidden.gs.seen if c.rank is Rank.SIX and c != hidden.gs.starter}
    assert asks(hidden.gs, 1) == "wait"


def suit_entered(phones: Phones) -> list[str]:
    """The starter's suits in the record (one entry a question)."""
    return [json.loads(line)["suit"] for line in phones.app.record
            if json.loads(line).get("type") == "starter_suit"]


def test_the_starters_suit_is_answered_once_on_the_phone_or_the_box() -> None:
    # Ann's phone answers first: taken, and the box's question is gone.
    phones = suit_question_deal("AH 5S 7C 8D TH QS")
    before = phones.gs.scores[0]
    assert not phones.send(1, StarterSuit(Suit.HEARTS)).taken  # not Ben's count
    taken = phones.send(0, StarterSuit(Suit.HEARTS))
    assert taken.taken and suit_entered(phones) == ["H"]
    assert phones.gs.scores[0] > before  # his nobs: the jack of the starter's suit
    again = phones.send(0, StarterSuit(Suit.CLUBS))
    assert not again.taken and "not asked now" in again.reason
    assert suit_entered(phones) == ["H"]
    # The box answers first: the phone's answer, sent from the page drawn before, is refused.
    box = suit_question_deal("AH 5S 7C 8D TH QS")
    box.app.pick("6♣")
    assert suit_entered(box) == ["C"]
    late = box.send(0, StarterSuit(Suit.HEARTS))
    assert not late.taken and suit_entered(box) == ["C"]
    assert box.app.replayed().scores == box.gs.scores


def learn_to_play() -> App:
    """ "Learn to play": a teaching game played open-handed, P1 dealing, at its first deal's
    question for P2's dealt cards."""
    app = App.start()
    app.feed(KnobTurn(1), OK)  # Learn to play
    while app.view.selected != 0:
        app.feed(KnobTurn(1))
    app.feed(OK, UNDO)  # Start; the basics skipped
    app.feed(KnobTurn(1), OK)  # P1 deals
    app.read()
    assert open_hands.open_hands(app.state) and app.game.phase is Phase.STARTER
    return app


def test_an_open_handed_game_never_asks_the_box_for_a_phones_cards() -> None:
    app = learn_to_play()
    screen = app.state.screen
    assert isinstance(screen, CardEntry) and screen.player == 1  # P2's cards, on the box
    app.feed(PhoneSeats(frozenset({1})))  # P2's phone joins
    screen = app.state.screen
    assert isinstance(screen, CardEntry) and screen.player == 0, screen  # on to the dealer
    assert app.view.title == "Dealt to P1"
    # P1's cards on the box, then the two laid away: the box goes on to the starter, never
    # asking for P2's.
    for card in ("A♥", "2♠", "3♦", "9♣", "10♣", "Q♠"):
        app.pick(card[:-1])
        app.pick(card)
    app.read()
    assert app.view.title == "P1 lays away"
    app.feed(OK, OK)
    app.read()
    assert app.game.dealt[1] is None and not isinstance(app.state.screen, CardEntry)


def p2_on_a_phone_p1_in() -> App:
    """An open-handed first deal, P2's seat on a phone, P1's cards entered on the box."""
    app = learn_to_play()
    app.feed(PhoneSeats(frozenset({1})))
    for card in ("A♥", "2♠", "3♦", "9♣", "10♣", "Q♠"):
        app.pick(card[:-1])
        app.pick(card)
    app.read()
    app.feed(OK, OK)
    return app.read()


def test_an_open_handed_deal_waits_for_every_phones_hand_before_the_starter() -> None:
    """The box says whom the starter waits for (no card), refuses the starter meanwhile, on
    the box and on the dealer's phone alike; once the phone's hand is in, the starter."""
    app = p2_on_a_phone_p1_in()
    view = app.view
    assert view.picker is None and view.title == "Deal 1: P1 deals", view
    assert view.lines == ("Waiting for P2's", "hand (on their", "phone), then the",
                          "starter."), view.lines
    app.feed(RankKey(Rank.FIVE) if app.state.keypad else GO)  # no starter: refused
    assert app.pages and app.pages[0].kind is PageKind.REFUSED
    assert "Waiting for P2's hand" in " ".join(app.pages[0].lines)
    assert app.game.starter is None
    app.read()
    phones = Phones(app, random.Random(3))
    app.feed(PhoneSeats(frozenset({0, 1})))  # the dealer's phone joins too: refused alike
    answer = phones.send(0, Starter(Card.parse("5D")))
    assert not answer.taken and "Waiting for P2's hand" in answer.reason
    six = cards("4H 5S 6C 7D 8H KD")
    assert phones.send(1, Dealt(1, six), LaidAway(1, six[:2])).taken
    app.read()
    assert isinstance(app.state.screen, WheelScreen)
    assert app.view.picker is not None and app.view.picker.prompt == "Starter"
    assert phones.send(0, Starter(Card.parse("5D"))).taken


def test_a_seat_the_starter_waits_for_falls_back_to_the_box() -> None:
    """P2's phone released while the starter waits for its hand: the box asks for P2's
    cards itself, as for any seat on the box."""
    app = p2_on_a_phone_p1_in()
    assert app.view.picker is None
    app.feed(PhoneSeats(frozenset()))
    screen = app.state.screen
    assert isinstance(screen, CardEntry) and screen.player == 1, screen
    assert app.view.title == "Dealt to P2"


def test_the_app_learns_which_seats_phones_hold() -> None:
    app = new_game(dealer=0)
    app.feed(PhoneSeats(frozenset({1, 7})))
    assert app.state.phones == {1}  # a seat not at the table is no seat
    app.feed(Pairing((SeatCode(0, "ABC123", "HTTP://X/J/ABC123"), SeatCode(1, held=True))))
    assert app.state.phones == {1}
    app.feed(PhoneSeats(frozenset({0, 1})))  # Ann's phone joins by the code on the screen
    assert app.state.phones == {0, 1}
    assert "ABC123" not in repr(app.view)


def test_a_phone_names_the_starters_suit_by_its_letter() -> None:
    assert read_action({"do": "suit", "suit": "H", "seq": 3}, 0) == (
        (StarterSuit(Suit.HEARTS),), 3)
    for wrong in ("X", "h", None, 1, "HH"):
        with pytest.raises(ActionError, match="suit must be one of C, D, H or S"):
            read_action({"do": "suit", "suit": wrong, "seq": 3}, 0)


def rank_of(card: Card) -> str:
    return rank_label(card.rank)


def box_plays_ben(phones: Phones, ann: tuple[Card, ...], ben: tuple[Card, ...]) -> None:
    """The play: Ann's phone lays her lowest card that fits (else go); Ben, on the box, his
    lowest by its rank on the wheel (else GO)."""
    app = phones.app
    left = {0: list(ann), 1: list(ben)}
    while phones.gs.phase is Phase.PLAY:
        gs = phones.gs
        seat = gs.to_act
        assert seat is not None
        fits = sorted((c for c in left[seat] if gs.count + c.pips <= 31), key=lambda c: c.pips)
        if seat == 0:
            assert phones.send(0, Play(0, fits[0]) if fits else Go(0)).taken
        else:
            app.read()
            if fits:
                app.pick(rank_of(fits[0]))
            else:
                app.feed(GO)
        if fits:
            left[seat].remove(fits[0])


def test_the_box_asks_a_mixed_tables_crib_only_for_the_cards_its_seats_laid_away() -> None:
    """Ann's phone laid two cards away; Ben, on the box, lays his two. At the crib the box
    asks for Ben's two alone ("Crib card 3/4"), its wheel and screen never list Ann's (they
    are hers until the crib is counted), and the crib counted holds all four."""
    ann, ben = cards("2C 3D 9H TS KC QD"), cards("4S 8H 6H 7H AC 5D")
    phones = Phones(new_game(dealer=1), random.Random(0))
    app = phones.app
    assert phones.send(0, Dealt(0, ann), LaidAway(0, ann[:2])).taken
    app.read()
    app.pick("5")  # Ben deals: the starter, by its rank
    box_plays_ben(phones, ann[2:], ben[2:])
    app.read()
    assert phones.gs.phase is Phase.CRIB
    picker = app.view.picker
    assert picker is not None and picker.prompt == "Crib card 3/4", picker
    for card in ann[:2]:
        assert card.pretty not in picker.options and card.pretty not in " ".join(app.view.lines)
    app.pick("4")
    assert app.view.picker is not None and app.view.picker.prompt == "Crib card 4/4"
    assert app.view.lines == ("4",)
    app.pick("8")
    crib = phones.gs.crib
    assert crib is not None and crib[:2] == ann[:2] and [c.rank for c in crib[2:]] == [
        Rank.FOUR, Rank.EIGHT]
    assert app.replayed().scores == phones.gs.scores


def test_a_stand_in_is_never_the_starter_whose_suit_a_count_named() -> None:
    """The starter entered by its rank alone, its suit named when Ann's count asked it (her
    jack): the crib's stand-in of that rank, entered on the box, is another card, so the
    crib is counted (not refused for a card in it twice)."""
    ann, ben = cards("2C 3D 9S TH JS QD"), cards("KS 8H 6H 7H 2H AC")
    phones = Phones(new_game(dealer=1), random.Random(0))
    app = phones.app
    assert phones.send(0, Dealt(0, ann), LaidAway(0, ann[:2])).taken
    app.read()
    app.pick("K")  # the starter is KD, entered as a K
    box_plays_ben(phones, ann[2:], ben[2:])
    app.read()
    asked = phones.gs.asked
    assert asked is not None and asked.player == 0 and Suit.DIAMONDS in asked.suits
    assert phones.send(0, StarterSuit(Suit.DIAMONDS)).taken
    app.read()
    assert phones.gs.phase is Phase.CRIB
    app.pick("K")
    app.pick("8")
    crib = phones.gs.crib
    assert crib is not None and Card.parse("KD") not in crib, crib
    assert app.pages == () or app.pages[0].kind is not PageKind.REFUSED, app.pages


def crib_stand_in_of_the_starters_rank() -> tuple[Phones, Card]:
    """Ben deals on the box: the starter entered as a K (its rank alone), the play, and his
    crib's two cards by rank, a K among them (a stand-in K of a suit of the wheel's
    choosing). Ann laid J♥ 3♦ away on her phone, so the crib's count asks the starter's
    suit (his nobs). Returns the table at that question and the crib's stand-in K."""
    ann, ben = cards("JH 3D 9S TC 2H QD"), cards("KS 8H 6H 7H 2S AC")
    phones = Phones(new_game(dealer=1), random.Random(0))
    app = phones.app
    assert phones.send(0, Dealt(0, ann), LaidAway(0, ann[:2])).taken
    app.read()
    app.pick("K")
    box_plays_ben(phones, ann[2:], ben[2:])
    app.read()
    app.pick("K")
    app.pick("8")
    gs = phones.gs
    assert app.pages == () or app.pages[0].kind is not PageKind.REFUSED, app.pages
    asked = gs.asked
    assert asked is not None and asked.crib and asked.player == 1, asked
    crib = gs.crib
    assert crib is not None
    stand_in = next(card for card in crib if card.rank is Rank.KING)
    assert gs.starter is not None and stand_in != gs.starter
    return phones, stand_in


@pytest.mark.parametrize("where", ["box", "phone"])
def test_a_crib_stand_in_gives_way_to_the_starters_suit_named(where: str) -> None:
    """A stand-in's suit is no fact: the starter's suit named (on the box or the dealer's
    phone) may be the very suit the crib's K entered by rank was given. The answer is taken,
    the stand-in moves to a suit no card of the deal holds, and the crib counts its pair of
    kings and no nobs (J♥ with a ♦, ♣ or ♠ starter)."""
    phones, stand_in = crib_stand_in_of_the_starters_rank()
    app = phones.app
    score = phones.gs.scores[1]
    if where == "box":
        app.pick(stand_in.pretty)
        assert app.pages and app.pages[0].kind is PageKind.COUNT, app.pages
        assert app.pages[0].title == "P2's crib: 2", app.pages[0]
    else:
        # The dealer's phone offers every suit: a stand-in rules none out.
        app.feed(PhoneSeats(frozenset({0, 1})))
        mine = seat_json(app.state.session.game, 1, game_id=None, phones=app.state.phones)  # type: ignore[union-attr]
        assert mine["asks"] == "suit" and stand_in.suit.letter in mine["suit"]["suits"], mine
        assert phones.send(1, StarterSuit(stand_in.suit)).taken
    assert suit_entered(phones) == [stand_in.suit.letter]
    assert phones.gs.scores[1] == score + 2  # a pair of kings; J♥ is not the starter's suit
    crib = [json.loads(line) for line in app.record if json.loads(line).get("type") == "crib"]
    kings = [c for c in crib[-1]["cards"] if c.startswith("K")]
    assert len(kings) == 1 and kings[0] != str(stand_in), crib[-1]  # moved off the starter
    # ... to a suit no other crib card holds (a stand-in moved makes no flush).
    assert kings[0][1] not in {c[1] for c in crib[-1]["cards"] if c != kings[0]}, crib[-1]
    assert app.replayed().scores == phones.gs.scores


def test_an_open_handed_deal_refuses_the_dealers_phone_the_starter_before_a_box_hand() -> None:
    """P1 deals on a phone; P2's cards are asked on the box. The starter waits for P2's hand
    too: the dealer's phone shows whom it waits for (no card) and its starter is refused."""
    app = learn_to_play()
    app.feed(PhoneSeats(frozenset({0})))
    screen = app.state.screen
    assert isinstance(screen, CardEntry) and screen.player == 1, screen  # P2's, on the box
    phones = Phones(app, random.Random(4))
    six = cards("4H 5S 6C 7D 8H KD")
    assert phones.send(0, Dealt(0, six), LaidAway(0, six[:2])).taken
    mine = seat_json(app.state.session.game, 0, game_id=None, phones=app.state.phones)  # type: ignore[union-attr]
    assert mine["asks"] == "wait" and mine["waiting"]["for"] == ["P2"], mine
    answer = phones.send(0, Starter(Card.parse("5D")))
    assert not answer.taken
    assert answer.reason == ("Waiting for P2's hand (on the box): the starter comes after "
                             "every hand.")
    assert app.game.starter is None


def test_a_plain_deal_waits_for_the_phones_hand_and_says_where() -> None:
    """Not open-handed, P2 (the pone) on a phone, P1 dealing on the box: the starter comes
    after the phone's hand (the crib is laid away before the cut), the box says whose hand
    and where it is entered, and refuses the starter with those words; a released phone's
    seat enters no hand, and the box takes the starter at once."""
    app = new_game(dealer=0)
    app.feed(PhoneSeats(frozenset({1})))
    words = "Waiting for P2's hand (on their phone): the starter comes after every hand."
    assert app.view.picker is None and " ".join(app.view.lines) == (
        "Waiting for P2's hand (on their phone), then the starter."), app.view
    app.feed(GO)  # (OK asks "On the box instead?": tests/test_phone_fall_back.py)
    assert app.pages and app.pages[0].kind is PageKind.REFUSED
    assert " ".join(app.pages[0].lines) == words
    assert app.game.starter is None
    app.read()
    app.feed(PhoneSeats(frozenset()))  # the phone released: P2's seat is the box's
    assert app.view.picker is not None and app.view.picker.prompt == "Starter"
    app.feed(PhoneSeats(frozenset({1})))
    phones = Phones(app, random.Random(2))
    six = cards("4H 5S 6C 7D 8H KD")
    assert phones.send(1, Dealt(1, six), LaidAway(1, six[:2])).taken
    app.read()
    assert app.view.picker is not None and app.view.picker.prompt == "Starter"
    app.pick("9")
    assert app.game.phase is Phase.PLAY


def test_the_dealers_phone_is_told_whose_hand_the_starter_waits_for_and_where() -> None:
    """Both seats on phones, not open-handed: the dealer who laid away first is asked no
    starter while the pone's hand is to come; their view and the refusal of a starter sent
    from a page drawn before say whose hand, on their phone. Then the starter is asked."""
    app = new_game(dealer=0)
    phones = Phones(app, random.Random(6))
    six = cards("4H 5S 6C 7D 8H KD")
    assert phones.send(0, Dealt(0, six), LaidAway(0, six[:2])).taken
    app.feed(PhoneSeats(frozenset({0, 1})))
    game = app.game
    mine = seat_json(app.state.session.game, 0, game_id=None,  # type: ignore[union-attr]
                     phones=app.state.phones)
    words = "Waiting for P2's hand (on their phone): the starter comes after every hand."
    assert mine["asks"] == "wait" and mine["waiting"] == {"for": ["P2"], "text": words}, mine
    answer = phones.send(0, Starter(Card.parse("9C")))
    assert not answer.taken and answer.reason == words
    assert app.game == game
    other = cards("AS 2S 3S 4S 5C 6D")
    assert phones.send(1, Dealt(1, other), LaidAway(1, other[:2])).taken
    mine = seat_json(app.state.session.game, 0, game_id=None,  # type: ignore[union-attr]
                     phones=app.state.phones)
    assert mine["asks"] == "starter" and mine["waiting"] is None, mine
    assert phones.send(0, Starter(Card.parse("9C"))).taken


def test_the_wait_names_each_hand_with_where_it_is_entered() -> None:
    """Hands grouped by where they are entered, in the order asked, each place said once."""
    gs = cast(GameState, SimpleNamespace(names=("Ann", "Ben", "Cy", "Di")))
    tail = ": the starter comes after every hand."
    assert open_hands.waiting_words(gs, (1,), {1}) == (
        "Waiting for Ben's hand (on their phone)" + tail)
    assert open_hands.waiting_words(gs, (1,), ()) == "Waiting for Ben's hand (on the box)" + tail
    assert open_hands.waiting_words(gs, (1, 2, 3, 0), {1, 3}) == (
        "Waiting for Ben's and Di's hands (on their phones) and Cy's and Ann's (on the box)"
        + tail)
    assert open_hands.waiting_words(gs, (2, 3, 0), {3}) == (
        "Waiting for Cy's and Ann's hands (on the box) and Di's (on their phone)" + tail)


def test_a_phones_wait_says_whom_and_where() -> None:
    """While the table asks nothing of a phone's seat, its page says whom it waits for and
    where that is entered: the dealer's starter, the next card of the play, on the box or
    on a phone (the board's account of the seats phones hold)."""
    app = new_game(dealer=1)  # P2 deals, on the box
    phones = Phones(app, random.Random(5))
    ann = cards("5H 5D JC 4S KH 2C")
    assert phones.send(0, Dealt(0, ann), LaidAway(0, ann[4:])).taken

    def mine() -> dict[str, object]:
        session = app.state.session
        assert session is not None
        return seat_json(session.game, 0, game_id=None, phones=app.state.phones)

    assert mine()["wait"] == "Waiting for P2 to turn the starter (on the box)."
    app.pick("6")
    assert mine()["asks"] == "play" and mine()["wait"] is None
    assert phones.send(0, Play(0, ann[0])).taken
    assert mine()["wait"] == "Waiting for P2 to play (on the box)."
    app.feed(PhoneSeats(frozenset({0, 1})))  # Ben's phone joins
    assert mine()["wait"] == "Waiting for P2 to play (on their phone)."


def test_the_boxs_wait_fits_its_screen() -> None:
    """The box's wait is drawn whole: its text screen has four rows under the title above
    the hint on the bottom line ("OK: on the box"), each row as the app wrapped it (the
    screen wraps at 20 characters, the last column being the scroll mark's), with names as
    long as a player's: "then the starter" gives way where the names need its rows."""
    app = new_game(dealer=0)
    app.feed(PhoneSeats(frozenset({1})))
    view = app.view
    rows = [row for line in view.lines for row in text_wrap(line, COLUMNS - 1)]
    assert view.screen is Screen.MESSAGE and view.hint == open_hands.FALL_BACK_HINT
    assert len(view.hint) <= COLUMNS - (LINK_W // CHAR_W + 1)  # beside the LED link's mark
    assert rows == list(view.lines) and len(rows) <= table.WAIT_ROWS, rows
    long = cast(GameState, SimpleNamespace(names=("Ann", "Margaret", "Christopher", "Di")))
    for seats in ((1,), (2,), (1, 2), (1, 2, 3), (3, 0, 1)):
        words = open_hands.waiting_words(long, seats, {0, 1, 2, 3}, short=True)
        rows = list(wrap(words, COLUMNS - 1))
        if len(rows) > table.WAIT_ROWS:
            words = open_hands.waiting_words(long, seats, {0, 1, 2, 3}, short=True,
                                             starter=False)
            rows = list(wrap(words, COLUMNS - 1))
        assert len(rows) <= table.WAIT_ROWS and " ".join(rows) == words, rows
    assert open_hands.waiting_words(long, (1, 2, 3), {1, 2, 3}, short=True) == (
        "Waiting for the hands of Margaret, Christopher and Di (on their phones), then the "
        "starter.")
    assert open_hands.waiting_words(long, (1, 2, 3), {1, 2, 3}, short=True,
                                    starter=False) == (
        "Waiting for the hands of Margaret, Christopher and Di (on their phones).")


def test_a_phones_seat_is_coached_on_its_phone_alone() -> None:
    """A teaching game, hands closed: Ben (P2) on his phone, P1 dealing on the box. At his
    turn the box's play screen shows no coach's line for him, and after his card no coach's
    note comes up on the box; his phone's own view has both: the card to lay, naming his
    cards, and then the note on the card he laid."""
    app = started("Teaching: off").feed(KnobTurn(1), OK)  # P1 deals
    app.read()
    assert app.state.teaching and not open_hands.open_hands(app.state)
    phones = Phones(app, random.Random(1))
    ben = cards("5H 5D JC 4S KH 2C")
    assert phones.send(1, Dealt(1, ben), LaidAway(1, ben[4:])).taken
    app.read()
    app.pick("9")  # the starter, by its rank, on the box
    app.read()
    assert app.game.phase is Phase.PLAY and app.game.to_act == 1
    assert app.view.coach == "", app.view

    def his() -> dict[str, Any]:
        session = app.state.session
        assert session is not None
        return seat_json(session.game, 1, game_id=None, phones=app.state.phones)

    line = his()["coach"]["line"]
    assert line and any(card.rank.symbol in line or rank_label(card.rank) in line
                        for card in ben[:4]), line
    assert phones.send(1, Play(1, ben[3])).taken  # his 4 led
    app.read()
    app.pick("7")  # P1's 7, on the box: 11
    app.read()
    assert phones.send(1, Play(1, ben[2])).taken  # his J to 21: a J back makes 31
    assert not any(page.title == teach.PLAY_NOTE for page in app.pages), app.pages
    assert "Gave away" not in repr(app.view)
    note = his()["coach"]
    assert note == {"line": None, "note": "Gave away: a J back made thirty-one for 2 and a "
                                          "pair is 4; 5 was safer"}, note
