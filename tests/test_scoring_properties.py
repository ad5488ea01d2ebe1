"""Properties of show and play scoring, and agreement of the fast path with the reference."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pegboard.errors import InvalidCardError
from pegboard.rules.cards import DECK, Card
from pegboard.rules.fast import hand_total, hand_total_idx, rank_key, rank_points
from pegboard.rules.pegging import score_play
from pegboard.rules.show import score_hand
from tests.support.strategies import HAND_AND_STARTER, different_cards

three_card_deals = different_cards(4)


@given(HAND_AND_STARTER, st.booleans(), st.randoms(use_true_random=False))
def test_order_of_the_hand_does_not_matter(
    cards: list[Card], crib: bool, rnd: random.Random
) -> None:
    hand, starter = cards[:4], cards[4]
    shuffled = hand[:]
    rnd.shuffle(shuffled)
    assert score_hand(hand, starter, crib=crib).total == score_hand(
        shuffled, starter, crib=crib
    ).total


@given(HAND_AND_STARTER, st.booleans())
def test_totals_are_possible_and_items_sum(cards: list[Card], crib: bool) -> None:
    breakdown = score_hand(cards[:4], cards[4], crib=crib)
    assert 0 <= breakdown.total <= 29
    assert breakdown.total not in (19, 25, 26, 27)
    assert breakdown.total == sum(item.points for item in breakdown.items)
    assert all(item.points > 0 for item in breakdown.items)


@settings(max_examples=300)
@given(HAND_AND_STARTER, st.booleans())
def test_fast_path_agrees_with_the_reference(cards: list[Card], crib: bool) -> None:
    assert hand_total(cards[:4], cards[4], crib) == score_hand(cards[:4], cards[4], crib=crib).total


@given(three_card_deals)
def test_fast_path_agrees_for_three_card_hands(cards: list[Card]) -> None:
    assert hand_total(cards[:3], cards[3]) == score_hand(cards[:3], cards[3]).total
    # Three cards are a five-card hand, never a crib: both scorers refuse them as one.
    with pytest.raises(InvalidCardError, match="a crib has 4 cards"):
        score_hand(cards[:3], cards[3], crib=True)
    with pytest.raises(InvalidCardError, match="a crib has 4 cards"):
        hand_total(cards[:3], cards[3], True)


def test_fast_path_agrees_on_a_large_sample() -> None:
    rnd = random.Random(20261121)
    indices = list(range(52))
    for _ in range(15_000):
        picked = rnd.sample(indices, 5)
        crib = rnd.random() < 0.5
        reference = score_hand([DECK[i] for i in picked[:4]], DECK[picked[4]], crib=crib)
        assert hand_total_idx(picked[:4], picked[4], crib) == reference.total, picked


def test_fast_path_agrees_on_every_flush_and_nobs_shape() -> None:
    # Every one-suit hand of distinct ranks with a jack, against every starter: the suit rules.
    hearts = [c for c in DECK if c.suit.letter == "H"]
    jack = next(c for c in hearts if c.rank.symbol == "J")
    others = [c for c in hearts if c is not jack]
    for a in range(0, 12, 3):
        hand = [jack, others[a], others[(a + 4) % 12], others[(a + 7) % 12]]
        for starter in DECK:
            if starter in hand:
                continue
            for crib in (False, True):
                assert hand_total(hand, starter, crib) == score_hand(
                    hand, starter, crib=crib
                ).total


def test_rank_points_of_known_multisets() -> None:
    assert rank_points(rank_key([5, 5, 5, 5, 11])) == 28
    assert rank_points(rank_key([4, 4, 5, 5, 6])) == 24
    assert rank_points(rank_key([1, 1, 2, 3, 3])) == 4 + 12  # two pairs and a quadruple run
    assert rank_points(rank_key([2, 4, 6, 8, 13])) == 0


piles = st.lists(st.sampled_from(DECK), min_size=1, max_size=13, unique=True).filter(
    lambda cards: sum(c.pips for c in cards) <= 31
)


@given(piles)
def test_play_items_sum_and_no_double_runs(pile: list[Card]) -> None:
    breakdown = score_play(pile)
    assert breakdown.total == sum(item.points for item in breakdown.items)
    runs = [item for item in breakdown.items if item.kind == "run"]
    assert len(runs) <= 1
    for run in runs:
        ranks = sorted(int(c.rank) for c in run.cards)
        assert ranks == list(range(ranks[0], ranks[0] + len(ranks)))  # distinct, consecutive
        assert run.cards == tuple(pile[-len(run.cards):])
    of_a_kind = [item for item in breakdown.items if "pair" in item.kind]
    assert len(of_a_kind) <= 1


def test_fast_path_agrees_with_the_reference_on_every_class_of_hand() -> None:
    """Every (hand, starter) deal falls in one of these classes, so the two agree on all 12,994,800.

    The fast path is ``rank_points`` (fifteens, pairs, runs: ranks only) plus the flush and his
    nobs (suits, and which cards are jacks). So it is enough to check (1) every multiset of five
    ranks against the reference's fifteens, pairs and runs, and (2) every suit pattern of the
    five cards, with every placement of jacks, against the reference's flush and nobs.
    """
    for ranks in itertools.combinations_with_replacement(range(1, 14), 5):
        if max(ranks.count(r) for r in set(ranks)) > 4:
            continue
        used: dict[int, int] = {}
        cards = []
        for rank in ranks:  # distinct suits within a rank: a real set of cards
            cards.append(DECK[(rank - 1) * 4 + used.get(rank, 0)])
            used[rank] = used.get(rank, 0) + 1
        items = score_hand(cards[:4], cards[4]).items
        reference = sum(i.points for i in items if i.kind in ("fifteen", "pair", "run"))
        assert rank_points(rank_key(ranks)) == reference, ranks
    for pattern in itertools.product(range(4), repeat=5):
        for jacks in itertools.product((False, True), repeat=5):
            # Distinct non-jack ranks with no fifteens or runs among them: only suits score.
            plain = iter((1, 3, 7, 9, 13))
            cards = [
                DECK[(11 - 1 if jack else next(plain) - 1) * 4 + suit]
                for suit, jack in zip(pattern, jacks, strict=True)
            ]
            if len(set(cards)) < 5:
                continue  # two jacks of one suit: not a real deal
            for crib in (False, True):
                items = score_hand(cards[:4], cards[4], crib=crib).items
                reference = sum(i.points for i in items if i.kind in ("flush", "nobs"))
                rest = rank_points(rank_key(c.rank for c in cards))
                fast = hand_total_idx([c.index for c in cards[:4]], cards[4].index, crib)
                assert fast - rest == reference, (cards, crib)
