"""A seat's own entries from a phone, through the pure app (pegboard.app.seat_entry).

Whole games are played with every entry a seat makes sent as a ``SeatEntry`` (both seats on
phones), to the engine's scores; the box's screen never shows a card before the table has
seen it; refused, replayed, stale and forged requests change nothing; a phone seat mixes
with a seat entered on the box's keys.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

import pytest

from pegboard.app.effects import SeatAnswer
from pegboard.app.inputs import SeatEntry
from pegboard.app.seat_entry import CLASH, STALE, seat_seq
from pegboard.rules.cards import DECK, Card
from pegboard.rules.events import Deal, Dealt, Event, Go, LaidAway, Play, Starter
from pegboard.rules.state import GameState, Phase
from tests.support.app_driver import App, new_game


@dataclass
class Phones:
    """The two phones of a 2-player game, each sending its seat's entries."""

    app: App
    rng: random.Random
    tickets: int = 0
    answers: list[SeatAnswer] = field(default_factory=list)
    views: list[str] = field(default_factory=list)

    @property
    def gs(self) -> GameState:
        return self.app.game

    def send(self, seat: int, *entries: Event, seq: int | None = None) -> SeatAnswer:
        self.tickets += 1
        session = self.app.state.session
        sent = SeatEntry(seat, entries, seat_seq(session, seat) if seq is None else seq,
                         self.tickets)
        before = self.app.state
        self.app.feed(sent)
        answers = [e for e in self.app.effects if isinstance(e, SeatAnswer)]
        assert len(answers) == 1, self.app.effects
        answer = answers[0]
        assert answer.ticket == self.tickets and answer.seat == seat
        if not answer.taken:
            assert self.app.state == before, "a refused request changed the state"
            assert self.app.effects == [answer]
        self.answers.append(answer)
        self.views.append(repr(self.app.view))
        return answer

    def deal(self) -> None:
        """Both phones enter their six cards and the two laid away; the dealer the starter."""
        gs = self.gs
        assert gs.phase is Phase.STARTER and gs.dealer is not None
        deck = list(DECK)
        self.rng.shuffle(deck)
        for k in (1, 2):
            seat = (gs.dealer + k) % 2
            six = tuple(deck[6 * seat: 6 * seat + 6])
            assert self.send(seat, Dealt(seat, six), LaidAway(seat, six[:2])).taken
        assert self.send(gs.dealer, Starter(deck[12])).taken

    def play(self) -> None:
        """The play, each seat laying its lowest card that fits, else go."""
        while self.gs.phase is Phase.PLAY and self.gs.winner is None:
            gs = self.gs
            seat = gs.to_act
            assert seat is not None
            hand = gs.hands[seat]
            assert hand is not None
            fits = sorted((c for c in hand if gs.can_play(seat, c)), key=lambda c: c.pips)
            event: Event = Play(seat, fits[0]) if fits else Go(seat)
            answer = self.send(seat, event)
            assert answer.taken, answer


def private_cards(gs: GameState) -> set[Card]:
    """The cards dealt to a seat that the table has not seen (played, counted, the crib)."""
    counted: set[Card] = set()
    return {card for dealt in gs.dealt if dealt is not None for card in dealt
            if card not in gs.seen and card not in counted}


def names_card(text: str, card: Card) -> bool:
    return card.pretty in text or re.search(rf"\b{card}\b", text) is not None


@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_game_on_two_phones_comes_to_the_engines_scores(seed: int) -> None:
    phones = Phones(new_game(dealer=seed % 2), random.Random(seed))
    deals = 0
    while phones.gs.winner is None:
        if phones.gs.phase is not Phase.STARTER:
            pytest.fail(f"the next deal was not entered: {phones.gs.phase}")
        before_play = len(phones.views)
        phones.deal()
        phones.play()
        deals += 1
        # No view on the box while the hands were private named one of their cards.
        for text in phones.views[before_play:]:
            assert "Advice" not in text
        phones.app.read()
    # The hands were counted by the engine without a show entry, and the record replays to
    # the very game: the scores the box shows are the engine's.
    record = [line for line in phones.app.record]
    replayed = phones.app.replayed()
    assert replayed.scores == phones.gs.scores and replayed.winner == phones.gs.winner
    assert max(phones.gs.scores) >= 121 and deals >= 5
    assert not any('"show"' in line or '"crib"' in line for line in record)
    assert all(answer.taken for answer in phones.answers)


def test_the_box_never_shows_a_card_a_phone_holds() -> None:
    phones = Phones(new_game(dealer=0), random.Random(7))
    app = phones.app
    while phones.gs.winner is None and phones.gs.deal_no < 4:
        gs = phones.gs
        deck = list(DECK)
        phones.rng.shuffle(deck)
        for k in (1, 2):
            seat = (gs.dealer + k) % 2 if gs.dealer is not None else k - 1
            six = tuple(deck[6 * seat: 6 * seat + 6])
            phones.send(seat, Dealt(seat, six), LaidAway(seat, six[:2]))
            hidden = private_cards(phones.gs)
            assert hidden and not any(names_card(repr(app.view), c) for c in hidden)
        phones.send(phones.gs.dealer or 0, Starter(deck[12]))
        while phones.gs.phase is Phase.PLAY:
            gs = phones.gs
            assert gs.to_act is not None
            seat = gs.to_act
            assert seat is not None and gs.hands[seat] is not None
            fits = [c for c in gs.hands[seat] or () if gs.can_play(seat, c)]
            phones.send(seat, Play(seat, fits[0]) if fits else Go(seat))
            hidden = private_cards(phones.gs)
            assert not any(names_card(repr(app.view), c) for c in hidden), app.view
        app.read()


def test_refused_replayed_stale_and_forged_requests_change_nothing() -> None:
    phones = Phones(new_game(dealer=0), random.Random(3))
    gs = phones.gs
    six = tuple(DECK[:6])
    # Another seat's entry, sent on this seat's behalf.
    forged = phones.send(1, Dealt(0, six))
    assert not forged.taken and "own entries only" in forged.reason
    # An entry no phone makes.
    assert "use the box" in phones.send(1, Deal()).reason
    # The starter is the dealer's.
    assert "only the dealer" in phones.send(1, Starter(DECK[40])).reason
    # Taken once; the same request again is stale, and so is one from an older page.
    assert phones.send(1, Dealt(1, six), LaidAway(1, six[:2])).taken
    again = phones.send(1, Dealt(1, six), LaidAway(1, six[:2]), seq=0)
    assert not again.taken and again.reason == STALE
    assert not phones.send(1, Play(1, six[2]), seq=5).taken
    # The engine's reason reaches the phone, the box's screen stays as it was.
    shown = phones.app.view
    wrong = phones.send(0, Dealt(0, tuple(DECK[6:11])), LaidAway(0, DECK[6:8]))
    assert not wrong.taken and "dealt 6 cards, got 5" in wrong.reason
    assert phones.app.view == shown
    # Both entries or neither: a bad lay-away leaves the dealt cards unentered too.
    half = phones.send(0, Dealt(0, tuple(DECK[6:12])), LaidAway(0, (DECK[20], DECK[6])))
    assert not half.taken and phones.gs.dealt[0] is None
    # A card another seat holds is never named to this one.
    clash = phones.send(0, Dealt(0, (six[3], *DECK[6:11])), LaidAway(0, DECK[6:8]))
    assert not clash.taken and clash.reason == CLASH and str(six[3]) not in clash.reason
    assert gs.phase is Phase.STARTER


def test_a_play_out_of_turn_gets_the_engines_reason() -> None:
    phones = Phones(new_game(dealer=0), random.Random(4))
    phones.deal()
    gs = phones.gs
    other = 1 - (gs.to_act or 0)
    hand = gs.hands[other]
    assert hand is not None
    answer = phones.send(other, Play(other, hand[0]))
    assert not answer.taken and "turn" in answer.reason


def test_a_phone_seat_plays_with_a_seat_keyed_on_the_box() -> None:
    """Ann (seat 0, the pone) on her phone; Ben (seat 1, dealing) on the box's keys: his
    starter, his cards, his hand and the crib on the wheel, as today."""
    app = new_game(dealer=1)
    phones = Phones(app, random.Random(5))
    ann = (Card.parse("5H"), Card.parse("5D"), Card.parse("JC"), Card.parse("4S"),
           Card.parse("KH"), Card.parse("2C"))
    assert phones.send(0, Dealt(0, ann), LaidAway(0, ann[4:])).taken
    app.pick("6")  # Ben turns the starter on the box (the rank alone)
    assert app.game.phase is Phase.PLAY and app.game.to_act == 0
    assert phones.send(0, Play(0, ann[0])).taken  # Ann leads her 5
    app.pick("10")  # Ben: 15 for 2
    assert app.game.scores[1] == 2, app.game.scores
    assert phones.send(0, Play(0, ann[1])).taken  # 20
    app.pick("K")  # Ben: 30
    assert phones.send(0, Go(0)).taken  # neither her J nor her 4 fits
    app.pick("A")  # Ben: 31 for 2
    assert app.game.scores == (0, 4), app.game.scores
    # Ann falls back to the box: her 4 keyed on the wheel is her very card, and her phone's
    # page, drawn before it, is stale.
    seq = seat_seq(app.state.session, 0)
    app.pick("4")
    assert app.game.played[0][-1] == ann[3]
    stale = phones.send(0, Play(0, ann[2]), seq=seq)
    assert not stale.taken and stale.reason == STALE
    early = phones.send(0, Play(0, ann[2]))  # up to date now, but Ben is to play
    assert not early.taken and "P2's turn" in early.reason
    assert app.game.scores == app.replayed().scores
