"""The bring-up tests on the box itself ("Test the box", the home menu): the real app and loop,
the input kit and the probes on gpiozero's MockFactory pins, under a fake clock; the pages on
the panel, the test pattern, the LED walk, and the way out from every input."""

from __future__ import annotations

import os
import queue
import select
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import gpiozero
import pytest
from gpiozero.pins.mock import MockFactory
from PIL import Image

from pegboard.app.effects import BringUp
from pegboard.app.inputs import Button, InputEvent, KnobTurn, Press
from pegboard.app.machine import AppState, initial_state, step
from pegboard.app.menus import BRINGUP_ROW, menu_rows
from pegboard.app.state import Home, Menu
from pegboard.app.view import Screen
from pegboard.config import Config
from pegboard.device import bench
from pegboard.device.bench import BOUNCE_S, DOUBLE_S, HOLD_S, IDLE_S, STEP_S, Bench, Stage
from pegboard.device.build import APP, make_kit, outputs
from pegboard.device.loop import Bringup, DeviceLoop
from pegboard.device.ports import BenchReport
from pegboard.hw.bringup import oled_pattern
from pegboard.link.board import BoardState
from pegboard.link.fwsim import FirmwareProcess, RecordedFrame
from pegboard.link.layout import led_config_from
from pegboard.link.led_board import SerialLedBoard
from pegboard.link.serial_link import SerialLink
from pegboard.link.walk import walk_order, walk_screen, walk_step

if TYPE_CHECKING:
    from pegboard.hw.inputs import InputKit
from pegboard.rules.value import replace
from pegboard.sim.fakes import (
    FakeClock,
    MockKeypadMatrix,
    RecordingDisplay,
    press_pin,
    release_pin,
    turn_encoder,
)
from tests.support.memory_store import MemoryStore

GOLDEN = Path(__file__).resolve().parent / "golden_bringup"  # golden/: the key scripts' only
REGEN = os.environ.get("PEGBOARD_REGEN_GOLDEN") == "1"
OK, MENU = Press(Button.OK), Press(Button.MENU)
GO_PIN, UNDO_PIN, MENU_PIN, PUSH_PIN, A_PIN, B_PIN = 22, 23, 24, 27, 17, 25


@dataclass
class WalkRecorder:
    """The LED board's walk port: keeps every board it is shown; ``up`` as the link says."""

    up: bool = True
    boards: list[BoardState] = field(default_factory=list)

    def show_board(self, board: BoardState) -> None:
        self.boards.append(board)

    @property
    def is_up(self) -> bool:
        return self.up


@dataclass
class Box:
    loop: DeviceLoop[AppState]
    clock: FakeClock
    display: RecordingDisplay
    leds: WalkRecorder | None

    def pump(self, seconds: float = 0.0) -> None:
        """Move the clock on, then let the loop take its turn."""
        self.clock.advance(seconds)
        self.loop.pump()

    def page(self) -> tuple[str, ...]:
        """The lines of the tests' page on the panel."""
        assert isinstance(self.loop.bench, Bench)
        return tuple(self.loop.bench.lines)

    @property
    def stage(self) -> Stage | None:
        """The test on the panel (None: the tests are closed)."""
        tests = self.loop.bench
        assert tests is None or isinstance(tests, Bench)
        return None if tests is None else tests.stage


def make_box(config: Config, *, leds: WalkRecorder | SerialLedBoard | None = None,
             hooks: bool = True) -> Box:
    clock = FakeClock()
    inbox: queue.Queue[Any] = queue.Queue()
    display = RecordingDisplay()
    kit = make_kit(config.input, inbox.put, clock, pin_factory=None)
    tests = Bringup(open=lambda now: Bench(config, inbox.put, clock, leds=leds),
                    kit=lambda: make_kit(config.input, inbox.put, clock, pin_factory=None))
    board = leds if isinstance(leds, SerialLedBoard) else None
    loop = DeviceLoop(APP, initial_state(config), kit=kit, inbox=inbox, display=display,
                      store=MemoryStore(), clock=clock, bringup=tests if hooks else None,
                      observers=outputs(None, board))
    loop.start()
    return Box(loop, clock, display, leds if isinstance(leds, WalkRecorder) else None)


def open_tests(box: Box) -> None:
    """MENU on the home screen, down to "Test the box", OK."""
    box.loop.feed([MENU])
    rows = [label for _, label in menu_rows(box.loop.state, Home())]
    box.loop.feed([KnobTurn(rows.index(BRINGUP_ROW)), OK])


def tap(factory: MockFactory, box: Box, pin: int) -> None:
    press_pin(factory, pin)
    box.pump(0.05)
    release_pin(factory, pin)
    box.pump(0.05)


def hold(factory: MockFactory, box: Box, pin: int) -> None:
    """Hold a switch just past the hold time, then let go."""
    press_pin(factory, pin)
    box.pump(0.05)
    box.pump(HOLD_S)
    release_pin(factory, pin)
    box.pump(0.05)


def same(image: Image.Image, name: str) -> None:
    path = GOLDEN / f"{name}.png"
    if REGEN:
        image.save(path)
    assert path.exists(), f"missing {path}: run with PEGBOARD_REGEN_GOLDEN=1 once and look at it"
    with Image.open(path) as golden:
        assert image.convert("1").tobytes() == golden.convert("1").tobytes(), (
            f"the frame differs from {path}")


# -- the menu ----------------------------------------------------------------------------------


def test_the_home_menu_offers_the_tests_and_a_game_menu_does_not() -> None:
    state = initial_state(Config())
    assert ("bringup", BRINGUP_ROW) in menu_rows(state, Home())
    state, _ = step(state, MENU, 0.0)
    rows = menu_rows(state, Home())
    state, effects = step(state, KnobTurn(rows.index(("bringup", BRINGUP_ROW))), 0.0)
    assert isinstance(state.screen, Menu)
    state, effects = step(state, OK, 0.0)
    assert effects == (BringUp(),) and isinstance(state.screen, Home)
    # A game on: the tests would take its keys, so its menu has no such row.
    events: list[InputEvent] = [OK, OK, KnobTurn(1), OK]
    for event in events:
        state, _ = step(state, event, 0.0)
    assert state.session is not None
    assert BRINGUP_ROW not in [label for _, label in menu_rows(state, state.screen)]


# -- the encoder kit ---------------------------------------------------------------------------


def test_each_press_and_detent_is_on_the_panel_with_its_pin_and_direction(
        factory: MockFactory) -> None:
    box = make_box(Config())
    open_tests(box)
    assert box.loop.bench is not None
    assert box.loop.shown is None  # the panel shows the tests, not the app
    same(box.display.last, "bringup_invitation")
    for pin in (GO_PIN, UNDO_PIN, MENU_PIN, PUSH_PIN):
        tap(factory, box, pin)
    assert box.page() == ("GO GPIO 22 pin 15", "UNDO GPIO 23 pin 16", "MENU GPIO 24 pin 18",
                          "push GPIO 27 pin 13")
    turn_encoder(factory, A_PIN, B_PIN, 2)
    box.pump(0.05)
    turn_encoder(factory, A_PIN, B_PIN, -1)
    box.pump(0.05)
    assert box.page()[-3:] == ("clockwise +1", "clockwise +2", "anticlockwise +1")
    same(box.display.last, "bringup_inputs")
    # The app saw none of it: still the home screen, no game begun.
    assert isinstance(box.loop.state.screen, Home) and box.loop.state.session is None


def test_a_swapped_a_and_b_shows_clockwise_as_anticlockwise(factory: MockFactory) -> None:
    config = Config()
    config = replace(config, input=replace(config.input, encoder_a=B_PIN, encoder_b=A_PIN))
    box = make_box(config)
    open_tests(box)
    turn_encoder(factory, A_PIN, B_PIN, 1)  # a clockwise turn on the wires as built
    box.pump(0.05)
    assert box.page() == ("anticlockwise -1",)


@pytest.mark.parametrize("pin", [GO_PIN, UNDO_PIN, MENU_PIN, PUSH_PIN])
def test_holding_any_switch_goes_on_from_the_inputs_and_a_tap_does_not(
        factory: MockFactory, pin: int) -> None:
    box = make_box(Config())
    open_tests(box)
    tap(factory, box, pin)
    box.pump(DOUBLE_S)  # the hold's press is not a second press of a double press
    press_pin(factory, pin)
    box.pump(0.05)
    box.pump(HOLD_S - 0.2)
    assert box.stage is Stage.INPUTS
    box.pump(0.2)
    assert box.stage is Stage.OLED  # type: ignore[comparison-overlap]
    # The panel shows the test pattern itself, at once; letting go does not skip it.
    assert box.display.last.tobytes() == oled_pattern().tobytes()
    release_pin(factory, pin)
    box.pump(0.05)
    assert box.stage is Stage.OLED


def test_the_whole_round_returns_the_keys_to_the_game(factory: MockFactory) -> None:
    leds = WalkRecorder()
    box = make_box(Config(), leds=leds)
    open_tests(box)
    hold(factory, box, GO_PIN)  # inputs -> pattern
    turn_encoder(factory, A_PIN, B_PIN, 1)  # a detent goes on from the pattern too
    box.pump(0.05)
    assert box.stage is Stage.LEDS
    cfg = led_config_from(Config().leds)
    order = walk_order(cfg)
    for _ in order:
        box.pump(STEP_S)
    expected = [walk_step(cfg, *place)[1] for place in order]
    assert leds.boards[: len(order)] == expected  # each LED alone, in chain order
    assert leds.boards[-1] == BoardState.start(cfg.tracks)  # then the pegs at the start
    assert box.page() == (f"Done: {len(order)} LEDs", "each lit once.")
    same(box.display.last, "bringup_walk_done")
    tap(factory, box, MENU_PIN)  # any key leaves
    assert box.loop.bench is None
    assert box.loop.shown is not None and box.loop.shown.screen is Screen.HOME
    # The kit has the pins again: MENU opens the menu, as before the tests.
    press_pin(factory, MENU_PIN)
    box.pump(0.05)
    release_pin(factory, MENU_PIN)
    box.pump(0.05)
    assert isinstance(box.loop.state.screen, Menu)


def test_the_walk_names_each_hole_and_waits_for_the_board(factory: MockFactory) -> None:
    leds = WalkRecorder(up=False)
    box = make_box(Config(), leds=leds)
    open_tests(box)
    hold(factory, box, UNDO_PIN)
    tap(factory, box, UNDO_PIN)
    assert box.page() == ("Waiting for the LED", "board (the Pico on", "USB).")
    box.pump(STEP_S)
    assert leds.boards == []
    leds.up = True
    box.pump(STEP_S)
    cfg = led_config_from(Config().leds)
    first = walk_order(cfg)[0]
    assert box.page() == walk_screen(cfg, *first)
    assert box.page() == ("LED 0", "track 1 hole 1", "row 1, column 1")
    assert leds.boards == [walk_step(cfg, *first)[1]]
    same(box.display.last, "bringup_walk")
    turn_encoder(factory, A_PIN, B_PIN, -1)  # a detent leaves mid-walk
    box.pump(0.05)
    assert box.loop.bench is None
    assert leds.boards[1:] == [BoardState.start(cfg.tracks)]  # no LED left lit


def test_without_an_led_board_the_walk_says_so(factory: MockFactory) -> None:
    box = make_box(Config())
    open_tests(box)
    hold(factory, box, MENU_PIN)
    tap(factory, box, PUSH_PIN)
    assert box.page() == ("No LED board: the", "config's [link] names", "no device.")


def test_nothing_pressed_for_the_idle_limit_gives_the_box_back(factory: MockFactory) -> None:
    box = make_box(Config())
    open_tests(box)
    assert box.loop.next_deadline() == pytest.approx(box.clock.now() + IDLE_S)
    box.pump(IDLE_S - 1)
    assert box.loop.bench is not None
    box.pump(1)
    assert box.loop.bench is None and box.loop.shown is not None
    assert box.loop.shown.screen is Screen.HOME


def test_a_probes_report_queued_as_the_tests_closed_is_dropped(factory: MockFactory) -> None:
    box = make_box(Config())
    open_tests(box)
    box.pump(IDLE_S)
    assert box.loop.bench is None
    box.loop.inbox.put(BenchReport(object()))  # a probe's callback, late
    press_pin(factory, MENU_PIN)
    box.pump(0.05)
    release_pin(factory, MENU_PIN)
    box.pump(0.05)
    assert isinstance(box.loop.state.screen, Menu)  # the kit's key, and nothing else


def test_a_device_without_the_tests_says_so_and_keeps_its_keys(factory: MockFactory) -> None:
    box = make_box(Config(), hooks=False)
    open_tests(box)
    assert box.loop.bench is None
    assert box.loop.shown is not None and box.loop.shown.title == "No bring-up here"


# -- the keypad kit ----------------------------------------------------------------------------


def keypad_box(factory: MockFactory) -> tuple[Box, MockKeypadMatrix, Config]:
    config = Config()
    config = replace(config, input=replace(config.input, kit="keypad"))
    matrix = MockKeypadMatrix(factory, config.input.keypad_rows, config.input.keypad_cols)
    return make_box(config), matrix, config


def test_each_keypad_key_is_on_the_panel_with_its_row_and_column_pins(
        factory: MockFactory) -> None:
    box, matrix, config = keypad_box(factory)
    open_tests(box)
    assert box.loop.bench is not None
    rows, cols = config.input.keypad_rows, config.input.keypad_cols
    legends = ("123A", "456B", "789C", "*0#D")
    for r in range(4):
        for c in range(4):
            matrix.press(r, c)
            box.pump(bench.SCAN_S)
            matrix.release(r, c)
            box.pump(bench.SCAN_S)
            assert box.page()[-2:] == (
                f"key {legends[r][c]}: row {r + 1}, col {c + 1}",
                f"  GPIO {rows[r]} x GPIO {cols[c]}")
    same(box.display.last, "bringup_keypad")
    tap(factory, box, GO_PIN)  # the keypad kit's buttons too
    assert box.page()[-1] == "GO GPIO 22 pin 15"


def test_holding_a_keypad_key_goes_on_and_the_keypad_kit_comes_back(
        factory: MockFactory) -> None:
    box, matrix, _ = keypad_box(factory)
    open_tests(box)
    matrix.press(3, 3)  # D
    box.pump(bench.SCAN_S)
    box.pump(HOLD_S)
    assert box.stage is Stage.OLED
    matrix.release(3, 3)
    box.pump(bench.SCAN_S)
    matrix.press(0, 0)  # any key: on to the walk, then out
    box.pump(bench.SCAN_S)
    matrix.release(0, 0)
    box.pump(bench.SCAN_S)
    matrix.press(0, 1)
    box.pump(bench.SCAN_S)
    matrix.release(0, 1)
    box.pump(bench.SCAN_S)
    assert box.loop.bench is None
    assert box.loop.shown is not None and box.loop.shown.screen is Screen.HOME


def brightest(frame: RecordedFrame) -> int | None:
    """The brightest LED of a frame (the skunk markers are drawn faintly on every board)."""
    lit = frame.lit()
    return max(lit, key=lambda i: sum(lit[i])) if lit else None


def test_the_walk_on_the_real_firmware_lights_each_led_then_puts_the_pegs_back(
        factory: MockFactory, tmp_path: Path) -> None:
    config = Config()
    cfg = led_config_from(config.leds)
    with FirmwareProcess(tmp_path) as firmware:
        board = SerialLedBoard(SerialLink(str(firmware.port), config=cfg))
        box = make_box(config, leds=board)

        def until(done: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
            """Pump the loop until ``done()``, waiting on the port's bytes between turns; the
            fake clock moves 10 ms a turn once the board shows what it was sent (so a slow
            firmware never has a step of the walk skipped); fail naming ``what`` after
            ``timeout`` s."""
            deadline = time.monotonic() + timeout
            while not done():
                assert time.monotonic() < deadline, f"waited {timeout} s for {what}"
                box.pump(0.01 if board.link.in_sync else 0.0)
                fd = board.link.fileno()
                if fd is not None:
                    select.select([fd], [], [], 0.01)

        open_tests(box)
        hold(factory, box, GO_PIN)
        tap(factory, box, GO_PIN)  # the walk
        assert box.stage is Stage.LEDS
        until(lambda: [brightest(f) for f in firmware.frames()].count(2) > 0,
              "the firmware to light LED 2")
        seen = [led for led in dict.fromkeys(brightest(f) for f in firmware.frames())
                if led is not None]
        assert seen[:3] == [0, 1, 2]  # one at a time, in chain order
        tap(factory, box, UNDO_PIN)  # leave part way
        assert box.stage is None
        start = BoardState.start(cfg.tracks)
        until(lambda: board.link.shown == start, "the pegs back at the start")
        assert board.link.in_sync


def test_pins_that_cannot_be_opened_are_named_and_the_kit_comes_back(
        factory: MockFactory) -> None:
    config = Config()
    clock = FakeClock()
    inbox: queue.Queue[Any] = queue.Queue()
    held: list[Any] = []

    def open_tests(now: float) -> Bench:
        # Something else has taken the GO button's pin as the kit let go of it.
        held.append(gpiozero.Button(GO_PIN))
        return Bench(config, inbox.put, clock)

    def kit_again() -> InputKit:
        while held:  # (the other holder has let go by the time the kit is made again)
            held.pop().close()
        return make_kit(config.input, inbox.put, clock)

    tests = Bringup(open=open_tests, kit=kit_again)
    loop = DeviceLoop(APP, initial_state(config), kit=make_kit(config.input, inbox.put, clock),
                      inbox=inbox, display=RecordingDisplay(), store=MemoryStore(),
                      clock=clock, bringup=tests)
    loop.start()
    box = Box(loop, clock, RecordingDisplay(), None)
    loop.feed([MENU])
    rows = [label for _, label in menu_rows(loop.state, Home())]
    loop.feed([KnobTurn(rows.index(BRINGUP_ROW)), OK])
    assert loop.bench is None
    assert loop.shown is not None and loop.shown.title == "Cannot test"
    assert loop.shown.lines[0].startswith("cannot open the pins of the buttons: pin GPIO22 is "
                                          "already in use")
    # The kit has its pins again: MENU opens the menu.
    press_pin(factory, MENU_PIN)
    box.pump(0.05)
    release_pin(factory, MENU_PIN)
    box.pump(0.05)
    assert isinstance(loop.state.screen, Menu)


# -- a double press: the way on for a builder with only the encoder wired ----------------------


def test_the_knob_alone_goes_through_every_test_by_its_push_and_its_turns(
        factory: MockFactory) -> None:
    box = make_box(Config(), leds=WalkRecorder())
    open_tests(box)
    tap(factory, box, PUSH_PIN)
    assert box.stage is Stage.INPUTS and box.page() == ("push GPIO 27 pin 13",)
    box.pump(0.1)
    tap(factory, box, PUSH_PIN)  # the second press, 0.2 s after the first: on
    assert box.stage is Stage.OLED  # type: ignore[comparison-overlap]
    assert box.display.last.tobytes() == oled_pattern().tobytes()
    turn_encoder(factory, A_PIN, B_PIN, 1)
    box.pump(0.05)
    assert box.stage is Stage.LEDS
    tap(factory, box, PUSH_PIN)
    assert box.loop.bench is None
    assert box.loop.shown is not None and box.loop.shown.screen is Screen.HOME


@pytest.mark.parametrize("pin", [GO_PIN, UNDO_PIN, MENU_PIN])
def test_any_button_pressed_twice_goes_on(factory: MockFactory, pin: int) -> None:
    box = make_box(Config())
    open_tests(box)
    tap(factory, box, pin)
    tap(factory, box, pin)
    assert box.stage is Stage.OLED


def test_presses_too_far_apart_or_of_two_switches_are_not_a_double_press(
        factory: MockFactory) -> None:
    box = make_box(Config())
    open_tests(box)
    tap(factory, box, PUSH_PIN)
    box.pump(DOUBLE_S)  # the second press comes DOUBLE_S + 0.1 s after the first
    tap(factory, box, PUSH_PIN)
    assert box.stage is Stage.INPUTS
    tap(factory, box, GO_PIN)  # 0.1 s after the push: another switch
    assert box.stage is Stage.INPUTS
    assert box.page()[-3:] == ("push GPIO 27 pin 13", "push GPIO 27 pin 13",
                               "GO GPIO 22 pin 15")


def test_a_bouncing_contact_is_not_a_double_press(factory: MockFactory) -> None:
    """A contact bounces for a few milliseconds when it closes and when it opens; each bounce
    is an edge (the probes do not debounce: the page shows them), but none is a press."""
    box = make_box(Config())
    open_tests(box)
    bounce = BOUNCE_S / 4
    press_pin(factory, PUSH_PIN)  # closes, bouncing twice
    for _ in range(2):
        box.pump(bounce)
        release_pin(factory, PUSH_PIN)
        box.pump(bounce)
        press_pin(factory, PUSH_PIN)
    box.pump(0.1)
    release_pin(factory, PUSH_PIN)  # opens, bouncing once
    box.pump(bounce)
    press_pin(factory, PUSH_PIN)
    box.pump(bounce)
    release_pin(factory, PUSH_PIN)
    box.pump(0.05)
    assert box.stage is Stage.INPUTS
    assert box.page().count("push GPIO 27 pin 13") == 4  # ROOM: the last four of its edges
    box.pump(0.1)
    tap(factory, box, PUSH_PIN)  # a real second press, well within DOUBLE_S of the first
    assert box.stage is Stage.OLED  # type: ignore[comparison-overlap]


def test_a_keypad_key_pressed_twice_goes_on(factory: MockFactory) -> None:
    box, matrix, _ = keypad_box(factory)
    open_tests(box)
    for _ in range(2):
        matrix.press(1, 1)  # 5
        box.pump(bench.SCAN_S)
        box.pump(0.05)
        matrix.release(1, 1)
        box.pump(bench.SCAN_S)
        box.pump(0.05)
    assert box.stage is Stage.OLED
