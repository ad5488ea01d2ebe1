"""A false claim of game in a muggins game, from the table's side (docs/rules.md, "Muggins").

Ann (seat 0) is at 105 when she claims 16 for a hand worth 14: that would have pegged out,
so the engine offers the false claim of game (ACC 8.4). Applying it must not skip Ben's hand
(3 5 10 Q with a 4 turned, worth 7): the crib is refused until Ben has claimed it, and the
game ends 122-99 (the release before record version 3 dropped the hand: 122-92).
"""

from __future__ import annotations

import pytest

from pegboard.errors import RuleError
from tests.support.rulings_records import claim, entry, event, game_of, play
from tests.support.rulings_records import header as game_line


def header(version: int | None = None) -> str:
    return game_line(muggins=True) if version is None else game_line(version, muggins=True)


# Ann at 103 and Ben at 85 before the deal; Ben deals. Every play score is claimed right:
# Ann pegs 2 in the play (105), Ben 5 (90).
DEAL = [
    entry("deal", dealer=0), entry("peg", player=0, points=103),
    entry("peg", player=1, points=85), entry("deal"), entry("starter", card="4D"),
    play(0, "AC"), play(1, "3C"), play(0, "4H"), play(1, "5H"), claim(1, 3),
    play(0, "5S"), claim(0, 2), play(1, "TS"), entry("go", player=0),
    entry("go", player=1), claim(1, 1), play(0, "6D"), play(1, "QD"), claim(1, 1),
]
FALSE_CLAIM = [claim(0, 16), entry("penalty", player=0, infraction="false-claim-of-game")]
CRIB = entry("crib", cards=["7S", "9C", "KH", "JC"])
CRIB_CLAIM = claim(1, 0)
PEG_OUT = [entry("deal"), entry("peg", player=0, points=18)]


def test_the_hands_are_waiting_in_show_order_before_the_claim() -> None:
    state = game_of([header(), *DEAL]).state
    assert state.scores == (105, 90)
    assert [(c.player, c.reason, c.points) for c in state.pending_claims] == [
        (0, "hand", 14), (1, "hand", 7),
    ]


def test_a_false_claim_of_game_leaves_the_dealers_hand_to_be_claimed() -> None:
    game = game_of([header(), *DEAL, *FALSE_CLAIM])
    state = game.state
    assert state.scores == (104, 92)  # 119 - 15 back; 90 + the 2 over-claimed
    assert [(c.player, c.reason) for c in state.pending_claims] == [(1, "hand")]
    before = game.state
    with pytest.raises(RuleError, match=r"count the crib yet: Ben's hand waits for Ben's claim"
                                        r".*ACC 9\.2"):
        game.apply(event(CRIB))
    assert game.state == before
    game.apply(event(claim(1, 7)))
    game.apply(event(CRIB))
    for line in [CRIB_CLAIM, *PEG_OUT]:
        game.apply(event(line))
    result = game.state.result
    assert result is not None and result.scores == (122, 99) and result.winner == 0


def test_a_later_hand_cannot_be_claimed_over_one_still_waiting() -> None:
    game = game_of([header(), *DEAL])
    with pytest.raises(RuleError, match=r"claim for Ben yet: Ann's hand waits for Ann's claim"):
        game.apply(event(claim(1, 7)))
    game.apply(event(claim(0, 0)))  # Ann claims nothing: her 14 are open to muggins
    game.apply(event(entry("muggins", player=1, points=14)))
    assert game.state.scores == (105, 104)


def test_a_version_2_record_keeps_the_scores_it_was_played_to() -> None:
    game = game_of([header(2), *DEAL, *FALSE_CLAIM, CRIB, CRIB_CLAIM, *PEG_OUT])
    result = game.state.result
    assert result is not None and result.scores == (122, 92)


def test_a_false_claim_penalty_pays_only_the_offer_of_this_deal() -> None:
    # The table let Ann's false claim pass; in the next deal a false claim is entered by hand
    # without points: it pays nothing over-claimed (only the 15 back), not the stale 2.
    lines = [header(), *DEAL, claim(0, 16), claim(1, 7), CRIB, CRIB_CLAIM,
             entry("deal"),
             entry("penalty", player=0, infraction="false-claim-of-game")]
    game = game_of(lines)
    assert game.state.scores == (119 - 15, 97)
    old = game_of([header(2), *lines[1:]])
    assert old.state.scores == (119 - 15, 99)  # version 2 paid the skipped offer's 2


def test_a_false_claim_penalty_settles_the_latest_offer_of_the_deal() -> None:
    game = game_of([header(), *DEAL, *FALSE_CLAIM])
    (offer,) = game.state.offers
    assert offer.infraction == "false-claim-of-game" and offer.resolved
    assert offer.points == 2 and offer.to == 1
