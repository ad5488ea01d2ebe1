"""Cards: notation round-trip and clear errors."""

from __future__ import annotations

import pytest

from pegboard.errors import InvalidCardError, PegboardError
from pegboard.rules.cards import DECK, Card, Rank, Suit, parse_cards, require_distinct


def test_every_card_round_trips() -> None:
    assert len(set(DECK)) == 52
    for card in DECK:
        assert Card.parse(str(card)) == card
        assert eval(repr(card)) == card
        assert DECK[card.index] == card


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("5H", Rank.FIVE, Suit.HEARTS),
        ("10H", Rank.TEN, Suit.HEARTS),
        ("TH", Rank.TEN, Suit.HEARTS),
        ("jd", Rank.JACK, Suit.DIAMONDS),
        ("Q♣", Rank.QUEEN, Suit.CLUBS),
        ("A♠", Rank.ACE, Suit.SPADES),
        ("k♡", Rank.KING, Suit.HEARTS),
    ],
)
def test_parse_accepts_the_notations(text: str, rank: Rank, suit: Suit) -> None:
    assert Card.parse(text) == Card(rank, suit)


def test_canonical_form() -> None:
    assert str(Card.parse("10h")) == "TH"
    assert Card.parse("10h").pretty == "10♥"


@pytest.mark.parametrize("text", ["", "1H", "11C", "5X", "HH", "5", "5HH", "Joker"])
def test_bad_text_is_rejected_with_the_input_quoted(text: str) -> None:
    with pytest.raises(InvalidCardError) as caught:
        Card.parse(text)
    assert isinstance(caught.value, PegboardError)
    assert isinstance(caught.value, ValueError)
    assert repr(text) in str(caught.value)
    assert "C D H S" in str(caught.value)


def test_parse_cards_and_duplicates() -> None:
    assert [str(c) for c in parse_cards("5H, 5S 5C JD")] == ["5H", "5S", "5C", "JD"]
    with pytest.raises(InvalidCardError, match="5H appears twice"):
        require_distinct(parse_cards("5H 5S 5H"))


def test_pips() -> None:
    assert [Card.parse(t).pips for t in ("AS", "9C", "TD", "JH", "QS", "KC")] == [
        1, 9, 10, 10, 10, 10,
    ]


def test_a_card_equals_and_hashes_as_its_rank_and_suit() -> None:
    """Two cards are equal exactly when rank and suit both are, and equal cards hash alike:
    a set of the deck holds 52, a card made again is found in it, and no card equals a value
    of another kind with the same fields."""
    again = [Card(card.rank, card.suit) for card in DECK]
    assert again == list(DECK) and len(set(DECK) | set(again)) == 52
    assert all(hash(a) == hash(b) for a, b in zip(again, DECK, strict=True))
    for card in DECK:
        for other in DECK:
            assert (card == other) is (card.rank is other.rank and card.suit is other.suit)
            assert (card != other) is not (card == other)
    assert Card(Rank.FIVE, Suit.HEARTS) != (Rank.FIVE, Suit.HEARTS)
    assert {Card(Rank.JACK, Suit.CLUBS): 1}[Card.parse("JC")] == 1
