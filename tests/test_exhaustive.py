"""Every (four cards, starter) deal — 12,994,800 of them — scored as a hand and as a crib.

The hand table is the published one (S. Lumetta, "Amusing Cribbage Facts"; also the
"Cribbage statistics" encyclopedia article): 1,009,008 zero hands ... 4 perfect 29s, mean
4.769152. For the crib only the zero count (1,022,208) is widely published; the rest of the
crib table is checked here independently: a crib differs from a hand only on one-suit hands
whose starter is another suit, and those are all rescored with the slow reference scorer.
Both tables are also reproduced by brute force through the reference scorer in a soak test.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from math import comb

import pytest

from pegboard.rules.cards import DECK, Suit
from pegboard.rules.fast import hand_total_idx, show_distribution
from pegboard.rules.show import score_hand

PUBLISHED_HAND = {
    0: 1_009_008, 1: 99_792, 2: 2_813_796, 3: 505_008, 4: 2_855_676, 5: 697_508,
    6: 1_800_268, 7: 751_324, 8: 1_137_236, 9: 361_224, 10: 388_740, 11: 51_680,
    12: 317_340, 13: 19_656, 14: 90_100, 15: 9_168, 16: 58_248, 17: 11_196, 18: 2_708,
    20: 8_068, 21: 2_496, 22: 444, 23: 356, 24: 3_680, 28: 76, 29: 4,
}
CRIB = {
    0: 1_022_208, 1: 99_792, 2: 2_839_800, 3: 508_908, 4: 2_868_960, 5: 703_496,
    6: 1_787_176, 7: 755_320, 8: 1_118_336, 9: 358_368, 10: 378_240, 11: 43_880,
    12: 310_956, 13: 16_548, 14: 88_132, 15: 9_072, 16: 57_288, 17: 11_196, 18: 2_264,
    20: 7_828, 21: 2_472, 22: 444, 23: 356, 24: 3_680, 28: 76, 29: 4,
}
DEALS = comb(52, 4) * 48


def mean(table: dict[int, int]) -> float:
    return sum(total * deals for total, deals in table.items()) / sum(table.values())


def test_hand_distribution_matches_the_published_table() -> None:
    table = show_distribution()
    assert sum(table.values()) == DEALS == 12_994_800
    assert table == PUBLISHED_HAND
    assert round(mean(table), 6) == 4.769152


def test_crib_distribution() -> None:
    table = show_distribution(crib=True)
    assert sum(table.values()) == DEALS
    assert table == CRIB
    assert table[0] == 1_022_208
    assert round(mean(table), 6) == 4.734819


def test_crib_table_by_the_reference_scorer() -> None:
    # One-suit hands (hearts, and by symmetry x4) with an off-suit starter lose their flush in
    # the crib; every other deal scores the same as a hand and a crib.
    crib: Counter[int] = Counter(PUBLISHED_HAND)
    hearts = [card for card in DECK if card.suit is Suit.HEARTS]
    off_suit = [card for card in DECK if card.suit is not Suit.HEARTS]
    for hand in combinations(hearts, 4):
        for starter in off_suit:
            crib[score_hand(hand, starter).total] -= 4
            crib[score_hand(hand, starter, crib=True).total] += 4
    assert {total: deals for total, deals in crib.items() if deals} == CRIB


def test_impossible_totals_never_occur() -> None:
    for table in (show_distribution(), show_distribution(crib=True)):
        assert not {19, 25, 26, 27} & set(table)
        assert max(table) == 29


def test_five_card_cribbage_three_card_hands() -> None:
    table = show_distribution(hand_size=3)
    assert sum(table.values()) == comb(52, 3) * 49
    assert max(table) == 20  # three fives and the fourth turned up: fifteen 8, twelve in pairs
    assert table[20] == 4
    # Brute force with the fast scorer (itself checked against the reference), starters of
    # one suit times four.
    brute: Counter[int] = Counter()
    for starter in range(0, 52, 4):
        rest = [card for card in range(52) if card != starter]
        for hand in combinations(rest, 3):
            brute[hand_total_idx(hand, starter)] += 4
    assert dict(brute) == table


@pytest.mark.soak
def test_both_tables_by_brute_force_with_the_reference_scorer() -> None:
    # Every hand with every starter of one suit (x4 by suit symmetry) through the slow
    # itemised scorer: several minutes, so only with `pytest -m soak`.
    hand: Counter[int] = Counter()
    crib: Counter[int] = Counter()
    for starter in (card for card in DECK if card.suit is Suit.CLUBS):
        rest = [card for card in DECK if card != starter]
        for cards in combinations(rest, 4):
            breakdown = score_hand(cards, starter)
            hand[breakdown.total] += 4
            flush_only = any(i.kind == "flush" and i.points == 4 for i in breakdown.items)
            crib[breakdown.total - 4 if flush_only else breakdown.total] += 4
    assert dict(hand) == PUBLISHED_HAND
    assert dict(crib) == CRIB
