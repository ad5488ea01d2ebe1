"""Scoring speed: the exhaustive distributions, itemised scoring and the total-only fast path."""

from __future__ import annotations

import os
import random
import time

from pegboard.rules.cards import DECK
from pegboard.rules.fast import hand_total_idx, rank_points, show_distribution
from pegboard.rules.show import score_hand


def _rate(calls: int, seconds: float) -> str:
    return f"{calls / seconds:,.0f} calls/s"


def main() -> None:
    """Print the figures (targets: distributions < 2 s on 2 cores)."""
    cores = os.cpu_count()
    rank_points.cache_clear()  # time from a cold cache, as a fresh process would
    start = time.perf_counter()
    hand = show_distribution()
    crib = show_distribution(crib=True)
    elapsed = time.perf_counter() - start
    deals = sum(hand.values())
    print(
        f"exhaustive hand + crib distributions ({deals:,} deals each): {elapsed:.3f} s "
        f"(target < 2 s) on {cores} cores"
    )
    print(f"  hand: 0 -> {hand[0]:,}, 29 -> {hand[29]:,}; crib: 0 -> {crib[0]:,}")

    rnd = random.Random(7)
    sample = [rnd.sample(range(52), 5) for _ in range(20_000)]
    cards = [[DECK[i] for i in picked] for picked in sample]

    start = time.perf_counter()
    for deal in cards[:5_000]:
        score_hand(deal[:4], deal[4])
    elapsed = time.perf_counter() - start
    print(f"itemised score_hand: {_rate(5_000, elapsed)} on {cores} cores")

    start = time.perf_counter()
    for picked in sample:
        hand_total_idx(picked[:4], picked[4])
    elapsed = time.perf_counter() - start
    print(f"fast hand_total_idx: {_rate(len(sample), elapsed)} on {cores} cores")

    # Independent cross-check: the slow reference scorer on a sample agrees with the fast path.
    mismatches = sum(
        score_hand(deal[:4], deal[4], crib=crib_flag).total
        != hand_total_idx(picked[:4], picked[4], crib_flag)
        for deal, picked in zip(cards[:3_000], sample[:3_000], strict=True)
        for crib_flag in (False, True)
    )
    print(f"reference vs fast on 3,000 random deals (hand and crib): {mismatches} mismatches")
