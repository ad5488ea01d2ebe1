"""Discard advice against direct enumeration of every starter and every unseen crib card."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest

from pegboard.coach.advice import advise, best_keep, crib_expectation, deal_shape
from pegboard.errors import InvalidCardError, RuleError
from pegboard.rules.cards import DECK, Card, parse_cards
from pegboard.rules.fast import hand_total_idx
from pegboard.rules.show import score_hand


def brute_crib(
    discard: list[Card], dealt: list[Card], others: int, *, reference: bool
) -> Fraction:
    """Average crib over every set of unseen cards joining it and every remaining starter."""
    unseen = [card for card in DECK if card not in dealt]
    points = cases = 0
    for added in combinations(unseen, others):
        crib = [*discard, *added]
        crib_idx = [card.index for card in crib]
        for starter in unseen:
            if starter in added:
                continue
            if reference:
                points += score_hand(crib, starter, crib=True).total
            else:
                points += hand_total_idx(crib_idx, starter.index, True)
            cases += 1
    return Fraction(points, cases)


def test_the_example_from_the_table() -> None:
    options = advise(parse_cards("5H 5S 6D JC 4C KS"), dealer=True)
    best = options[0].to_json()
    assert best["discard"] == ["JC", "KS"]
    assert [round(float(str(best[key])), 2) for key in ("hand", "crib", "net")] == [
        15.96, 3.95, 19.91,
    ]
    assert len(options) == 15
    assert [o.net for o in options] == sorted((o.net for o in options), reverse=True)
    assert options[0].best == 24 and options[0].worst == 12
    assert {str(c) for c in options[0].best_starters} == {"4D", "4H", "4S", "6C", "6H", "6S"}


def test_pone_subtracts_the_crib() -> None:
    dealt = parse_cards("5H 5S 6D JC 4C KS")
    as_dealer = {o.discard: o for o in advise(dealt, dealer=True)}
    for option in advise(dealt, dealer=False):
        assert option.net == option.hand - option.crib
        assert as_dealer[option.discard].net == option.hand + option.crib
    # Pone does not give the dealer two fives.
    assert advise(dealt, dealer=False)[0].discard != (Card.parse("5H"), Card.parse("5S"))


def test_hand_expectation_by_the_reference_scorer() -> None:
    dealt = parse_cards("5H 5S 6D JC 4C KS")
    unseen = [card for card in DECK if card not in dealt]
    for option in advise(dealt, dealer=True):
        totals = [score_hand(option.keep, starter).total for starter in unseen]
        assert option.hand == Fraction(sum(totals), len(unseen))
        assert option.best == max(totals) and option.worst == min(totals)


def test_crib_by_the_reference_scorer_for_a_suited_jack_discard() -> None:
    # A jack and a card of its suit: the flush and both kinds of nobs are in play.
    dealt = parse_cards("JH 7H 5S 6D 9C KS")
    discard = dealt[:2]
    expected = brute_crib(discard, dealt, 2, reference=True)
    assert crib_expectation(discard, dealt, deal_shape(2)) == expected


def test_every_discard_of_a_six_card_hand_against_enumeration() -> None:
    dealt = parse_cards("2C 3C 8C JD QD 5H")
    options = advise(dealt, dealer=True)
    for option in options:
        assert option.crib == brute_crib(list(option.discard), dealt, 2, reference=False)


def test_five_card_cribbage_against_enumeration() -> None:
    dealt = parse_cards("JS 4S 5D 6C TS")
    options = advise(dealt, dealer=False, five_card=True)
    assert len(options) == 10 and all(len(o.keep) == 3 for o in options)
    unseen = [card for card in DECK if card not in dealt]
    for option in options:
        assert option.crib == brute_crib(list(option.discard), dealt, 2, reference=False)
        hand = Fraction(sum(hand_total_idx([c.index for c in option.keep], s.index)
                            for s in unseen), len(unseen))
        assert option.hand == hand


def test_three_and_four_players_against_enumeration() -> None:
    # Three players: one card from each other player and one from the pack; four players: one
    # from each of the other three. Either way three unseen cards join the discard.
    dealt = parse_cards("JC 5C 7D 8H KS")
    options = advise(dealt, dealer=True, players=3)
    assert len(options) == 5 and all(len(o.discard) == 1 for o in options)
    jack = next(o for o in options if o.discard == (Card.parse("JC"),))
    assert jack.crib == brute_crib([Card.parse("JC")], dealt, 3, reference=False)
    four = {o.discard: o.crib for o in advise(dealt, dealer=True, players=4)}
    assert four == {o.discard: o.crib for o in options}


def test_best_keep_for_a_known_starter() -> None:
    kept = best_keep(parse_cards("5H 5S 6D JC 4C KS"), Card.parse("5D"))
    assert {str(c) for c in kept.keep} == {"5H", "5S", "6D", "4C"}
    assert kept.breakdown.total == 23
    kept = best_keep(parse_cards("5H 5S 5C JD 2C KS"), Card.parse("5D"))
    assert kept.breakdown.total == 29 and {str(c) for c in kept.discard} == {"2C", "KS"}
    three = best_keep(parse_cards("5H 5S 5C JD 2C"), Card.parse("5D"), five_card=True)
    assert {str(c) for c in three.keep} == {"5H", "5S", "5C"}  # 20 beats 5-5-J's 15


@pytest.mark.parametrize(
    ("text", "kwargs", "message"),
    [
        ("5H 5S 6D JC 4C", {}, "a two-player game deals 6 cards to each player, got 5"),
        ("5H 5S 6D JC 4C KS", {"players": 3}, "a three-player game deals 5 cards"),
        ("5H 5S 6D JC 4C KS", {"five_card": True}, "five-card cribbage deals 5 cards"),
        ("5H 5S 6D JC 4C 4C", {}, "4C appears twice"),
    ],
)
def test_wrong_deals_are_rejected(text: str, kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidCardError, match=message):
        advise(parse_cards(text), dealer=True, **kwargs)  # type: ignore[arg-type]


def test_bad_table_sizes() -> None:
    with pytest.raises(RuleError, match="2, 3 or 4 players"):
        deal_shape(5)
    with pytest.raises(RuleError, match="two-player game"):
        deal_shape(3, five_card=True)
    with pytest.raises(InvalidCardError, match="starter 5D is one of the dealt cards"):
        best_keep(parse_cards("5H 5S 6D JC 4C 5D"), Card.parse("5D"))
