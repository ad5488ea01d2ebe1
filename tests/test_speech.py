"""Golden texts: scores said the way players count aloud."""

from __future__ import annotations

import pytest

from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.pegging import score_play
from pegboard.rules.scoring import Breakdown
from pegboard.rules.show import score_hand
from pegboard.rules.speech import say_breakdown, say_play

SHOW = [
    ("5H 5S 5C JD", "5D", False,
     "Fifteen 2 (5♥ J♦), fifteen 4 (5♠ J♦), fifteen 6 (5♣ J♦), fifteen 8 (5♦ J♦), "
     "fifteen 10 (5♣ 5♥ 5♠), fifteen 12 (5♦ 5♥ 5♠), fifteen 14 (5♣ 5♦ 5♥), "
     "fifteen 16 (5♣ 5♦ 5♠), double pair royal is 28, and his nob is 29"),
    ("7H 8C 8D JS", "9S", False,
     "Fifteen 2 (7♥ 8♣), fifteen 4 (7♥ 8♦), a double run is 12, and his nob is 13"),
    ("7H 8C 8D KS", "9S", False, "Fifteen 2 (7♥ 8♣), fifteen 4 (7♥ 8♦), and a double run is 12"),
    ("2C 4D 6H 8S", "KC", False, "Nineteen — no score"),
    ("4C 4D 4H 5S", "6C", False,
     "Fifteen 2 (4♣ 5♠ 6♣), fifteen 4 (4♦ 5♠ 6♣), fifteen 6 (4♥ 5♠ 6♣), and a triple run is 21"),
    ("2C 2D 3H 4S", "3C", False, "A double double run is 16"),
    ("2C 2D 3H 4S", "5C", False, "A double run of four is 10"),
    ("9C 9D JH QS", "KC", False, "A pair is 2, and a run of three is 5"),
    ("9C 9D JH JS", "2C", False, "A pair is 2, and another pair is 4"),
    ("2H 4H 6H 8H", "KH", False, "A flush of 5 is 5"),
    ("2H 4H 6H 8H", "KC", False, "A flush of 4 is 4"),
    ("2H 4H 6H 8H", "KC", True, "Nineteen — no score"),
    ("JH 2C 4D 9S", "KH", False, "Fifteen 2 (2♣ 4♦ 9♠), and his nob is 3"),
    ("AC 3D 8H JS", "KS", False, "His nob is 1"),
]


@pytest.mark.parametrize(("hand", "starter", "crib", "spoken"), SHOW)
def test_show_counts(hand: str, starter: str, crib: bool, spoken: str) -> None:
    breakdown = score_hand(parse_cards(hand), Card.parse(starter), crib=crib)
    assert say_breakdown(breakdown) == spoken
    assert spoken.endswith(f" is {breakdown.total}") or breakdown.total == 0


PLAY = [
    ("7C 8D", 15, "Fifteen for 2"),
    ("KC QD 6H 5S", 31, "Thirty-one for 2"),
    ("7C 9D 9H", 25, "Pair for 2"),
    ("7C 7D 7H", 21, "Pair royal for 6"),
    ("7C 7D 7H 7S", 28, "Double pair royal for 12"),
    ("4S 2H 6D 5C 3S", 20, "Run of 5 for 5"),
    ("9C 7S 8D 6C", 30, "Run of 4 for 4"),
    ("5C 5D 5H", 15, "Fifteen for 2 and pair royal is 8"),
    ("6C 4C 2C 3C", 15, "Fifteen for 2 and a run of 3 is 5"),
    ("JC 3C", 13, "13"),
]


@pytest.mark.parametrize(("pile", "count", "spoken"), PLAY)
def test_play_calls(pile: str, count: int, spoken: str) -> None:
    assert say_play(score_play(parse_cards(pile)), count) == spoken


def test_empty_breakdown_in_play_is_the_count() -> None:
    assert say_play(Breakdown(()), 22) == "22"


@pytest.mark.parametrize(
    ("pile", "count", "closing", "spoken"),
    [
        ("KC 9D 8H", 27, "go", "One for the go"),
        ("KC 9D 8H", 27, "last card", "One for last card"),
        ("KC QD 6H 5S", 31, "go", "Thirty-one for 2"),  # never 3 for 31 and go
        ("KC QD 6H 5S", 31, "last card", "Thirty-one for 2"),
        ("7C 8D", 15, "last card", "Fifteen for 2 and one for last card is 3"),
        ("9C 6D 7H 8S", 30, "go", "Run of 4 for 4 and one for the go is 5"),
    ],
)
def test_closing_points(pile: str, count: int, closing: str, spoken: str) -> None:
    assert say_play(score_play(parse_cards(pile)), count, closing=closing) == spoken


def test_unknown_closing_is_refused() -> None:
    with pytest.raises(ValueError, match="closing must be"):
        say_play(Breakdown(()), 20, closing="heels")
