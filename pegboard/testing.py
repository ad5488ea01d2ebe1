"""Stand-ins for the world, for tests and the simulator: a clock you move by hand, a display
that keeps every frame, hands that press keys on gpiozero's mock pins, and key scripts.

The hands work on real gpiozero devices created on a ``MockFactory``: pressing a button drives
its pin low (the switches are wired to ground), turning the encoder drives its A and B pins
through the quadrature sequence, and the keypad is modelled as wiring between row and column
pins, so every key goes through the same gpiozero code as on a Pi.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PIL import Image

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
        self._row_pins = [factory.pin(pin, pin_class=_matrix_row_pin_class(), matrix=self)
                          for pin in self.rows]

    def press(self, row: int, col: int) -> None:
        """Hold down the key at (row, col), counted from 0."""
        self.pressed.add((row, col))
        self.update()

    def release(self, row: int, col: int) -> None:
        """Let go of the key at (row, col)."""
        self.pressed.discard((row, col))
        self.update()

    def update(self) -> None:
        """Set each column pin from the rows being driven and the keys held."""
        driven = {r for r, pin in enumerate(self._row_pins) if _drives_low(pin)}
        for c, col_pin in enumerate(self.cols):
            pin = self.factory.pin(col_pin)
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
        from gpiozero.pins.mock import MockPin

        class MatrixRowPin(MockPin):  # type: ignore[misc]
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


# -- key scripts ----------------------------------------------------------------------------


ENCODER_WORDS = ("right", "left", "ok", "go", "undo", "menu")
KEYPAD_WORDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


@dataclass(frozen=True, slots=True)
class KeyStep:
    """One scripted action: press ``key`` (held ``hold`` seconds), or wait, or turn.

    ``key`` is a button or keypad key name, ``"right"``/``"left"`` for encoder detents, or
    ``"wait"``; ``count`` repeats the step."""

    key: str
    count: int = 1
    hold: bool = False
    seconds: float = 0.0


_TOKEN = re.compile(
    r"^(?P<hold>hold-)?(?P<key>[A-Za-z0-9]+)(?:\*(?P<count>\d+))?(?::(?P<secs>\d+(?:\.\d+)?))?$"
)


def parse_script(text: str, *, source: str = "<script>") -> list[KeyStep]:
    """Read a key script: whitespace-separated words, ``#`` starts a comment.

    Words: ``right`` ``left`` (encoder detents), ``ok`` ``go`` ``undo`` ``menu`` (buttons),
    ``A 2 .. 10 J Q K`` (keypad rank keys), ``hold-ok`` etc. (a long press), ``WORD*N`` (N
    times), ``wait:SECONDS`` (nothing pressed for that long).

    >>> parse_script("right*3 ok  # pick\\nhold-menu wait:2.5")
    [KeyStep(key='right', count=3, hold=False, seconds=0.0), KeyStep(key='ok', count=1, \
hold=False, seconds=0.0), KeyStep(key='menu', count=1, hold=True, seconds=0.0), \
KeyStep(key='wait', count=1, hold=False, seconds=2.5)]
    """
    steps: list[KeyStep] = []
    for number, line in enumerate(text.splitlines(), start=1):
        for word in line.split("#", 1)[0].split():
            match = _TOKEN.match(word)
            key = match["key"] if match else ""
            if key.lower() in ENCODER_WORDS or key.lower() == "wait":
                key = key.lower()
            elif key.upper() in KEYPAD_WORDS:
                key = key.upper()
            else:
                match = None
            if match is None or (key == "wait") != (match["secs"] is not None):
                raise ValueError(
                    f"{source} line {number}: cannot read {word!r}; expected one of "
                    f"{', '.join(ENCODER_WORDS)}, a keypad key ({' '.join(KEYPAD_WORDS)}), "
                    "hold-KEY, KEY*N or wait:SECONDS"
                )
            steps.append(KeyStep(
                key=key,
                count=int(match["count"] or 1),
                hold=bool(match["hold"]),
                seconds=float(match["secs"] or 0.0),
            ))
    return steps


def expand(steps: Iterable[KeyStep]) -> Iterator[KeyStep]:
    """Each step once (``count`` unrolled), so a runner can act between repetitions."""
    for step in steps:
        for _ in range(step.count):
            yield KeyStep(step.key, 1, step.hold, step.seconds)


Pump = Callable[[], None]
"""Let the loop take everything that is waiting (called between pin changes)."""


# -- a store in memory ----------------------------------------------------------------------


class MemoryStore:
    """The store's interface kept in memory, for tests: every game's record lines.

    ``fail_next`` makes the next write raise, to test that nothing unsaved is shown."""

    def __init__(self) -> None:
        self.games: list[list[str]] = []
        self.results: list[dict[str, Any] | None] = []
        self.fail_next: Exception | None = None

    def _check(self) -> None:
        if self.fail_next is not None:
            error, self.fail_next = self.fail_next, None
            raise error

    def new_game(self, header: str) -> None:
        """Start a game with its header line."""
        self._check()
        if self.games and self.results[-1] is None:
            self.results[-1] = {"abandoned": True}
        self.games.append([header])
        self.results.append(None)

    def append(self, line: str, *, scores: Sequence[int] | None = None) -> None:
        """Record one event line of the current game (the scores are not kept)."""
        self._check()
        if not self.games or self.results[-1] is not None:
            raise LookupError("no game in progress")
        self.games[-1].append(line)

    def undo(self, *, scores: Sequence[int] | None = None) -> None:
        """Record an undo line."""
        self.append('{"type": "undo"}')

    def finish(self, result: Any) -> None:
        """End the current game with its result."""
        self._check()
        if not self.games or self.results[-1] is not None:
            raise LookupError("no game in progress")
        self.results[-1] = dict(result)

    def record(self, index: int = -1) -> str:
        """A game's record as JSON Lines text."""
        return "".join(line + "\n" for line in self.games[index])
