"""The ways back into a Pico running the LED firmware, under the MicroPython unix port: the
interrupt sequences of Thonny, mpremote and rshell on a real pty, BOOTSEL pressed at start-up
or held while the loop runs (the stand-in ``rp2.bootsel_button`` of ``firmware/tests/standins``
reads a file the test writes), and ordinary traffic that must never stop the board.

Every wait is on I/O or on the process with a deadline (``pump``); nothing sleeps.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import serial

from pegboard.link.board import BoardState
from pegboard.link.fwsim import FIRMWARE_DIR, FirmwareProcess, tool
from pegboard.link.layout import LedConfig
from pegboard.link.serial_link import SerialLink
from tests.support.firmware import pump

CONFIG = LedConfig(heartbeat_ms=100, brightness=255, budget_ma=20000)
STANDINS = FIRMWARE_DIR / "tests" / "standins"


@pytest.fixture
def board(tmp_path: Path) -> Iterator[FirmwareProcess]:
    with FirmwareProcess(tmp_path) as firmware:
        yield firmware


def connect(firmware: FirmwareProcess) -> SerialLink:
    link = SerialLink(str(firmware.port), config=CONFIG, min_silence=1.0)
    assert pump(link, lambda: link.in_sync), link.status + firmware.log()
    return link


def lit(firmware: FirmwareProcess) -> bool:
    frame = firmware.last_frame()
    return frame is not None and any(frame.rgb)


# Thonny (its _interrupt_to_raw_prompt) writes Ctrl-C then Ctrl-A, up to six times, waiting in
# between; rshell and ampy (pyboard.py's enter_raw_repl) write CR Ctrl-C Ctrl-C, then CR Ctrl-A.
@pytest.mark.parametrize(("tool_name", "writes", "seen"), [
    ("Thonny", [b"\x03", b"\x01"] * 6, b"\x03\x01"),
    ("Thonny, one write", [b"\x03\x01"], b"\x03\x01"),
    ("rshell", [b"\r\x03\x03", b"\r\x01"], b"\x03\r\x01"),
    ("mpremote", [b"\r\x03", b"\r\x01"], b"\x03\r\x01"),
    ("a terminal", [b"\x03", b"\x03", b"\x03"], b"\x03\x03\x03"),
])
def test_each_tools_interrupt_hands_the_board_back(
    board: FirmwareProcess, tool_name: str, writes: list[bytes], seen: bytes
) -> None:
    link = connect(board)
    state = BoardState.from_scores([30, 20])
    link.show(state)
    assert pump(link, lambda: lit(board)), tool_name
    assert link.port is not None
    for data in writes:
        if not board.running:
            break  # stopped by the first repeat: the rest reaches the REPL, as on a Pico
        port = link.port
        assert isinstance(port, serial.Serial)  # the link's own opener: pyserial's port
        port.write(data)
        port.flush()
    assert pump(link, lambda: not board.running), tool_name
    assert board.process is not None and board.process.wait() == 0
    assert f"stopped by {seen!r}" in board.log(), board.log()
    assert not lit(board)  # dark, not frozen on the last board


@pytest.mark.parametrize("noise", [
    b"\x01", b"\x01\x03", b"\x03 \x01", b"\x03\x04\x01", b"\x01\x01\x03\r",
    b"\x03", b"\x03\x03", b"\r\x01", b"\x03\x02\x01",
])
def test_ordinary_traffic_and_stray_control_bytes_never_stop_it(
    board: FirmwareProcess, noise: bytes
) -> None:
    link = connect(board)
    assert link.port is not None
    for score in range(3, 60, 7):  # link traffic around the noise, then a board after it
        link.show(BoardState.from_scores([score, score // 2]))
        assert pump(link, lambda: link.in_sync)
        link.port.write(noise + b"\n")
    last = BoardState.from_scores([77, 41])
    link.show(last)
    assert pump(link, lambda: link.shown == last)
    assert board.running and "stopped by" not in board.log()


def stand_in_bootsel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, pressed: bool) -> Path:
    """The firmware started next runs on the stand-in modules, its BOOTSEL button the file
    returned, saying "1" (pressed) or "0" (released)."""
    button = tmp_path / "bootsel"
    button.write_text("1" if pressed else "0")
    monkeypatch.setenv("MICROPYPATH", f"{STANDINS}:.frozen")
    monkeypatch.setenv("PEGBOARD_BOOTSEL", str(button))
    return button


def test_bootsel_pressed_at_start_up_skips_the_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stand_in_bootsel(tmp_path, monkeypatch, pressed=True)
    with FirmwareProcess(tmp_path) as firmware:
        assert firmware.process is not None
        assert firmware.process.wait(timeout=60) == 0
        assert "stopped by b'BOOTSEL'" in firmware.log()
        # The loop never ran: no HELLO, no link-lost blink; one dark frame, nothing else.
        frames = firmware.frames()
        assert len(frames) == 1 and not any(frames[0].rgb)


def test_with_bootsel_released_the_stand_in_board_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same start with the button file saying "released": the board answers and draws."""
    button = stand_in_bootsel(tmp_path, monkeypatch, pressed=False)
    with FirmwareProcess(tmp_path) as firmware:
        link = connect(firmware)
        state = BoardState.from_scores([5, 9])
        link.show(state)
        assert pump(link, lambda: link.shown == state)
        button.write_text("1")  # now held: after a second the loop stops
        assert pump(link, lambda: not firmware.running)
        assert "stopped by b'BOOTSEL'" in firmware.log()
        assert not lit(firmware)


def hold(run_ms: int, *presses: str) -> list[str]:
    done = subprocess.run(
        [tool("micropython"), str(FIRMWARE_DIR / "tests" / "bootsel_hold.py"), str(run_ms),
         *presses], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.split()


@pytest.mark.parametrize(("presses", "ending"), [
    ((), ["RAN"]),
    (("300-1100",), ["RAN"]),  # 800 ms: too short
    (("300-1000", "1200-2100"), ["RAN"]),  # two short presses are not one long one
    (("300-5000",), ["STOPPED", "BOOTSEL"]),
])
def test_bootsel_must_be_held_a_second_while_the_loop_runs(
    presses: tuple[str, ...], ending: list[str]
) -> None:
    out = hold(3000, *presses)
    assert out[:len(ending)] == ending, out
    if ending[0] == "STOPPED":
        assert 1300 <= int(out[2]) <= 1500  # held from 300 ms: a second later, at the next poll
    polls = int(out[out.index("POLLS") + 1])
    assert polls <= 3000 // 100 + 1  # the button is read every 100 ms, not every pass
