"""The device loop's LED port over the real link and the real firmware."""

from __future__ import annotations

import select
import time
from collections.abc import Callable
from pathlib import Path

from pegboard.app.effects import LedSide, UpdateLeds
from pegboard.app.inputs import LinkStatus
from pegboard.config import Config
from pegboard.link.fwsim import FirmwareProcess
from pegboard.link.layout import led_config_from, led_index
from pegboard.link.led_board import SerialLedBoard
from pegboard.rules.value import replace


def run_until(
    board: SerialLedBoard, condition: Callable[[], bool], timeout: float = 60.0
) -> list[LinkStatus]:
    """Poll like the loop does (at the board's own deadlines) until ``condition()``."""
    events: list[LinkStatus] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        events += board.poll(time.monotonic())
        if condition():
            return events
        wait = (board.next_deadline() or time.monotonic() + 0.01) - time.monotonic()
        fd = board.link.fileno()
        select.select([fd] if fd is not None else [], [], [], max(0.0, min(wait, 0.05)))
    raise AssertionError(f"timed out: {board.link.status}")


def test_no_device_means_no_board() -> None:
    assert SerialLedBoard.from_config(Config()) is None


def test_pegs_from_the_app_reach_the_strip(tmp_path: Path) -> None:
    config = Config()
    with FirmwareProcess(tmp_path) as firmware:
        config = replace(
            config, link=replace(config.link, device=str(firmware.port))
        )
        board = SerialLedBoard.from_config(config)
        assert board is not None
        first = board.poll(time.monotonic())
        assert first == [LinkStatus(False, "LEDs: connecting")]
        events = run_until(board, lambda: board.link.is_up)
        assert events == [LinkStatus(True, "")]
        board.show(UpdateLeds((LedSide(10, 4), LedSide(0, 0)), 121, last=0))
        assert board.board is not None and board.board.last == 0
        cfg = led_config_from(config.leds)
        front, back = led_index(cfg, 0, 10), led_index(cfg, 0, 4)
        assert front is not None and back is not None

        def shown() -> bool:
            frame = firmware.last_frame()
            return frame is not None and frame.pixel(front)[0] > 0 and frame.pixel(back)[0] > 0

        run_until(board, lambda: board.link.in_sync and shown())
        frame = firmware.last_frame()
        assert frame is not None and frame.pixel(front)[0] > frame.pixel(back)[0]
        # The config's colours are used: #e02020 for side 1, capped by brightness 0.25.
        assert frame.pixel(front) == tuple(c * cfg.brightness // 255 for c in (0xE0, 0x20, 0x20))
        firmware.unplug()
        events = run_until(board, lambda: not board.link.is_up)
        assert events == [LinkStatus(False, "LEDs: lost")]
        board.close()


def test_deadlines_follow_the_link(tmp_path: Path) -> None:
    with FirmwareProcess(tmp_path) as firmware:
        config = Config()
        config = replace(
            config, link=replace(config.link, device=str(firmware.port))
        )
        board = SerialLedBoard.from_config(config)
        assert board is not None
        run_until(board, lambda: board.link.in_sync)
        now = time.monotonic()
        board.poll(now)
        deadline = board.next_deadline()
        assert deadline is not None and now < deadline <= now + 0.1  # idle: read heartbeats
        board.show(UpdateLeds((LedSide(3, 0), LedSide(0, 0)), 121))
        board.poll(now)
        deadline = board.next_deadline()
        assert deadline is not None and deadline <= now + 0.011  # waiting for an answer
        board.close()
