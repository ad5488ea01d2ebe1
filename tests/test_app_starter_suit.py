"""The starter's suit asked exactly when a count needs it (record version 6).

Ann deals; both players entered their six dealt cards with their suits (the first game is
played open-handed), and the starter was entered by its rank alone, an ace. When the play
ends, Ben's hand (no jack, no flush) is counted at once; Ann's holds the J♥, his nobs if the
ace is a heart, so the box asks the ace's suit before counting it: every suit at most two
actions away on the encoder, one key on the keypad. The answer is an entry, undone like any.
"""

from __future__ import annotations

import pytest
from PIL import Image

from pegboard.app.inputs import Button, InputEvent, KnobTurn, Press, RankKey
from pegboard.app.machine import initial_state
from pegboard.app.table import suit_prompt
from pegboard.app.view import View
from pegboard.config import Config, InputConfig
from pegboard.record import parse_line
from pegboard.rules.cards import Rank, Suit
from pegboard.rules.events import StarterSuit
from pegboard.rules.state import Reason, SuitQuestion
from pegboard.sim.terminal import wheel_line
from pegboard.ui.marks import BOTTOM_Y, WIDTH
from pegboard.ui.render import COLUMNS, _table_rows, render
from pegboard.ui.text import CHAR_W, LINE_H, draw_text
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
    assert view.picker is not None and view.picker.prompt == "A: suit for nobs?"
    return view


def hand_points(app: App) -> int:
    (hand,) = [a for a in app.game.awards if a.reason is Reason.HAND and a.player == 0]
    return hand.points


def test_the_count_waits_for_the_suit_and_says_why() -> None:
    app = resumed()
    view = asked(app)
    assert view.title == "Ann's hand"
    assert app.game.asked is not None and app.game.asked.makes == ("nobs",)
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
    assert view.picker is not None and view.picker.key_legend == "press 1♣ 2♦ 3♥ 4♠"
    app.feed(RankKey(Rank.THREE))
    assert parse_line(app.record[-1], 9) == StarterSuit(Suit.HEARTS)
    assert hand_points(app.read()) == 8
    app.feed(Press(Button.UNDO))
    assert app.record[-1] == '{"type": "undo"}'
    assert app.state.award == "Undone: the starter's suit"
    asked(app)  # asked again, and the count is not made
    assert not [a for a in app.game.awards if a.reason is Reason.HAND and a.player == 0]


@pytest.mark.parametrize("kit", ["encoder", "keypad"])
def test_the_question_and_its_why_fit_the_screen_whole(kit: str) -> None:
    """On the 128x64 screen the wheel's line (its prompt, then the view's lines) holds the
    whole question and what the suit decides, nothing cut off."""
    view = asked(resumed(kit))
    assert _table_rows(view) == [view.picker.prompt if view.picker else ""]
    assert len(_table_rows(view)[0]) <= COLUMNS
    assert "nobs" in _table_rows(view)[0]


@pytest.mark.parametrize(("rank", "makes", "prompt"), [
    (Rank.ACE, ("nobs",), "A: suit for nobs?"),
    (Rank.TEN, ("flush",), "10: suit for a flush?"),
    (Rank.TEN, ("nobs", "flush"), "Suit for nobs, flush?"),
    (Rank.FIVE, ("flush",), "5: suit for a flush?"),
    (Rank.FIVE, (), "Starter 5: suit?"),
])
def test_every_suit_question_is_worded_within_a_line(
        rank: Rank, makes: tuple[str, ...], prompt: str) -> None:
    question = SuitQuestion(0, False, (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES),
                            rank, makes)
    assert suit_prompt(question) == prompt
    assert len(prompt) <= COLUMNS


def test_on_the_keypad_the_question_is_asked_and_the_keys_shown_under_it() -> None:
    """The keypad's screen asks the question as the encoder's does ("A: suit for nobs?",
    where it read "A? 1♣ 2♦ 3♥ 4♠ nobs"), and the line under it says which key is which
    suit ("press 1♣ 2♦ 3♥ 4♠"), in place of a wheel no key turns; read off the picture: the
    row under the question holds the keys, no card of the wheel."""
    view = asked(resumed("keypad"))
    assert view.picker is not None and view.picker.keys == ("1", "2", "3", "4")
    assert wheel_line(view.picker) == "A: suit for nobs? press 1♣ 2♦ 3♥ 4♠"
    image = render(view)
    bottom = image.crop((0, BOTTOM_Y, WIDTH, BOTTOM_Y + LINE_H))
    legend = Image.new("1", (WIDTH, LINE_H))
    draw_text(legend, 0, 0, "press")
    assert bottom.crop((0, 0, 5 * CHAR_W, LINE_H)).tobytes() == legend.crop(
        (0, 0, 5 * CHAR_W, LINE_H)).tobytes()
    encoder = render(asked(resumed("encoder"))).crop((0, BOTTOM_Y, WIDTH, BOTTOM_Y + LINE_H))
    assert encoder.tobytes() != bottom.tobytes()  # the encoder keeps its wheel of cards
