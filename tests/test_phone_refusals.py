"""Every refusal a phone is told names its cards in words, as a phone's screen reader says
them ("eight of hearts"; a card whose suit nobody entered by its rank: "four").

Each refusal the engine can give a phone's tap that names a card is brought about here, by
the seat's own request as its page sends it (or one drawn before the board moved on): a
card over 31, a go while a card fits, a card seen already, a card not dealt, a card laid
away, a card before the starter, the dealer's own card as the starter, a card laid away
that was not dealt, a go after a renege's take-back holding cards entered by rank; and a
card the box entered that a phone's hand holds (the notice to that phone). None names a
card by its letters ("8H") or its sign ("8♥"), and a card held by its rank alone is named by
its rank in words ("two, four and six"), never by a digit a screen reader says as a number.
A refusal naming a seat's held cards is told to that seat's phone alone.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from pegboard.app.seat_entry import CLASH, in_words, private_reason
from pegboard.errors import RuleError
from pegboard.rules.cards import Card
from pegboard.rules.events import Crib, Dealt, Go, LaidAway, Penalty, Play, Starter
from pegboard.rules.game import Game
from pegboard.rules.state import Phase
from tests.support.app_driver import GO, OK, new_game
from tests.support.games import RENEGE_DEAL, scripted_game
from tests.support.phones import phone_board
from tests.test_app_keys_answer import refused as refused_on_the_box
from tests.test_app_keys_answer import taken_back
from tests.test_phone_real_suit import played_to_the_crib
from tests.test_phone_server import act, joined
from tests.test_seat_entry import Phones

NAMED = re.compile(r"(?<![\w])(?:10|[2-9TJQKA])[CDHS\u2663\u2666\u2665\u2660](?![\w])")
"""A card named by its letters or its sign."""


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(word) for word in text.split())


ANN = cards("5H 5D JC 4S KH 2C")  # keeps 5H 5D JC 4S
BEN = cards("6H 9D TC 3S QH AC")  # keeps 6H 9D TC 3S


def refused(phones: Phones, seat: int, *entries: object) -> str:
    """The reason the seat's request is refused (nothing changed: the driver checks)."""
    answer = phones.send(seat, *entries)  # type: ignore[arg-type]
    assert not answer.taken, answer
    assert not NAMED.search(answer.reason), answer.reason
    return answer.reason


def both_in(dealer: int = 0) -> Phones:
    phones = Phones(new_game(dealer=dealer), random.Random(1))
    assert phones.send(1, Dealt(1, BEN), LaidAway(1, BEN[4:])).taken
    assert phones.send(0, Dealt(0, ANN), LaidAway(0, ANN[4:])).taken
    return phones


def test_every_refusal_of_a_card_in_the_play_says_it_in_words() -> None:
    phones = both_in(dealer=0)
    # Before the starter: no card is laid yet.
    assert refused(phones, 1, Play(1, BEN[0])) == (
        "cannot play six of hearts now: turn the starter first")
    # The dealer's own card is no starter; another hand's is refused naming none.
    assert refused(phones, 0, Starter(ANN[0])) == (
        "five of hearts was dealt to P1: it cannot be the starter")
    assert refused(phones, 0, Starter(BEN[0])) == CLASH
    assert phones.send(0, Starter(Card.parse("7S"))).taken
    assert phones.send(1, Play(1, Card.parse("TC"))).taken  # 10
    # Ann, at 10: a go while her cards fit, every one of them named.
    assert refused(phones, 0, Go(0)) == (
        "P1 holds five of hearts, five of diamonds, jack of clubs and four of spades, which "
        "fits at 10: a card that fits must be played (a go now would be a renege, ACC 7.3)")
    # Her go keyed on the box instead: the shared screen (and the voice, which says its
    # page) names none of her cards, entered on her phone.
    phones.app.feed(GO)
    assert refused_on_the_box(phones.app) == (
        "P1 holds a card that fits at 10: play it (a go now would be a renege)")
    phones.app.feed(OK)
    # A card seen already, one dealt to nobody, one laid away.
    assert refused(phones, 0, Play(0, Card.parse("TC"))) == (
        "ten of clubs was already seen this deal (played by P2)")
    assert refused(phones, 0, Play(0, Card.parse("7C"))) == (
        "seven of clubs was not dealt to P1 (dealt five of hearts, five of diamonds, jack of "
        "clubs, four of spades, king of hearts and two of clubs)")
    assert refused(phones, 0, Play(0, Card.parse("KH"))) == (
        "P1 laid king of hearts away to the crib: it cannot be played")
    assert phones.send(0, Play(0, Card.parse("JC"))).taken  # 20
    assert phones.send(1, Play(1, Card.parse("9D"))).taken  # 29
    # Over 31.
    assert refused(phones, 0, Play(0, Card.parse("5H"))) == (
        "count is 29: five of hearts would make 34 — play a card of two or less, or say go")
    assert phones.gs.phase is Phase.PLAY


def test_a_hand_refused_says_its_cards_in_words() -> None:
    phones = Phones(new_game(dealer=0), random.Random(1))
    assert phones.send(1, Dealt(1, BEN), LaidAway(1, BEN[4:])).taken
    # A card laid away that is not among the six; a hand holding another phone's card.
    assert refused(phones, 0, Dealt(0, ANN), LaidAway(0, cards("7C KH"))) == (
        "seven of clubs was not dealt to P1 (dealt five of hearts, five of diamonds, jack of "
        "clubs, four of spades, king of hearts and two of clubs)")
    assert refused(phones, 0, Dealt(0, (*ANN[:5], BEN[0])), LaidAway(0, ANN[:2])) == CLASH


def test_a_card_held_by_its_rank_alone_is_said_by_its_rank() -> None:
    """After a renege's take-back Ben holds 2 4 6, each entered by rank alone on the box:
    his go is refused on his phone naming them by their ranks in words, as the phone's page
    names a card held by its rank ("two"), no suit the card wheel gave them and no digit a
    screen reader says as a number. The box's own screen lists them as it shows cards."""
    app = taken_back()
    phones = Phones(app, random.Random(1))
    assert refused(phones, 1, Go(1)) == (
        "P2 holds two, four and six, which fits at 20: a card that fits must be played (a go "
        "now would be a renege, ACC 7.3)")
    app.feed(GO)
    assert refused_on_the_box(app) == (
        "P2 holds 2 4 6, which fits at 20: a card that fits must be played (a go now would be "
        "a renege, ACC 7.3)")


def test_a_card_not_in_the_hand_after_a_renege_is_said_by_its_rank() -> None:
    """Ben holds 2 4 6 by rank after a take-back: a card he names that is not among them is
    refused naming it as he named it, and his hand by its ranks alone, in words."""
    phones = Phones(taken_back(), random.Random(1))
    assert refused(phones, 1, Play(1, Card.parse("9D"))) == (
        "nine of diamonds is not in P2's hand: after the renege was taken back P2 holds two, "
        "four and six")
    # Ben lays his two; Ann's phone is then told her own hand, A A 3, in words.
    assert phones.send(1, Play(1, Card.parse("2H"))).taken
    assert refused(phones, 0, Go(0)) == (
        "P1 holds ace, ace and three, which fits at 22: a card that fits must be played (a go "
        "now would be a renege, ACC 7.3)")


def test_a_refusal_naming_another_seats_held_cards_is_not_told_to_a_phone() -> None:
    """After a renege's take-back Ann (to play at 25) names the queen of spades, which the
    take-back returned to Ben's hand: the engine's refusal names Ben's hand (its holder),
    and a phone other than Ben's is told only that a card was entered by another seat."""
    game, _ = scripted_game(script=RENEGE_DEAL)
    game.apply(Penalty(0, "renege"))
    with pytest.raises(RuleError) as error:
        game.apply(Play(0, Card.parse("QS")))
    assert str(error.value) == "QS is in Ben's hand (known since the renege)"
    assert error.value.holder == 1
    assert private_reason(game.state, 0, error.value) == CLASH
    assert private_reason(game.state, 1, error.value) == str(error.value)


def test_a_card_a_stand_in_holds_is_refused_naming_the_rank_in_words() -> None:
    """A card whose place a card entered by its rank alone holds: the box's message names
    that card by its rank's label ("the 5"), its words (a phone's) by its rank in words."""
    c = Card.parse
    game = played_to_the_crib()
    with pytest.raises(RuleError) as error:
        game.push(Crib((c("5D"), c("TC"), c("JD"), c("QH"))))
    tail = "entered by its rank alone (played by Ann) was given that suit, and moves to another"
    assert str(error.value) == f"5D cannot be entered as it stands: the 5 {tail} first"
    assert error.value.words == f"5D cannot be entered as it stands: the five {tail} first"
    assert error.value.holder is None


def test_the_notice_of_a_starter_a_phones_hand_holds_is_in_words() -> None:
    """The box enters as the starter a card Ann's phone entered: her phone's notice names it
    in words."""
    from pegboard.app import private

    text = private.holder_words(Card.parse("5H"), suit=False)
    assert text.startswith("The starter entered on the box, the five of hearts, is in your")
    assert private.holder_words(Card.parse("6D"), suit=True).startswith(
        "The starter's suit entered on the box makes it the six of diamonds, which is in your "
        "hand")
    assert not NAMED.search(text)


def test_in_words_lists_runs_names_ranks_and_leaves_names_alone() -> None:
    gs = Game(["Ann", "JC"]).state
    named = cards("TH TD 8H 5C")
    assert in_words(gs, 0, "10♥ and TD; 8H 5C, JC said go", named) == (
        "ten of hearts and ten of diamonds; eight of hearts and five of clubs, JC said go")
    # In a deal entered by rank on the box, a card neither entered with its suit nor named
    # by the request is said by its rank alone.
    by_rank = taken_back().game
    assert not by_rank.suit_entered(Card.parse("8H"))
    assert in_words(by_rank, 1, "8H and 9D", cards("9D")) == "eight and nine of diamonds"
    assert in_words(gs, 0, "no card here: ACC 7.3, 31 for 2") == "no card here: ACC 7.3, 31 for 2"


def test_a_phones_refusal_is_in_words_in_its_raw_answer(tmp_path: Path) -> None:
    """Over HTTP, as the page is answered: Ann's go while her cards fit."""
    first = (Dealt(0, ANN), LaidAway(0, ANN[4:]), Dealt(1, BEN), LaidAway(1, BEN[4:]),
             Starter(Card.parse("7S")), Play(1, Card.parse("TC")))
    with phone_board(tmp_path, dealer=0, first=first) as board:
        tokens = joined(board)
        status, data = act(board, tokens[0], {"do": "go"})
        assert status == 409 and not data["taken"], data
        assert data["reason"].startswith(
            "Ann holds five of hearts, five of diamonds, jack of clubs and four of spades, "
            "which fits at 10"), data
        assert not NAMED.search(data["reason"]), data
