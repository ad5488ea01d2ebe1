"""The bring-up tests in the simulator ("Test the box" on the home menu): the keys stand for the
box's inputs on gpiozero's mock pins, so each press is shown with its input's name and pins,
each detent with its direction, each keypad key with its row and column; the test pattern is
on the simulated panel and the LED walk on the simulated board (the real firmware under
MicroPython), whose status names the LED it lit."""

from __future__ import annotations

import io
import re
import time
from pathlib import Path

from pegboard.app.view import Screen, View
from pegboard.config import Config
from pegboard.device.bench import WHAT_THE_PATTERN_SHOWS
from pegboard.hw.bringup import oled_pattern
from pegboard.hw.clock import MonotonicClock
from pegboard.link.fwsim import RecordedFrame
from pegboard.rules.value import replace
from pegboard.sim.fakes import RecordingDisplay
from pegboard.sim.keys import parse_script
from pegboard.sim.leds import SimulatedBoard, lit_line
from pegboard.sim.script import ScriptResult, run_script
from pegboard.sim.session import SIM_WITHOUT_LEDS, Simulator
from pegboard.sim.terminal import StatusWatch, TerminalDisplay
from pegboard.store import Store
from tests.support.sim_hands import pump_while_held

TESTS = "Test 1/3: inputs"


def play(tmp_path: Path, kit: str, script: str) -> ScriptResult:
    config = Config()
    config = replace(config, input=replace(config.input, kit=kit))
    store = Store(tmp_path / "store", owner="test")
    try:
        return run_script(parse_script(script), config, store)
    finally:
        store.close()


def pages(result: ScriptResult, title: str) -> list[tuple[str, ...]]:
    """The lines of every frame with this title, in order."""
    return [view.lines for view in result.views if view.title == title]


def test_the_encoder_kits_keys_are_shown_as_the_box_sees_its_inputs(tmp_path: Path) -> None:
    result = play(tmp_path, "encoder",
                  "menu right*4 ok"  # Test the box
                  " go undo menu ok right right left"
                  " wait:0.6 ok ok"  # the push twice: on to the pattern
                  " right"  # a detent: on to the walk
                  " go"  # any key: leave
                  " ok")  # the home screen's New game: the keys are the game's again
    inputs = pages(result, TESTS)
    assert ("push GPIO 27 pin 13", "clockwise +1", "clockwise +2",
            "anticlockwise +1") in inputs
    assert inputs[-1][-1] == "push GPIO 27 pin 13"  # the first of the two presses
    shown = {line for lines in inputs for line in lines}
    assert {"GO GPIO 22 pin 15", "UNDO GPIO 23 pin 16", "MENU GPIO 24 pin 18"} <= shown
    assert all(view.hint == "Any key twice: next" for view in result.views
               if view.title == TESTS)
    at = [view.title for view in result.views].index("Test 2/3: OLED")
    assert result.views[at].lines == WHAT_THE_PATTERN_SHOWS  # the words under the panel
    assert result.frames[at].tobytes() == oled_pattern().tobytes()  # the pattern on it
    assert pages(result, "Test 3/3: LED walk") == [SIM_WITHOUT_LEDS]
    titles = [view.title for view in result.views]
    assert titles.index("Test 3/3: LED walk") < titles.index("Pegboard", at)
    assert result.views[-1].screen is not Screen.HOME  # OK on New game went to the app


def test_the_keypad_kits_keys_are_shown_with_their_rows_and_columns(tmp_path: Path) -> None:
    result = play(tmp_path, "keypad",
                  "menu 5"  # the menu's fifth row: Test the box
                  " A 10 J go wait:0.6 K K"  # K twice: on to the pattern
                  " ok ok")  # on to the walk, then leave
    inputs = pages(result, TESTS)
    # The sim's A (an ace) is the key printed 1, its J the key printed A (the rank keys'
    # places on the keypad), its K the key printed C; its GO is the key printed #.
    assert ("key 1: row 1, col 1", "  GPIO 5 x GPIO 12",
            "key 0: row 4, col 2", "  GPIO 26 x GPIO 16") in inputs
    assert ("key A: row 1, col 4", "  GPIO 5 x GPIO 7",
            "key #: row 4, col 3", "  GPIO 26 x GPIO 4") in inputs
    assert inputs[-1] == ("key #: row 4, col 3", "  GPIO 26 x GPIO 4",
                          "key C: row 3, col 4", "  GPIO 13 x GPIO 7")  # K's first press
    titles = [view.title for view in result.views]
    assert titles[-3:] == ["Test 2/3: OLED", "Test 3/3: LED walk", "Pegboard"]


DRAWN_LINE = re.compile(r"\x1b\[(\d+);1H\x1b\[2K([^\x1b]*)")


def drawings(text: str) -> list[str]:
    """Each drawing the terminal was sent, as its lines joined."""
    return [" | ".join(line for _, line in DRAWN_LINE.findall(drawing))
            for drawing in text.split("\x1b[H")[1:]]


def test_the_walk_on_the_sims_board_names_the_led_the_firmware_lit(tmp_path: Path) -> None:
    """The page names each LED as it is sent; the firmware shows it a moment later, and the
    status under the frame names the brightest LED it lit: the same one, drawn without a
    key being pressed."""
    out = io.StringIO()
    board = SimulatedBoard()
    display = TerminalDisplay("encoder", out=out, size=lambda: (120, 40), extra=board.status)
    store = Store(tmp_path / "store", owner="test")
    sim = Simulator(Config(), store, RecordingDisplay(), clock=MonotonicClock(),
                    on_frame=display.frame, leds=board.board, walk=board.board,
                    status=StatusWatch(display))

    wait = pump_while_held(sim)
    try:
        sim.start()
        for step in parse_script("menu right*4 ok ok ok go"):  # the walk
            sim.press(step)
        assert sim.loop.shown is None  # the tests' pictures, not the app's
        # The page's lines ("LED 195", "track 1 hole 105", ...) side by side with the frame
        both = re.compile(r"LED (\d+) \|[^|]*\btrack \d+ hole .*brightest: LED (\d+)\b")
        deadline = time.monotonic() + 60  # a bound on a busy machine, not a speed
        while True:
            matched = [m for m in map(both.search, drawings(out.getvalue())) if m]
            if any(m[1] == m[2] and m[1] != "0" for m in matched):
                break
            assert time.monotonic() < deadline, (
                "waited 60 s for a drawing naming the walk's LED beside the firmware's "
                f"brightest; the last: {drawings(out.getvalue())[-1:]}")
            wait(0.02)
        sim.press(parse_script("go")[0])  # any key leaves
        assert sim.loop.shown is not None and sim.loop.shown.screen is Screen.HOME
    finally:
        sim.close()
        board.close()
        store.close()


def test_the_status_is_drawn_again_only_when_it_changed() -> None:
    out = io.StringIO()
    status = ["LEDs lit: 0"]
    display = TerminalDisplay("encoder", out=out, size=lambda: (120, 40),
                              extra=lambda: list(status))
    watch = StatusWatch(display, every_s=0.1)
    watch.poll(10.0)
    assert out.getvalue() == ""  # nothing before the first frame
    display.frame(View(Screen.MESSAGE, title="Test 3/3: LED walk"), oled_pattern())
    drawn = out.getvalue().count("\x1b[H")
    assert watch.next_deadline() == 10.1
    watch.poll(10.1)
    assert out.getvalue().count("\x1b[H") == drawn  # the same status: not drawn again
    status[0] = "LEDs lit: 5; brightest: LED 3"
    watch.poll(10.15)
    assert out.getvalue().count("\x1b[H") == drawn  # not due yet
    watch.poll(10.2)
    assert out.getvalue().count("\x1b[H") == drawn + 1
    assert "brightest: LED 3" in drawings(out.getvalue())[-1]


def test_the_sims_board_names_its_brightest_leds_only_when_some_outshine_the_rest() -> None:
    faint, peg = bytes([6, 6, 6]), bytes([128, 0, 0])
    assert lit_line(None) == "LEDs lit: 0"
    assert lit_line(RecordedFrame(0, 5, faint * 4)) == "LEDs lit: 4, 5 mA"  # markers alone
    walk = RecordedFrame(0, 15, bytes(3 * 7) + peg + faint * 4)
    assert lit_line(walk) == "LEDs lit: 5, 15 mA; brightest: LED 7"
    pegs = RecordedFrame(0, 30, peg * 5 + faint)
    assert lit_line(pegs) == "LEDs lit: 6, 30 mA"  # more than NAMED share the top
    two = RecordedFrame(0, 20, peg + faint + peg)
    assert lit_line(two) == "LEDs lit: 3, 20 mA; brightest: LED 0, 2"
