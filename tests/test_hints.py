"""Pegging hints and "why did that score nothing?"."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pegboard.coach.hints import explain_no_score, peg_hint, play_options
from pegboard.errors import InvalidCardError, RuleError
from pegboard.rules import Card, parse_cards


def cards(text: str) -> list[Card]:
    return parse_cards(text) if text else []


def test_takes_the_fifteen() -> None:
    hint = peg_hint(cards("TC"), cards("5H 2D 9S"))
    assert hint.card == Card.parse("5H")
    assert hint.reason.startswith("5♥ makes fifteen for 2")


def test_takes_thirty_one_and_nothing_can_answer_it() -> None:
    hint = peg_hint(cards("KC QD 5H"), cards("6S 2D"))
    assert hint.card == Card.parse("6S")
    assert hint.reason == "6♠ makes thirty-one for 2"
    assert hint.options[0].reply == 0


def test_says_go_when_nothing_fits() -> None:
    hint = peg_hint(cards("KC QD 9H"), cards("5H 6D"))
    assert hint.card is None
    assert hint.reason == "Go: every card you hold would take the count past 31 (it is 29)"


def test_does_not_lead_a_five() -> None:
    hint = peg_hint([], cards("5H 4D KS 9C"))
    assert hint.card == Card.parse("4D")
    lead_five = next(o for o in hint.options if o.card == Card.parse("5H"))
    # Fifteen unseen ten-cards (the K♠ is ours) make fifteen, three fives pair it.
    assert lead_five.reply == Fraction(15 * 2 + 3 * 2, 48)
    four = hint.options[0]
    assert four.reply == Fraction(3 * 2, 48) and four.dangers == (Card.parse("4C").rank,)
    assert hint.reason == (
        "4♦ leads to 4: the next player scores only with a four, the least risk of your 4 plays"
    )


def test_avoids_leaving_21_and_a_pair_setup() -> None:
    # Count 11: the ten makes 21 (any ten-card then makes 31 or pairs it); the 3 makes 14
    # (an ace makes fifteen, a three pairs it, a four completes 3-4-5-6): fewer answers.
    options = play_options(cards("6C 5D"), cards("TS 3H"))
    by_card = {o.card: o for o in options}
    ten, three = by_card[Card.parse("TS")], by_card[Card.parse("3H")]
    assert ten.count == 21 and three.count == 14
    assert options[0].card == Card.parse("3H") and three.reply < ten.reply


def test_seen_cards_lower_the_risk() -> None:
    fives = cards("5C 5D 5S")
    without = play_options([], cards("KS 5H"))
    knowing = play_options([], cards("KS 5H"), seen=fives)
    king = next(o for o in knowing if o.card == Card.parse("KS"))
    assert Card.parse("5C").rank not in king.dangers
    assert king.reply < next(o for o in without if o.card == Card.parse("KS")).reply


def test_bad_input() -> None:
    with pytest.raises(InvalidCardError, match="appears twice"):
        peg_hint(cards("5H"), cards("5H 6D"))
    with pytest.raises(RuleError, match="may not pass 31"):
        peg_hint(cards("KC QD JH 5S"), cards("AH"))


@pytest.mark.parametrize(
    ("pile", "previous", "expected"),
    [
        ("5C 6D 9H 7S", "", "no run: the 9 breaks the run 5, 6 and 7"),
        ("5C 6D 6H 7S", "", "no run: the 6 (a repeated rank) breaks the run 5, 6 and 7"),
        ("8C 7D 7H 6C", "", "no run: the 7 (a repeated rank) breaks the run 8, 7 and 6"),
        ("5C 7D 8H", "", "no run: 5, 7 and 8 need a six to be a run"),
        ("QC KD AH", "", "no run: the ace is low, so queen, king, ace is not a run"),
        ("JC QD", "",
         "no pair: a jack and a queen both count 10, but a pair must be the same rank"),
        ("9C 4D 9H", "", "no pair: a pair must match the card just before it, and that was a four"),
        ("9C 7D", "", "no fifteen: the count is 16"),
        ("6C 8D", "", "no fifteen: the count is 14"),
        ("KC QD 9H", "", "no thirty-one: the count is 29"),
        ("5C", "KC QD AH 5D", "no pair: the count was reset after a go, so the five before it"
         " no longer counts"),
        ("7H", "KC 9D 5C 6D", "no run: the count was reset after a go; runs never reach across"
         " a reset"),
        ("2H", "KC QD 8H AC 2S", "no pair: the count was reset after 31, so the two before it"
         " no longer counts"),
    ],
)
def test_explain_no_score(pile: str, previous: str, expected: str) -> None:
    assert explain_no_score(cards(pile), cards(previous)) == expected


@pytest.mark.parametrize("pile", ["7C 8D", "4C 2D 3H", "9C 9D", "2C 3D", "KC", "AC 9D"])
def test_nothing_to_explain(pile: str) -> None:
    # The card scored (7-8 fifteen, 4-2-3 run, pair), or nothing was near.
    assert explain_no_score(cards(pile)) is None
