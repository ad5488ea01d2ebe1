"""The muggins window, from the table's side (RULES.md, "Muggins"; ACC 10).

Points a player under-claims may be taken by an opponent who calls muggins *before the next
score is pegged*: entries that peg nothing (a card that scores nothing, the next hand shown)
leave the window open, and so does the next deal (record version 5: the box still holds the
cards the table gathered); the next claim, or points pegged directly, shut it. A call after
that is refused with the truth: points were missed, and what shut the window.
"""

from __future__ import annotations

import pytest

from pegboard.errors import RuleError
from pegboard.rules.facts import MugginsClosed
from tests.support.rulings_records import claim, entry, event, game_of, header, play

SHOW_DEAL = [
    header(muggins=True), entry("deal", dealer=1), entry("starter", card="5S"),
    entry("show", player=0, cards=["5C", "5D", "JS", "4H"]),  # worth 15
    claim(0, 12),
]
BEN_SHOWS = entry("show", player=1, cards=["2C", "3D", "8H", "KS"])  # worth 6


def test_points_missed_can_be_taken_after_the_next_hand_is_shown() -> None:
    game = game_of([*SHOW_DEAL, BEN_SHOWS])
    assert game.state.scores == (12, 0)
    (taken,) = game.apply(event(entry("muggins", player=1, points=3)))
    assert (taken.player, taken.reason, taken.points) == (1, "muggins", 3)
    game.apply(event(claim(1, 6)))  # Ben's own hand is still his to claim
    assert game.state.scores == (12, 9)


def test_the_next_claim_shuts_the_window_and_the_refusal_says_so() -> None:
    game = game_of([*SHOW_DEAL, BEN_SHOWS, claim(1, 6)])
    with pytest.raises(RuleError) as refused:
        game.apply(event(entry("muggins", player=1, points=3)))
    message = str(refused.value)
    assert "no points were missed" not in message
    assert message == (
        "Ann's three missed (hand) can no longer be taken: Ben has claimed since; muggins is "
        "called before the next score is pegged (ACC 10 (2020))"
    )


def test_a_card_that_scores_nothing_leaves_the_window_open() -> None:
    lines = [header(muggins=True), entry("deal", dealer=0), entry("starter", card="KD"),
             play(1, "5C"), play(0, "TH"), claim(0, 1), play(1, "2D")]
    game = game_of(lines)
    (taken,) = game.apply(event(entry("muggins", player=1, points=1)))
    assert taken.points == 1 and game.state.scores == (1, 1)


def test_a_score_passed_over_unclaimed_is_open_to_muggins() -> None:
    # Ann never claims her fifteen; Ben plays on. She claimed nothing: Ben may take the 2.
    lines = [header(muggins=True), entry("deal", dealer=0), entry("starter", card="KD"),
             play(1, "5C"), play(0, "TH"), play(1, "2D")]
    game = game_of(lines)
    game.apply(event(entry("muggins", player=1, points=2)))
    assert game.state.scores == (0, 2)


def test_points_pegged_directly_shut_the_window() -> None:
    game = game_of([*SHOW_DEAL, entry("peg", player=1, points=2)])
    with pytest.raises(RuleError, match=r"Ann's three missed \(hand\) can no longer be taken: "
                                        r"Ben has pegged two since"):
        game.apply(event(entry("muggins", player=1, points=3)))


CRIB_CLAIMED_SHORT = [
    *SHOW_DEAL, BEN_SHOWS, claim(1, 6),
    entry("crib", cards=["6C", "9D", "QH", "KC"]), claim(1, 4),  # worth 6
    entry("deal"),  # Ann deals the next hand
]


def test_the_next_deal_leaves_the_window_open_until_a_score_is_pegged() -> None:
    # Version 5: the cards are gathered, but nothing has been pegged since Ben's crib.
    game = game_of([*CRIB_CLAIMED_SHORT, entry("starter", card="7H")])
    (taken,) = game.apply(event(entry("muggins", player=0, points=2)))
    assert (taken.player, taken.reason, taken.points) == (0, "muggins", 2)
    assert game.state.scores == (12 + 2, 6 + 4)


def test_heels_in_the_next_deal_shut_the_window() -> None:
    game = game_of([*CRIB_CLAIMED_SHORT, entry("starter", card="JH")])  # Ann's heels, 2
    with pytest.raises(RuleError, match=r"Ben's two missed \(crib\) can no longer be taken: "
                                        r"Ann has pegged two since"):
        game.apply(event(entry("muggins", player=0, points=2)))


def test_a_version_4_record_keeps_the_deal_shutting_the_window() -> None:
    game = game_of([header(4, muggins=True), *CRIB_CLAIMED_SHORT[1:]])
    with pytest.raises(RuleError, match=r"Ben's two missed \(crib\) can no longer be taken: "
                                        r"the next hand was dealt"):
        game.apply(event(entry("muggins", player=0, points=2)))


def test_nothing_missed_is_still_said_so() -> None:
    game = game_of([*SHOW_DEAL[:-1], claim(0, 15)])
    with pytest.raises(RuleError, match="no points were missed"):
        game.apply(event(entry("muggins", player=1, points=3)))


def test_a_version_2_record_keeps_the_window_of_one_entry() -> None:
    old = [header(2, muggins=True), *SHOW_DEAL[1:], BEN_SHOWS]
    game = game_of(old)  # the show shut the window: Ben's call is taken as on his own hand
    with pytest.raises(RuleError, match="Ben cannot call muggins on their own side's score"):
        game.apply(event(entry("muggins", player=1, points=3)))


def test_a_call_on_a_score_not_yet_claimed_while_the_callers_own_miss_is_open() -> None:
    # Ann under-claims her fifteen by 1 (open to Ben); Ben pairs her ten and has not claimed
    # it when Ann calls muggins: Ben claimed nothing, Ann takes his 2, and that score pegged
    # shuts the window on Ann's own missed point.
    lines = [header(muggins=True), entry("deal", dealer=0), entry("starter", card="KD"),
             play(1, "5C"), play(0, "TH"), claim(0, 1), play(1, "TD")]
    game = game_of(lines)
    report = game.push(event(entry("muggins", player=0, points=2)))
    assert game.state.scores == (3, 0)
    closed = [(f.missed.owner, f.missed.points, f.caller, f.taken, f.why)
              for f in report.of(MugginsClosed)]
    assert closed == [(0, 1, None, 0, "Ann has pegged two since"), (1, 2, 0, 2, "")]
    with pytest.raises(RuleError, match=r"Ann's one missed \(fifteen\) can no longer be taken"):
        game.apply(event(entry("muggins", player=1, points=1)))


def test_no_muggins_is_recorded_and_shuts_the_window() -> None:
    """"No muggins" (record version 4) is a muggins line of 0 points: the window shuts as
    the table said, so replaying the record gives the same game and no later call."""
    lines = [*SHOW_DEAL, entry("muggins", player=1, points=0)]
    game = game_of(lines)
    assert game.state.pending_muggins is None and game.state.scores == (12, 0)
    closed = game.reports()[-1].of(MugginsClosed)
    assert [(c.caller, c.why) for c in closed] == [(None, "the table said no muggins")]
    with pytest.raises(RuleError, match="the table said no muggins"):
        game.apply(event(entry("muggins", player=1, points=3)))
    game.apply(event(BEN_SHOWS))  # the show goes on: Ben's hand is shown and claimed
    game.apply(event(claim(1, 6)))
    assert game.state.scores == (12, 6)


def test_no_muggins_needs_points_missed_and_a_version_4_record() -> None:
    with pytest.raises(RuleError, match="no points were missed"):
        game_of([*SHOW_DEAL[:-1], claim(0, 15), entry("muggins", player=1, points=0)])
    with pytest.raises(RuleError, match="1 or more points"):
        game_of([header(version=3, muggins=True), *SHOW_DEAL[1:],
                 entry("muggins", player=1, points=0)])


@pytest.mark.parametrize("penalty", [
    entry("penalty", player=1, infraction="wrong-number-of-cards"),  # 10 back from Ben's 0
    entry("penalty", player=1, infraction="false-claim-of-game"),  # nothing over, 15 back
    entry("penalty", player=1, infraction="looking", points=0),
    entry("penalty", player=0, infraction="over-pegging"),
], ids=["back-from-nothing", "false-claim-at-0", "turned-to-0", "over-pegging"])
def test_a_penalty_that_moves_no_points_leaves_the_window_as_it_was(penalty: str) -> None:
    # Ben is on 0: points back from him move nothing, so nothing was pegged since Ann's miss.
    game = game_of([*SHOW_DEAL, penalty])
    assert game.state.scores == (12, 0)
    assert game.state.pending_muggins is not None
    (taken,) = game.apply(event(entry("muggins", player=1, points=3)))
    assert (taken.player, taken.points) == (1, 3)


def test_a_penalty_that_moves_points_shuts_the_window() -> None:
    game = game_of([*SHOW_DEAL, entry("penalty", player=0, infraction="looking")])
    assert game.state.scores == (12, 2)
    with pytest.raises(RuleError, match=r"Ann's three missed \(hand\) can no longer be taken"):
        game.apply(event(entry("muggins", player=1, points=3)))


def test_a_renege_claim_that_moves_no_points_leaves_the_window_as_it_stood() -> None:
    # Ben claims 1 of his fifteen's 2; at 23 Ben says go, and so does Ann, holding 3♥ (her go
    # point waits for her claim). The renege is claimed for 0 points before anything was
    # pegged since Ben's claim: the play goes back to Ann's go and no peg moves, so Ann may
    # still call muggins on Ben's miss.
    lines = [header(muggins=True), entry("deal", dealer=1), entry("starter", card="AC"),
             play(0, "5C"), play(1, "TD"), claim(1, 1), play(0, "8D"),
             entry("go", player=1), entry("go", player=0)]
    game = game_of(lines)
    assert game.state.pending_muggins is not None
    game.apply(event(entry("penalty", player=0, infraction="renege", points=0,
                           held=["3H", "9C"])))
    assert game.state.take_backs and game.state.scores == (0, 1)
    (taken,) = game.apply(event(entry("muggins", player=0, points=1)))
    assert (taken.player, taken.points) == (0, 1)
