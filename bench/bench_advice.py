"""Discard advice speed: exact two-player six-card advice (target 50 ms on 2 cores).

The Raspberry Pi Zero 2 W figure is an *estimate*, not a measurement: the time measured here
multiplied by ``PI_ZERO_2_W_FACTOR``. The factor is the assumed ratio of single-thread pure
Python speed between one core of a current x86-64 desktop/server CPU and the Zero 2 W's
Cortex-A53 at 1 GHz (in-order, small caches): published single-thread results for A53 boards
at 1.0-1.2 GHz sit roughly 8-12 times below current x86 cores, so 12 is used to stay on the
safe side. Advice runs on one core, so core counts do not change it. To replace the estimate
with a measurement, run ``make bench`` on the device.
"""

from __future__ import annotations

import os
import random
import statistics
import time

from pegboard.coach.advice import advise
from pegboard.rules.cards import DECK
from pegboard.rules.fast import rank_points

PI_ZERO_2_W_FACTOR = 12.0


def _median_ms(hands: list[list[int]], **kwargs: object) -> float:
    times = []
    for hand in hands:
        cards = [DECK[i] for i in hand]
        start = time.perf_counter()
        advise(cards, **kwargs)  # type: ignore[arg-type]
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    """Print the median advice time per deal shape and the Pi Zero 2 W estimate."""
    cores = os.cpu_count()
    rnd = random.Random(11)
    six = [rnd.sample(range(52), 6) for _ in range(40)]
    five = [rnd.sample(range(52), 5) for _ in range(40)]

    rank_points.cache_clear()
    start = time.perf_counter()
    advise([DECK[i] for i in six[0]], dealer=True)
    cold = (time.perf_counter() - start) * 1000
    print(f"2-player six-card advice, first call (cold tables): {cold:.1f} ms on {cores} cores")

    median = _median_ms(six, dealer=True)
    print(
        f"2-player six-card advice, median of {len(six)} hands: {median:.2f} ms "
        f"(target <= 50 ms) on {cores} cores"
    )
    print(
        f"  Raspberry Pi Zero 2 W estimate: ~{median * PI_ZERO_2_W_FACTOR:.0f} ms "
        f"(x{PI_ZERO_2_W_FACTOR:g} single-core factor, cold ~{cold * PI_ZERO_2_W_FACTOR:.0f} ms;"
        " an estimate, see bench/bench_advice.py)"
    )
    for label, kwargs in (
        ("3-player", {"dealer": True, "players": 3}),
        ("4-player", {"dealer": False, "players": 4}),
        ("five-card", {"dealer": True, "five_card": True}),
    ):
        print(f"{label} advice, median: {_median_ms(five, **kwargs):.2f} ms on {cores} cores")
