"""Total-only show scoring, fast enough for analysis (advice, statistics, exhaustive checks).

Fifteens, pairs and runs depend only on the *ranks* of the five cards, so their sum is computed
once per multiset of ranks and memoised; only the flush and his nobs look at suits. The
itemised :func:`pegboard.rules.show.score_hand` stays the reference; tests check that both agree.

Cards are also handled by their dense index ``0..51`` (``Card.index``): rank ``index // 4 + 1``
and suit ``index % 4``, so analysis code can avoid building :class:`Card` objects.

A multiset of ranks is identified by a *rank key*: the sum of ``1 << 3 * (rank - 1)`` over its
cards (three bits per rank hold a count of up to seven), which does not depend on card order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations_with_replacement
from math import comb

from pegboard.rules.cards import Card
from pegboard.rules.show import require_show

JACK = 11
RANKS = range(1, 14)
RANK_BIT = (0, *(1 << 3 * (rank - 1) for rank in RANKS))
"""``RANK_BIT[rank]`` is the rank's contribution to a rank key (index 0 unused)."""
CARD_BIT = tuple(RANK_BIT[i // 4 + 1] for i in range(52))
"""``CARD_BIT[index]``: the rank-key contribution of the card with that index."""


def rank_key(ranks: Iterable[int]) -> int:
    """The order-independent key of a multiset of ranks (1..13).

    >>> rank_key([5, 5, 11]) == rank_key([11, 5, 5])
    True
    """
    return sum(RANK_BIT[rank] for rank in ranks)


@cache
def rank_points(key: int) -> int:
    """Fifteens, pairs and runs of a multiset of ranks (no flush, no nobs), memoised.

    Computed from the rank counts directly: fifteens by listing the pip totals of every
    sub-collection of cards (pruned above 15) and counting those equal to 15, pairs as
    C(count, 2) each, and runs as the length of each stretch of three or more consecutive ranks
    times the product of their counts (a double run of three is 2 x 3).

    >>> rank_points(rank_key([5, 5, 5, 5, 11]))
    28
    """
    points = 0
    sums = [0]  # the pip total of every sub-collection of the cards seen so far
    stretch = product = best = 0
    for rank in range(1, 15):
        count = (key >> 3 * (rank - 1)) & 7 if rank < 14 else 0
        if count:
            points += count * (count - 1)  # 2 points for each of C(count, 2) pairs
            pips = rank if rank < 10 else 10
            for _ in range(count):
                sums += [total + pips for total in sums if total + pips <= 15]
            stretch += 1
            product = product * count if stretch > 1 else count
        else:
            if stretch >= 3:
                best += stretch * product  # at most one stretch of 3+ fits in five cards
            stretch = 0
    return points + 2 * sums.count(15) + best


def hand_total_idx(hand: Sequence[int], starter: int, crib: bool = False) -> int:
    """Show total of card indices ``hand`` (3 or 4) and ``starter``; no validation.

    >>> hand_total_idx([16, 17, 18, 42], 19)  # 5♣ 5♦ 5♥ J♥ with the 5♠: 28 (no nob)
    28
    """
    key = CARD_BIT[starter]
    for card in hand:
        key += CARD_BIT[card]
    total = rank_points(key)
    suit = hand[0] & 3
    starter_suit = starter & 3
    if all(card & 3 == suit for card in hand):
        if starter_suit == suit:
            total += len(hand) + 1
        elif not crib:
            total += len(hand)
    for card in hand:
        if card >> 2 == JACK - 1 and card & 3 == starter_suit:
            total += 1
    return total


def hand_total(hand: Sequence[Card], starter: Card, crib: bool = False) -> int:
    """Show total of ``hand`` (3 or 4 cards) with ``starter``: equals ``score_hand(...).total``.

    A crib has 4 cards, always (docs/rules.md, "The deal").

    >>> from pegboard.rules.cards import parse_cards
    >>> hand_total(parse_cards("5H 5S 5C JD"), Card.parse("5D"))
    29
    """
    require_show(hand, starter, crib)
    return hand_total_idx([card.index for card in hand], starter.index, crib)


def show_distribution(*, crib: bool = False, hand_size: int = 4) -> dict[int, int]:
    """How many (hand, starter) deals score each total, counted exactly without enumerating.

    Every deal is grouped by the ranks of its hand and the rank of its starter; within a group
    fifteens, pairs and runs are the same, and the number of deals with a flush or his nobs
    follows from counting suits:

    * ``P = prod C(4, h_r)`` hands have the hand's ranks, each with ``4 - h_s`` starters of
      rank ``s``.
    * A flush needs distinct hand ranks; 4 of those hands are one suit. The starter matches
      their suit in 4 deals when no hand card has rank ``s`` (else never), and differs in 12.
    * His nobs (``s`` not a jack): each of the ``j`` hand jacks has the starter's suit in a
      quarter of the ``4 - h_s`` starter choices on average, ``P * j * (4 - h_s) / 4`` deals;
      in a one-suit hand a jack matches exactly when the starter makes a five-card flush.

    Returns ``{total: deals}`` over all ``C(52, n) * (52 - n)`` deals (zeros omitted).
    """
    if hand_size not in (3, 4):
        raise ValueError(f"hand_size must be 3 or 4, got {hand_size}")
    dist: Counter[int] = Counter()
    for ranks in combinations_with_replacement(RANKS, hand_size):
        counts = Counter(ranks)
        if max(counts.values()) > 4:
            continue
        hands = 1
        for count in counts.values():
            hands *= comb(4, count)
        distinct = len(counts) == hand_size
        jacks = counts.get(JACK, 0)
        hand_key = rank_key(ranks)
        for s in RANKS:
            held = counts.get(s, 0)
            if held == 4:
                continue
            base = rank_points(hand_key + RANK_BIT[s])
            deals = hands * (4 - held)
            nob_possible = jacks > 0 and s != JACK
            nobs = hands * jacks * (4 - held) // 4 if nob_possible else 0
            flush5 = 4 if distinct and held == 0 else 0
            flush_only = 12 if distinct else 0
            if flush5:
                five = hand_size + 1 + (1 if nob_possible else 0)
                dist[base + five] += flush5
                if nob_possible:
                    nobs -= flush5
            if flush_only:
                dist[base if crib else base + hand_size] += flush_only
            dist[base + 1] += nobs
            dist[base] += deals - flush5 - flush_only - nobs
    return {total: deals for total, deals in sorted(dist.items()) if deals}
