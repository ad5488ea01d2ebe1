"""Renege reports, penalties (to the opponent and back), muggins and claims, and undo."""

from __future__ import annotations

import pytest

from pegboard.errors import RuleError
from pegboard.rules.cards import Card
from pegboard.rules.events import Claim, Deal, Muggins, Penalty, Play, Undo
from pegboard.rules.game import Game
from pegboard.rules.penalties import CATALOGUE, infraction
from pegboard.rules.state import Phase
from tests.support.games import RENEGE_DEAL, parse_script
from tests.support.games import scripted_game as new

C = Card.parse




def test_a_renege_is_found_at_the_show_and_offered_not_applied() -> None:
    game, awards = new(script=RENEGE_DEAL)
    state = game.state
    assert state.phase is Phase.CRIB
    (report,) = state.reneges
    assert (report.player, report.count, report.cards, report.points, report.to) == (
        0, 25, (C("4S"),), 2, 1,
    )
    assert report.rule == "ACC 7.3 (2020)" and not report.resolved
    assert "4♠" in report.sentence
    assert not any(a.reason == "penalty" for a in awards)
    # Applying it (and taking the play back) is pinned in tests/test_game_renege.py.


def test_a_go_with_nothing_that_fits_is_no_renege() -> None:
    game, _ = new(script="deal 0; starter 2C; play 1 KS 0 QS 1 5C; go 0 1; "
                  "play 0 7D 1 8D 0 9D; go 1 0; play 1 TD 0 KC")
    assert game.state.phase is Phase.CRIB
    assert game.state.reneges == ()


def test_penalty_points_back_never_go_below_zero() -> None:
    game, _ = new(script="deal 0; peg 1 6")
    (award,) = game.apply(Penalty(1, "wrong-number-of-cards"))
    assert (award.player, award.points, award.rule) == (1, -6, "ACC 4.4 (2020)")
    assert game.state.scores == (0, 0)


def test_false_claim_of_game_gives_the_over_claim_and_fifteen_back() -> None:
    game, _ = new(script="deal 0; peg 0 50; peg 1 117")
    awards = game.apply(Penalty(1, "false-claim-of-game", 3))
    assert [(a.player, a.points) for a in awards] == [(0, 3), (1, -15)]
    assert game.state.scores == (53, 102)


def test_a_penalty_to_the_opponent_can_win_the_game() -> None:
    game, _ = new(script="deal 0; peg 0 120")
    game.apply(Penalty(1, "moving-peg"))
    assert game.state.winner == 0


def test_a_misdeal_redeals_with_the_same_dealer() -> None:
    game, _ = new(script="deal 0")  # called while dealing (a misdeal once played: refused)
    assert game.apply(Penalty(0, "misdeal")) == ()
    assert game.state.phase is Phase.DEAL and game.state.to_act == 0
    game.apply(Deal())
    assert game.state.dealer == 0 and game.state.deal_no == 1


def test_unknown_infraction_lists_the_catalogue() -> None:
    game, _ = new(script="deal 0")
    with pytest.raises(RuleError, match=r"unknown infraction .cheating.*renege"):
        game.apply(Penalty(0, "cheating"))
    assert infraction("renege").per_card
    assert all(entry.rule.startswith("ACC ") for entry in CATALOGUE)


def test_muggins_takes_what_the_owner_under_claimed() -> None:
    game, awards = new(script="deal 0; starter 2C; play 1 5C 0 TH", muggins=True)
    assert awards == [] and game.state.pending_claims[0].points == 2
    (claimed,) = game.apply(Claim(0, 1))
    assert (claimed.player, claimed.points) == (0, 1)
    assert game.state.pending_muggins is not None
    (taken,) = game.apply(Muggins(1, 5))
    assert (taken.player, taken.reason, taken.points) == (1, "muggins", 1)
    assert game.state.scores == (1, 1)


def test_over_claims_are_corrected() -> None:
    game, _ = new(script="deal 0; starter 2C; play 1 5C 0 TH", muggins=True)
    (award,) = game.apply(Claim(0, 4))
    assert award.points == 2 and game.state.scores == (2, 0)


def test_an_unclaimed_score_is_lost_once_the_next_score_is_pegged() -> None:
    # Ann's fifteen is passed over unclaimed: claimed as nothing, open to Ben's muggins
    # until the next score (Ben's pair, once he claims it) is pegged.
    game, _ = new(script="deal 0; starter 2C; play 1 5C 0 TH 1 TD", muggins=True)
    assert game.state.scores == (0, 0)
    assert game.state.pending_muggins is not None
    game.apply(Claim(1, 2))
    assert game.state.scores == (0, 2)
    with pytest.raises(RuleError, match=r"Ann's two missed \(fifteen\) can no longer be taken: "
                                        r"Ben has claimed since"):
        game.apply(Muggins(1, 2))


def test_muggins_without_a_claim_means_the_owner_claimed_nothing() -> None:
    game, _ = new(script="deal 0; starter 2C; play 1 5C 0 TH", muggins=True)
    game.apply(Muggins(1, 2))
    assert game.state.scores == (0, 2)


def test_muggins_is_not_for_heels_and_not_on_your_own_side() -> None:
    game, awards = new(script="deal 0; starter JC", muggins=True)
    assert [a.reason for a in awards] == ["his heels"]
    with pytest.raises(RuleError, match="no score to claim"):
        game.apply(Claim(0, 2))
    game, _ = new(script="deal 0; starter 2C; play 1 5C 0 TH; claim 0 0", muggins=True)
    with pytest.raises(RuleError, match="own side"):
        game.apply(Muggins(0, 2))


def test_claims_and_muggins_only_when_muggins_is_on() -> None:
    game, _ = new(script="deal 0; starter 2C; play 1 5C 0 TH")
    with pytest.raises(RuleError, match="muggins is on"):
        game.apply(Claim(0, 2))
    with pytest.raises(RuleError, match="muggins is off"):
        game.apply(Muggins(1, 2))


def test_hands_are_claimed_in_show_order_with_muggins() -> None:
    game, _ = new(script="deal 0; starter 5S; show 1 5C 5D JS 4H", muggins=True)
    true = game.state.pending_claims[0].points
    game.apply(Claim(1, true - 2))
    game.apply(Muggins(0, 2))
    assert game.state.scores == (2, true - 2)
    assert game.state.to_act == 0  # the dealer shows next


def test_undo_across_a_deal_boundary_equals_never_having_applied() -> None:
    game, _ = new(script=RENEGE_DEAL)
    before = game.state
    events = game.events
    for event in parse_script("crib 3D 4H 7S QC; deal; starter 9H; play 0 5H"):
        game.apply(event)
    assert game.state.deal_no == 2
    for _ in range(4):
        game.apply(Undo())
    assert game.state == before and game.events == events


def test_undo_walks_back_to_the_start() -> None:
    game, _ = new(script=RENEGE_DEAL)
    first = Game(["Ann", "Ben"]).state
    while game.events:
        game.undo()
    assert game.state == first
    with pytest.raises(RuleError, match="nothing to undo"):
        game.undo()


def test_a_rejected_entry_leaves_everything_as_it_was() -> None:
    game, _ = new(script="deal 0; starter 2C; play 1 5C", muggins=True)
    before, events = game.state, game.events
    for bad in (Play(1, C("6C")), Play(0, C("5C")), Claim(1, 2), Penalty(7, "renege")):
        with pytest.raises(RuleError):
            game.apply(bad)
        assert game.state == before and game.events == events
