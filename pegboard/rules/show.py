"""Scoring a hand or the crib in the show (docs/rules.md, "The show").

Fifteens 2 for each combination of cards totalling 15; pairs 2 for each pair of equal rank;
runs 1 per card for every distinct maximal run of three or more consecutive ranks (so a double
run of three is two runs); a flush of every hand card (4, or 5 with the starter) in a hand, but
in the crib only when the starter matches too; his nobs, 1 for a jack in hand or crib of the
starter's suit. A three-card hand (five-card cribbage) works the same way (flush 3, or 4).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from pegboard.errors import InvalidCardError
from pegboard.rules.cards import Card, Rank, require_distinct
from pegboard.rules.scoring import Breakdown, ScoreItem


def score_hand(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> Breakdown:
    """Score ``hand`` (3 or 4 cards) with ``starter``; ``crib=True`` applies the crib flush rule.

    A crib always has 4 cards, five-card cribbage included (2 from each player): only a hand
    can have 3 (docs/rules.md, "The deal").

    >>> from pegboard.rules.cards import parse_cards, Card
    >>> score_hand(parse_cards("5H 5S 5C JD"), Card.parse("5D")).total
    29
    """
    hand = tuple(hand)
    if crib and len(hand) != 4:
        raise InvalidCardError(
            f"a crib has 4 cards, got {len(hand)}: {' '.join(str(c) for c in hand)!r} "
            "(3-card hands are only for five-card cribbage, and its crib has 4 too)"
        )
    if len(hand) not in (3, 4):
        raise InvalidCardError(
            f"a hand has 4 cards (3 in five-card cribbage), got {len(hand)}: "
            f"{' '.join(str(c) for c in hand)!r}"
        )
    everything = (*hand, starter)
    require_distinct(everything, "the hand and starter")
    items: list[ScoreItem] = []
    items.extend(_fifteens(everything))
    items.extend(_pairs(everything))
    items.extend(_runs(everything))
    items.extend(_flush(hand, starter, crib=crib))
    items.extend(_nobs(hand, starter))
    return Breakdown(tuple(items))


def _fifteens(cards: tuple[Card, ...]) -> list[ScoreItem]:
    found = []
    for size in range(2, len(cards) + 1):
        for combo in combinations(cards, size):
            if sum(card.pips for card in combo) == 15:
                found.append(ScoreItem("fifteen", combo, 2))
    return found


def _pairs(cards: tuple[Card, ...]) -> list[ScoreItem]:
    return [ScoreItem("pair", (a, b), 2) for a, b in combinations(cards, 2) if a.rank == b.rank]


def _runs(cards: tuple[Card, ...]) -> list[ScoreItem]:
    # Every run is maximal: find the longest length at which any run exists, and list each
    # distinct combination of that length (a double run of three is two runs of three).
    ordered = sorted(cards, key=lambda c: (c.rank, c.index))
    for size in range(len(cards), 2, -1):
        runs = [
            ScoreItem("run", combo, size)
            for combo in combinations(ordered, size)
            if all(int(combo[i + 1].rank) - int(combo[i].rank) == 1 for i in range(size - 1))
        ]
        if runs:
            return runs
    return []


def _flush(hand: tuple[Card, ...], starter: Card, *, crib: bool) -> list[ScoreItem]:
    if any(card.suit != hand[0].suit for card in hand):
        return []
    if starter.suit == hand[0].suit:
        return [ScoreItem("flush", (*hand, starter), len(hand) + 1)]
    if crib:
        return []  # a crib flush needs the starter too
    return [ScoreItem("flush", hand, len(hand))]


def _nobs(hand: tuple[Card, ...], starter: Card) -> list[ScoreItem]:
    return [
        ScoreItem("nobs", (card,), 1)
        for card in hand
        if card.rank is Rank.JACK and card.suit == starter.suit
    ]
