"""Pegging hints and "why did that score nothing?"."""

from __future__ import annotations

import pytest

from pegboard.coach.hints import explain_no_score, hint, peg_hint
from pegboard.coach.knowledge import Knowledge, OwnCards
from pegboard.coach.lookahead import card_line, judge
from pegboard.errors import InvalidCardError, RuleError
from pegboard.rules.cards import Card, parse_cards


def cards(text: str) -> list[Card]:
    return parse_cards(text) if text else []


def test_takes_the_fifteen() -> None:
    found = peg_hint(cards("TC"), cards("5H 2D 9S"))
    assert found.card == Card.parse("5H")
    assert found.reason == "Lay 5: fifteen for 2"


def test_takes_thirty_one() -> None:
    found = peg_hint(cards("KC QD 5H"), cards("6S 2D"))
    assert found.card == Card.parse("6S")
    assert found.reason == "Lay 6: thirty-one for 2"


def test_says_go_when_nothing_fits() -> None:
    found = peg_hint(cards("KC QD 9H"), cards("5H 6D"))
    assert found.card is None and found.options == ()
    assert found.reason == "Go: every card you hold would take the count past 31 (it is 29)"


def test_the_hint_is_the_coachs_card_and_line() -> None:
    """The hint is the pegging coach's judgement, card and words: leading a five lets any
    ten-card make fifteen, so the coach leads lower."""
    known = Knowledge.kept([], cards("5H 4D KS 9C"))
    found = hint(known)
    assert found.card == judge(known)[0].card == Card.parse("4D")
    assert found.reason == card_line(known)
    assert found.options == judge(known)
    five = next(a for a in found.options if a.card == Card.parse("5H"))
    assert five.value < found.options[0].value


def test_seen_cards_change_the_judgement() -> None:
    """With every ten-card and the other fives seen, nothing can answer a five lead with
    fifteen or a pair: the five is worth more than when any of them may answer it."""
    from pegboard.rules.cards import DECK

    five = Card.parse("5H")
    seen = [c for c in DECK if c.pips == 10 or (c.rank is five.rank and c != five)]
    without = {a.card: a.value for a in peg_hint([], [five, Card.parse("9C")]).options}
    knowing = {a.card: a.value for a in peg_hint([], [five, Card.parse("9C")], seen).options}
    assert knowing[five] > without[five]


def test_a_hint_needs_the_cards_held() -> None:
    dealt = Knowledge(OwnCards.DEALT, tuple(cards("5H 4D KS 9C 2C 3C")), 4, ())
    with pytest.raises(RuleError, match="needs the cards you hold"):
        hint(dealt)


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
        ("9C 7D", "", "no fifteen: one past it"),
        ("6C 8D", "", "no fifteen: one short of it"),
        ("KC QD 9H", "", "no thirty-one: two short of it"),
        ("KC QD AH 9S", "", "no thirty-one: one short of it"),
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
