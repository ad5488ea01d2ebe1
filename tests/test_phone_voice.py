"""The voice names no card a phone's hand holds before the table has seen it.

Two seats on phones play whole deals through the pure app, and the voice (the loop's
announcer) hears every batch as the loop tells it; every announcement is checked against
the cards each seat holds that the table has not seen at that moment, by each card's code,
its sign and its words ("five of hearts"). The LED board shows the pegs alone, never a card.
"""

from __future__ import annotations

import random

import pytest

from pegboard.rules.cards import DECK, Card
from pegboard.rules.events import Dealt, Event, Go, LaidAway, Play, Starter
from pegboard.rules.state import GameState, Phase
from pegboard.voice.announce import Announcer
from tests.support.app_driver import new_game
from tests.test_seat_entry import Phones, names_card

WORDS = {"A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
         "7": "seven", "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen",
         "K": "king"}


def unseen(gs: GameState) -> set[Card]:
    """The cards dealt to a seat that the table has not seen (played, turned, counted)."""
    return {card for dealt in gs.dealt if dealt is not None for card in dealt
            if card not in gs.seen}


def names(text: str, card: Card) -> bool:
    words = f"{WORDS[card.rank.symbol]} of {card.suit.name.lower()}"
    return names_card(text, card) or words in text.lower()


@pytest.mark.parametrize("seed", [3, 4])
def test_the_voice_names_no_card_a_phone_holds_unseen(seed: int) -> None:
    app = new_game(dealer=0)
    phones = Phones(app, random.Random(seed))
    announcer = Announcer()
    announcer.begin(app.state)
    app.take_changes()
    said: list[str] = []

    def send(seat: int, *events: Event) -> None:
        hidden = unseen(app.game) | {c for e in events if isinstance(e, Dealt)
                                     for c in e.cards}
        assert phones.send(seat, *events).taken
        hidden &= unseen(app.game)  # what is still the seats' own once the entry is in
        for announcement in announcer.heard(app.state, app.take_changes()).said:
            said.append(announcement.text)
            assert not [c for c in hidden if names(announcement.text, c)], (
                announcement.text, sorted(map(str, hidden)))

    while app.game.deal_no <= 3 and app.game.winner is None:
        gs = app.game
        assert gs.phase is Phase.STARTER and gs.dealer is not None
        deck = list(DECK)
        phones.rng.shuffle(deck)
        for k in (1, 2):
            seat = (gs.dealer + k) % 2
            six = tuple(deck[6 * seat: 6 * seat + 6])
            send(seat, Dealt(seat, six), LaidAway(seat, six[:2]))
        send(gs.dealer, Starter(deck[12]))
        while app.game.phase is Phase.PLAY and app.game.winner is None:
            gs = app.game
            assert gs.to_act is not None
            seat = gs.to_act
            assert seat is not None
            hand = gs.hands[seat] or ()
            fits = sorted((c for c in hand if gs.can_play(seat, c)), key=lambda c: c.pips)
            send(seat, Play(seat, fits[0]) if fits else Go(seat))
    # The play's points and every count were said (three deals: three cribs).
    assert len(said) > 10 and sum("crib" in text for text in said) >= 3, said


def test_the_checks_find_a_card_named_in_words() -> None:
    """The check itself fails on a card named by its words, its sign or its code."""
    card = Card.parse("5H")
    assert names("Ann holds the Five of Hearts", card)
    assert names("Ann holds 5♥", card) and names("Ann holds 5H", card)
    assert not names("Ann: fifteen for two", card)

