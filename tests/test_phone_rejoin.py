"""A phone's seat taken on the box, and given back: what the box says, where its Phones
screen opens, what the phone joining again gets, and the join codes it may not use.

The box says in words which seat it now enters and how that player gets the phone back
(panel, and the voice in audio mode); its Phones screen opens on that seat until its phone
is back; the phone joining again by a fresh code gets its seat's hand exactly as the board
knows it, and nothing it tapped before; a stale token, a used code, a code for a seat held,
another game's or another table's code is each refused by name on the phone, the game
unchanged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from pegboard.app import machine
from pegboard.app.effects import OfferPairing, ReleaseSeat
from pegboard.app.inputs import Button, KnobTurn, Pairing, PhoneSeats, Press, RankKey, SeatCode
from pegboard.app.state import PairingScreen, Reading
from pegboard.app.view import Screen, View
from pegboard.config import Config
from pegboard.config.phones import PhonesConfig
from pegboard.device.observers import Seen
from pegboard.device.pairing import PairingPort
from pegboard.rules.cards import Card, Rank
from pegboard.rules.value import replace
from pegboard.voice.audio import screen_words
from pegboard.web.passes import Passes
from pegboard.web.phone_app import LET_GO
from tests.support.app_driver import MENU, OK, App, new_game
from tests.support.phones import LENIENT, box_keys, phone_board, request, until
from tests.support.web import chromium
from tests.test_phone_fall_back import on_the_wait
from tests.test_phone_server import act, me

OK_KEY = Press(Button.OK)
PHONES = Config(phones=PhonesConfig(enabled=True, host="127.0.0.1"))
JOINS = replace(LENIENT, joins=(100, 100))
PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 740}, "is_mobile": True,
                         "has_touch": True}
browsers = pytest.mark.skipif(chromium() is None,
                              reason="needs chromium (`make test` installs it)")


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(word) for word in text.split())


def phones_on(app: App) -> App:
    """``app``'s board with ``[phones] enabled``: its menu has Phones."""
    config = replace(app.state.config, phones=PhonesConfig(enabled=True))
    app.state = replace(app.state, config=config)
    return app


def taken_on_the_box(kit: str = "encoder", *, audio: bool = False) -> App:
    """P1 dealing on the box, P2's phone waited for, P2's hand chosen on "On the box
    instead?"; the port's answer not yet in."""
    app = phones_on(new_game(kit, dealer=0))
    app.feed(PhoneSeats(frozenset({1})))
    if audio:
        app.state = replace(app.state, setup=replace(app.state.setup, audio=True))
    app.feed(OK)
    if kit == "keypad":
        app.feed(RankKey(Rank.TWO))
    else:
        app.feed(KnobTurn(1), OK)
    assert ReleaseSeat(1, 2, offer=False) in app.effects
    return app


TAKEN = ("P2's phone is let go: P2 enters on the box now. To play on the phone again: menu, "
         "Phones, and join with P2's code.")


@pytest.mark.parametrize("kit", ["encoder", "keypad"])
def test_the_box_says_whose_seat_it_took_and_how_to_give_it_back(kit: str) -> None:
    """The box's own words, on the panel and (audio mode) said whole: P2's seat is entered
    on the box now, and Phones on the menu gives P2's phone its code. OK goes on to the
    table (the starter); UNDO too, never taking back an entry."""
    app = taken_on_the_box(kit)
    view = app.view
    assert view.title == "P2's hand: on the box" and " ".join(view.lines) == TAKEN, view
    assert app.state.let_go == 1
    spoken = taken_on_the_box(kit, audio=True)
    assert screen_words(spoken.view) == f"P2's hand: on the box. {TAKEN}"
    records = len(app.record)
    app.feed(PhoneSeats(frozenset()), Press(Button.UNDO))
    assert len(app.record) == records and not isinstance(app.state.screen, Reading)
    assert app.view.picker is not None and app.view.picker.prompt == "Starter"


def menu_phones(app: App) -> int:
    """MENU, turn the short way to Phones, OK; the presses it took (a detent each)."""
    app.feed(MENU)
    rows = list(app.view.lines)
    turns = (rows.index("Phones") - (app.view.selected or 0)) % len(rows)
    turns = turns if turns <= len(rows) - turns else turns - len(rows)
    app.feed(KnobTurn(turns), OK)
    return 2 + abs(turns)


def test_phones_opens_on_the_seat_let_go_until_its_phone_is_back(tmp_path: Path) -> None:
    """After P2's seat was taken on the box, Phones asks the port for the codes from P2's
    seat, and the screen opens on P2's code: MENU, the turns to Phones, OK (before, one turn
    more past P1's seat; past every seat before it at a larger table). Once P2's phone is
    back, Phones opens on the first seat again."""
    app = taken_on_the_box()
    app.feed(PhoneSeats(frozenset()), OK)
    app.feed(MENU)
    assert app.view.lines[:2] == ("Back", "Phones")  # the row the box's notice named, next
    app.feed(Press(Button.UNDO))
    presses = menu_phones(app)
    assert app.effects == [OfferPairing(2, 1)]
    passes = Passes(tmp_path)
    port = PairingPort(passes, lambda: "g-1", host=lambda: "pegboard.local", port=8121)
    try:
        list(port.poll(0.0))
        port.saw(Seen(None, View(Screen.HOME), asked=(OfferPairing(2, 1),)))
        answer = list(port.poll(0.0))
    finally:
        port.close()
    assert len(answer) == 1 and isinstance(answer[0], Pairing) and answer[0].first == 1
    app.feed(answer[0])
    shown = app.view
    assert shown.screen is Screen.PAIR and shown.title == "P2", shown
    assert shown.code == answer[0].seats[1].code
    assert presses == 3  # MENU, one turn to Phones, OK: P2's code is on screen
    app.feed(PhoneSeats(frozenset({1})))  # P2's phone joins by it
    # Back at the table at once: P1 is the box's by choice, not asked for a phone.
    assert app.state.let_go is None and not isinstance(app.state.screen, PairingScreen)
    assert "Waiting for P2's hand" in " ".join(app.view.lines)  # the starter waits again
    assert menu_phones(app) == 7  # Phones back in its place: MENU, 5 turns, OK
    assert app.effects == [OfferPairing(2, 0)]
    app.feed(Pairing((SeatCode(0, "CEF347", "HTTP://X/J/CEF347"), SeatCode(1, held=True))))
    assert app.view.title == "P1"


def test_a_new_game_offers_its_codes_from_the_first_seat() -> None:
    """The seat taken on the box is the game's: the next game's codes start at seat 1."""
    app = taken_on_the_box()
    app.feed(PhoneSeats(frozenset()), OK, MENU)
    rows = list(app.view.lines)
    app.feed(KnobTurn(rows.index("End game") - (app.view.selected or 0)), OK)
    app.feed(KnobTurn(1), OK)  # Yes
    app.read()
    while app.state.session is not None or app.view.selected not in (None, 0):
        app.feed(Press(Button.UNDO) if app.state.session is not None else KnobTurn(1))
    app.feed(OK)  # New game
    while app.view.selected != 0:
        app.feed(KnobTurn(1))
    app.feed(OK)  # Start
    assert OfferPairing(2, 0) in app.effects and app.state.let_go is None, app.effects


def test_a_phone_let_go_and_back_gets_its_own_hand_and_nothing_sent_meanwhile(
        tmp_path: Path) -> None:
    """Both seats on phones, both hands in; the box releases Ben's phone. A tap his phone
    sends meanwhile (its old token) is refused by name and changes nothing; joining again by
    the fresh code the box shows (on his seat at once), his phone gets back exactly the hand
    the board holds for his seat, with none of Ann's cards anywhere in its answer; his old
    tap, sent again, is still refused."""
    ann, ben = cards("5H 5D JC 4S KH 2C"), cards("AS 2S 3S 9D TD QC")
    with phone_board(tmp_path, dealer=0, pairing=True, config=PHONES, limits=JOINS) as board:
        tokens = {}
        for seat in (0, 1):
            status, data = request(board.port, "POST", "/phone/join", {"code": board.code(seat)})
            assert status == 200, data
            tokens[seat] = data["token"]
        until(board, lambda: board.state.phones == {0, 1}, "both phones held")
        for seat, six in ((0, ann), (1, ben)):
            status, data = act(board, tokens[seat], {
                "do": "hand", "dealt": [str(c) for c in six], "away": [str(c) for c in six[4:]]})
            assert status == 200 and data["taken"], data
        seq = me(board, tokens[1])["seq"]
        # Released on the box: MENU, Phones, turn to Ben's seat, OK, Yes.
        while isinstance(board.state.screen, Reading):
            box_keys(board, OK_KEY)
        box_keys(board, MENU)
        rows = list(machine.view(board.state).lines)
        box_keys(board, KnobTurn(rows.index("Phones") - (machine.view(board.state).selected
                                                          or 0)), OK_KEY)
        until(board, lambda: machine.view(board.state).title == "Ann's phone", "Phones")
        box_keys(board, KnobTurn(1), OK_KEY, KnobTurn(1), OK_KEY)
        until(board, lambda: board.state.phones == {0}, "Ben's seat released")
        records = len(board.store.current().records)  # type: ignore[union-attr]
        stale = {"do": "starter", "card": "7S", "seq": seq}
        status, data = request(board.port, "POST", "/phone/act", stale, token=tokens[1])
        assert status == 401 and data["reason"] == LET_GO, data
        shown = machine.view(board.state)
        assert shown.title == "Ben" and shown.code is not None, shown
        status, data = request(board.port, "POST", "/phone/join", {"code": shown.code})
        assert status == 200, data
        fresh = data["token"]
        status, raw = request(board.port, "GET", "/phone/me", token=fresh)
        assert status == 200 and raw["seat"] == 1, raw
        assert raw["held"] == [str(c) for c in ben[:4]], raw
        assert raw["away"] == [str(c) for c in ben[4:]], raw
        text = repr(raw)
        assert not [c for c in ann if f"'{c}'" in text], text  # none of Ann's, unplayed
        status, data = request(board.port, "POST", "/phone/act", stale, token=tokens[1])
        assert status == 401 and data["reason"] == LET_GO, data
        assert len(board.store.current().records) == records  # type: ignore[union-attr]


def test_bad_join_codes_are_refused_by_name_and_change_nothing(tmp_path: Path) -> None:
    """A used code while its phone holds the seat, the same code typed again, a code for
    another game, another table's code, a stale token: each refused on the phone, naming
    the problem; the seat keeps its phone and the record is unchanged."""
    with phone_board(tmp_path, dealer=0, pairing=True, config=PHONES, limits=JOINS) as board:
        code = board.code(1)
        status, data = request(board.port, "POST", "/phone/join", {"code": code})
        assert status == 200, data
        token = data["token"]
        until(board, lambda: board.state.phones == {1}, "Ben's phone held")
        records = len(board.store.current().records)  # type: ignore[union-attr]
        passes = board.server.passes
        other_game = passes.offer("20260101T000000Z-000000", 0).code
        other_table = next(c for c in ("CEF347", "HMN349", "PRT479")
                           if c not in (code, other_game))
        cases = [
            ({"code": code}, f"join code {code} was used already: seat 2 is held by the "
                             "phone that joined with it. If that is this phone, it holds the "
                             "seat: open its page again. If not, release that seat on the "
                             "board first (menu: Phones)"),
            ({"code": code.lower()}, f"join code {code} was used already: seat 2"),
            ({"code": other_game}, f"join code {other_game} is for another game than the one "
                                   "in progress"),
            ({"code": other_table}, f"join code {other_table} is not one the board offered (a "
                                    "code of another table, or of a game that has ended)"),
        ]
        for body, said in cases:
            status, data = request(board.port, "POST", "/phone/join", body)
            assert status == 403 and data["reason"].startswith(said), (body, data)
        passes.release(board.game_id, 1)
        status, data = request(board.port, "GET", "/phone/me", token=token)
        assert status == 401 and data["reason"] == LET_GO, data
        status, data = request(board.port, "POST", "/phone/join", {"code": code})
        assert status == 403 and data["reason"].startswith(
            f"join code {code} was used already; ask the board for a new one"), data
        assert passes.join(other_game)  # refused above, so still unused
        assert len(board.store.current().records) == records  # type: ignore[union-attr]


@browsers
@pytest.mark.usefixtures("patient")
@pytest.mark.timeout(300)
def test_a_phone_let_go_joins_again_on_its_page_with_nothing_kept(
        browser: Browser, tmp_path: Path) -> None:
    """Ben's phone at 360 px, asked for his cards, taps five of them; the box takes his
    seat. His page says how to carry on; the code typed twice (Join tapped
    twice) joins once; asked for his cards again, nothing tapped before is on the grid, and
    the starter waits for his hand again. A second phone typing the same code is told the
    code is used and whose seat it holds; nothing changed."""
    with phone_board(tmp_path, dealer=0, pairing=True, config=PHONES, limits=JOINS) as board:
        page = browser.new_context(**PHONE).new_page()
        page.goto(f"http://127.0.0.1:{board.port}/join?code={board.code(1)}")
        expect(page.locator("#asked")).to_contain_text("Tap the 6 cards")
        for card in ("AS", "2S", "3S", "9D", "TD"):
            page.locator(f'#grid button[data-card="{card}"]').click()
        expect(page.locator("#asked")).to_contain_text("(5 so far)")
        until(board, lambda: board.state.phones == {1}, "Ben's phone held")
        on_the_wait(board)
        box_keys(board, OK_KEY, KnobTurn(1), OK_KEY)
        expect(page.locator("#said")).to_have_text(LET_GO)
        until(board, lambda: not board.state.phones, "Ben's seat freed")
        assert machine.view(board.state).title == "Ben's hand: on the box"
        box_keys(board, OK_KEY, MENU)
        rows = list(machine.view(board.state).lines)
        box_keys(board, KnobTurn(rows.index("Phones") - (machine.view(board.state).selected
                                                          or 0)), OK_KEY)
        until(board, lambda: machine.view(board.state).code is not None, "a join code")
        shown = machine.view(board.state)
        assert shown.title == "Ben", shown
        assert shown.code is not None
        records = len(board.store.current().records)  # type: ignore[union-attr]
        page.locator("#code").fill(shown.code.lower())
        page.locator("#join-go").dblclick()
        expect(page.locator("#asked")).to_contain_text("Tap the 6 cards")
        expect(page.locator("#said")).to_have_text("You hold your seat.")
        until(board, lambda: board.state.phones == {1}, "Ben's phone held again")
        expect(page.locator("#asked")).to_contain_text("(0 so far)")
        expect(page.locator('#grid [aria-pressed="true"]')).to_have_count(0)
        assert len(board.store.current().records) == records  # type: ignore[union-attr]
        # The Phones screen leaves by itself: the wait names Ben again.
        until(board, lambda: "Waiting for Ben's hand" in " ".join(
            machine.view(board.state).lines), "the box's wait for Ben's hand")
        other = browser.new_context(**PHONE).new_page()
        other.goto(f"http://127.0.0.1:{board.port}/phone")
        other.locator("#code").fill(shown.code)
        other.locator("#join-go").click()
        expect(other.locator("#said")).to_have_text(
            f"Not joined: join code {shown.code} was used already: seat 2 is held by the "
            "phone that joined with it. If that is this phone, it holds the seat: open its "
            "page again. If not, release that seat on the board first (menu: Phones)")
        assert board.state.phones == {1}
        assert len(board.store.current().records) == records  # type: ignore[union-attr]
        # The phone's stale token, left in another tab's storage, is told why at once.
        stale = browser.new_context(**PHONE).new_page()
        stale.goto(f"http://127.0.0.1:{board.port}/phone")
        stale.evaluate("sessionStorage.setItem('pegboard-seat', 'x' + 'y'.repeat(40))")
        stale.reload()
        expect(stale.locator("#said")).to_have_text(LET_GO)
        expect(stale.locator("#join")).to_be_visible()



def test_audio_mode_says_the_seat_taken_as_the_notice_comes() -> None:
    """The voice in audio mode, given the box's screens as they come: the question, then the
    notice said whole as it is reached."""
    from pegboard.voice.audio import AudioScreen

    app = phones_on(new_game(dealer=0))
    app.feed(PhoneSeats(frozenset({1})))
    app.state = replace(app.state, setup=replace(app.state.setup, audio=True))
    ear = AudioScreen()
    ear.begin(app.view)
    app.feed(OK, KnobTurn(1))
    ear.heard(app.view, [], facts=False, saved=False)
    app.feed(OK)
    said = " ".join(a.text for a in ear.heard(app.view, [], facts=False, saved=False))
    assert said == f"P2's hand: on the box. {TAKEN}", said


def test_on_the_keypad_phones_is_key_2_and_opens_on_the_seat() -> None:
    """The keypad: MENU, then key 2 (Phones, after Back) asks for the codes from P2's seat;
    before, key 8, then GO past P1's seat."""
    app = taken_on_the_box("keypad")
    app.feed(PhoneSeats(frozenset()), OK, MENU)
    assert app.view.lines[:2] == ("1 Back", "2 Phones"), app.view.lines
    app.feed(RankKey(Rank.TWO))
    assert app.effects == [OfferPairing(2, 1)]
