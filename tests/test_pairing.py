"""Pairing phones on the board: the app's pairing screen and menu row, the loop's pairing port
over real passes, the QR code read back off the rendered frame, and the golden frames."""

from __future__ import annotations

import http.client
import os
from pathlib import Path

import pytest
import zxingcpp
from PIL import Image, ImageChops

from pegboard.app.effects import Effect, OfferPairing, PersistNewGame, ReleaseSeat
from pegboard.app.inputs import KnobTurn, Pairing, PhoneSeats, SeatCode
from pegboard.app.machine import initial_state
from pegboard.app.state import Dealer, PairingScreen
from pegboard.app.view import Screen, View
from pegboard.config import Config
from pegboard.config.phones import PhonesConfig
from pegboard.device import build
from pegboard.device.observers import Seen
from pegboard.device.pairing import PairingPort, board_address
from pegboard.errors import PairingError
from pegboard.rules.value import replace
from pegboard.sim.fakes import FakeClock, RecordingDisplay
from pegboard.sim.keys import expand, parse_script
from pegboard.sim.session import Simulator
from pegboard.store import Store
from pegboard.ui import qr
from pegboard.ui.render import render
from pegboard.voice.audio import screen_words
from pegboard.web.passes import Passes, SeatHolder, qr_text
from tests.support.app_driver import GO, MENU, OK, UNDO, App
from tests.support.phones import phone_board, request

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
REGEN = os.environ.get("PEGBOARD_REGEN_GOLDEN") == "1"
PHONES = PhonesConfig(enabled=True, host="pegboard.local")
ADDRESS = qr_text("pegboard.local", 8121, "CEF347")
PAIRING = Pairing((SeatCode(0, "CEF347", ADDRESS),
                   SeatCode(1, "HT7X4M", qr_text("pegboard.local", 8121, "HT7X4M"))))


ON = Config(phones=PHONES)


def started(config: Config = ON) -> App:
    """A two-player game started with the defaults (the dealer not chosen yet)."""
    app = App(initial_state(config))
    app.feed(OK)  # New game
    app.feed(KnobTurn(-(app.view.selected or 0)), OK)  # Start
    return app


# -- the app ------------------------------------------------------------------------------------


def test_a_new_game_asks_for_every_seats_code_after_saving_it() -> None:
    app = started()
    kinds = [type(effect) for effect in app.effects]
    assert kinds.count(OfferPairing) == 1
    assert kinds.index(PersistNewGame) < kinds.index(OfferPairing)  # the game has its id
    assert OfferPairing(2) in app.effects


def test_with_phones_off_nothing_is_asked_and_the_menu_has_no_row() -> None:
    app = started(Config())
    assert not any(isinstance(effect, OfferPairing) for effect in app.effects)
    app.feed(MENU)
    assert "Phones" not in app.view.lines
    assert "Phones" in started().feed(MENU).view.lines


def test_the_codes_come_up_seat_by_seat_over_the_table_and_ok_goes_back() -> None:
    app = started()
    table = app.state.screen
    assert isinstance(table, Dealer)
    app.feed(PAIRING)
    assert isinstance(app.state.screen, PairingScreen)
    view = app.view
    assert (view.screen, view.title, view.code, view.qr) == (Screen.PAIR, "P1", "CEF347", ADDRESS)
    assert view.lines[0] == "Seat 1 of 2: join code C E F 3 4 7."
    assert view.hint == "OK next"
    app.feed(OK)
    assert (app.view.title, app.view.code, app.view.hint) == ("P2", "HT7X4M", "OK done")
    app.feed(GO)  # GO and the knob go round the seats
    assert app.view.code == "CEF347"
    app.feed(KnobTurn(-1))
    assert app.view.code == "HT7X4M"
    app.feed(OK)
    after: object = app.state.screen
    assert after == table


def test_a_phone_joining_by_the_code_on_screen_moves_the_screen_on() -> None:
    """P1's phone joins while P1's code is up: the screen goes on to P2's code by itself, so
    the OK the table was about to press ("OK next") does not ask to release the phone that
    has just joined; P2's joining too leaves the codes for the table. A seat joining that is
    not on screen moves nothing."""
    app = started()
    table = app.state.screen
    app.feed(PAIRING)
    app.feed(PhoneSeats(frozenset({1})))  # P2's phone joins while P1's code is up
    assert (app.view.title, app.view.code) == ("P1", "CEF347")
    app.feed(GO)
    assert app.view.title == "P2's phone"  # turned to, a held seat says so
    app.feed(GO)
    app.feed(PhoneSeats(frozenset({0, 1})))  # P1's phone joins by the code on screen
    assert app.state.screen == table and app.effects == []
    app.feed(MENU)
    rows = list(app.view.lines)
    app.feed(KnobTurn(rows.index("Phones") - (app.view.selected or 0)), OK)
    app.feed(Pairing((SeatCode(0, "CEF347", ADDRESS), SeatCode(1, held=True))))
    app.feed(PhoneSeats(frozenset({0, 1})))  # the first seat joins: on to... none left
    assert app.state.screen == table
    app.feed(MENU)
    app.feed(KnobTurn(rows.index("Phones") - (app.view.selected or 0)), OK)
    app.feed(Pairing((SeatCode(0, "CEF347", ADDRESS), PAIRING.seats[1])))
    app.feed(PhoneSeats(frozenset({0})))
    assert (app.view.title, app.view.code, app.view.hint) == ("P2", "HT7X4M", "OK done")
    app.feed(OK)
    assert app.state.screen == table and app.effects == []


def test_undo_leaves_at_once_and_the_menu_row_asks_again() -> None:
    app = started().feed(PAIRING)
    app.feed(UNDO)
    assert isinstance(app.state.screen, Dealer)
    app.feed(MENU)
    rows = list(app.view.lines)
    app.feed(KnobTurn(rows.index("Phones") - (app.view.selected or 0)), OK)
    assert isinstance(app.state.screen, Dealer)
    assert app.effects == [OfferPairing(2)]
    app.feed(Pairing(PAIRING.seats, first=1))  # the answer, from the seat asked for
    assert app.view.title == "P2"
    assert isinstance(app.state.screen, PairingScreen)
    assert isinstance(app.state.screen.under, Dealer)


def test_a_held_seat_is_released_only_when_confirmed() -> None:
    held = Pairing((SeatCode(0, held=True), PAIRING.seats[1]))
    app = started().feed(held)
    view = app.view
    assert (view.screen, view.title, view.qr) == (Screen.MESSAGE, "P1's phone", "")
    assert "a phone holds it" in view.lines[0]
    app.feed(OK)
    assert (app.view.screen, app.view.title, app.view.lines) == (
        Screen.CONFIRM, "Release P1's phone?", ("No", "Yes"))
    app.feed(OK)  # No
    assert app.view.title == "P1's phone" and app.effects == []
    app.feed(OK, UNDO)  # asked again, UNDO: nothing
    assert app.view.title == "P1's phone" and app.effects == []
    app.feed(OK, KnobTurn(1), OK)  # Yes
    assert app.effects == [ReleaseSeat(0, 2)]
    app.feed(Pairing((SeatCode(0, "WWWWWW", ADDRESS), PAIRING.seats[1]), first=0))
    assert app.view.code == "WWWWWW"


def test_an_answer_with_no_game_is_ignored() -> None:
    app = App(initial_state(Config(phones=PHONES)))
    before = app.state
    app.feed(PAIRING)
    assert app.state.screen == before.screen


def test_audio_mode_says_the_code_letter_by_letter() -> None:
    app = started().feed(PAIRING)
    words = screen_words(app.view)
    assert words.startswith("P1. Seat 1 of 2: join code C E F 3 4 7.")


# -- the pairing port over real passes ------------------------------------------------------------


class Games:
    """The store's game in progress, moved by hand."""

    def __init__(self, current: str | None) -> None:
        self.current = current

    def __call__(self) -> str | None:
        return self.current


def seen(*asked: Effect) -> Seen[None]:
    return Seen(None, View(Screen.HOME), asked=asked)


def answers(port: PairingPort) -> list[Pairing]:
    """The port's answers waiting for the app (the seats held, told at start, aside)."""
    found = [event for event in port.poll(0.0) if not isinstance(event, PhoneSeats)]
    assert all(isinstance(event, Pairing) for event in found)
    return [event for event in found if isinstance(event, Pairing)]


def test_the_port_offers_codes_a_phone_can_join_with(tmp_path: Path) -> None:
    passes = Passes(tmp_path)
    games = Games("g-1")
    port = PairingPort(passes, games, host=lambda: "192.168.1.20", port=8121)
    # At start the app is told which seats phones hold (none yet), then nothing waits.
    assert port.next_deadline() == 0.0 and list(port.poll(0.0)) == [PhoneSeats(frozenset())]
    assert port.next_deadline() is None and answers(port) == []
    port.saw(seen(OfferPairing(2)))
    assert port.next_deadline() == 0.0
    [answer] = answers(port)
    assert port.next_deadline() is None
    first, second = answer.seats
    assert first.address == f"HTTP://192.168.1.20:8121/J/{first.code}"
    token = passes.join(first.code)
    assert passes.holder(token) == SeatHolder("g-1", 0)
    port.saw(seen(OfferPairing(2)))  # shown again: the seat is held, the other's code kept
    [again] = answers(port)
    assert again.seats == (SeatCode(0, held=True), second)
    port.saw(seen(ReleaseSeat(0, 2)))
    [released] = answers(port)
    assert passes.holder(token) is None
    assert released.first == 0 and not released.seats[0].held and released.seats[0].code
    with pytest.raises(PairingError, match="used already"):
        passes.join(first.code)


def test_the_end_of_a_game_ends_its_passes(tmp_path: Path) -> None:
    passes = Passes(tmp_path)
    games = Games("g-1")
    port = PairingPort(passes, games, host=lambda: "pegboard.local", port=8121)
    port.saw(seen(OfferPairing(2)))
    [answer] = answers(port)
    token = passes.join(answer.seats[0].code)
    games.current = None  # finished or abandoned
    port.saw(seen())
    assert passes.holder(token) is None
    assert passes.games() == ()
    port.saw(seen(OfferPairing(2)))  # no game: nothing to offer
    assert answers(port) == []


def test_at_start_the_passes_of_other_games_end(tmp_path: Path) -> None:
    with Passes(tmp_path) as before:
        kept = before.join(before.offer("g-2", 1).code)
        gone = before.join(before.offer("g-1", 0).code)
    passes = Passes(tmp_path)
    port = PairingPort(passes, Games("g-2"), host=lambda: "pegboard.local", port=8121)
    assert passes.holder(kept) == SeatHolder("g-2", 1)
    assert passes.holder(gone) is None
    # The seat a phone holds in the game resumed is the app's to know at once.
    assert list(port.poll(0.0)) == [PhoneSeats(frozenset({1}))]


def test_the_board_address_is_one_a_phone_can_reach() -> None:
    address = board_address()
    assert address and not address.startswith("127.")
    assert address.endswith(".local") or address.count(".") == 3


# -- the frame ----------------------------------------------------------------------------------


def pair_view(**changes: object) -> View:
    app = started().feed(PAIRING)
    return replace(app.view, **changes)  # type: ignore[arg-type]


def test_the_qr_code_reads_back_off_the_frame() -> None:
    for host in ("pegboard.local", "192.168.100.200", "pegboard-kitchen.example.org"):
        address = qr_text(host, 8121, "CEF347")
        image = render(pair_view(qr=address))
        found = zxingcpp.read_barcodes(image.convert("L"))
        assert [(f.text, f.format) for f in found] == [(address, zxingcpp.BarcodeFormat.QRCode)]


@pytest.mark.parametrize(("host", "version", "module"), [
    ("pegboard.local", 2, 2), ("192.168.100.200", 2, 2), ("pegboard-kitchen.example.org", 3, 2),
])
def test_each_module_is_two_pixels_of_segnos_own_matrix(host: str, version: int,
                                                        module: int) -> None:
    address = qr_text(host, 8121, "CEF347")
    symbol = qr.symbol(address)
    assert (symbol.version, symbol.error) == (version, "M")
    image = render(pair_view(qr=address))
    size = len(symbol.matrix)
    offset = (64 - size * module) // 2
    assert offset >= module  # a quiet zone of a module at least, lit
    for y in range(64):
        for x in range(64):
            mx, my = (x - offset) // module, (y - offset) // module
            inside = offset <= x < offset + size * module and offset <= y < offset + size * module
            dark = inside and bool(symbol.matrix[my][mx])
            assert image.getpixel((x, y)) == (0 if dark else 1), (x, y)


def test_a_long_address_falls_back_to_level_l_then_one_pixel() -> None:
    address = qr_text("a-very-long-board-name.kitchen.example.org", 8121, "CEF347")
    symbol = qr.symbol(address)
    assert symbol.error == "L" or int(symbol.version) <= 3
    image = qr.qr_image("x" * 80)
    assert image.size == (64, 64)
    found = zxingcpp.read_barcodes(image.convert("L"))
    assert [f.text for f in found] == ["x" * 80]


def same(image: Image.Image, name: str) -> None:
    path = GOLDEN / f"{name}.png"
    if REGEN:
        image.save(path)
    with Image.open(path) as stored:
        expected = stored.convert(image.mode)
    diff = ImageChops.difference(image.convert("RGB"), expected.convert("RGB"))
    assert diff.getbbox() is None, (
        f"{path.name} differs from the frame; if intended, PEGBOARD_REGEN_GOLDEN=1")


def test_golden_pairing_frames() -> None:
    app = started().feed(PAIRING)
    same(render(app.view), "pair_code")
    large_print = replace(Config().display, large_print=True)
    large = started(Config(phones=PHONES, display=large_print))
    same(render(large.feed(PAIRING).view), "pair_code")  # the code is large already
    app = started().feed(Pairing((SeatCode(0, held=True), PAIRING.seats[1])))
    same(render(app.view), "pair_held")
    same(render(app.feed(OK).view), "pair_release")


# -- the whole device ---------------------------------------------------------------------------


def play_keys(config: Config, store_dir: Path, script: str) -> list[View]:
    """``script``'s keys on the simulated device with the pairing port the config builds;
    the views drawn, in order."""
    views: list[View] = []
    with Store(store_dir, owner="test") as store:
        sim = Simulator(config, store, RecordingDisplay(), clock=FakeClock(),
                        on_frame=lambda view, _: views.append(view),
                        phones=build.make_pairing(config, store))
        try:
            sim.start()
            for step in expand(parse_script(script)):
                sim.press(step)
            sim.loop.pump()  # a moment after the last key: the port's answer is due now
        finally:
            sim.close()
    return views


def test_a_new_game_on_the_device_shows_codes_a_phone_joins_with_across_a_restart(
        tmp_path: Path) -> None:
    config = Config(phones=PhonesConfig(enabled=True, host="192.168.1.20", port=8200))
    views = play_keys(config, tmp_path, "ok\nok\n")  # New game, Start
    pair = views[-1]
    assert (pair.screen, pair.title) == (Screen.PAIR, "P1")
    assert pair.qr == f"HTTP://192.168.1.20:8200/J/{pair.code}"
    found = zxingcpp.read_barcodes(render(pair).convert("L"))
    assert [f.text for f in found] == [pair.qr]
    with Store(tmp_path, owner="test") as store:
        current = store.current()
        assert current is not None
        game = current.id
    with Passes(tmp_path / "phones") as passes:
        token = passes.join(pair.code)
    # Restarted: the pass holds; Phones on the menu shows the seat as held.
    menu = play_keys(config, tmp_path, "ok\nmenu\n")  # past "Game restored", the menu
    rows = list(menu[-1].lines)
    steps = rows.index("Phones") - (menu[-1].selected or 0)
    after = play_keys(config, tmp_path, f"ok\nmenu\nright*{steps} ok\n")
    assert (after[-1].screen, after[-1].title) == (Screen.MESSAGE, "P1's phone")
    with Passes(tmp_path / "phones") as passes:
        assert passes.holder(token) == SeatHolder(game, 0)


def test_with_phones_off_the_device_has_no_pairing_port(tmp_path: Path) -> None:
    with Store(tmp_path, owner="test") as store:
        assert build.make_pairing(Config(), store) is None
    assert not (tmp_path / "phones").exists()
    views = play_keys(Config(), tmp_path, "ok\nok\n")
    assert all(view.screen is not Screen.PAIR for view in views)


def test_the_qr_codes_address_leads_to_the_join_page(tmp_path: Path) -> None:
    with phone_board(tmp_path) as board:
        code = board.code(0)
        connection = http.client.HTTPConnection("127.0.0.1", board.port, timeout=60)
        try:
            connection.request("GET", f"/J/{code}", headers={"host": f"127.0.0.1:{board.port}"})
            answer = connection.getresponse()
            answer.read()
        finally:
            connection.close()
        assert answer.status == 303
        assert answer.getheader("location") == f"/join?code={code}"
        status, _ = request(board.port, "GET", "/J/..%2Fevil")
        assert status == 404
        status, data = request(board.port, "POST", "/phone/join", {"code": code})
        assert status == 200 and board.server.passes.holder(data["token"]) is not None
