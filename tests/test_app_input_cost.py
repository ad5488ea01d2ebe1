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
    forgetful = run("encoder", 24, seed=13, forget=True)  # four hands to put right
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


def test_open_hands_ask_the_starters_suit_only_when_a_count_needs_it() -> None:
    """Both players' six cards entered, the starter by its rank: every count is right (the
    true cards' score), the suit is asked in some deals and not others, never more than
    once a deal, and each answer costs at most two actions on the knob, one key on the
    keypad."""
    for kit, most in (("encoder", 2), ("keypad", 1)):
        result = run(kit, 16, seed=15, open_hands=True)
        assert result.mismatches == 0
        asked = result.parts.get("suit", [])
        assert 0 < len(asked) < len(result.totals)
        assert max(asked) <= most
