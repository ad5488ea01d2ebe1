"""Scoring for the referee, written straight from the rules page.

The play: after each card, the pile since the last reset is looked at from its end.
The show: fifteens, pairs, runs (with multiplicity), flush and his nobs, by brute force.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, pairwise

from .cards import RCard

PAIR_REASONS = {2: ("pair", 2), 3: ("pair royal", 6), 4: ("double pair royal", 12)}


def play_points(pile: Sequence[RCard]) -> list[tuple[str, int]]:
    """Points made by the last card of ``pile`` (the cards laid since the last reset).

    >>> play_points([RCard(7, "H"), RCard(8, "S")])
    [('fifteen', 2)]
    >>> play_points([RCard(3, "H"), RCard(5, "S"), RCard(4, "C")])
    [('run', 3)]
    >>> play_points([RCard(3, "H"), RCard(4, "S"), RCard(4, "C"), RCard(5, "D")])
    []
    """
    items: list[tuple[str, int]] = []
    count = sum(c.pips for c in pile)
    if count == 15:
        items.append(("fifteen", 2))
    if count == 31:
        items.append(("thirty-one", 2))
    same = 1
    while same < len(pile) and pile[-1 - same].rank == pile[-1].rank:
        same += 1
    if same >= 2:
        items.append(PAIR_REASONS[same])
    best = 0
    for k in range(3, len(pile) + 1):
        ranks = [c.rank for c in pile[-k:]]
        if len(set(ranks)) == k and max(ranks) - min(ranks) == k - 1:
            best = k
    if best:
        items.append(("run", best))
    return items


def _is_run(cards: Sequence[RCard]) -> bool:
    ranks = sorted(c.rank for c in cards)
    return all(b - a == 1 for a, b in pairwise(ranks))


def show_points(hand: Sequence[RCard], starter: RCard, *, crib: bool = False) -> int:
    """Total of a hand (3 or 4 cards) or a crib (4 cards) with the starter.

    >>> five = [RCard(5, "H"), RCard(5, "S"), RCard(5, "C"), RCard(11, "D")]
    >>> show_points(five, RCard(5, "D"))
    29
    >>> show_points([RCard(2, "H"), RCard(4, "H"), RCard(6, "H"), RCard(8, "H")],
    ...             RCard(13, "C"), crib=True)
    0
    """
    cards = [*hand, starter]
    points = 0
    for size in range(2, len(cards) + 1):
        for combo in combinations(cards, size):
            if sum(c.pips for c in combo) == 15:
                points += 2
    for a, b in combinations(cards, 2):
        if a.rank == b.rank:
            points += 2
    for size in range(len(cards), 2, -1):
        runs = sum(1 for combo in combinations(cards, size) if _is_run(combo))
        if runs:
            points += size * runs
            break
    suits = {c.suit for c in hand}
    if len(suits) == 1:
        if starter.suit in suits:
            points += len(hand) + 1
        elif not crib:
            points += len(hand)
    if any(c.rank == 11 and c.suit == starter.suit for c in hand):
        points += 1
    return points
