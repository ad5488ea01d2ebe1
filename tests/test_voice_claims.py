"""Muggins games by ear: a claim is said as the engine settled it. A claim of the true score
is said as claimed; an over-claim, which the engine corrects to the true score, is said as
corrected, with what was claimed (never "as claimed")."""

from __future__ import annotations

from pegboard.rules.variants import Rules
from tests.support.announcing import added, announcer_after

DEAL = ("deal 0; starter AC; play 1 KD 0 QH 1 9S; go 0; go 1; claim 1 1; "
        "play 0 4D 1 7C 0 3H 1 QS 0 6H; claim 0 1")
"""Ben's hand is KD 9S 7C QS with the A♣ turned: nothing; Ann's QH 4D 3H 6H: fifteen two."""


def heard(script: str) -> list[str]:
    announcer, state, entered = announcer_after(("Ann", "Ben"), script, Rules(muggins=True))
    announcer.heard(state, added(*entered.added[:-1]))
    return [said.text for said in announcer.heard(state, added(entered.added[-1])).said]


def test_an_over_claim_corrected_to_nothing_is_said_as_corrected() -> None:
    assert heard(f"{DEAL}; claim 1 6") == ["Ben: six claimed, corrected to zero"]


def test_an_over_claim_of_a_count_is_said_corrected_with_the_count() -> None:
    assert heard(f"{DEAL}; claim 1 0; claim 0 5") == [
        "Ann: five claimed, corrected to two: fifteen two"]


def test_a_play_point_over_claimed_is_said_corrected() -> None:
    assert heard("deal 0; starter AC; play 1 KD 0 QH 1 9S; go 0; go 1; claim 1 3") == [
        "Ben: three claimed, corrected to one"]


def test_a_right_claim_is_said_as_claimed() -> None:
    assert heard(f"{DEAL}; claim 1 0") == ["Ben: zero, as claimed"]
    assert heard(f"{DEAL}; claim 1 0; claim 0 2") == ["Ann: fifteen two"]
