"""The input-cost benchmark's user, checked on a few deals: every deal it records through
``step`` scores exactly like the same deal entered with every real card, the keypad stays
within its budget of actions, and a forgotten flush or nobs is put right at the show with
one press of GO (two when the hand could also be given nobs first)."""

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


def test_forgotten_suit_facts_are_put_right_at_the_show() -> None:
    forgetful = run("encoder", 40, seed=13, forget=True)
    fixed = [n for n in forgetful.fixes if n]
    assert fixed, "some hands of these deals have a flush or nobs"
    assert forgetful.mismatches == 0
    assert max(fixed) <= 2 and statistics.fmean(fixed) < 1.5


def test_a_muggins_deal_claimed_in_full_scores_as_the_real_cards() -> None:
    """Every score claimed in full and nobody calling: the app's board is the true one, and
    a fast turn of the claim dial keeps a claim to a few detents."""
    for kit in ("keypad", "encoder"):
        muggins = run(kit, 8, seed=14, muggins=True)
        assert muggins.mismatches == 0
        plain = run(kit, 8, seed=14)
        assert statistics.fmean(muggins.totals) > statistics.fmean(plain.totals)
