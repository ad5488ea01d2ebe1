"""Simulated hands: key steps performed on gpiozero mock pins, with realistic timing.

A press holds the switch closed for ``press_s`` and leaves ``gap_s`` before the next key; a
long press holds past the hold time. Time passes through ``wait``: under a fake clock it moves
the clock and lets the loop run (scripted, instant and repeatable); in the interactive
simulator it really sleeps on the keyboard thread while the loop runs on its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from pegboard.hw.inputs import KEYPAD_LAYOUT, EncoderPins, KeypadPins
from pegboard.sim.fakes import MockKeypadMatrix, press_pin, release_pin, turn_encoder
from pegboard.sim.keys import KeyStep

if TYPE_CHECKING:
    from gpiozero.pins.mock import MockFactory

Wait = Callable[[float], None]


class MockHands:
    """Presses keys of either kit on a ``MockFactory``."""

    def __init__(
        self,
        factory: MockFactory,
        kit: str,
        wait: Wait,
        *,
        hold_s: float = 0.8,
        encoder_pins: EncoderPins | None = None,
        keypad: MockKeypadMatrix | None = None,
        press_s: float = 0.05,
        gap_s: float = 0.05,
    ) -> None:
        if kit not in ("encoder", "keypad"):
            raise ValueError(f"unknown input kit {kit!r}; use 'encoder' or 'keypad'")
        if kit == "keypad" and keypad is None:
            raise ValueError("the keypad kit needs its mock matrix")
        self.factory = factory
        self.kit = kit
        self.wait = wait
        self.hold_s = hold_s
        self.pins = encoder_pins or EncoderPins()
        self.keypad = keypad
        self.press_s = press_s
        self.gap_s = gap_s
        self._button_pins = {"ok": self.pins.push, "go": self.pins.go, "undo": self.pins.undo,
                             "menu": self.pins.menu}
        self._keypad_at = {name: (r, c) for r, row in enumerate(KEYPAD_LAYOUT)
                           for c, name in enumerate(row)}

    def do(self, step: KeyStep) -> None:
        """Perform one step ``step.count`` times."""
        for _ in range(step.count):
            self._once(step)

    def _once(self, step: KeyStep) -> None:
        if step.key == "wait":
            self.wait(step.seconds)
            return
        if step.key in ("right", "left"):
            if self.kit != "encoder":
                raise ValueError(f"{step.key!r}: the keypad kit has no encoder")
            pins = self.pins
            turn_encoder(self.factory, pins.a, pins.b, 1 if step.key == "right" else -1)
            self.wait(self.gap_s)
            return
        held = self.hold_s + self.press_s if step.hold else self.press_s
        if self.kit == "encoder":
            pin = self._button_pins.get(step.key)
            if pin is None:
                raise ValueError(f"{step.key!r} is a keypad key; the encoder kit has "
                                 f"{', '.join(self._button_pins)} and right/left")
            press_pin(self.factory, pin)
            self.wait(held)
            release_pin(self.factory, pin)
        else:
            assert self.keypad is not None
            name = step.key
            if name == "menu":  # the keypad's MENU is a long press of OK
                name, held = "ok", self.hold_s + self.press_s
            where = self._keypad_at.get(name)
            if where is None:
                raise ValueError(f"{step.key!r} is not on the keypad")
            self.keypad.press(*where)
            self.wait(held)
            self.keypad.release(*where)
        self.wait(self.gap_s)


def keypad_pins_matrix(factory: MockFactory, pins: KeypadPins) -> MockKeypadMatrix:
    """The mock wiring for a keypad on these pins (create before the keypad kit)."""
    return MockKeypadMatrix(factory, pins.rows, pins.cols)
