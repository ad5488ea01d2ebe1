"""The LED board built from the config file: every ``[leds]`` and ``[link]`` key reaches the
firmware (running under MicroPython on a pty) or the serial port."""

from __future__ import annotations

import dataclasses
import os
import pty
import select
import termios
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from pegboard.app.effects import LedSide, UpdateLeds
from pegboard.config import Config, parse_config
from pegboard.device.build import make_leds, serial_opener
from pegboard.link.fwsim import FirmwareProcess
from pegboard.link.layout import led_config_from, led_index
from pegboard.link.led_board import SerialLedBoard
from pegboard.rules.value import replace


def run_until(board: SerialLedBoard, condition: Callable[[], bool], timeout: float = 60.0) -> None:
    """Poll like the loop does, waiting on the port, until ``condition()``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        board.poll(time.monotonic())
        if condition():
            return
        wait = (board.next_deadline() or time.monotonic() + 0.01) - time.monotonic()
        fd = board.link.fileno()
        select.select([fd] if fd is not None else [], [], [], max(0.0, min(wait, 0.05)))
    raise AssertionError(f"timed out: {board.link.status}")


def test_order_and_skip_from_the_config_reach_the_firmware(tmp_path: Path) -> None:
    config = parse_config('[leds]\ncount = 242\norder = "track"\nskip = 1\n')
    with FirmwareProcess(tmp_path) as firmware:
        config = replace(
            config, link=replace(config.link, device=str(firmware.port)))
        board = make_leds(config)
        assert board is not None
        cfg = led_config_from(config.leds)
        assert (cfg.order, cfg.skip) == ("track", 1)
        run_until(board, lambda: board.link.in_sync)
        board.show(UpdateLeds((LedSide(31, 0), LedSide(1, 0)), 121))
        # Hole 31 of side 1 is on street 2 of track 1: the second run of a "track" chain (run
        # backwards), the third of a "street" one; all one LED on for the skipped one.
        front, other = led_index(cfg, 0, 31), led_index(cfg, 1, 1)
        assert front == 1 + 30 and other == 1 + 120
        street = dataclasses.replace(cfg, order="street")
        assert led_index(street, 0, 31) == 1 + 60 + 29 and led_index(street, 1, 1) == 1 + 59

        def shown() -> bool:
            frame = firmware.last_frame()
            return frame is not None and front is not None and frame.pixel(front)[0] > 0

        run_until(board, lambda: board.link.in_sync and shown())
        frame = firmware.last_frame()
        assert frame is not None and other is not None
        assert frame.pixel(other)[2] > 0  # side 2's blue at its hole 1
        assert frame.pixel(0) == (0, 0, 0)  # the skipped LED stays dark
        # Everything else lit is the faint skunk markers on holes 61 and 91, at the indices of
        # the same table.
        markers = {led_index(cfg, side, hole) for side in (0, 1) for hole in (61, 91)}
        assert set(frame.lit()) == {front, other} | markers
        board.close()


def test_no_device_means_no_board() -> None:
    assert make_leds(Config()) is None


def test_the_port_is_opened_at_the_configured_baudrate() -> None:
    controller, device = pty.openpty()
    try:
        port = serial_opener(57600)(os.ttyname(device))
        try:
            attributes = termios.tcgetattr(device)
            assert attributes[4] == attributes[5] == termios.B57600  # ispeed, ospeed
        finally:
            port.close()
    finally:
        os.close(controller)
        os.close(device)


def test_a_missing_port_is_a_link_error() -> None:
    from pegboard.errors import LinkError

    with pytest.raises(LinkError, match="cannot open /dev/pegboard-no-such-port"):
        serial_opener(115200)("/dev/pegboard-no-such-port")
