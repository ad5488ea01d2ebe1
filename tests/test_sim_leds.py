"""The simulator with the LED board: the real firmware under MicroPython, over the real link.

The game is played on the mock pins; the loop sends each change of pegs through
:class:`~pegboard.link.led_board.SerialLedBoard` and :class:`~pegboard.link.serial_link.SerialLink`
to the firmware on a pty, which lights its stand-in strip. Real time is needed here (the
firmware is another process), so waits poll for the expected state with a deadline.
"""

from __future__ import annotations

import time
from pathlib import Path

from pegboard.app.view import Screen
from pegboard.config import Config
from pegboard.sim.autoplay import AutoPlayer
from pegboard.sim.fakes import RecordingDisplay
from pegboard.sim.leds import SimulatedBoard
from pegboard.sim.session import Simulator
from pegboard.store import Store
from tests.support.sim_hands import pump_while_held


def test_pegs_reach_the_firmware(tmp_path: Path) -> None:
    from pegboard.hw.clock import MonotonicClock

    clock = MonotonicClock()
    leds = SimulatedBoard()
    store = Store(tmp_path, owner="test")
    sim = Simulator(Config(), store, RecordingDisplay(), clock=clock, leds=leds.board)

    wait = pump_while_held(sim)
    try:
        sim.start()
        player = AutoPlayer(seed=11)
        for _ in range(400):
            view = sim.loop.shown
            assert view is not None
            if view.screen is Screen.PLAY and sum(s.score for s in view.sides) > 0:
                break
            for step in player.decide(view):
                sim.press(step)
        view = sim.loop.shown
        assert view is not None and sum(s.score for s in view.sides) > 0
        scores = tuple(side.score for side in view.sides)
        deadline = time.monotonic() + 60  # a bound on a busy machine, not a speed
        while time.monotonic() < deadline:
            wait(0.05)
            shown = leds.link.shown
            if shown is not None and shown.front == scores:
                break
        assert leds.link.is_up, leds.link.status
        assert leds.link.shown is not None and leds.link.shown.front == scores
        frame = leds.firmware.last_frame()
        assert frame is not None and frame.lit(), "the firmware lit the pegs"
        assert any("connected" in line for line in leds.status())
        assert view.link == ""  # the screen shows no link-down mark
    finally:
        sim.close()
        leds.close()
        store.close()
