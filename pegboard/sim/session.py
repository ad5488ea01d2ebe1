"""The whole device on a desktop: gpiozero mock pins, the real kit, app, store and loop.

Keys reach the app the same way as on a Pi: :class:`~pegboard.sim.hands.MockHands` drives the
mock pins, gpiozero's devices see the edges and call back, the callbacks put raw items on the
loop's queue, and the one loop does the rest. Only the pin factory and the display differ.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from typing import Any

from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from PIL import Image

from pegboard.app.state import AppState
from pegboard.app.view import View
from pegboard.config import Config
from pegboard.device.build import (
    APP,
    encoder_pins,
    initial_state,
    keypad_pins,
    make_kit,
    outputs,
)
from pegboard.device.loop import DeviceLoop, Speech
from pegboard.device.ports import LedBoard
from pegboard.hw.clock import Clock
from pegboard.hw.oled import Display
from pegboard.sim.fakes import FakeClock, MockKeypadMatrix
from pegboard.sim.hands import MockHands
from pegboard.sim.keys import KeyStep
from pegboard.store import Store

FrameHook = Callable[[View, Image.Image], None]


class Simulator:
    """Pegboard on mock pins. With a :class:`FakeClock`, time moves only as keys are pressed
    (scripts, tests); with a real clock the loop is meant to run on its own thread."""

    def __init__(
        self,
        config: Config,
        store: Store | Any,
        display: Display,
        *,
        clock: Clock,
        on_frame: FrameHook | None = None,
        leds: LedBoard | None = None,
        notice: Callable[[str], None] | None = None,
        speech: Speech[AppState] | None = None,
    ) -> None:
        self.config = config
        self.clock = clock
        self.store = store
        self.factory = MockFactory()
        self._previous_factory = Device.pin_factory
        Device.pin_factory = self.factory
        self.inbox: queue.Queue[Any] = queue.Queue()
        matrix = None
        if config.input.kit == "keypad":
            pins = keypad_pins(config.input)
            matrix = MockKeypadMatrix(self.factory, pins.rows, pins.cols)
        kit = make_kit(config.input, self.inbox.put, clock, pin_factory=self.factory)
        state = initial_state(config, store, notice)
        self.loop = DeviceLoop(
            APP, state, kit=kit, inbox=self.inbox, display=display, store=store, clock=clock,
            observers=outputs(speech, leds), contrast=config.display.contrast,
            on_frame=on_frame,
        )
        wait = self._fake_wait if isinstance(clock, FakeClock) else time.sleep
        self.hands = MockHands(self.factory, config.input.kit, wait, hold_s=config.input.hold_s,
                               encoder_pins=encoder_pins(config.input), keypad=matrix)

    def start(self) -> None:
        """Draw the first frame."""
        self.loop.start()

    def press(self, step: KeyStep) -> None:
        """Perform one key step on the mock pins."""
        self.hands.do(step)

    def _fake_wait(self, seconds: float) -> None:
        # Move the fake clock deadline by deadline, so holds, repeats, scans and idle ticks
        # happen at the moments they would on the real device.
        assert isinstance(self.clock, FakeClock)
        end = self.clock.now() + seconds
        while True:
            now = self.clock.now()
            target = min(self.loop.next_deadline(), end)
            if target > now:
                self.clock.advance(target - now)
            self.loop.pump()
            if self.clock.now() >= end or not self.loop.running:
                return

    def power_cut(self) -> None:
        """Stop dead, as when the plug is pulled: nothing more is drawn or saved."""
        self.loop.running = False
        self.factory.reset()
        Device.pin_factory = self._previous_factory

    def close(self) -> None:
        """Leave the "game saved" frame, release the pins and restore the pin factory."""
        try:
            self.loop.close()
        finally:
            self.factory.reset()
            Device.pin_factory = self._previous_factory
