"""Scoring one card in the play: the rule documents' sequences and the run/pair rules."""

from __future__ import annotations

import pytest

from pegboard.errors import InvalidCardError, RuleError
from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.pegging import score_play


def awards(sequence: str) -> list[int]:
    """Points scored by each card of a count laid in order (suits arbitrary but distinct)."""
    cards = parse_cards(sequence)
    return [score_play(cards[: i + 1]).total for i in range(len(cards))]


@pytest.mark.parametrize(
    ("sequence", "expected"),
    [
        # "4-2-3-4-3: first 3 scores 3, second 4 scores 3, second 3 scores nothing"
        ("4C 2C 3C 4D 3D", [0, 0, 3, 3, 0]),
        # "4-2-6-5-3: the 3 scores 5 for a 5-card run, nothing before then"
        ("4C 2C 6C 5C 3C", [0, 0, 0, 0, 5]),
        # "4-2-3-5-6: the 3 scores 3, the 5 scores 4, the 6 scores 5"
        ("4C 2C 3C 5C 6C", [0, 0, 3, 4, 5]),
        # "8-7-7-6: the 7 makes fifteen 2, the second 7 a pair 2, the 6 scores nothing
        #  (not a run because of the intervening 7)"
        ("8C 7C 7D 6C", [0, 2, 2, 0]),
        # "7-5-6 ... the 6 scores 3 ... then a 4 scores 4"
        ("7C 5C 6C 4C", [0, 0, 3, 4]),
        # "7,8,6 score 3 ... next player follows with a 4 and you play a 5, you get 5"
        # (the 8 also makes fifteen 2)
        ("7C 8C 6C 4C 5C", [0, 2, 3, 0, 5]),
        # "If a 5 or 9 is played instead of the 4 you would get 4 points."
        ("7C 8C 6C 5C", [0, 2, 3, 4]),
        ("7C 8C 6C 9C", [0, 2, 3, 4]),
        # Jack "10", then a 3 "13" (from the play example): nothing scores.
        ("JC 3C", [0, 0]),
    ],
)
def test_documented_sequences(sequence: str, expected: list[int]) -> None:
    assert awards(sequence) == expected


def test_fifteen_and_thirty_one() -> None:
    assert [i.kind for i in score_play(parse_cards("7C 8D")).items] == ["fifteen"]
    assert [i.kind for i in score_play(parse_cards("KC QD 6H 5S")).items] == ["thirty-one"]
    assert score_play(parse_cards("KC QD 6H 5S")).total == 2  # never 3 for 31


def test_pairs_royal_and_double_royal() -> None:
    assert awards("7C 7D 7H 7S") == [0, 2, 6, 12]
    assert awards("5C 5D 5H") == [0, 2, 8]  # pair royal and fifteen
    assert awards("4C 4D 2H 4S") == [0, 2, 0, 0]  # the 2 between breaks the pairs


def test_runs_in_any_order_and_the_longest_counts() -> None:
    assert awards("3C 5C 4C") == [0, 0, 3]
    assert awards("AC 2C 3C 4C 5C 6C 7C") == [0, 0, 3, 4, 5 + 2, 6, 7]  # the 5 makes 15
    assert awards("6C 4C 2C 3C 5C AC 7C") == [0, 0, 0, 3 + 2, 5, 6, 7]  # the 3 makes 15


def test_a_repeated_rank_inside_the_window_breaks_the_run() -> None:
    assert awards("5C 6C 5D 7C") == [0, 0, 0, 3]  # only 5-6-7 of the last three... 6-5-7
    assert awards("5C 6C 6D 7C") == [0, 0, 2, 0]  # 6-6-7 is no run, 5-6-6-7 is no run


def test_no_wrap_around() -> None:
    assert awards("QC KC AC") == [0, 0, 0]


def test_pegging_never_scores_a_double_run() -> None:
    # 2-3-4 then another 4: the pile 2-3-4-4 holds two runs of three in the show, none here.
    assert awards("2C 3C 4C 4D") == [0, 0, 3, 2]


def test_a_pile_over_31_is_an_error() -> None:
    with pytest.raises(RuleError, match="may not pass 31"):
        score_play(parse_cards("KC QD JH 2S"))


def test_duplicates_and_empty_pile() -> None:
    with pytest.raises(InvalidCardError, match="appears twice"):
        score_play([Card.parse("5C"), Card.parse("5C")])
    assert score_play([]).items == ()


def test_play_points_are_the_scorers_by_the_ranks_alone() -> None:
    """The look-ahead's memoised points are :func:`score_play`'s total on 2,000 random piles
    (every prefix of each), whatever the suits."""
    import random

    from pegboard.rules.cards import DECK
    from pegboard.rules.pegging import play_points

    rng = random.Random(5)
    checked = scored = 0
    for _ in range(2000):
        pile: list[Card] = []
        for card in rng.sample(DECK, 8):
            if sum(c.pips for c in pile) + card.pips > 31:
                break
            pile.append(card)
            total = score_play(pile).total
            assert play_points(pile) == total, pile
            checked += 1
            scored += total > 0
    assert checked > 8000 and scored > 1000
