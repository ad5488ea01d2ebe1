"""A seat the starter waits for on a phone falls back to the box at the moment it matters.

While the starter waits for phones' hands, the box's wait says "OK: on the box"; OK asks "On
the box instead?" (No first, then each hand waited for); a hand chosen frees that seat from
its phone through the pairing port (no join code offered), and the box goes on without
waiting for it: the starter, or in an open-handed deal that seat's cards on the box. The
phone asked for its cards says how, and so does a phone waiting for another's hand; the
phone let go of is told at once.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from pegboard.app import machine, open_hands
from pegboard.app.effects import ReleaseSeat
from pegboard.app.inputs import Button, KnobTurn, PhoneSeats, Press, RankKey
from pegboard.app.state import CardEntry, FallBack, PairingScreen, Reading, WheelScreen
from pegboard.app.view import Screen, View
from pegboard.config import Config
from pegboard.config.phones import PhonesConfig
from pegboard.device.observers import Seen
from pegboard.device.pairing import PairingPort
from pegboard.rules.cards import Card, Rank
from pegboard.rules.events import Dealt, LaidAway
from pegboard.rules.value import replace
from pegboard.voice.audio import screen_words
from pegboard.web.passes import Passes
from pegboard.web.phone_app import LET_GO
from pegboard.web.phone_view import seat_json
from tests.support.app_driver import GO, MENU, OK, UNDO, new_game
from tests.support.phones import Board, Listener, box_keys, phone_board, request, until
from tests.test_phone_box_private import p2_on_a_phone_p1_in
from tests.test_phone_server import me
from tests.test_seat_entry import Phones

OK_KEY = Press(Button.OK)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(word) for word in text.split())


def test_ok_on_the_boxs_wait_takes_the_phones_seat_on_the_box() -> None:
    """P2 on a phone, P1 dealing on the box, not open-handed: the wait's hint is "OK: on
    the box"; OK asks "On the box instead?" with No first (OK on it, or UNDO, goes back and
    changes nothing); P2's hand chosen releases P2's phone, offering no code; once the port
    says no phone holds the seat, the box asks for the starter."""
    app = new_game(dealer=0)
    app.feed(PhoneSeats(frozenset({1})))
    assert app.view.hint == open_hands.FALL_BACK_HINT == "OK: on the box"
    app.feed(OK)
    assert isinstance(app.state.screen, FallBack) and app.state.screen.seats == (1,)
    view = app.view
    assert (view.screen, view.title, view.lines, view.selected) == (
        Screen.CONFIRM, "On the box instead?", ("No: keep waiting", "P2's hand"), 0)
    app.feed(OK)  # No
    assert isinstance(app.state.screen, WheelScreen) and not app.effects
    assert app.view.hint == open_hands.FALL_BACK_HINT
    app.feed(OK, UNDO)
    assert isinstance(app.state.screen, WheelScreen) and not app.effects
    app.feed(OK, KnobTurn(1), OK)
    assert app.effects == [ReleaseSeat(1, 2, offer=False)]
    # The box says so in words: which seat now enters on the box, how to get the phone back.
    view = app.view
    assert view.title == "P2's hand: on the box", view
    assert " ".join(view.lines) == (
        "P2's phone is let go: P2 enters on the box now. To play on the phone again: menu, "
        "Phones, and join with P2's code.")
    assert app.state.phones == {1}  # until the port has freed the seat
    app.feed(PhoneSeats(frozenset()))  # the port's answer
    app.feed(OK)  # the notice read
    assert app.view.picker is not None and app.view.picker.prompt == "Starter"
    assert not isinstance(app.state.screen, PairingScreen)


def test_in_audio_mode_the_wait_says_how() -> None:
    """The voice reads a screen's lines, not its hint: in audio mode the wait's last line
    says it, and the question is read with its first row."""
    app = new_game(dealer=0)
    app.feed(PhoneSeats(frozenset({1})))
    app.state = replace(app.state, setup=replace(app.state.setup, audio=True))
    assert screen_words(app.view) == ("Deal 1: P1 deals. Waiting for P2's hand (on their "
                                      "phone), then the starter. OK: on the box.")
    app.feed(OK)
    assert screen_words(app.view) == "On the box instead? No: keep waiting"


def test_on_the_keypad_its_row_number_chooses_the_hand() -> None:
    app = new_game("keypad", dealer=0)
    app.feed(PhoneSeats(frozenset({1})))
    app.feed(OK)
    assert app.view.lines == ("1 No: keep waiting", "2 P2's hand")
    app.feed(RankKey(Rank.TWO))
    assert app.effects == [ReleaseSeat(1, 2, offer=False)]


def test_an_open_handed_deal_asks_the_seat_taken_on_the_box_for_its_cards() -> None:
    app = p2_on_a_phone_p1_in()
    assert app.view.hint == open_hands.FALL_BACK_HINT
    app.feed(OK, GO, OK)  # GO moves down the list, as a turn does
    assert app.effects == [ReleaseSeat(1, 2, offer=False)]
    assert app.view.title == "P2's hand: on the box"
    app.feed(PhoneSeats(frozenset()), OK)
    screen = app.state.screen
    assert isinstance(screen, CardEntry) and screen.player == 1, screen
    assert app.view.title == "Dealt to P2"


def test_the_phones_say_how_a_hand_is_entered_on_the_box_instead() -> None:
    """Both seats on phones, P1 dealing: P2's phone, asked for its cards, and P1's, whose
    hand is in and who waits for P2's, each say how; once every hand is in, neither."""
    app = new_game(dealer=0)
    phones = Phones(app, random.Random(1))
    six = cards("4H 5S 6C 7D 8H KD")
    assert phones.send(0, Dealt(0, six), LaidAway(0, six[:2])).taken
    app.feed(PhoneSeats(frozenset({0, 1})))

    def view(seat: int) -> dict[str, object]:
        session = app.state.session
        assert session is not None
        return seat_json(session.game, seat, game_id=None, phones=app.state.phones)

    ben, ann = view(1), view(0)
    assert ben["asks"] == "cards" and ben["fall_back"] == (
        "Entering this hand on the box instead? On the box press OK, then choose \u201cP2's "
        "hand\u201d: this phone then lets go of your seat. To carry on here afterwards, join "
        "again with the code the box shows under Phones on its menu.")
    assert ann["asks"] == "wait" and ann["fall_back"] == (
        "A hand can be entered on the box instead: on the box press OK, then choose "
        "\u201cP2's hand\u201d.")
    # The words name the row the box's question shows.
    app.feed(OK)
    assert "P2's hand" in app.view.lines
    app.feed(UNDO)
    other = cards("AS 2S 3S 4S 5C 6D")
    assert phones.send(1, Dealt(1, other), LaidAway(1, other[:2])).taken
    assert view(0)["fall_back"] is None and view(1)["fall_back"] is None


def test_the_port_frees_the_seat_and_offers_no_code(tmp_path: Path) -> None:
    passes = Passes(tmp_path)
    port = PairingPort(passes, lambda: "g-1", host=lambda: "pegboard.local", port=8121)
    list(port.poll(0.0))
    token = passes.join(passes.offer("g-1", 1).code)
    port.saw(Seen(None, View(Screen.HOME), asked=(ReleaseSeat(1, 2, offer=False),)))
    assert passes.holder(token) is None
    assert list(port.poll(0.0)) == [PhoneSeats(frozenset())]
    passes.close()


def released_at_once(board: Board, listener: Listener) -> None:
    listener.wait_for(b"event: gone", "the released phone's stream to end")


def on_the_wait(board: Board) -> None:  # (tests/test_phone_games.py too)
    """The box's pages read ("Game restored"), until its wait for the phones' hands."""
    while isinstance(board.state.screen, Reading):
        box_keys(board, OK_KEY)
    assert machine.view(board.state).hint == open_hands.FALL_BACK_HINT, board.state.screen


def test_four_players_three_phones_one_taken_on_the_box(tmp_path: Path) -> None:
    """Four players, Ann dealing on the box, the three others on phones: OK lists their
    three hands; Cat's, chosen, is freed by the board's pairing port (her phone's stream
    ends at once, her token no longer answers), the others still hold their seats, and the
    box waits for their two hands alone."""
    names = ("Ann", "Ben", "Cat", "Dan")
    config = Config(phones=PhonesConfig(enabled=True, host="127.0.0.1"))
    with phone_board(tmp_path, dealer=0, names=names, pairing=True, config=config) as board:
        tokens = {}
        for seat in (1, 2, 3):
            status, data = request(board.port, "POST", "/phone/join",
                                   {"code": board.code(seat)})
            assert status == 200, data
            tokens[seat] = data["token"]
        until(board, lambda: board.state.phones == {1, 2, 3}, "the three phones held")
        cat = Listener(board.port, "/phone/stream", tokens[2])
        try:
            cat.wait_for(b"event: me", "Cat's view")
            on_the_wait(board)
            box_keys(board, OK_KEY)
            screen = board.state.screen
            assert isinstance(screen, FallBack) and screen.seats == (1, 2, 3)
            assert machine.view(board.state).lines == (
                "No: keep waiting", "Ben's hand", "Cat's hand", "Dan's hand")
            box_keys(board, KnobTurn(2), OK_KEY)
            until(board, lambda: board.state.phones == {1, 3}, "Cat's seat freed")
            released_at_once(board, cat)
        finally:
            cat.close()
        status, data = request(board.port, "GET", "/phone/me", token=tokens[2])
        assert status == 401 and data["reason"] == LET_GO, data
        assert me(board, tokens[1])["asks"] == "cards"
        # The box says whose seat it now enters, and how Cat gets her phone back.
        told = machine.view(board.state)
        assert told.title == "Cat's hand: on the box", told
        assert "menu, Phones, and join with Cat's code" in " ".join(told.lines)
        box_keys(board, OK_KEY)
        lines = " ".join(machine.view(board.state).lines)
        assert "Ben" in lines and "Dan" in lines and "Cat" not in lines, lines
        assert not any(view.screen is Screen.PAIR for view in board.views)
        # Cat carries on on her phone as her page says: Phones on the box's menu opens on her
        # seat's code (no turn past Ann's and Ben's seats); her phone joins by it and is
        # asked for her cards again, and the starter waits for them again.
        box_keys(board, MENU)
        rows = list(machine.view(board.state).lines)
        box_keys(board, KnobTurn(rows.index("Phones") - (machine.view(board.state).selected
                                                          or 0)), OK_KEY)
        until(board, lambda: machine.view(board.state).code is not None, "a join code")
        shown = machine.view(board.state)
        assert shown.title == "Cat" and shown.code is not None, shown
        status, data = request(board.port, "POST", "/phone/join", {"code": shown.code})
        assert status == 200, data
        until(board, lambda: board.state.phones == {1, 2, 3}, "Cat's phone held again")
        assert me(board, data["token"])["asks"] == "cards"
        # The Phones screen leaves by itself (Ann is the box's by choice): the box's wait
        # names her again.
        until(board, lambda: "Cat" in " ".join(machine.view(board.state).lines),
              "the box's wait naming Cat")


def test_a_let_go_phone_is_told_how_to_carry_on(tmp_path: Path) -> None:
    """Ben's seat taken on the box: his phone's open stream ends with the words saying how
    to carry on on that phone (the code under Phones on the box's menu), as its next request
    is answered."""
    with phone_board(tmp_path, dealer=0, pairing=True) as board:
        status, data = request(board.port, "POST", "/phone/join", {"code": board.code(1)})
        assert status == 200, data
        until(board, lambda: board.state.phones == {1}, "Ben's phone held")
        ben = Listener(board.port, "/phone/stream", data["token"])
        try:
            ben.wait_for(b"event: me", "Ben's view")
            on_the_wait(board)
            box_keys(board, OK_KEY, KnobTurn(1), OK_KEY)
            ben.wait_for(b"event: gone", "Ben's stream to end")
            ben.wait_for(b"\n\n", "the end of its last event")
            until(board, lambda: ben.events()[-1][0] == "gone", "the gone event whole")
            assert json.loads(ben.events()[-1][1]) == {"said": LET_GO}
        finally:
            ben.close()
        assert "Phones on its menu" in LET_GO
        status, data = request(board.port, "GET", "/phone/me", token=data["token"])
        assert status == 401 and data["reason"] == LET_GO, data
