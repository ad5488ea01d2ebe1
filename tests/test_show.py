"""Show scoring: the rule documents' worked examples and the classic hands, item by item."""

from __future__ import annotations

from collections import Counter

import pytest

from pegboard.errors import InvalidCardError
from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.fast import hand_total
from pegboard.rules.show import score_hand


def score(hand: str, starter: str, *, crib: bool = False) -> int:
    return score_hand(parse_cards(hand), Card.parse(starter), crib=crib).total


def kinds(hand: str, starter: str, *, crib: bool = False) -> Counter[str]:
    """Points per kind of item."""
    totals: Counter[str] = Counter()
    for item in score_hand(parse_cards(hand), Card.parse(starter), crib=crib).items:
        totals[item.kind] += item.points
    return totals


# --- worked examples from the rule documents -------------------------------------------------


def test_seven_seven_seven_eight_with_a_nine_is_21() -> None:
    # "7-7-7-8 and the cut card is a 9 ... total score for this hand is 21 points."
    assert kinds("7C 7D 7H 8S", "9C") == Counter(fifteen=6, pair=6, run=9)
    assert score("7C 7D 7H 8S", "9C") == 21


def test_seven_eight_eight_king_with_a_nine_is_12() -> None:
    # "Ex. 7-8-8-K & Start Card is a 9, You Score: Fifteen 2, Fifteen 4, & a Pair is 6,
    #  & a Run is 9 and a Run is 12"
    breakdown = score_hand(parse_cards("7C 8D 8H KS"), Card.parse("9C"))
    assert breakdown.total == 12
    assert [item.kind for item in breakdown.items] == [
        "fifteen", "fifteen", "pair", "run", "run",
    ]


def test_jack_jack_five_five_with_a_five() -> None:
    # The document lists six fifteens (each jack with each five) but misses 5+5+5: seven
    # fifteens (14), a pair of jacks and a pair royal of fives (8) make 22.
    breakdown = score_hand(parse_cards("JH JD 5H 5S"), Card.parse("5C"))
    fifteens = [item for item in breakdown.items if item.kind == "fifteen"]
    assert len(fifteens) == 7
    assert breakdown.total == 22


def test_king_jack_five_five_has_four_fifteens() -> None:
    # "K-J-5-5 has 4 '15's, Total of 8pts (plus Pair pts)"; the ace starter adds nothing.
    assert kinds("KC JD 5H 5S", "AC") == Counter(fifteen=8, pair=2)


def test_four_four_six_nine_with_a_four() -> None:
    # "Pair for 2, Pair for 4, Pair for 6" — plus 6+9 is fifteen 2.
    assert kinds("4C 4D 6H 9S", "4H") == Counter(pair=6, fifteen=2)


def test_two_three_four_seven_with_an_ace_is_a_run_of_four() -> None:
    # "You Have a Run of 4 Cards for 4pts (A-2-3-4)"; A+3+4+7 is also fifteen 2.
    assert kinds("2C 3D 4H 7S", "AH") == Counter(run=4, fifteen=2)


def test_two_two_three_jack_with_the_eight_of_clubs() -> None:
    # The document counts 15-2, 15-4, 15-6 and a pair for 8, but the J♣ matches the 8♣
    # starter: one for his nob makes 9.
    breakdown = score_hand(parse_cards("2C 2D 3C JC"), Card.parse("8C"))
    assert kinds("2C 2D 3C JC", "8C") == Counter(fifteen=6, pair=2, nobs=1)
    assert breakdown.total == 9


def test_four_five_six_seven_with_a_six() -> None:
    # "If you turn up a 6 and you have 4,5,6,7, then you have a double run ... 15-2, 15-4
    #  for your 4,5,6 ... a pair for 2 points": double run of four 8, fifteens 4, pair 2.
    assert kinds("4C 5D 6H 7S", "6C") == Counter(run=8, fifteen=4, pair=2)


# --- classic hands ---------------------------------------------------------------------------


def test_the_perfect_29() -> None:
    breakdown = score_hand(parse_cards("5H 5S 5C JD"), Card.parse("5D"))
    assert breakdown.total == 29
    assert Counter(item.kind for item in breakdown.items) == Counter(
        fifteen=8, pair=6, nobs=1
    )


@pytest.mark.parametrize("ten", ["TD", "JD", "QD", "KD"])
def test_four_fives_and_a_ten_card_is_28(ten: str) -> None:
    assert score("5H 5S 5C 5D", ten) == 28
    assert score(f"5H 5S 5C {ten}", "5D") == (29 if ten == "JD" else 28)


@pytest.mark.parametrize(
    ("hand", "starter"),
    [("AC 7C 7D 7H", "7S"), ("3C 3D 3H 3S", "9C"), ("3C 6D 6H 6S", "6C"),
     ("4C 4D 4H 4S", "7C"), ("4C 4D 5H 5S", "6C"), ("4C 5D 6H 6S", "4H"),
     ("4C 5D 5H 6S", "6C"), ("6C 7D 8H 8S", "7C"), ("7C 7D 8H 8S", "9C")],
)
def test_the_24_hands(hand: str, starter: str) -> None:
    assert score(hand, starter) == 24


def test_four_four_four_five_with_a_six_is_21() -> None:
    assert kinds("4C 4D 4H 5S", "6C") == Counter(fifteen=6, pair=6, run=9)


def test_double_triple_and_quadruple_runs() -> None:
    assert kinds("2C 2D 3H 4S", "KC")["run"] == 6  # double run of three
    assert kinds("2C 2D 3H 4S", "5C")["run"] == 8  # double run of four
    assert kinds("2C 2D 2H 3S", "4C")["run"] == 9  # triple run
    assert kinds("2C 2D 3H 4S", "3C")["run"] == 12  # quadruple run
    assert len([i for i in score_hand(parse_cards("2C 2D 3H 4S"), Card.parse("3C")).items
                if i.kind == "run"]) == 4


def test_flush_rules() -> None:
    assert kinds("2H 4H 6H 8H", "KC") == Counter(flush=4)  # all even: no fifteen
    assert score("2H 4H 6H 8H", "KC", crib=True) == score("2H 4H 6H 8H", "KC") - 4
    assert kinds("2H 4H 6H 8H", "KH", crib=True)["flush"] == 5
    assert kinds("2H 4H 6H 8H", "KH")["flush"] == 5
    assert kinds("2H 4H 6H 8C", "KH")["flush"] == 0  # starter cannot complete a hand flush


def test_nobs_and_a_jack_starter() -> None:
    assert kinds("JH 2C 4D 9S", "KH")["nobs"] == 1
    assert kinds("JH 2C 4D 9S", "KC")["nobs"] == 0
    # A jack turned up is his heels, pegged at the cut: never nobs in the show.
    assert kinds("2H 4C 6D 8S", "JH")["nobs"] == 0


@pytest.mark.parametrize(
    ("hand", "starter"),
    [("2C 4D 6H 8S", "KC"), ("AC 3D 9H JS", "QC"), ("AC 3D 8H JS", "KH")],
)
def test_nineteen_hands_score_nothing(hand: str, starter: str) -> None:
    assert score_hand(parse_cards(hand), Card.parse(starter)).items == ()


# --- five-card cribbage and bad input ----------------------------------------------------------


def test_three_card_hands() -> None:
    assert kinds("5H 5S JD", "5D") == Counter(fifteen=8, pair=6, nobs=1)
    assert kinds("2H 4H 9H", "KC")["flush"] == 3
    assert kinds("2H 4H 9H", "KH")["flush"] == 4
    assert kinds("AH 2H 3H", "KC") == Counter(run=3, flush=3, fifteen=2)  # K+2+3


@pytest.mark.parametrize(("hand", "starter"), [("5H 5H 5C JD", "5D"), ("5H 5S 5C JD", "5H")])
def test_duplicate_cards_are_rejected(hand: str, starter: str) -> None:
    with pytest.raises(InvalidCardError, match="appears twice"):
        score_hand(parse_cards(hand), Card.parse(starter))
    with pytest.raises(InvalidCardError, match="appears twice"):
        hand_total(parse_cards(hand), Card.parse(starter))


@pytest.mark.parametrize("hand", ["5H 5S", "5H 5S 5C JD 2C"])
def test_wrong_hand_sizes_are_rejected(hand: str) -> None:
    with pytest.raises(InvalidCardError, match="a hand has 4 cards"):
        score_hand(parse_cards(hand), Card.parse("9D"))
