"""The simulator's stand-ins for the world: a clock you move by hand, a display that keeps
every frame, and hands that press keys on gpiozero's mock pins.

The hands work on real gpiozero devices created on a ``MockFactory``: pressing a button drives
its pin low (the switches are wired to ground), turning the encoder drives its A and B pins
through the quadrature sequence, and the keypad is modelled as wiring between row and column
pins, so every key goes through the same gpiozero code as on a Pi.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from PIL import Image

from pegboard import lazy

if TYPE_CHECKING:
    from gpiozero.pins import mock
else:
    mock = lazy.module("gpiozero.pins.mock")

if TYPE_CHECKING:
    from gpiozero.pins.mock import MockFactory


class FakeClock:
    """A clock that only moves when told to.

    >>> clock = FakeClock(10.0)
    >>> clock.advance(0.25)
    10.25
    """

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start

    def now(self) -> float:
        """The current (fake) time in seconds."""
        return self._now

    def advance(self, seconds: float) -> float:
        """Move time forward; returns the new time."""
        if seconds < 0:
            raise ValueError(f"time only moves forward, not by {seconds!r} s")
        self._now += seconds
        return self._now


class RecordingDisplay:
    """A display that keeps a copy of every image it is shown, plus its power and contrast."""

    def __init__(self) -> None:
        self.frames: list[Image.Image] = []
        self.contrast_levels: list[int] = []
        self.on = True
        self.closed_with: Image.Image | None = None

    def show(self, image: Image.Image) -> None:
        """Keep a copy of ``image``."""
        self.frames.append(image.copy())

    def set_contrast(self, level: int) -> None:
        """Record a contrast change."""
        self.contrast_levels.append(level)

    def set_power(self, on: bool) -> None:
        """Record blanking (``False``) and waking (``True``)."""
        self.on = on

    def close(self, final: Image.Image | None = None) -> None:
        """Record the frame left on the screen at shutdown."""
        if final is not None:
            self.frames.append(final.copy())
        self.closed_with = final

    @property
    def last(self) -> Image.Image:
        """The frame on screen now."""
        if not self.frames:
            raise LookupError("nothing has been shown yet")
        return self.frames[-1]


# -- hands on mock pins ---------------------------------------------------------------------


def press_pin(factory: MockFactory, pin: int) -> None:
    """Close a switch wired to ground: its input pin goes low."""
    factory.pin(pin).drive_low()


def release_pin(factory: MockFactory, pin: int) -> None:
    """Open a switch: the pull-up takes its pin high again."""
    factory.pin(pin).drive_high()


def turn_encoder(factory: MockFactory, a: int, b: int, steps: int) -> None:
    """Drive the encoder's A and B pins through ``steps`` detents (negative: anticlockwise).

    Clockwise, A falls before B and rises before B (gpiozero reads the pair as 0, 2, 3, 1, 0);
    anticlockwise the other way round.
    """
    first, second = (factory.pin(a), factory.pin(b))
    if steps < 0:
        first, second = second, first
    for _ in range(abs(steps)):
        first.drive_low()
        second.drive_low()
        first.drive_high()
        second.drive_high()


class MockKeypadMatrix:
    """The wiring of a 4x4 keypad between mock row pins (outputs) and column pins (inputs).

    Create it before the keypad's gpiozero devices: it installs the row pins with a pin class
    that, whenever a row's level changes, pulls low every column joined to a driven (low) row
    by a pressed key, as the copper would.
    """

    def __init__(self, factory: MockFactory, rows: Iterable[int], cols: Iterable[int]) -> None:
        self.factory = factory
        self.rows = tuple(rows)
        self.cols = tuple(cols)
        self.pressed: set[tuple[int, int]] = set()
        # The hands press keys on their own thread while the loop's scan drives the rows: one
        # update at a time, so the last one always sets the columns from the latest rows and
        # keys (two interleaved, a stale one could pull a column low under another row and
        # the scan would read a key nobody pressed).
        self._wiring = threading.RLock()
        self._row_pins = [factory.pin(pin, pin_class=_matrix_row_pin_class(), matrix=self)
                          for pin in self.rows]
        self._col_pins: list[Any] | None = None

    def press(self, row: int, col: int) -> None:
        """Hold down the key at (row, col), counted from 0."""
        with self._wiring:
            self.pressed.add((row, col))
            self.update()

    def release(self, row: int, col: int) -> None:
        """Let go of the key at (row, col)."""
        with self._wiring:
            self.pressed.discard((row, col))
            self.update()

    def update(self) -> None:
        """Set each column pin from the rows being driven and the keys held.

        The column pins are looked up once, at the first change: the factory hands out the
        same pin for a number until it is reset, and a scan changes a row hundreds of times a
        second."""
        with self._wiring:
            if self._col_pins is None:
                self._col_pins = [self.factory.pin(col) for col in self.cols]
            driven = {r for r, pin in enumerate(self._row_pins) if _drives_low(pin)}
            for c, pin in enumerate(self._col_pins):
                if pin.function != "input":
                    continue
                if any((r, c) in self.pressed for r in driven):
                    pin.drive_low()
                else:
                    pin.drive_high()


def _drives_low(pin: Any) -> bool:
    return bool(pin.function == "output" and not pin.state)


_ROW_PIN_CLASS: type[Any] | None = None


def _matrix_row_pin_class() -> type[Any]:
    """A MockPin that tells its matrix when its level changes (built on first use so that
    importing this module does not import gpiozero)."""
    global _ROW_PIN_CLASS
    if _ROW_PIN_CLASS is None:
        class MatrixRowPin(mock.MockPin):  # type: ignore[misc]
            def __init__(self, factory: Any, info: Any, matrix: MockKeypadMatrix) -> None:
                self.matrix = matrix
                super().__init__(factory, info)

            def _change_state(self, value: bool) -> bool:
                changed = bool(super()._change_state(value))
                if changed:
                    self.matrix.update()
                return changed

            def _set_function(self, value: str) -> None:
                super()._set_function(value)
                self.matrix.update()

        _ROW_PIN_CLASS = MatrixRowPin
    return _ROW_PIN_CLASS
