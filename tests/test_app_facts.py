"""The screens render the engine's facts, from the players' side: what a claim is for, the
play's last point before the show, the show in the engine's order."""

from __future__ import annotations

from pegboard.app.effects import UpdateLeds
from pegboard.app.inputs import KnobTurn
from pegboard.app.view import Screen
from pegboard.rules.state import Reason
from tests.support.app_driver import GO, OK, App, muggins_game, new_game, started


def claim_each_as_labelled(app: App) -> None:
    """Claim every waiting score for exactly the kinds the screen names."""
    while app.view.title.endswith(" claims"):
        label = app.view.lines[0].rsplit(":", 1)[0]
        owed = app.game.pending_claims[0].owed
        named = [part.points for part in owed if str(part.reason) in label.split(", ")]
        shown = int(app.view.lines[0].rsplit(":", 1)[1])
        app.feed(KnobTurn(sum(named) - shown), OK)
        assert app.view.screen is not Screen.CONFIRM  # nobody is asked: nobody calls
        app.read()


def test_the_claim_names_every_kind_owed_so_claiming_it_is_not_mugginsed() -> None:
    app = muggins_game()
    app.pick("5")  # the starter
    for label in ("4", "4", "7", "8"):
        app.pick(label)
        claim_each_as_labelled(app)
    app.pick("8")  # P2's 8 makes 31 and a pair in one act
    claim = app.game.pending_claims[0]
    assert claim.reasons == (Reason.THIRTY_ONE, Reason.PAIR)
    assert app.view.title == "P2 claims"
    assert app.view.lines[0] == "thirty-one, pair: 4"  # the dial at what they are worth
    before = app.game.scores
    claim_each_as_labelled(app)
    assert app.game.scores[1] == before[1] + 4
    assert app.game.pending_muggins is None
    assert [a.reason for a in app.game.awards].count(Reason.MUGGINS) == 0


def test_the_leds_move_the_side_the_engine_says_scored_page_by_page() -> None:
    app = new_game()
    app.pick("5")  # the starter
    for label in ("4", "4", "7", "8", "8", "K", "Q"):
        app.pick(label)
    app.pick("9")  # P1's last card: then P2's hand (4) and P1's hand (2) are counted
    seen = []
    for _ in range(3):
        leds = [e for e in app.effects if isinstance(e, UpdateLeds)][-1]
        seen.append(([side.front for side in leds.sides], leds.last))
        app.feed(OK)
    assert seen == [([3, 6], 0), ([3, 10], 1), ([5, 10], 0)]


def test_a_pegged_out_winner_is_shown_at_the_target() -> None:
    app = started("Enter: cards")  # Start, pegging by points
    app.feed(KnobTurn(118), OK, GO, KnobTurn(40), OK, GO, KnobTurn(7), OK)  # P1 118 + 7 = 125
    assert app.game.scores == (125, 40) and app.view.screen is Screen.GAME_OVER
    assert [side.score for side in app.view.sides] == [121, 40]
    assert app.view.title == "P1 wins"
