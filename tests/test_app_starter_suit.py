"""The starter's suit asked exactly when a count needs it (record version 6).

Ann deals; both players entered their six dealt cards with their suits (the first game is
played open-handed), and the starter was entered by its rank alone, an ace. When the play
ends, Ben's hand (no jack, no flush) is counted at once; Ann's holds the J♥, his nobs if the
ace is a heart, so the box asks the ace's suit before counting it: every suit at most two
actions away on the encoder, one key on the keypad. The answer is an entry, undone like any.
"""

from __future__ import annotations

import pytest

from pegboard.app.inputs import Button, InputEvent, KnobTurn, Press, RankKey
from pegboard.app.machine import initial_state
from pegboard.app.view import View
from pegboard.config import Config, InputConfig
from pegboard.record import parse_line
from pegboard.rules.cards import Rank, Suit
from pegboard.rules.events import StarterSuit
from pegboard.rules.state import Reason
from tests.support.app_driver import OK, App
from tests.support.rulings_records import entry, header, play

PLAYS = ((1, "5C"), (0, "JH"), (1, "5D"), (0, "2H"), (1, "6H"), (0, "3C"), (1, "7S"))
"""The play but Ann's last card, the 9♠."""


def resumed(kit: str = "encoder") -> App:
    record = [header(), entry("deal", dealer=0),
              entry("dealt", player=0, cards=["JH", "2H", "3C", "9S", "KD", "QD"]),
              entry("dealt", player=1, cards=["5C", "5D", "6H", "7S", "8C", "4D"]),
              entry("starter", card="AH", suit_known=False),
              *(play(p, card) for p, card in PLAYS)]
    app = App(initial_state(Config(input=InputConfig(kit=kit)), resume=record))
    app.read()
    app.pick("9")  # Ann's 9♠, the last card of the play
    app.read()  # Ben's hand, counted at once
    return app


def asked(app: App) -> View:
    view = app.view
    assert app.game.asked is not None, view
    assert view.picker is not None and view.picker.prompt in (
        "Starter A: suit?", "A: suit? 1♣ 2♦ 3♥ 4♠")  # the keypad's keys on the wheel's line
    return view


def hand_points(app: App) -> int:
    (hand,) = [a for a in app.game.awards if a.reason is Reason.HAND and a.player == 0]
    return hand.points


def test_the_count_waits_for_the_suit_and_says_why() -> None:
    app = resumed()
    view = asked(app)
    assert view.title == "Ann's hand"
    assert "needs the starter's suit" in " ".join(view.lines)
    assert view.picker is not None and view.picker.options == ("A♣", "A♦", "A♥", "A♠")
    assert not [a for a in app.game.awards if a.reason is Reason.HAND and a.player == 0]


@pytest.mark.parametrize(("keys", "suit"), [
    ((OK,), Suit.CLUBS), ((KnobTurn(1), OK), Suit.DIAMONDS), ((Press(Button.GO), OK), Suit.HEARTS),
    ((KnobTurn(-1), OK), Suit.SPADES),
])
def test_every_suit_is_two_actions_at_most_on_the_encoder(keys: tuple[InputEvent, ...],
                                                          suit: Suit) -> None:
    app = resumed()
    asked(app)
    app.feed(*keys)
    assert parse_line(app.record[-1], 9) == StarterSuit(suit)
    assert app.game.asked is None
    assert app.game.turned is not None and app.game.turned.suit is suit
    # 2 fifteens, a run of three; his nobs only with the ace of hearts.
    assert hand_points(app.read()) == (8 if suit is Suit.HEARTS else 7)


def test_one_key_on_the_keypad_and_undo_asks_again() -> None:
    app = resumed("keypad")
    view = asked(app)
    assert "keys 1♣ 2♦ 3♥ 4♠" in view.lines
    app.feed(RankKey(Rank.THREE))
    assert parse_line(app.record[-1], 9) == StarterSuit(Suit.HEARTS)
    assert hand_points(app.read()) == 8
    app.feed(Press(Button.UNDO))
    assert app.record[-1] == '{"type": "undo"}'
    assert app.state.award == "Undone: the starter's suit"
    asked(app)  # asked again, and the count is not made
    assert not [a for a in app.game.awards if a.reason is Reason.HAND and a.player == 0]
