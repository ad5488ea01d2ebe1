"""A renege claimed in full (ACC 7.3; docs/rules.md, "Renege"): the play goes back to the go,
the cards laid since return to the hands, what was pegged since is retracted, the offender
plays on, and the opponent is paid 2 per card that fitted.

Every expected value here is worked out by hand from the cards in the script.
"""

from __future__ import annotations

import pytest

from pegboard.errors import RuleError
from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.events import Go, Penalty, Play
from pegboard.rules.game import Game
from pegboard.rules.state import Award, Phase, Reason, TakeBack
from tests.support.games import RENEGE_DEAL, parse_script
from tests.support.games import scripted_game as new

C = Card.parse



def awarded(awards: tuple[Award, ...] | list[Award]) -> list[tuple[int, int, str]]:
    return [(a.player, a.points, a.reason) for a in awards]


def play_on(game: Game, script: str) -> list[Award]:
    awards: list[Award] = []
    for event in parse_script(script):
        awards.extend(game.apply(event))
    return awards


def test_the_take_back_is_an_award_reason() -> None:
    assert Reason("renege take-back") is Reason.RENEGE_TAKE_BACK


def test_later_scoring_cards_are_taken_back_and_their_points_retracted() -> None:
    game, _ = new(script=RENEGE_DEAL)
    before = game.state
    assert before.scores == (2 + 2 + 5, 1 + 1 + 9) == (9, 11)
    awards = game.apply(Penalty(0, "renege"))
    # Everything pegged from the go on is cancelled, in the order it was pegged, then Ben is
    # paid for the one card that fitted.
    assert awarded(awards) == [
        (1, -1, "renege take-back"),  # Ben's go
        (0, -2, "renege take-back"),  # Ann's 31
        (1, -1, "renege take-back"),  # Ben's last card
        (1, -9, "renege take-back"),  # Ben's hand
        (0, -5, "renege take-back"),  # Ann's hand
        (1, 2, "penalty"),
    ]
    assert all(a.rule == "ACC 7.3 (2020)" for a in awards)
    assert [a.cancels for a in awards] == ["go", "thirty-one", "last card", "hand", "hand", None]
    assert awards[1].sentence == "Ann: taken back after the renege: Thirty-one for 2"
    assert awards[3].items == before.awards[4].items and awards[3].cards == before.awards[4].cards
    state = game.state
    assert state.awards == (*before.awards, *awards)
    assert state.scores == (2, 2)  # Ann keeps her fifteen, made before the renege
    # Nothing else moved the pegs since the go: both are back where they stood (Ann 2 behind
    # 0, Ben at 0), then Ben's penalty moves him from 0 to 2.
    assert state.back_pegs == (0, 0)
    (taken,) = state.take_backs
    assert taken == TakeBack(
        offender=0, count=25, cards=(tuple(parse_cards("4S 9C 8D")), tuple(parse_cards("QS JH"))),
        points=(7, 11),
    )
    # The play is back at the go: Ann to play at 25 on 5C TH KD, her go withdrawn.
    assert state.phase is Phase.PLAY and state.to_act == 0
    assert (state.count, state.pile, state.said_go) == (25, tuple(parse_cards("5C TH KD")),
                                                        frozenset())
    assert state.played == ((C("TH"),), (C("5C"), C("KD")))
    assert state.cards_left == (3, 2)
    assert state.legal_cards() == (C("4S"),)
    (report,) = state.reneges
    assert report.resolved and not report.withdrawn


def test_after_the_take_back_the_cards_are_laid_again_from_the_known_hands() -> None:
    game, _ = new(script=RENEGE_DEAL + "; penalty 0 renege")
    state = game.state
    for bad, why in (
        (Go(0), "holds 4S, which fits at 25"),
        (Play(0, C("7H")), "not in Ann's hand"),
        (Play(0, C("9C")), "would make 34"),
    ):
        with pytest.raises(RuleError, match=why):
            game.apply(bad)
        assert game.state == state
    with pytest.raises(RuleError, match="QS is in Ben's hand"):
        game.apply(Play(0, C("QS")))
    awards = play_on(game, "play 0 4S; go 1 0")
    # 4S makes 29; Ben and then Ann cannot play: Ann laid the last card and pegs the go.
    assert awarded(awards) == [(0, 1, "go")]
    awards = play_on(game, "play 1 QS 0 9C 1 JH; go 0; play 0 8D")
    # Ben leads: 10 19 29; Ann cannot play and Ben has no cards: Ben pegs the go. Ann's 8D is
    # the last card; then the hands are counted again, with no show entry: Ben 9, Ann 5.
    assert awarded(awards) == [(1, 1, "go"), (0, 1, "last card"), (1, 9, "hand"), (0, 5, "hand")]
    assert game.state.phase is Phase.CRIB
    assert game.state.scores == (2 + 1 + 1 + 5, 2 + 1 + 9) == (9, 12)
    assert game.state.reneges[0].resolved and len(game.state.reneges) == 1


def test_a_one_card_renege_found_in_the_show_of_a_five_card_deal() -> None:
    """Five-card: one count. Ann says go at 29 holding 2D; Ben cannot play and pegs the go;
    the renege shows when Ann shows her hand. Nothing was laid after the go: the take-back is
    Ben's go point and the two hands, and Ann's 2D then makes 31."""
    script = """
        deal 0; starter 8H
        play 1 KH 0 QD 1 9S; go 0 1
        show 1 KH 9S 5C; show 0 QD 2D KC
    """
    game, awards = new(script=script, five_card=True)
    # Ben: three for last 3, go 1, hand KH 9S 5C with 8H: K+5 is 2. Ann's hand scores 0.
    assert awarded(awards) == [(1, 3, "three for last"), (1, 1, "go"), (1, 2, "hand")]
    (report,) = game.state.reneges
    assert (report.count, report.cards, report.points) == (29, (C("2D"),), 2)
    assert game.state.phase is Phase.CRIB
    awards_ = game.apply(Penalty(0, "renege"))
    assert awarded(awards_) == [
        (1, -1, "renege take-back"), (1, -2, "renege take-back"), (1, 2, "penalty"),
    ]
    state = game.state
    assert state.scores == (0, 5) and state.back_pegs == (0, 3)
    assert state.take_backs[-1].cards == ((), ()) and state.take_backs[-1].points == (0, 3)
    assert (state.phase, state.to_act, state.count) == (Phase.PLAY, 0, 29)
    assert state.legal_cards() == (C("2D"),)
    # 31 for Ann ends the only count; both hands are known and counted again without a show.
    assert awarded(game.apply(Play(0, C("2D")))) == [(0, 2, "thirty-one"), (1, 2, "hand")]
    assert game.state.phase is Phase.CRIB and game.state.scores == (2, 7)


def test_a_renege_taken_back_across_a_thirty_one_reset() -> None:
    """Ben 9S, Ann 8D, Ben 7C: 24 and a run of three for Ben (3). Ann goes holding AD. Ben's
    7H makes 31 with a pair (4); Ann leads KH, Ben 5S makes fifteen (2), Ann QC and AD (last
    card, 1). Ben's hand is 2 (the sevens), Ann's nothing. The take-back returns both counts'
    cards, keeps the run made before the go and puts the first count back on the table."""
    script = """
        deal 0; starter 2C
        play 1 9S 0 8D 1 7C; go 0; play 1 7H
        play 0 KH 1 5S 0 QC 0 AD
    """
    game, awards = new(script=script)
    assert awarded(awards) == [
        (1, 3, "run"), (1, 2, "thirty-one"), (1, 2, "pair"), (1, 2, "fifteen"),
        (0, 1, "last card"), (1, 2, "hand"),
    ]
    (report,) = game.state.reneges
    assert (report.count, report.cards) == (24, (C("AD"),))
    retracted = game.apply(Penalty(0, "renege"))
    assert awarded(retracted) == [
        (1, -2, "renege take-back"), (1, -2, "renege take-back"), (1, -2, "renege take-back"),
        (0, -1, "renege take-back"), (1, -2, "renege take-back"), (1, 2, "penalty"),
    ]
    state = game.state
    assert state.scores == (0, 3 + 2)
    assert (state.count, state.pile) == (24, tuple(parse_cards("9S 8D 7C")))
    assert state.take_backs[-1].cards == (tuple(parse_cards("KH QC AD")),
                                          tuple(parse_cards("7H 5S")))
    assert state.take_backs[-1].points == (1, 8)
    # Ann's ace (25); Ben's 5S (30); nobody can go on: Ben pegs 1. Ann leads KH, Ben 7H,
    # Ann QC: the last card.
    awards = play_on(game, "play 0 AD 1 5S; go 0 1; play 0 KH 1 7H 0 QC")
    assert [a for a in awarded(awards) if a[2] != "hand"] == [(1, 1, "go"), (0, 1, "last card")]


# Three players, Ann (0) deals. Ben KH 10, Cat QD 20, Ann 9S 29; Ben goes (nothing fits), Cat
# goes holding AC (a renege), Ann's 2C makes 31. Count 2, Ben leads: JH 10, Cat 3S 13, Ann 5D
# 18, Ben 8C 26, Cat 4S 30; Ann and Ben go, Cat's AC makes 31. Count 3: Ann 6D, Ben 7C: last
# card. The hands: Ann 9S 2C 5D 6D, Ben KH JH 8C 7C, Cat QD AC 3S 4S.
THREE = """
    deal 0; starter KS
    play 1 KH 2 QD 0 9S; go 1 2; play 0 2C
    play 1 JH 2 3S 0 5D 1 8C 2 4S; go 0 1; play 2 AC
    play 0 6D 1 7C
"""


def test_three_players_the_penalty_goes_left_and_every_hand_gives_back() -> None:
    game, awards = new(players=3, script=THREE)
    assert [a for a in awarded(awards) if a[2] != "hand"] == [
        (0, 2, "thirty-one"), (2, 2, "thirty-one"), (1, 1, "last card"),
    ]
    (report,) = game.state.reneges
    assert (report.player, report.count, report.cards, report.to) == (2, 29, (C("AC"),), 0)
    before = game.state.scores
    awards = list(game.apply(Penalty(2, "renege")))
    assert awards[-1].reason == "penalty" and (awards[-1].player, awards[-1].points) == (0, 2)
    state = game.state
    # Nothing was pegged before Cat's go: every point of the deal is taken back.
    assert [sum(a.points for a in awards[:-1] if a.side == s) for s in range(3)] == [
        -before[0], -before[1], -before[2],
    ]
    assert state.scores == (2, 0, 0)
    assert state.take_backs[-1].cards == (
        tuple(parse_cards("2C 5D 6D")), tuple(parse_cards("JH 8C 7C")),
        tuple(parse_cards("3S 4S AC")),
    )
    # Ben's go stands (it was before the renege): Cat plays her ace at 29 (30), Ann cannot
    # play, Ben is out, Cat cannot go on: Cat pegs the go.
    assert (state.to_act, state.said_go) == (2, frozenset({1}))
    awards = play_on(game, "play 2 AC; go 0 2")
    assert awarded(awards) == [(2, 1, "go")]


def test_the_table_may_name_who_receives_the_points() -> None:
    game, _ = new(players=3, script=THREE)
    awards = game.apply(Penalty(2, "renege", to=1))
    assert awarded(awards)[-1] == (1, 2, "penalty")
    assert game.state.phase is Phase.PLAY  # taken back all the same


def test_with_muggins_claimed_points_and_muggins_taken_since_are_retracted() -> None:
    script = """
        deal 0; starter 2C
        play 1 5C 0 TH; claim 0 2
        play 1 KD; go 0 1; claim 1 0; muggins 0 1
        play 0 4S 1 QS 0 9C; go 1; play 0 8D; claim 0 2
        play 1 JH; claim 1 1; claim 1 9; claim 0 5
    """
    game, awards = new(script=script, muggins=True)
    assert awarded(awards) == [
        (0, 2, "fifteen"), (0, 1, "muggins"), (0, 2, "thirty-one"), (1, 1, "last card"),
        (1, 9, "hand"), (0, 5, "hand"),
    ]
    assert game.state.phase is Phase.CRIB and game.state.reneges
    retracted = game.apply(Penalty(0, "renege"))
    assert awarded(retracted) == [
        (0, -1, "renege take-back"),  # the muggins Ann took on Ben's go
        (0, -2, "renege take-back"),
        (1, -1, "renege take-back"),
        (1, -9, "renege take-back"),
        (0, -5, "renege take-back"),
        (1, 2, "penalty"),  # penalties are never claimed: pegged at once
    ]
    assert game.state.scores == (2, 2)
    # The play goes on, and its scores wait for their claims again.
    play_on(game, "play 0 4S; go 1 0")
    assert [(c.player, c.points, c.reason) for c in game.state.pending_claims] == [(0, 1, "go")]


def test_a_later_renege_whose_go_is_taken_back_is_withdrawn() -> None:
    """Ann goes at 10 holding everything, twice (the data case the referee checks too); the
    first claim takes back the second go as well."""
    script = """
        deal 0; starter 7H
        play 1 TS; go 0; play 1 QS 1 KS; go 1
        play 0 AD 1 9S; go 0; play 0 TC 0 5C 0 2D
    """
    game, _ = new(script=script)
    first, second = game.state.reneges
    assert (first.count, second.count) == (10, 10)
    game.apply(Penalty(0, "renege"))
    first, second = game.state.reneges
    assert first.resolved and not first.withdrawn
    assert second.resolved and second.withdrawn
    assert game.state.take_backs[-1].count == 10
    assert game.state.pile == (C("TS"),) and game.state.to_act == 0
    # Nothing left to pay: another renege penalty finds no report and only pays 2.
    awards = game.apply(Penalty(0, "renege"))
    assert awarded(awards) == [(1, 2, "penalty")] and len(game.state.take_backs) == 1


def test_claiming_the_later_renege_first_leaves_the_earlier_one_open() -> None:
    # Ben (pone) goes at 20 holding AS 8C 9C; Ann plays on (24, 27) and goes holding 2H,
    # pegging the go herself. Count 2: Ben AS, Ann 2H, Ben 8C 9C (last card).
    script = """
        deal 0; starter KC
        play 1 TS 0 QH; go 1; play 0 4D 0 3D; go 0
        play 1 AS 0 2H 1 8C 1 9C
    """
    game, _ = new(script=script)
    reports = sorted((r.player, r.count, r.points) for r in game.state.reneges)
    assert reports == [(0, 27, 2), (1, 20, 6)]
    game.apply(Penalty(0, "renege"))
    assert game.state.count == 27 and game.state.to_act == 0
    ben = next(r for r in game.state.reneges if r.player == 1)
    assert not ben.resolved  # Ben's go came first: it still stands
    game.apply(Penalty(1, "renege"))
    assert game.state.count == 20 and game.state.to_act == 1
    assert game.state.pile == tuple(parse_cards("TS QH"))
    assert len(game.state.take_backs) == 2


def test_after_the_crib_the_renege_is_only_paid() -> None:
    game, _ = new(script=RENEGE_DEAL + "; crib 3D 4H 7S QC")
    assert game.state.phase is Phase.DEAL
    before = game.state
    awards = game.apply(Penalty(0, "renege"))
    assert awarded(awards) == [(1, 2, "penalty")]
    assert game.state.take_backs == () and game.state.phase is Phase.DEAL
    assert game.state.scores == (before.scores[0], before.scores[1] + 2)


def test_a_renege_the_engine_did_not_report_is_only_paid() -> None:
    game, _ = new(script="deal 0; starter 2C; peg 1 5")
    awards = game.apply(Penalty(0, "renege", 4))
    assert awarded(awards) == [(1, 4, "penalty")] and game.state.take_backs == ()


def test_a_report_left_from_an_earlier_deal_is_paid_not_taken_back() -> None:
    game, _ = new(script=RENEGE_DEAL + "; crib 3D 4H 7S QC; deal; starter 5H")
    awards = game.apply(Penalty(0, "renege"))
    assert awarded(awards) == [(1, 2, "penalty")]
    assert game.state.reneges[0].resolved and game.state.take_backs == ()


def test_the_penalty_paid_after_the_retractions_can_win_the_game() -> None:
    """Ben on 119: KH 10, Ann TH 20, Ben QS 30; Ann goes holding AS (31 would fit), Ben's go
    makes 120. Count 2: Ann 9C, Ben 8D, Ann AS, Ben 6H, Ann 2S (26, last card). Ben's hand
    (KH QS 8D 6H, starter 4C) is 0, Ann's 4 (T-A-4 and 9-2-4). The take-back brings Ben
    back to 119 and the 2 for the renege then reach 121."""
    script = """
        deal 0; peg 1 119; starter 4C
        play 1 KH 0 TH 1 QS; go 0 1
        play 0 9C 1 8D 0 AS 1 6H 0 2S
    """
    game, _ = new(script=script)
    assert game.state.scores == (5, 120) and game.state.winner is None
    awards = game.apply(Penalty(0, "renege"))
    assert awarded(awards) == [
        (1, -1, "renege take-back"), (0, -1, "renege take-back"),
        (0, -4, "renege take-back"), (1, 2, "penalty"),
    ]
    state = game.state
    assert state.winner == 1 and state.phase is Phase.GAME_OVER
    assert state.result is not None and state.result.scores == (0, 121)
    assert state.result.skunk == "double"


def test_undo_of_the_penalty_puts_everything_back() -> None:
    game, _ = new(script=RENEGE_DEAL)
    state, events = game.state, game.events
    game.apply(Penalty(0, "renege"))
    game.undo()
    assert game.state == state and game.events == events


def test_a_refused_penalty_leaves_the_game_as_it_was() -> None:
    game, _ = new(script=RENEGE_DEAL)
    state = game.state
    for bad in (Penalty(0, "renege", -2), Penalty(0, "renege", to=0), Penalty(5, "renege")):
        with pytest.raises(RuleError):
            game.apply(bad)
        assert game.state == state


def test_back_pegs_move_back_when_something_else_moved_the_side_since() -> None:
    # A peg for Ann between the renege and the claim: her pegs cannot simply be put back.
    game, _ = new(script=RENEGE_DEAL.replace("play 1 JH", "peg 0 3; play 1 JH"))
    assert game.state.scores == (12, 11)
    game.apply(Penalty(0, "renege"))
    state = game.state
    # Ann loses her 31 and hand (7) and keeps the peg: 12 - 7 = 5; her back peg marks 12.
    assert state.scores == (5, 2)
    assert state.back_pegs == (12, 0)
