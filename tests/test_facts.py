"""The facts the engine reports for every entry, as the players at the table would check them.

Every expected value is worked out by hand from the cards in the script (the comments say how).
"""

from __future__ import annotations

import pytest

from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.events import Penalty, Undo
from pegboard.rules.facts import (
    ClaimClosed,
    ClaimOpened,
    ClaimOutcome,
    Counted,
    FactKind,
    MugginsClosed,
    MugginsOpened,
    PenaltyApplied,
    Report,
    TakenBack,
    Undone,
    Withdrawn,
)
from pegboard.rules.game import Game
from pegboard.rules.state import Owed, Phase, Reason, Skunk
from pegboard.rules.value import replace
from pegboard.rules.variants import Rules
from tests.support.games import parse_script, random_game

C = Card.parse


def play(script: str, players: int = 2, **rules: object) -> tuple[Game, list[Report]]:
    """A game after ``script``, and the report of each entry."""
    game = Game(["Ann", "Ben", "Cat", "Dan"][:players], Rules.from_json(rules, players))
    return game, [game.push(event) for event in parse_script(script)]


def acts(report: Report) -> list[list[tuple[int, Reason, int]]]:
    """Each scoring act as (seat, reason, points) per award."""
    return [[(a.player, a.reason, a.points) for a in act.awards] for act in report.scored]


# Ann (0) deals, starter 9H. Ben KC, Ann QD, Ben JC: a run of 3 at 30. Both go: Ben 1. Ann 2H,
# Ben 5S, Ann 2D, Ben 3S, Ann 3D: 15 (2), a pair of threes (2) and the last card (1), one act.
# The hands are all laid, so they are counted at once: Ben K J 5 3 + 9 is K5 and J5 = 4; Ann
# Q 2 2 3 + 9 is Q23 twice and the pair of twos = 6. Crib 4 4 6 6 + 9: 69 twice and two pairs.
DEAL = """
    deal 0; starter 9H
    play 1 KC 0 QD 1 JC; go 0 1
    play 0 2H 1 5S 0 2D 1 3S 0 3D
    crib 4C 4H 6C 6D
"""


def test_the_last_card_point_is_its_own_reason_in_the_same_act_as_the_card() -> None:
    _, reports = play(DEAL)
    last = reports[-2]
    assert acts(last)[0] == [
        (0, Reason.FIFTEEN, 2), (0, Reason.PAIR, 2), (0, Reason.LAST_CARD, 1),
    ]
    assert last.scored[0].points == 5 and last.scored[0].reasons == (
        Reason.FIFTEEN, Reason.PAIR, Reason.LAST_CARD,
    )
    # The go said by the last player out is an act of its own, for Ben.
    assert acts(reports[6]) == [[(1, Reason.GO, 1)]]


def test_each_hand_counted_at_the_end_of_the_play_is_a_show_step_in_show_order() -> None:
    _, reports = play(DEAL)
    last = reports[-2]
    kinds = [fact.kind for fact in last.facts]
    assert kinds == [
        FactKind.LAID, FactKind.SCORED, FactKind.SHOW_STEP, FactKind.SCORED, FactKind.SHOW_STEP,
        FactKind.SCORED,
    ]
    pone, dealer = last.show_steps
    assert (pone.player, pone.counted, pone.total, pone.laid) == (1, Counted.HAND, 4, True)
    assert [item.kind for item in pone.items] == ["fifteen", "fifteen"]
    assert set(pone.cards) == set(parse_cards("KC JC 5S 3S")) and pone.starter == C("9H")
    assert (dealer.player, dealer.total) == (0, 6)
    assert [item.kind for item in dealer.items] == ["fifteen", "fifteen", "pair"]
    assert acts(last)[1:] == [[(1, Reason.HAND, 4)], [(0, Reason.HAND, 6)]]
    assert (last.next.phase, last.next.to_act) == (Phase.CRIB, 0)
    # The board once each act was pegged: Ben had 3 for the run and 1 for the go, Ann 0.
    # Ann's card: 5 (back peg 0); Ben's hand: 4 + 4 (back 4); Ann's hand: 5 + 6 (back 5).
    assert [(act.scores, act.back_pegs) for act in last.scored] == [
        ((5, 4), (0, 3)), ((5, 8), (0, 4)), ((11, 8), (5, 4)),
    ]


def test_the_crib_is_a_show_step_and_then_the_next_dealer_deals() -> None:
    _, reports = play(DEAL)
    crib = reports[-1]
    (step,) = crib.show_steps
    assert (step.player, step.counted, step.total, step.laid) == (0, Counted.CRIB, 8, False)
    assert acts(crib) == [[(0, Reason.CRIB, 8)]]
    turn = crib.next
    assert (turn.phase, turn.to_act, turn.dealer, turn.next_dealer) == (Phase.DEAL, 1, 0, 1)
    assert turn.scores == (6 + 8 + 5, 3 + 1 + 4)


def test_every_entry_reports_who_acts_next_and_the_count() -> None:
    _, reports = play(DEAL)
    assert [(r.next.phase, r.next.to_act, r.next.count) for r in reports[:5]] == [
        (Phase.STARTER, 0, 0), (Phase.PLAY, 1, 0), (Phase.PLAY, 0, 10), (Phase.PLAY, 1, 20),
        (Phase.PLAY, 0, 30),
    ]


# Muggins. Ann deals, starter QH. Ben AC, Ann 2D, Ben 3H: a run of three (Ben claims 3). Ann
# 8S (14), Ben 9C (23); Ann holds TS KD and says go; Ben's last card 7D makes 7-8-9 at 30 and
# ends the count: the run (3) and the go (1) are owed in one claim of 4.
MUGGINS = """
    deal 0; starter QH
    play 1 AC 0 2D 1 3H; claim 1 3
    play 0 8S 1 9C; go 0; play 1 7D
"""


def test_a_claim_window_lists_every_kind_owed_in_the_entry() -> None:
    game, reports = play(MUGGINS, muggins=True)
    (opened,) = reports[-1].of(ClaimOpened)
    claim = opened.claim
    assert (claim.player, claim.points) == (1, 4)
    assert [(o.reason, o.points) for o in claim.owed] == [(Reason.RUN, 3), (Reason.GO, 1)]
    assert claim.reasons == (Reason.RUN, Reason.GO)
    assert reports[-1].awards == ()  # nothing is pegged before the claim
    assert reports[-1].next.claim == claim == game.state.pending_claims[0]
    assert claim.owed[0] == Owed(Reason.RUN, 3, claim.items)


def test_a_claim_closes_its_window_and_pegs_every_reason() -> None:
    game, _ = play(MUGGINS, muggins=True)
    report = game.push(parse_script("claim 1 4")[0])
    (closed,) = report.of(ClaimClosed)
    assert (closed.outcome, closed.claimed, closed.pegged) == (ClaimOutcome.EXACT, 4, 4)
    assert acts(report) == [[(1, Reason.RUN, 3), (1, Reason.GO, 1)]]
    assert report.next.claim is None


def test_an_under_claim_opens_muggins_and_the_call_closes_it() -> None:
    game, _ = play(MUGGINS + "claim 1 4; play 0 TS 0 KD", muggins=True)
    # Ann's KD is the last card (1); then both hands (nothing in either) wait for claims too.
    under = game.push(parse_script("claim 0 0")[0])
    assert [type(f) for f in under.facts] == [ClaimClosed, MugginsOpened]
    closed, opened = under.facts
    assert isinstance(closed, ClaimClosed) and isinstance(opened, MugginsOpened)
    assert (closed.outcome, closed.claimed, closed.pegged) == (ClaimOutcome.UNDER, 0, 0)
    assert (opened.missed.owner, opened.missed.points) == (0, 1)
    assert opened.missed.reason is Reason.LAST_CARD
    called = game.push(parse_script("muggins 1 1")[0])
    muggins = called.of(MugginsClosed)
    assert [(m.caller, m.taken) for m in muggins] == [(1, 1)]
    assert acts(called) == [[(1, Reason.MUGGINS, 1)]]
    assert called.next.muggins is None and called.next.claim is not None


def test_a_play_score_passed_over_is_open_to_muggins_until_the_next_score() -> None:
    # Ann's fifteen (2) waits for her claim; Ben plays on: it was passed over, claimed as 0.
    game, _ = play("deal 0; starter 2C; play 1 5C 0 TH", muggins=True)
    report = game.push(parse_script("play 1 5D")[0])
    passed, opened = report.facts[:2]
    assert isinstance(passed, ClaimClosed) and isinstance(opened, MugginsOpened)
    assert (passed.claim.player, passed.outcome, passed.pegged) == (0, ClaimOutcome.PASSED, 0)
    assert (opened.missed.owner, opened.missed.points) == (0, 2)
    # Ann's 5H makes a pair (2) for her to claim; claiming it is the next score pegged, which
    # shuts the window on the fifteen.
    game.push(parse_script("play 0 5H")[0])
    claim = game.push(parse_script("claim 0 2")[0])
    shut = claim.of(MugginsClosed)
    assert [(m.missed.points, m.caller, m.taken) for m in shut] == [(2, None, 0)]
    assert "claimed since" in shut[0].why


def test_an_over_claim_is_corrected_to_the_true_score() -> None:
    game, _ = play("deal 0; starter 2C; play 1 5C 0 TH", muggins=True)
    report = game.push(parse_script("claim 0 5")[0])
    (closed,) = report.of(ClaimClosed)
    assert (closed.outcome, closed.claimed, closed.pegged) == (ClaimOutcome.OVER, 5, 2)
    assert report.awards[0].points == 2


def test_a_pegged_out_game_is_shown_at_the_target_with_the_full_total_kept() -> None:
    # Ann at 117 plays the last card: 15 (2), a pair (2) and the last card (1) make 122.
    game, reports = play("""
        deal 0; peg 0 117; peg 1 70; starter 9H
        play 1 KC 0 QD 1 JC; go 0 1
        play 0 2H 1 5S 0 2D 1 3S 0 3D
    """)
    last = reports[-1]
    over = last.game_over
    assert over is not None and last.facts[-1] is over
    assert (over.winner, over.scores, over.shown) == (0, (122, 74), (121, 74))
    # The ACC spread: the winner's 121 minus the loser's 74; a win over a loser at 90 or
    # less is a skunk, 3 game points under ACC rules.
    assert (over.spread, over.skunk, over.game_points) == (47, Skunk.SKUNK, (3, 0))
    assert over.match_winner == 0 and over.game_no == 1  # a single game is a match of one
    assert game.state.scores == (122, 74) and game.state.result is not None
    assert game.state.result.scores == (122, 74)
    assert last.show_steps == ()  # nothing is counted after the target
    assert (last.next.phase, last.next.to_act) == (Phase.GAME_OVER, None)


def test_a_renege_is_offered_then_the_penalty_takes_the_play_back() -> None:
    # Ann says go at 25 holding 4S (see RENEGE_DEAL in tests/support/games.py).
    game, reports = play("""
        deal 0; starter 2C
        play 1 5C 0 TH 1 KD; go 0 1
        play 0 4S 1 QS 0 9C; go 1; play 0 8D
        play 1 JH
    """)
    offers = reports[-1].offers
    assert [(o.infraction, o.player, o.count, o.cards, o.points) for o in offers] == [
        ("renege", 0, 25, (C("4S"),), 2),
    ]
    report = game.push(Penalty(0, "renege"))
    applied, taken = report.facts[:2]
    assert isinstance(applied, PenaltyApplied) and isinstance(taken, TakenBack)
    assert (applied.offender, applied.infraction.id, applied.to, applied.points) == (
        0, "renege", 1, 2,
    )
    assert (applied.back, applied.settles, applied.redeal) == (
        0, replace(offers[0], resolved=True), False,
    )
    assert taken.take_back.points == (7, 11)  # what each side lost
    assert [a[0][1] for a in acts(report)] == [Reason.RENEGE_TAKE_BACK] * 5 + [Reason.PENALTY]
    assert [act.awards[0].cancels for act in report.scored[:5]] == [
        Reason.GO, Reason.THIRTY_ONE, Reason.LAST_CARD, Reason.HAND, Reason.HAND,
    ]
    assert (report.next.phase, report.next.to_act, report.next.count) == (Phase.PLAY, 0, 25)


def test_a_penalty_back_and_a_misdeal_are_reported() -> None:
    game, _ = play("deal 0; peg 0 20")
    back = game.push(Penalty(0, "wrong-number-of-cards"))
    assert back.penalty is not None
    assert (back.penalty.to, back.penalty.points, back.penalty.back) == (None, 0, 10)
    assert acts(back) == [[(0, Reason.PENALTY, -10)]]
    game, _ = play("deal 0")  # a misdeal is called while the hand is dealt
    misdeal = game.push(Penalty(0, "misdeal"))
    assert misdeal.penalty is not None and misdeal.penalty.redeal
    assert (misdeal.next.phase, misdeal.next.to_act) == (Phase.DEAL, 0)


def test_heels_and_undo_are_reported() -> None:
    game, reports = play("deal 0; starter JH")
    assert acts(reports[-1]) == [[(0, Reason.HIS_HEELS, 2)]]
    undone = game.push(Undo())
    assert undone.facts == (Undone(parse_script("starter JH")[0]),)
    assert (undone.next.phase, undone.next.scores) == (Phase.STARTER, (0, 0))


def test_a_withdrawn_offer_is_reported() -> None:
    # Ann goes at 10 holding everything, twice; the first renege's take-back takes the
    # second go back too, so the second report is withdrawn.
    game, reports = play("""
        deal 0; starter 7H
        play 1 TS; go 0; play 1 QS 1 KS; go 1
        play 0 AD 1 9S; go 0; play 0 TC 0 5C 0 2D
    """)
    first, _ = reports[-1].offers
    report = game.push(Penalty(0, "renege"))
    (withdrawn,) = report.of(Withdrawn)
    assert withdrawn.offer.count == 10 and withdrawn.offer.withdrawn
    assert report.penalty is not None and report.penalty.settles is not None
    assert report.penalty.settles.count == first.count and not report.penalty.settles.withdrawn


@pytest.mark.parametrize("seed", range(12))
def test_every_entry_of_a_seeded_game_reports_what_it_pegged(seed: int) -> None:
    rg = random_game(seed, 2 + seed % 3, muggins=seed % 4 == 1, mode="cards")
    game = Game.from_header(rg.header)
    steps = {Counted.HAND: 0, Counted.CRIB: 0}
    for event in rg.events:
        before = game.state
        report = game.push(event)
        after = game.state
        assert report.event is event and report.next.scores == after.scores
        assert (report.next.phase, report.next.to_act) == (after.phase, after.to_act)
        assert after.awards == before.awards + report.awards
        assert [o for o in after.offers if o not in before.offers] == list(report.offers)
        for step in report.show_steps:
            steps[step.counted] += 1
        for act in report.scored:
            assert {a.player for a in act.awards} == {act.player}
        ended = before.winner is None and after.winner is not None
        assert (report.game_over is not None) == ended
    assert game.state.winner == rg.winner
    over = game.report.game_over if game.report is not None else None
    assert over is not None and max(over.shown) == game.rules.target
    deals = game.state.deal_no
    # Every deal but perhaps the last (the game may end during it) counted each hand and crib.
    assert steps[Counted.CRIB] >= deals - 1
    assert steps[Counted.HAND] >= (deals - 1) * len(game.names)
