"""Simulated hands: key steps performed on gpiozero mock pins, with realistic timing.

A press holds the switch closed for ``press_s`` and leaves ``gap_s`` before the next key; a
long press holds past the hold time. Time passes through ``wait``: under a fake clock it moves
the clock and lets the loop run (scripted, instant and repeatable); in the interactive
simulator it really sleeps on the keyboard thread while the loop runs on its own.

The two kits are read differently, and so they are pressed differently in the interactive
simulator. The encoder's and the buttons' edges are reported by gpiozero's callbacks on the
pressing thread, each put on the loop's queue with its time, so the loop sees every one
however late it comes to them. The keypad has no edges: the loop finds its keys by scanning,
and a loop held up (a busy machine, a frame being drawn) can go longer than a 50 ms press
between two scans. So there the hands hold a key down until the scan has seen it down for as
long as the press lasts, by the loop's clock (a long press for the whole hold time), and after
letting go wait until the scan has seen it up before the next key (:class:`ScanWatch`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

from pegboard.errors import PegboardError
from pegboard.hw.inputs import KEYPAD_LAYOUT, EncoderPins, KeypadPins
from pegboard.sim.fakes import MockKeypadMatrix, press_pin, release_pin, turn_encoder
from pegboard.sim.keys import KeyStep

if TYPE_CHECKING:
    from gpiozero.pins.mock import MockFactory

Wait = Callable[[float], None]

SEEN_WITHIN_S = 60.0
"""The longest the hands wait for the keypad's scan to see a key go down or up: far longer
than any step of the loop, so only a loop that has stopped scanning reaches it."""


class KeyNotSeenError(PegboardError, TimeoutError):
    """The keypad's scan did not see a key the hands pressed or let go (the loop is stuck)."""


class ScanWatch:
    """What the keypad's scan has told the gesture rules, for hands on another thread.

    The loop calls :meth:`saw` after each poll of the keypad kit with the keys down at the
    last scan and the poll's time; the hands wait in :meth:`down_for` and :meth:`up`. A key
    is taken as down from the first scan that saw it, which is when the gesture rules took it
    down, so once a poll at that time plus ``held`` has been seen with the key still down,
    a hold has been reported and a tap not yet (a tap is reported when it is let go).
    """

    def __init__(self, within_s: float = SEEN_WITHIN_S) -> None:
        self.within_s = within_s
        self._changed = threading.Condition()
        self._since: dict[str, float] = {}
        self._now = float("-inf")
        self._ended = False

    def saw(self, down: Collection[str], now: float) -> None:
        """The loop polled the kit at ``now``; ``down`` were down at its last scan."""
        with self._changed:
            self._since = {key: self._since.get(key, now) for key in down}
            self._now = now
            self._changed.notify_all()

    def end(self) -> None:
        """The loop has stopped: no scan will come, so nobody waits for one."""
        with self._changed:
            self._ended = True
            self._changed.notify_all()

    def down_for(self, key: str, held: float) -> bool:
        """Wait until the scan has seen ``key`` down for ``held`` seconds; False if the loop
        stopped first. :class:`KeyNotSeenError` if that takes ``within_s``."""

        def seen() -> bool:
            since = self._since.get(key)
            return since is not None and self._now >= since + held

        return self._until(seen, f"{key!r} pressed")

    def up(self, key: str) -> bool:
        """Wait until the scan has seen ``key`` up; False if the loop stopped first."""
        return self._until(lambda: key not in self._since, f"{key!r} let go")

    def _until(self, seen: Callable[[], bool], what: str) -> bool:
        with self._changed:
            if not self._changed.wait_for(lambda: self._ended or seen(), self.within_s):
                raise KeyNotSeenError(
                    f"the keypad's scan did not see {what} within {self.within_s:g} s: the "
                    "simulator's loop has stopped scanning, so no more keys can be entered")
            return not self._ended


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
        scan: ScanWatch | None = None,
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
        # The keypad's scan as the loop on another thread sees it (the interactive
        # simulator's keypad). None: holding for the press's time is enough, as ``wait``
        # moves the clock and runs the loop, or the kit reports edges.
        self.scan = scan
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
            try:
                if self.scan is None:
                    self.wait(held)
                else:
                    self.scan.down_for(name, held)
            finally:
                self.keypad.release(*where)
            if self.scan is not None:
                self.scan.up(name)
        self.wait(self.gap_s)


def keypad_pins_matrix(factory: MockFactory, pins: KeypadPins) -> MockKeypadMatrix:
    """The mock wiring for a keypad on these pins (create before the keypad kit)."""
    return MockKeypadMatrix(factory, pins.rows, pins.cols)
