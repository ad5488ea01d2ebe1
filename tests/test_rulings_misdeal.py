"""A misdeal is called while the cards are dealt, never once the deal has been played (ACC
4.3; docs/rules.md, "Penalties").

A misdeal or a card exposed in dealing has the same dealer deal again, with no points for
anyone. Once the starter is turned, a card laid or a score of the deal pegged, the deal stands:
a misdeal then would deal again while keeping what the deal had pegged, so it is refused and
the game is left exactly as it was (a hand found with the wrong number of cards is ACC 4.4's
penalty). Records written before version 6 keep the misdeal their release accepted.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pegboard.errors import RuleError
from pegboard.rules.state import Phase
from tests.support.rulings_records import entry, event, game_of, go, header, play

MISDEAL = entry("penalty", player=1, infraction="misdeal")
DEALT = [header(), entry("deal", dealer=1)]  # Ben deals, Ann leads
PLAYED = [*DEALT, entry("starter", card="KS"), play(0, "5C"), play(1, "TD")]  # Ben: 15 for 2


def _refused(lines: list[str], why: str) -> None:
    game = game_of(lines)
    before, entries = game.state, game.events
    with pytest.raises(RuleError, match=why) as refused:
        game.apply(event(MISDEAL))
    assert "ACC 4.3" in str(refused.value) and "wrong number of cards" in str(refused.value)
    assert game.state == before and game.events == entries


def test_a_misdeal_after_cards_were_laid_is_refused_and_the_deal_keeps_its_points() -> None:
    _refused(PLAYED, r"cannot deal this hand again: the play has begun")
    assert game_of(PLAYED).state.scores == (0, 2)


def test_a_misdeal_once_the_hands_are_counted_is_refused() -> None:
    lines = [*PLAYED, play(0, "6H"), play(1, "4D"), play(0, "AH"), go(1), go(0),
             play(1, "2S"), play(0, "9C"), play(1, "7S")]
    assert game_of(lines).state.phase is Phase.CRIB  # both hands counted
    _refused(lines, r"the play has begun")


def test_a_misdeal_after_the_starter_is_refused() -> None:
    _refused([*DEALT, entry("starter", card="JS")], r"the starter is turned")


def test_a_misdeal_after_the_deal_was_pegged_by_points_is_refused() -> None:
    _refused([*DEALT, entry("peg", player=0, points=9)], r"Ann has pegged 9 in this deal")


def test_a_misdeal_while_dealing_deals_again_and_keeps_a_penalty_for_the_exposed_card() -> None:
    # Ben turns up one of Ann's cards as he deals (ACC 4.3): Ann takes 2, Ben deals again.
    game = game_of([*DEALT, entry("penalty", player=1, infraction="looking"), MISDEAL])
    state = game.state
    assert (state.phase, state.to_act, state.deal_no, state.scores) == (
        Phase.DEAL, 1, 0, (2, 0))
    game.apply(event(entry("deal")))
    assert game.state.dealer == 1 and game.state.deal_no == 1


def test_a_misdeal_before_any_hand_is_dealt_is_refused() -> None:
    game = game_of([header(), entry("deal", dealer=1), entry("peg", player=0, points=5),
                    entry("peg", player=1, points=3), entry("deal")])
    game.apply(event(MISDEAL))  # Ann's deal just made: dealt again by Ann
    assert game.state.to_act == 0 and game.state.deal_no == 1
    with pytest.raises(RuleError, match=r"no hand is being dealt: Ann deals the next hand"):
        game.apply(event(MISDEAL))


def test_an_earlier_record_keeps_the_misdeal_its_release_accepted() -> None:
    game = game_of([header(version=5), *PLAYED[1:], MISDEAL])
    assert game.state.phase is Phase.DEAL and game.state.scores == (0, 2)


def test_the_rules_page_says_which_ruling_the_engine_makes() -> None:
    """docs/rules.md says a misdeal after cards are laid is refused (not dealt again with the
    deal's points retracted), as the tests above hold the engine to."""
    page = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
    text = " ".join(page.read_text(encoding="utf-8").split())
    assert ("A misdeal is called while the cards are being dealt: after the deal is entered "
            "and before the starter is turned") in text
    assert ("Once the starter is turned, a card is laid or the deal is pegged by points, the "
            "device refuses the misdeal: the deal has been played and stands.") in text
    assert "Records written before version 6 keep the misdeal" in text
