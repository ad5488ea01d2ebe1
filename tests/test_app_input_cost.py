"""The input-cost benchmark's user, checked on a few deals: every deal it records through
``step`` scores exactly like the same deal entered with every real card, and the keypad stays
within its budget of actions."""

from __future__ import annotations

import statistics

from bench.bench_input import run


def test_recorded_scores_match_real_cards_and_keypad_is_fast() -> None:
    keypad = run("keypad", 12, seed=11)
    assert keypad.mismatches == 0
    assert statistics.fmean(keypad.totals) <= 20
    encoder = run("encoder", 6, seed=12)
    assert encoder.mismatches == 0
    assert min(encoder.totals) >= 13 + 4  # at least one OK per card and some turning
