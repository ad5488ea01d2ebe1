"""Bring-up probes: each input stage of the box on its own, reported pin by pin.

A builder checks each stage at the bench before a game can hide a wiring fault: a button that
never reports its press (a dead switch or a wrong pin), an encoder whose detents come out the
wrong way round (A and B swapped), a keypad key reported at another row or column (the ribbon
plugged in reversed or shifted). The probes read the same pins, through the same gpiozero
devices, as the input kits (:mod:`pegboard.hw.inputs`), but report what the wires do, not what
a key means in a game: no debounce, no hold or repeat.

Like the kits, gpiozero's callbacks only put an item on a queue (``sink``); the keypad, which
has no interrupts, is scanned by :meth:`KeypadProbe.poll`. The OLED's test pattern is
:func:`oled_pattern`. gpiozero is imported lazily.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw

from pegboard import lazy
from pegboard.config.pins import KEYPAD_LEGENDS
from pegboard.errors import PegboardError
from pegboard.hw.inputs import KEYPAD_LAYOUT, ButtonPins, EncoderPins, KeypadKit, KeypadPins
from pegboard.rules.value import Value

if TYPE_CHECKING:
    import gpiozero
    from gpiozero import Factory

    from pegboard.hw.clock import Clock
else:
    gpiozero = lazy.module("gpiozero")

KEYPAD_MEANINGS: Mapping[str, str] = {
    legend: {"undo": "UNDO", "go": "GO", "ok": "OK (hold: MENU)"}.get(name, name)
    for legends, names in zip(KEYPAD_LEGENDS, KEYPAD_LAYOUT, strict=True)
    for legend, name in zip(legends, names, strict=True)
}
"""Each printed key with what it does in a game ("1" enters an ace, "*" is UNDO ...)."""


class SwitchEdge(Value):
    """A switch wired to ground closed (``pressed``) or opened, on BCM ``pin``."""

    __slots__ = ("name", "pin", "pressed", "t")
    __match_args__ = ("name", "pin", "pressed", "t")

    name: str
    pin: int
    pressed: bool
    t: float

    def __init__(self, name: str, pin: int, pressed: bool, t: float) -> None:
        setter = object.__setattr__
        setter(self, "name", name)
        setter(self, "pin", pin)
        setter(self, "pressed", pressed)
        setter(self, "t", t)


class Detent(Value):
    """The encoder moved one detent: ``direction`` +1 clockwise, -1 anticlockwise; ``count``
    is the sum of every detent since the probe started."""

    __slots__ = ("count", "direction", "t")
    __match_args__ = ("direction", "count", "t")

    direction: int
    count: int
    t: float

    def __init__(self, direction: int, count: int, t: float) -> None:
        setter = object.__setattr__
        setter(self, "direction", direction)
        setter(self, "count", count)
        setter(self, "t", t)


class KeyEdge(Value):
    """A keypad key went down or up: its legend, its row and column (from 1) and their pins."""

    __slots__ = ("col", "col_pin", "legend", "pressed", "row", "row_pin", "t")
    __match_args__ = ("legend", "row", "col", "row_pin", "col_pin", "pressed", "t")

    legend: str
    row: int
    col: int
    row_pin: int
    col_pin: int
    pressed: bool
    t: float

    def __init__(
        self,
        legend: str,
        row: int,
        col: int,
        row_pin: int,
        col_pin: int,
        pressed: bool,
        t: float,
    ) -> None:
        setter = object.__setattr__
        setter(self, "legend", legend)
        setter(self, "row", row)
        setter(self, "col", col)
        setter(self, "row_pin", row_pin)
        setter(self, "col_pin", col_pin)
        setter(self, "pressed", pressed)
        setter(self, "t", t)


ENCODER_PUSH = "encoder push (OK)"
"""The name the encoder probe gives its push switch."""

Probed = SwitchEdge | Detent | KeyEdge
"""What a probe reports."""

Sink = Callable[[Probed], None]


def _factory_kwargs(pin_factory: Factory | None) -> dict[str, Any]:
    return {} if pin_factory is None else {"pin_factory": pin_factory}


class PinsUnavailable(PegboardError):
    """A probe's pins could not be opened (in use by the service, no GPIO chip here ...)."""


def _opening(stage: str, make: Callable[[], Any]) -> Any:
    """``make()``, with gpiozero's errors (a pin in use, no pin factory) as one message."""
    try:
        return make()
    except (gpiozero.GPIOZeroError, OSError, RuntimeError) as error:
        raise PinsUnavailable(f"cannot open the pins of the {stage}: {error}") from error


class SwitchProbe:
    """Named switches, each wired from its GPIO to ground (the Pi's pull-up holds it high)."""

    def __init__(self, switches: Mapping[str, int], sink: Sink, clock: Clock, *,
                 pin_factory: Factory | None = None) -> None:
        self.switches = dict(switches)
        self._devices: list[Any] = []
        kw = _factory_kwargs(pin_factory)
        try:
            for name, pin in self.switches.items():
                button = _opening("buttons", functools.partial(
                    gpiozero.Button, pin, pull_up=True, bounce_time=None, **kw))
                button.when_pressed = _edge(sink, clock, name, pin, True)
                button.when_released = _edge(sink, clock, name, pin, False)
                self._devices.append(button)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Release every pin."""
        for device in reversed(self._devices):
            device.close()
        self._devices.clear()


def _edge(sink: Sink, clock: Clock, name: str, pin: int, pressed: bool) -> Callable[[], None]:
    def callback() -> None:
        sink(SwitchEdge(name, pin, pressed, clock.now()))

    return callback


def button_switches(pins: ButtonPins) -> dict[str, int]:
    """The three buttons both kits have, by the names printed on the box."""
    return {"GO": pins.go, "UNDO": pins.undo, "MENU": pins.menu}


class EncoderProbe:
    """The encoder's A and B (its detents, with their direction) and its push switch.

    The detents are decoded by gpiozero's :class:`~gpiozero.RotaryEncoder`, as in the game:
    turned clockwise (seen from the knob) the probe must say clockwise; if it says
    anticlockwise, A and B (CLK and DT on a KY-040) are swapped, at the module or in the
    config."""

    def __init__(self, pins: EncoderPins, sink: Sink, clock: Clock, *,
                 pin_factory: Factory | None = None) -> None:
        self.count = 0
        kw = _factory_kwargs(pin_factory)
        self._encoder = _opening("encoder", lambda: gpiozero.RotaryEncoder(
            pins.a, pins.b, max_steps=0, **kw))

        def turned(direction: int) -> Callable[[], None]:
            def callback() -> None:
                self.count += direction
                sink(Detent(direction, self.count, clock.now()))

            return callback

        self._encoder.when_rotated_clockwise = turned(1)
        self._encoder.when_rotated_counter_clockwise = turned(-1)
        try:
            self._push = SwitchProbe({ENCODER_PUSH: pins.push}, sink, clock,
                                     pin_factory=pin_factory)
        except BaseException:
            self._encoder.close()
            raise

    def close(self) -> None:
        """Release every pin."""
        self._push.close()
        self._encoder.close()


class KeypadProbe:
    """The keypad's matrix, scanned as the game scans it (:meth:`KeypadKit.scan`): every key
    that goes down or up is reported with its row and column and the two pins that join."""

    def __init__(self, pins: KeypadPins, clock: Clock, *,
                 pin_factory: Factory | None = None) -> None:
        self.pins = pins
        self._clock = clock
        self._kit: KeypadKit = _opening("keypad", lambda: KeypadKit(
            clock, pins=pins, pin_factory=pin_factory))
        self._down: set[str] = set()
        # The kit names a key by its meaning (KEYPAD_LAYOUT); the probe by its place.
        self._where = {name: (r, c) for r, row in enumerate(KEYPAD_LAYOUT)
                       for c, name in enumerate(row)}

    def poll(self) -> list[KeyEdge]:
        """Scan once: the keys that went down or up since the last scan, in keypad order."""
        now = self._clock.now()
        down = self._kit.scan()
        edges = []
        for name in sorted(down ^ self._down, key=self._where.__getitem__):
            r, c = self._where[name]
            edges.append(KeyEdge(KEYPAD_LEGENDS[r][c], r + 1, c + 1, self.pins.rows[r],
                                 self.pins.cols[c], name in down, now))
        self._down = down
        return edges

    @property
    def down(self) -> frozenset[str]:
        """The keys down at the last scan, by the kit's names (``"ok"``, ``"undo"`` ...)."""
        return frozenset(self._down)

    def close(self) -> None:
        """Release every pin."""
        self._kit.close()


def oled_pattern(width: int = 128, height: int = 64) -> Image.Image:
    """The OLED's test pattern (mode "1"): a frame on the outermost pixels (a shifted or
    cropped picture loses one side, an SH1106 driven as an SSD1306 shows noise at an edge),
    a marker in the top-left corner (upside down: `display.rotate = 2`), a checkerboard
    (every pixel can light and go dark) and a ruler of ticks every 8 pixels."""
    image = Image.new("1", (width, height), 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width - 1, height - 1), outline=1)
    draw.polygon([(2, 2), (14, 2), (2, 14)], fill=1)
    for x in range(8, width - 1, 8):
        draw.line((x, 1, x, 4 if x % 32 else 7), fill=1)
    for y in range(8, height - 1, 8):
        draw.line((1, y, 4 if y % 32 else 7, y), fill=1)
    left, top = width - 34, height - 34
    for y in range(top, height - 2):
        for x in range(left, width - 2):
            if (x // 4 + y // 4) % 2 == 0:
                image.putpixel((x, y), 1)
    draw.text((12, 20), f"{width}x{height}", fill=1)
    draw.text((12, 34), "top left", fill=1)
    return image
