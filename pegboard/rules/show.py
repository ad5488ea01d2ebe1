"""Scoring a hand or the crib in the show (docs/rules.md, "The show").

Fifteens 2 for each combination of cards totalling 15; pairs 2 for each pair of equal rank;
runs 1 per card for every distinct maximal run of three or more consecutive ranks (so a double
run of three is two runs); a flush of every hand card (4, or 5 with the starter) in a hand, but
in the crib only when the starter matches too; his nobs, 1 for a jack in hand or crib of the
starter's suit. A three-card hand (five-card cribbage) works the same way (flush 3, or 4).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations, product
from operator import itemgetter

from pegboard.errors import InvalidCardError
from pegboard.rules.cards import Card, Rank, require_distinct
from pegboard.rules.scoring import Breakdown, ScoreItem


def require_show(hand: Sequence[Card], starter: Card, crib: bool) -> None:
    """A hand shown has 4 cards (3 in five-card cribbage), a crib 4, and no card is there
    twice, the starter included; anything else raises InvalidCardError saying which."""
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
    require_distinct((*hand, starter), "the hand and starter")


def score_hand(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> Breakdown:
    """Score ``hand`` (3 or 4 cards) with ``starter``; ``crib=True`` applies the crib flush rule.

    A crib always has 4 cards, five-card cribbage included (2 from each player): only a hand
    can have 3 (docs/rules.md, "The deal").

    >>> from pegboard.rules.cards import parse_cards, Card
    >>> score_hand(parse_cards("5H 5S 5C JD"), Card.parse("5D")).total
    29
    """
    hand = tuple(hand)
    require_show(hand, starter, crib)
    everything = (*hand, starter)
    items: list[ScoreItem] = []
    items.extend(_fifteens(everything))
    items.extend(_pairs(everything))
    items.extend(_runs(everything))
    items.extend(_flush(hand, starter, crib=crib))
    items.extend(_nobs(hand, starter))
    return Breakdown(tuple(items))


def _picks(n: int) -> dict[int, tuple[int, Callable[[tuple[Card, ...]], tuple[Card, ...]]]]:
    """Every combination of two or more of ``n`` positions, by its bit mask (bit ``i`` for
    position ``i``): its place in the order :func:`itertools.combinations` gives them by size
    (the order items are listed), and what takes its cards out of the ``n`` cards."""
    combos = [combo for size in range(2, n + 1) for combo in combinations(range(n), size)]
    return {sum(1 << i for i in combo): (place, itemgetter(*combo))
            for place, combo in enumerate(combos)}


_PICKS = {n: _picks(n) for n in (4, 5)}


def _fifteens(cards: tuple[Card, ...]) -> list[ScoreItem]:
    # Every subset's count, indexed by its bit mask: the subsets without a card, then each
    # of them with it (31 additions for five cards, made by map, not by a loop of ours). The
    # fifteens are then found by the list's own search instead of a test of each subset.
    sums = [0]
    for card in cards:
        sums = [*sums, *map(card.pips.__add__, sums)]
    found = sums.count(15)
    if not found:
        return []
    picks = _PICKS[len(cards)]
    chosen = []
    mask = 0
    for _ in range(found):
        mask = sums.index(15, mask + 1)
        chosen.append(picks[mask])
    chosen.sort()
    return [ScoreItem("fifteen", pick(cards), 2) for _, pick in chosen]


def _pairs(cards: tuple[Card, ...]) -> list[ScoreItem]:
    ranks = [card.index >> 2 for card in cards]
    return [
        ScoreItem("pair", (cards[i], cards[j]), 2)
        for i, j in combinations(range(len(cards)), 2)
        if ranks[i] == ranks[j]
    ]


def _runs(cards: tuple[Card, ...]) -> list[ScoreItem]:
    # Every run is maximal: the longest stretch of consecutive ranks present, three or more,
    # gives one run per way of taking a card of each of its ranks (a double run of three is
    # two runs of three). Five cards can hold only one such stretch.
    groups: dict[int, list[Card]] = {}
    for card in sorted(cards, key=lambda c: c.index):
        groups.setdefault(card.index >> 2, []).append(card)
    best_start, best_length, start, length, previous = 0, 0, 0, 0, -2
    for rank in sorted(groups):
        start, length = (start, length + 1) if rank == previous + 1 else (rank, 1)
        if length > best_length:
            best_start, best_length = start, length
        previous = rank
    if best_length < 3:
        return []
    return [
        ScoreItem("run", combo, best_length)
        for combo in product(*(groups[rank] for rank in range(best_start,
                                                              best_start + best_length)))
    ]


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
