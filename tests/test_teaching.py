"""Teaching mode: which combinations a player missed when claiming their hand."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pegboard.coach.teaching import Shortfall, missed_combinations
from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.scoring import Breakdown, ScoreItem
from pegboard.rules.show import score_hand
from tests.support.strategies import HAND_AND_STARTER


def hand(text: str, starter: str, *, crib: bool = False) -> Breakdown:
    return score_hand(parse_cards(text), Card.parse(starter), crib=crib)


# 7H 8C 8D 9S with a 6D: fifteens 7-8, 7-8, 9-6 (6), pair of eights (2), two runs of four (8).
DOUBLE_RUN = hand("7H 8C 8D 9S", "6D")


def test_example_hand_is_what_the_comment_says() -> None:
    kinds = [(i.kind, i.points) for i in DOUBLE_RUN.items]
    assert sorted(kinds) == sorted([("fifteen", 2)] * 3 + [("pair", 2)] + [("run", 4)] * 2)
    assert DOUBLE_RUN.total == 16


def test_right_claim_and_over_claim() -> None:
    right = missed_combinations(DOUBLE_RUN, 16)
    assert (right.missed_points, right.over_claimed, right.missed, right.exact) == (0, 0, (), True)
    assert right.lines() == ("Claimed 16: right.",)
    over = missed_combinations(DOUBLE_RUN, 18)
    assert (over.missed_points, over.over_claimed) == (0, 2)
    assert over.lines() == ("Claimed 18, worth 16.", "Over by 2.")


def test_missing_two_is_ambiguous_between_a_fifteen_and_the_pair() -> None:
    report = missed_combinations(DOUBLE_RUN, 14)
    assert report.missed_points == 2
    assert not report.exact and report.missed == ()
    assert {e.describe() for e in report.explanations} == {"fifteen (2)", "pair (2)"}


def test_missing_eight_lists_every_explanation_fewest_combinations_first() -> None:
    report = missed_combinations(DOUBLE_RUN, 8)
    described = [e.describe() for e in report.explanations]
    # Every way to make 8 from 3 fifteens (2), 1 pair (2), 2 runs (4):
    #   runs x2 | run + 2 fifteens | run + fifteen + pair | 3 fifteens + pair
    assert described == [
        "run x2 (8)",
        "fifteen x2 (4), run (4)",
        "fifteen (2), pair (2), run (4)",
        "fifteen x3 (6), pair (2)",
    ]
    assert all(e.points == 8 for e in report.explanations)


def test_the_forgotten_flush_is_known_exactly() -> None:
    count = hand("2H 4H 6H 8H", "KS")  # flush 4 only
    assert count.total == 4
    report = missed_combinations(count, 0)
    assert report.exact and [i.kind for i in report.missed] == ["flush"]
    assert report.lines() == ("Claimed 0, worth 4.", "Missed 4:", "flush 4 2H 4H 6H 8H")


def test_one_run_of_a_double_run_forgotten_is_known_by_kind_only() -> None:
    # 2C 3D 3H 4S + KC: fifteens 2-3-K twice (4), pair of threes (2), runs 2-3-4 twice (6).
    count = hand("2C 3D 3H 4S", "KC")
    kinds = sorted((i.kind, i.points) for i in count.items)
    assert kinds == [("fifteen", 2), ("fifteen", 2), ("pair", 2), ("run", 3), ("run", 3)]
    one_run = missed_combinations(count, count.total - 3)
    # Only a run of three makes 3, but which of the two runs cannot be told from a total.
    assert [e.describe() for e in one_run.explanations] == ["run (3)"]
    assert not one_run.exact and one_run.missed == ()
    both = missed_combinations(count, count.total - 6)
    assert [e.describe() for e in both.explanations] == [
        "run x2 (6)", "fifteen x2 (4), pair (2)",
    ]


def test_a_thirteen_hand_missing_nobs_only() -> None:
    count = hand("5H 5C 6S JD", "4D")
    # fifteens: 5H-JD, 5C-JD, 5H-6S-4D, 5C-6S-4D (8); pair of fives (2);
    # runs 4-5-6 twice (6); nobs JD with the 4D (1) = 17
    assert count.total == 17
    report = missed_combinations(count, 16)
    assert report.exact and [(i.kind, i.points) for i in report.missed] == [("nobs", 1)]


def test_itemised_claim_names_missed_items_and_bogus_claims() -> None:
    claim = [
        ScoreItem("fifteen", tuple(parse_cards("7H 8C")), 2),
        ScoreItem("fifteen", (), 2),  # "fifteen four" without saying which
        ScoreItem("run", (), 4),
        ScoreItem("flush", (), 4),  # there is no flush
    ]
    report = missed_combinations(DOUBLE_RUN, claim)
    assert report.exact and report.claimed == 12
    missed = sorted((i.kind, tuple(str(c) for c in i.cards)) for i in report.missed)
    # The card-less fifteen takes the first fifteen left (7H 8D); the run the first run.
    assert missed == [
        ("fifteen", ("9S", "6D")),
        ("pair", ("8C", "8D")),
        ("run", ("6D", "7H", "8D", "9S")),
    ]
    assert report.not_in_hand == (ScoreItem("flush", (), 4),)
    assert report.missed_points == 4


COUNTED = HAND_AND_STARTER.map(lambda five: score_hand(five[:4], five[4]))
"""A hand counted with its starter."""


def test_shortfall_points() -> None:
    assert Shortfall((("fifteen", 3, 2), ("nobs", 1, 1))).points == 7


@settings(max_examples=150, deadline=None)
@given(COUNTED, st.data())
def test_every_explanation_adds_up_and_fits_in_the_breakdown(
    count: Breakdown, data: st.DataObject
) -> None:
    claimed = data.draw(st.integers(0, count.total))
    report = missed_combinations(count, claimed)
    assert report.missed_points == count.total - claimed
    available: dict[tuple[str, int], int] = {}
    for item in count.items:
        available[(item.kind, item.points)] = available.get((item.kind, item.points), 0) + 1
    for explanation in report.explanations:
        assert explanation.points == report.missed_points
        for kind, n, points in explanation.parts:
            assert 1 <= n <= available[(kind, points)]
    sums = {0}
    for item in count.items:
        sums |= {s + item.points for s in sums}
    # An explanation exists exactly when some set of combinations adds up to the difference.
    assert bool(report.explanations) == (report.missed_points in sums and claimed < count.total)
    if report.exact and report.missed_points:
        assert sum(i.points for i in report.missed) == report.missed_points


@settings(max_examples=100, deadline=None)
@given(COUNTED, st.data())
def test_itemised_claim_of_a_subset_misses_exactly_the_rest(
    count: Breakdown, data: st.DataObject
) -> None:
    keep = data.draw(st.lists(st.booleans(), min_size=len(count.items),
                              max_size=len(count.items)))
    claimed = [i for i, k in zip(count.items, keep, strict=True) if k]
    report = missed_combinations(count, claimed)
    assert sorted(map(repr, report.missed)) == sorted(
        repr(i) for i, k in zip(count.items, keep, strict=True) if not k
    )
    assert report.not_in_hand == ()
    assert report.missed_points == sum(i.points for i in report.missed)
