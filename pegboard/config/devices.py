"""The sections for what is attached and where things are kept: ``[display]``, ``[idle]``,
``[link]``, ``[leds]`` and ``[store]``."""

from __future__ import annotations

import posixpath
from typing import Any, ClassVar

from pegboard.config.values import (
    Invalid,
    absolute_path,
    boolean,
    int_in,
    int_of,
    matching,
    meta,
    number_in,
    one_of,
    path_text,
)
from pegboard.config.values import (
    colours as colour_list,
)
from pegboard.rules.value import Value


def _device(value: Any) -> str:
    """``""``, ``"auto"`` or a path that stays under /dev/ once ``..`` is resolved.

    The link opens it with pyserial's ``Serial(path)``, which takes paths only, not URLs.
    """
    if value in ("", "auto"):
        return str(value)
    path = path_text(value)
    if not path.startswith("/dev/") or not posixpath.normpath(path).startswith("/dev/"):
        raise Invalid
    return path


class DisplayConfig(Value):
    """The OLED: controller model, where it sits on the I2C bus, and how it draws.

    ``large_print`` draws every screen for a player with low vision: the scores and the count
    in digits at least 24 pixels high, and the card being chosen filling the screen (the
    setup screen's "Large print" row changes it for the session)."""

    __slots__ = ("contrast", "i2c_address", "i2c_port", "large_print", "model", "rotate")
    __match_args__ = ("model", "i2c_port", "i2c_address", "rotate", "contrast", "large_print")

    model: str
    i2c_port: int
    i2c_address: int
    rotate: int
    contrast: int
    large_print: bool

    KEYS: ClassVar[dict[str, dict[str, Any]]] = {
        "model": meta(one_of("ssd1306", "sh1106"),
                      '"ssd1306" or "sh1106"'),
        "i2c_port": meta(int_in(0, 22), "an I2C bus number 0-22"),
        "i2c_address": meta(
            int_in(0x03, 0x77), "a 7-bit I2C address 0x03-0x77 (usually 0x3C or 0x3D)"),
        "rotate": meta(int_of(0, 1, 2, 3),
                       "0, 1, 2 or 3 (quarter turns)"),
        "contrast": meta(int_in(0, 255), "a whole number 0-255"),
        "large_print": meta(boolean, "true or false"),
    }
    """Each key's check and what it allows (:func:`pegboard.config.values.meta`), in
    the order of the fields."""

    def __init__(
        self,
        model: str = "ssd1306",
        i2c_port: int = 1,
        i2c_address: int = 0x3C,
        rotate: int = 0,
        contrast: int = 255,
        large_print: bool = False,
    ) -> None:
        setter = object.__setattr__
        setter(self, "model", model)
        setter(self, "i2c_port", i2c_port)
        setter(self, "i2c_address", i2c_address)
        setter(self, "rotate", rotate)
        setter(self, "contrast", contrast)
        setter(self, "large_print", large_print)


class LinkConfig(Value):
    """The USB serial link to the Pico that drives the LED pegboard."""

    __slots__ = ("baudrate", "device", "serial_number")
    __match_args__ = ("device", "serial_number", "baudrate")

    device: str
    serial_number: str
    baudrate: int

    KEYS: ClassVar[dict[str, dict[str, Any]]] = {
        "device": meta(
            _device, '"" (no LED pegboard), "auto", or a device path under /dev/ such as '
            '/dev/serial/by-id/...'),
        "serial_number": meta(
            matching(r"[0-9A-Za-z_-]{0,64}"),
            '"" (any) or a USB serial number (letters, digits, - and _)'),
        "baudrate": meta(
            int_of(9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600),
            "one of 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600"),
    }
    """Each key's check and what it allows (:func:`pegboard.config.values.meta`), in
    the order of the fields."""

    def __init__(self, device: str = "", serial_number: str = "", baudrate: int = 115200) -> None:
        setter = object.__setattr__
        setter(self, "device", device)
        setter(self, "serial_number", serial_number)
        setter(self, "baudrate", baudrate)


class StoreConfig(Value):
    """Where games are kept (see :mod:`pegboard.store` for the search order)."""

    __slots__ = ("path",)
    __match_args__ = ("path",)

    path: str

    KEYS: ClassVar[dict[str, dict[str, Any]]] = {
        "path": meta(
            absolute_path, '"" (the usual place) or an absolute directory path such as '
            '"/var/lib/pegboard"'),
    }
    """Each key's check and what it allows (:func:`pegboard.config.values.meta`), in
    the order of the fields."""

    def __init__(self, path: str = "") -> None:
        object.__setattr__(self, "path", path)


_SECONDS = "whole seconds 0-86400 (0 = never)"


class IdleConfig(Value):
    """Screen saving: dim, then blank, after this long without input (0 = never)."""

    __slots__ = ("blank_after_s", "dim_after_s")
    __match_args__ = ("dim_after_s", "blank_after_s")

    dim_after_s: int
    blank_after_s: int

    KEYS: ClassVar[dict[str, dict[str, Any]]] = {
        "dim_after_s": meta(int_in(0, 86400), _SECONDS),
        "blank_after_s": meta(int_in(0, 86400), _SECONDS),
    }
    """Each key's check and what it allows (:func:`pegboard.config.values.meta`), in
    the order of the fields."""

    def __init__(self, dim_after_s: int = 180, blank_after_s: int = 900) -> None:
        setter = object.__setattr__
        setter(self, "dim_after_s", dim_after_s)
        setter(self, "blank_after_s", blank_after_s)

    def problem(self) -> str | None:
        """Blanking before dimming is refused (unless either is off)."""
        if self.dim_after_s and self.blank_after_s and self.blank_after_s < self.dim_after_s:
            return (f"idle.blank_after_s = {self.blank_after_s} is sooner than "
                    f"idle.dim_after_s = {self.dim_after_s}; allowed: 0 (never) or at least "
                    f"{self.dim_after_s}")
        return None


class LedsConfig(Value):
    """The LED strip: its length, layout, brightness cap, current budget and colours."""

    __slots__ = (
        "brightness",
        "budget_ma",
        "colours",
        "count",
        "hole1_end",
        "order",
        "serpentine",
        "sides",
        "skip",
    )
    __match_args__ = ("count", "sides", "serpentine", "hole1_end", "order", "skip", "brightness",
                      "budget_ma", "colours")

    count: int
    sides: int
    serpentine: bool
    hole1_end: str
    order: str
    skip: int
    brightness: float
    budget_ma: int
    colours: tuple[str, ...]

    KEYS: ClassVar[dict[str, dict[str, Any]]] = {
        "count": meta(int_in(1, 1000), "a whole number 1-1000 (the firmware drives at most 1000)"),
        "sides": meta(int_of(2, 3), "2 or 3 (tracks on the board)"),
        "serpentine": meta(boolean, "true or false"),
        "hole1_end": meta(
            one_of("start", "end"), '"start" (hole 1 at the data-in end) or "end"'),
        "order": meta(
            one_of("street", "track"), '"street" (the chain goes row after row down the board) or '
            '"track" (all of side 1\'s track, then side 2\'s)'),
        "skip": meta(
            int_in(0, 100), "whole LEDs 0-100 at the start of the chain that are never lit"),
        "brightness": meta(number_in(0.0, 1.0),
                           "a number from 0.0 to 1.0"),
        "budget_ma": meta(int_in(50, 10000),
                          "whole milliamps 50-10000"),
        "colours": meta(
            colour_list, 'a list of 1-4 colours written "#rrggbb"'),
    }
    """Each key's check and what it allows (:func:`pegboard.config.values.meta`), in
    the order of the fields."""

    def __init__(
        self,
        count: int = 241,
        sides: int = 2,
        serpentine: bool = True,
        hole1_end: str = "start",
        order: str = "street",
        skip: int = 0,
        brightness: float = 0.25,
        budget_ma: int = 500,
        colours: tuple[str, ...] = ("#e02020", "#2050f0", "#20b040"),
    ) -> None:
        setter = object.__setattr__
        setter(self, "count", count)
        setter(self, "sides", sides)
        setter(self, "serpentine", serpentine)
        setter(self, "hole1_end", hole1_end)
        setter(self, "order", order)
        setter(self, "skip", skip)
        setter(self, "brightness", brightness)
        setter(self, "budget_ma", budget_ma)
        setter(self, "colours", colours)

    def problem(self) -> str | None:
        """Enough LEDs for every track's 120 holes and the game hole, and a colour a track."""
        needed = self.skip + self.sides * 120 + 1
        if self.count < needed:
            return (f"leds.count = {self.count} is too few for leds.sides = {self.sides} and "
                    f"leds.skip = {self.skip}; allowed: at least {needed} (the skipped LEDs, "
                    "120 per track and the game hole)")
        if len(self.colours) < self.sides:
            return (f"leds.colours has {len(self.colours)} colour(s) but leds.sides = "
                    f"{self.sides}; allowed: at least one colour per side")
        return None
