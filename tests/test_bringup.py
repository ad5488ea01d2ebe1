"""``pegboard bringup``: each stage's probe on gpiozero's MockFactory, luma's dummy panel and
the real firmware on a pty, and the lines a builder reads."""

from __future__ import annotations

import io
import queue
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy
from PIL import Image

from pegboard.cli import main
from pegboard.coach.help_shape import TEXT_WIDTH
from pegboard.commands.bringup import describe, watch
from pegboard.config.pins import KEYPAD_LEGENDS
from pegboard.hw.bringup import (
    KEYPAD_MEANINGS,
    Detent,
    EncoderProbe,
    KeyEdge,
    KeypadProbe,
    Probed,
    SwitchEdge,
    SwitchProbe,
    button_switches,
    oled_pattern,
)
from pegboard.hw.inputs import ButtonPins, EncoderPins, KeypadPins
from pegboard.link.fwsim import FirmwareProcess
from pegboard.link.layout import LedConfig, led_index
from pegboard.link.walk import walk_order, walk_screen, walk_step
from pegboard.sim.fakes import FakeClock, MockKeypadMatrix, press_pin, release_pin, turn_encoder


def drained(inbox: queue.Queue[Probed]) -> list[Probed]:
    out = []
    while not inbox.empty():
        out.append(inbox.get_nowait())
    return out


def test_each_button_reports_its_press_and_release_on_its_own_pin(factory: MockFactory) -> None:
    clock = FakeClock()
    inbox: queue.Queue[Probed] = queue.Queue()
    probe = SwitchProbe(button_switches(ButtonPins()), inbox.put, clock)
    for pin in (22, 23, 24):
        press_pin(factory, pin)
        release_pin(factory, pin)
    lines = [describe(item) for item in drained(inbox)]
    assert lines == [
        "GO pressed (GPIO 22, header pin 15)", "GO released (GPIO 22, header pin 15)",
        "UNDO pressed (GPIO 23, header pin 16)", "UNDO released (GPIO 23, header pin 16)",
        "MENU pressed (GPIO 24, header pin 18)", "MENU released (GPIO 24, header pin 18)",
    ]
    probe.close()


def test_a_button_wired_to_another_pin_names_the_pin_it_arrived_on(
        factory: MockFactory) -> None:
    # GO's wire on UNDO's pin: the press is reported as UNDO, with that pin, never as GO.
    inbox: queue.Queue[Probed] = queue.Queue()
    clock = FakeClock()
    probe = SwitchProbe(button_switches(ButtonPins()), inbox.put, clock)
    press_pin(factory, 23)
    assert drained(inbox) == [SwitchEdge("UNDO", 23, True, clock.now())]
    probe.close()


def test_each_detent_says_its_direction_and_a_swapped_a_b_reverses_it(
        factory: MockFactory) -> None:
    clock = FakeClock()
    inbox: queue.Queue[Probed] = queue.Queue()
    probe = EncoderProbe(EncoderPins(), inbox.put, clock)
    turn_encoder(factory, 17, 25, 2)
    turn_encoder(factory, 17, 25, -3)
    press_pin(factory, 27)
    items = drained(inbox)
    assert [item.direction for item in items if isinstance(item, Detent)] == [1, 1, -1, -1, -1]
    assert [describe(item) for item in items] == [
        "clockwise     one detent, count +1", "clockwise     one detent, count +2",
        "anticlockwise one detent, count +1", "anticlockwise one detent, count +0",
        "anticlockwise one detent, count -1",
        "encoder push (OK) pressed (GPIO 27, header pin 13)",
    ]
    probe.close()
    # The same clockwise turn with A and B swapped in the wiring reads anticlockwise.
    probe = EncoderProbe(EncoderPins(a=25, b=17), inbox.put, clock)
    turn_encoder(factory, 17, 25, 1)
    assert [describe(item) for item in drained(inbox)] == [
        "anticlockwise one detent, count -1"]
    probe.close()


def test_every_key_reports_its_row_and_column_pins(factory: MockFactory) -> None:
    pins = KeypadPins()
    matrix = MockKeypadMatrix(factory, pins.rows, pins.cols)
    probe = KeypadProbe(pins, FakeClock())
    assert probe.poll() == []
    for r in range(4):
        for c in range(4):
            matrix.press(r, c)
            (down,) = probe.poll()
            matrix.release(r, c)
            (up,) = probe.poll()
            assert (down.legend, down.row, down.col, down.pressed) == (
                KEYPAD_LEGENDS[r][c], r + 1, c + 1, True)
            assert (down.row_pin, down.col_pin) == (pins.rows[r], pins.cols[c])
            assert not up.pressed and up.legend == down.legend
    probe.close()


def test_a_key_line_names_the_pins_the_ribbon_wires_and_the_keys_meaning(
        factory: MockFactory) -> None:
    pins = KeypadPins()
    matrix = MockKeypadMatrix(factory, pins.rows, pins.cols)
    probe = KeypadProbe(pins, FakeClock())
    matrix.press(1, 2)  # the 6
    (edge,) = probe.poll()
    assert describe(edge) == (
        "key 6 down: row 2 (GPIO 6, header pin 31, ribbon wire 2) x column 3 (GPIO 4, "
        "header pin 7, ribbon wire 7); in a game: 6")
    matrix.release(1, 2)
    matrix.press(3, 0)
    assert [describe(e) for e in probe.poll()] == [
        "key 6 up: row 2 (GPIO 6, header pin 31, ribbon wire 2) x column 3 (GPIO 4, "
        "header pin 7, ribbon wire 7); in a game: 6",
        "key * down: row 4 (GPIO 26, header pin 37, ribbon wire 4) x column 1 (GPIO 12, "
        "header pin 32, ribbon wire 5); in a game: UNDO"]
    probe.close()


def test_the_meanings_follow_the_game_layout() -> None:
    assert KEYPAD_MEANINGS["1"] == "A" and KEYPAD_MEANINGS["0"] == "10"
    assert KEYPAD_MEANINGS["*"] == "UNDO" and KEYPAD_MEANINGS["#"] == "GO"
    assert KEYPAD_MEANINGS["D"] == "OK (hold: MENU)" and KEYPAD_MEANINGS["B"] == "Q"


def test_watch_prints_the_queue_and_the_scans_until_told_to_stop(
        factory: MockFactory) -> None:
    pins = KeypadPins()
    matrix = MockKeypadMatrix(factory, pins.rows, pins.cols)
    probe = KeypadProbe(pins, FakeClock())
    inbox: queue.Queue[Probed] = queue.Queue()
    inbox.put(SwitchEdge("GO", 22, True, 0.0))
    matrix.press(0, 3)
    out = io.StringIO()
    rounds = iter(range(3))
    watch(inbox, out, until=lambda: next(rounds, None) is None, poll=probe.poll, period=0.0)
    assert out.getvalue().splitlines() == [
        "key A down: row 1 (GPIO 5, header pin 29, ribbon wire 1) x column 4 (GPIO 7, "
        "header pin 26, ribbon wire 8); in a game: J",
        "GO pressed (GPIO 22, header pin 15)"]
    probe.close()


def test_the_command_stops_after_its_seconds_and_says_what_to_press(
        factory: MockFactory, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["bringup", "buttons", "--config", str(tmp_path / "none.toml"),
                 "--seconds", "0"]) == 2  # a config named on purpose must exist
    config = tmp_path / "config.toml"
    config.write_text("[input]\nbutton_go = 20\n")
    assert main(["bringup", "buttons", "--config", str(config), "--seconds", "0"]) == 0
    assert "Press each button: GO, UNDO, MENU" in capsys.readouterr().out
    # The pins were released: the buttons' pins open again; GO is on GPIO 20 as configured.
    held = SwitchProbe({"GO": 20}, lambda item: None, FakeClock())
    held.close()


def test_pins_in_use_are_a_clear_message_naming_the_service(
        factory: MockFactory, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("")
    holder = SwitchProbe({"row 1": 5}, lambda item: None, FakeClock())
    assert main(["bringup", "keypad", "--config", str(config), "--seconds", "0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pegboard bringup: cannot open the pins of the keypad: ")
    assert "sudo systemctl stop pegboard" in err
    holder.close()
    assert main(["bringup", "keypad", "--config", str(config), "--seconds", "0"]) == 0


def test_the_oled_pattern_frames_every_edge_and_marks_the_top_left() -> None:
    image = oled_pattern()
    assert image.size == (128, 64) and image.mode == "1"
    px = image.load()
    assert px is not None
    for x in range(128):
        assert px[x, 0] and px[x, 63]
    for y in range(64):
        assert px[0, y] and px[127, y]
    assert px[3, 3] and not px[124, 5]  # the triangle is top left only
    # The checkerboard lights half its pixels.
    lit = sum(1 for x in range(94, 126) for y in range(30, 62) if px[x, y])
    assert lit == 32 * 32 // 2


def test_the_oled_stage_shows_the_pattern_on_lumas_dummy(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[Image.Image] = []
    real = dummy.display

    def keep(self: dummy, image: Image.Image) -> None:
        shown.append(image.copy())
        real(self, image)

    monkeypatch.setattr(dummy, "display", keep)
    assert main(["bringup", "oled", "--display", "dummy", "--config",
                 str(tmp_path / "c.toml"), "--seconds", "0"]) == 2  # no such file
    config = tmp_path / "c.toml"
    config.write_text("[display]\nrotate = 0\n")
    assert main(["bringup", "oled", "--display", "dummy", "--config", str(config)]) == 0
    assert shown and all(frame.tobytes() == oled_pattern().tobytes() for frame in shown)
    assert "the test pattern is on the panel" in capsys.readouterr().out


def test_the_walk_visits_every_led_of_the_chain_once_in_order() -> None:
    for cfg in (LedConfig(), LedConfig(tracks=3), LedConfig(serpentine=False, skip=1)):
        order = walk_order(cfg)
        assert [led for led, _, _ in order] == list(range(cfg.skip, cfg.led_count))
        for led, side, hole in order:
            assert led_index(cfg, side, hole) == led


def test_a_walk_step_lights_that_hole_alone() -> None:
    cfg = LedConfig()
    line, board = walk_step(cfg, 30, 1, 30)
    assert line == "LED 30: track 2 hole 30 (board row 2, column 30)"
    assert board.front == (0, 30) and board.back == (0, 30)
    line, _ = walk_step(cfg, 240, 0, 121)
    assert line == "LED 240: the game hole"


def test_a_walk_step_on_the_boxs_screen_is_a_fact_a_line_none_broken() -> None:
    """The box's screen (21 columns) shows the step a fact a line, each short enough that
    the panel never breaks one ("column" and its number apart)."""
    cfg = LedConfig()
    assert walk_screen(cfg, 30, 1, 30) == ("LED 30", "track 2 hole 30", "row 2, column 30")
    assert walk_screen(cfg, 240, 0, 121) == ("LED 240", "the game hole")
    longest = max((line for place in walk_order(cfg) for line in walk_screen(cfg, *place)),
                  key=len)
    assert len(longest) <= TEXT_WIDTH, longest


def test_the_leds_stage_walks_the_strip_on_the_firmware(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[leds]\ncount = 242\n")  # one LED past the game hole's
    with FirmwareProcess(tmp_path) as firmware:
        assert main(["bringup", "leds", "--config", str(config), "--device",
                     str(firmware.port), "--pause", "0"]) == 0
        frames = firmware.frames()
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Connected: firmware ") and (
        "Walking the 241 LEDs the board uses along the chain" in out[0])  # not 242
    assert out[1] == "LED 0: track 1 hole 1 (board row 1, column 1)"
    assert out[-1] == "Done: every LED of the chain was lit once."
    assert len([line for line in out if line.startswith("LED ")]) == 241
    # Every LED was the brightest (the skunk markers are faint) in some frame, in order.
    brightest = [max(frame.lit(), key=lambda i: sum(frame.pixel(i)), default=None)
                 for frame in frames]
    seen = [led for led in dict.fromkeys(brightest) if led is not None]
    assert seen == list(range(241))


def test_the_leds_stage_without_a_board_says_how_to_give_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text("")
    assert main(["bringup", "leds", "--config", str(config)]) == 2
    assert "give --device" in capsys.readouterr().err


def test_a_key_edge_is_a_value() -> None:
    assert KeyEdge("1", 1, 1, 5, 12, True, 0.0) == KeyEdge("1", 1, 1, 5, 12, True, 0.0)
