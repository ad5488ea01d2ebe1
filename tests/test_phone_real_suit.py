"""A phone's real card keeps its suit; a card entered by rank alone has none to claim (issue 31).

The box enters a card by its rank alone: the engine holds it in a suit the card wheel chose,
a stand-in that is no fact. A phone seat taps its real card, suit and all. When that is the
very card a stand-in holds, the phone's card is taken as it is (``Play.named``) and the
stand-in moves to another suit of its rank, its entries entered again, so the record keeps
the phone's real suit. A suit named later (the starter's, asked at a count) can never be
one a phone named; and no refusal a phone reads names a stand-in's suit as held.

Ann's phone holds no entered hand (it was paired after the deal), Ben's seat is on the box
unless a test says otherwise; everything runs through the pure app, as the loop does.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from pegboard.errors import RuleError
from pegboard.record import parse_line
from pegboard.record.writer import dump_line
from pegboard.rules.cards import Card, EnteredCard, Rank, Suit
from pegboard.rules.events import Crib, Deal, Go, Play, Starter, StarterSuit
from pegboard.rules.game import Game
from pegboard.rules.state import Phase, Reason
from pegboard.web.phone_view import seat_json
from tests.support.app_driver import GO, OK, App, new_game
from tests.test_app_keys_answer import refused, taken_back
from tests.test_seat_entry import Phones

SUITED = re.compile(r"\b(?:10|[2-9TJQKA])[CDHS]\b|[\u2660-\u2667]")
"""A card named with a suit, in the record's names or the page's signs."""


def plays(app: App) -> list[dict[str, object]]:
    """The record's play lines still in force (an undo drops the line before it)."""
    kept: list[dict[str, object]] = []
    for line in app.record:
        data = json.loads(line)
        if data["type"] == "undo":
            kept.pop()
        else:
            kept.append(data)
    return [data for data in kept if data["type"] == "play"]


def test_a_phones_card_keeps_its_suit_and_the_stand_in_moves() -> None:
    """Ann's phone lays the five a box stand-in was given, then the starter's stand-in card:
    each time her card is taken with her suit and the box's card of that rank moves."""
    app = new_game(dealer=0)
    phones = Phones(app, random.Random(1))
    app.pick("6")  # the starter, by its rank alone
    app.pick("5")  # Ben's lead, by its rank alone
    starter, ben = app.game.starter, app.game.pile[0]
    assert starter is not None and not app.game.suit_entered(ben)
    assert phones.send(0, Play(0, ben)).taken  # Ann's real five: that very suit
    gs = app.game
    assert gs.played[0] == (ben,) and gs.played[1][0].rank is Rank.FIVE
    assert gs.played[1][0] != ben and not gs.suit_entered(gs.played[1][0])
    assert gs.suit_entered(ben) and gs.named_laid == {ben}
    assert gs.scores == (2, 0)  # a pair: the ranks pegged, as before
    app.pick("4")  # Ben, by rank: 14
    assert phones.send(0, Play(0, starter)).taken  # Ann's real six: the starter's stand-in
    gs = app.game
    assert gs.starter is not None and gs.starter.rank is Rank.SIX and gs.starter != starter
    assert gs.turned is not None and gs.turned.suit is None  # still by its rank alone
    assert gs.played[0] == (ben, starter) and gs.named_laid == {ben, starter}
    assert gs.scores == (5, 0)  # 5 4 6: a run of three
    # The record holds Ann's cards with her suits, marked named, and replays to the table.
    laid = plays(app)
    assert [(p["player"], p["card"], p.get("named")) for p in laid if p["player"] == 0] == [
        (0, str(ben), True), (0, str(starter), True)]
    assert all("named" not in p for p in laid if p["player"] == 1)
    replayed = app.replayed()
    assert replayed.played == gs.played and replayed.named_laid == gs.named_laid
    assert replayed.starter == gs.starter and replayed.scores == gs.scores
    # What the phones are sent: Ann's cards whole, the box's cards by their ranks.
    mine = seat_json(app.state.session.game, 0, game_id="g",  # type: ignore[union-attr]
                     phones=frozenset({0}))
    assert mine["played"] == [str(ben), str(starter)], mine["played"]
    assert set(SUITED.findall(json.dumps(mine))) == {str(ben), str(starter)}


def test_a_named_play_line_round_trips() -> None:
    line = dump_line(Play(0, Card.parse("5C"), named=True))
    assert json.loads(line) == {"type": "play", "player": 0, "card": "5C", "named": True}
    assert parse_line(line) == Play(0, Card.parse("5C"), named=True)
    plain = dump_line(Play(0, Card.parse("5C")))
    assert "named" not in plain and parse_line(plain) == Play(0, Card.parse("5C"))


def asked_deal() -> Game:
    """Ben deals; the starter is a five entered by its rank alone. Ann (pone) lays J♥ 5♠ 4♣
    A♠ with their suits named (her phone), Ben 5 6 7 8 by rank on the box. Ann's hand, her
    cards all laid, could make his nobs with the starter: her count asks the starter's
    suit, which can no longer be spades."""
    game = Game(["Ann", "Ben"])
    c = Card.parse
    for event in (Deal(1), Starter(c("5C"), suit_known=False),
                  Play(0, c("JH"), named=True), Play(1, c("5D")),
                  Play(0, c("5S"), named=True), Play(1, c("6C")),
                  Play(0, c("4C"), named=True), Go(1), Play(0, c("AS"), named=True),
                  Play(1, c("7H")), Play(1, c("8S"))):
        game.push(event)
    return game


def test_a_suit_a_phone_named_is_no_suit_for_the_starter() -> None:
    game = asked_deal()
    gs = game.state
    assert gs.asked is not None and gs.asked.player == 0 and "nobs" in gs.asked.makes
    assert Suit.SPADES not in gs.asked.suits and Suit.HEARTS in gs.asked.suits
    before = game.state
    with pytest.raises(RuleError, match="the starter cannot be 5♠: that card was laid in the "
                                        "play, its suit named"):
        game.push(StarterSuit(Suit.SPADES))
    assert game.state == before
    game.push(StarterSuit(Suit.HEARTS))  # his nobs, the J♥ Ann named
    count = game.state.awards[-2]
    assert count.player == 0 and count.reason is Reason.HAND, count
    assert [item.cards for item in count.items if item.kind == "nobs"] == [(Card.parse("JH"),)]


def test_without_the_named_mark_the_cards_are_the_wheels_and_ask_nothing() -> None:
    """The same deal with every card entered by rank (no ``named``): the suits are stand-ins,
    so Ann's count is made at once, asking nothing (the mark is what makes them facts)."""
    game = Game(["Ann", "Ben"])
    for event in asked_deal().events:
        game.push(Play(event.player, event.card) if isinstance(event, Play) else event)
    assert game.state.asked is None and game.state.named_laid == frozenset()


def all_fives_in() -> tuple[App, Phones]:
    """Ben deals; starter a five by rank, Ann's phone lays a real five, Ben a five by rank on
    the box, Ann's phone the last five: every five of the pack is in, two of them by rank.
    Ben's seat then moves to a phone."""
    app = new_game(dealer=1)
    phones = Phones(app, random.Random(2))
    app.pick("5")
    taken = {app.game.starter}
    first = next(Card(Rank.FIVE, s) for s in Suit if Card(Rank.FIVE, s) not in taken)
    assert phones.send(0, Play(0, first)).taken
    app.pick("5")
    last = next(Card(Rank.FIVE, s) for s in Suit if Card(Rank.FIVE, s) not in app.game.seen)
    assert phones.send(0, Play(0, last)).taken
    assert app.game.count == 15 and app.game.to_act == 1
    return app, phones


SUIT_WORDS = re.compile(r"\bof (?:clubs|diamonds|hearts|spades)\b")
"""A card said in words with its suit, as a phone's refusals say cards ("eight of hearts")."""


def suits_named(reason: str, *allowed: Card) -> list[str]:
    """Every suit ``reason`` names, by letter, sign or word, but those of ``allowed`` (the
    card the phone itself sent, named back to it)."""
    for card in allowed:
        reason = reason.replace(EnteredCard.of(card).spoken, "").replace(str(card), "")
    return [*SUITED.findall(reason), *SUIT_WORDS.findall(reason)]


@pytest.mark.parametrize("which", ["starter", "own"])
def test_a_fifth_five_is_refused_naming_no_stand_in_suit(which: str) -> None:
    """Ben's phone names a five whose suit a stand-in holds (the starter's, or the one his
    own seat laid by rank): no suit of its rank is free, so it is refused, and the refusal
    names no suit (not even the one the phone named: that is the stand-in's too)."""
    app, phones = all_fives_in()
    gs = app.game
    card = gs.starter if which == "starter" else gs.played[1][0]
    assert card is not None and not gs.suit_entered(card)
    answer = phones.send(1, Play(1, card))
    assert not answer.taken
    assert "every five of the deal is entered already" in answer.reason, answer.reason
    assert suits_named(answer.reason) == [], answer.reason
    assert app.game == gs


def test_refusals_after_a_take_back_list_cards_entered_by_rank_by_rank() -> None:
    """After a renege's take-back P2 holds 2 4 6, laid by rank on the box: a go, a card not
    in the hand and a card in P1's hand are refused by P2's phone naming those by rank, in
    words (the card the phone sent is named back to it as it sent it)."""
    app = taken_back()
    gs = app.game
    # On the box's shared screen first: GO is refused naming the cards by their ranks (it
    # named the card wheel's suits, "P2 holds 2H 4D 6D").
    app.feed(GO)
    shown = refused(app)
    assert "P2 holds 2 4 6, which fits at 20" in shown and suits_named(shown) == [], shown
    app.feed(OK)
    assert app.game == gs
    phones = Phones(app, random.Random(3))
    four = next(c for c in gs.hands[1] or () if c.rank is Rank.FOUR)
    three = next(c for c in gs.hands[0] or () if c.rank is Rank.THREE)
    other_four = next(Card(Rank.FOUR, s) for s in Suit if Card(Rank.FOUR, s) != four)
    for event, said in ((Go(1), "P2 holds two, four and six, which fits at 20"),
                        (Play(1, other_four),
                         "after the renege was taken back P2 holds two, four and six"),
                        (Play(1, three), "is not in P2's hand")):
        answer = phones.send(1, event)
        assert not answer.taken and said in answer.reason, answer.reason
        sent = (event.card,) if isinstance(event, Play) else ()
        assert suits_named(answer.reason, *sent) == [], answer.reason
        assert app.game == gs
    assert app.game.phase is Phase.PLAY


def played_to_the_crib() -> Game:
    """A deal played out to its crib: the starter, a king, entered by its rank alone; Ann's
    5, 7, 2 and 9 and Ben's 6, 8, 3 and A laid with their suits."""
    c = Card.parse
    game = Game(["Ann", "Ben"])
    for event in (Deal(1), Starter(c("KS"), by_rank=True), Play(0, c("5D")),
                  Play(1, c("6C")), Play(0, c("7H")), Play(1, c("8S")), Play(0, c("2H")),
                  Play(1, c("3S")), Play(0, c("9D")), Play(1, c("AC"))):
        game.push(event)
    return game


def test_a_crib_naming_a_card_a_stand_in_holds_is_refused_by_its_rank() -> None:
    """The engine's own refusal, on any entry (here a crib entered with its suits named): a
    card whose place a card entered by rank alone holds is refused saying that card's rank
    and where, never that its suit was seen as a fact."""
    c = Card.parse
    game = played_to_the_crib()
    assert game.state.phase is Phase.CRIB and not game.state.suit_entered(c("5D"))
    before = game.state
    with pytest.raises(RuleError) as refused:
        game.push(Crib((c("5D"), c("TC"), c("JD"), c("QH"))))
    said = str(refused.value)
    assert said.startswith("5D cannot be entered as it stands: the 5 entered by its rank "
                           "alone (played by Ann) was given that suit"), said
    assert "was already seen" not in said and game.state == before
