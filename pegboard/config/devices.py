"""The sections for what is attached and where things are kept: ``[display]``, ``[idle]``,
``[link]``, ``[leds]`` and ``[store]``."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import Any

from pegboard.config.values import (
    Invalid,
    absolute_path,
    boolean,
    colours,
    int_in,
    int_of,
    matching,
    meta,
    number_in,
    one_of,
    path_text,
)


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


@dataclass(frozen=True)
class DisplayConfig:
    """The OLED: controller model, where it sits on the I2C bus, and how it draws.

    ``large_print`` draws every screen for a player with low vision: the scores and the count
    in digits at least 24 pixels high, and the card being chosen filling the screen (the
    setup screen's "Large print" row changes it for the session)."""

    model: str = field(default="ssd1306", metadata=meta(one_of("ssd1306", "sh1106"),
                                                         '"ssd1306" or "sh1106"'))
    i2c_port: int = field(default=1, metadata=meta(int_in(0, 22), "an I2C bus number 0-22"))
    i2c_address: int = field(default=0x3C, metadata=meta(
        int_in(0x03, 0x77), "a 7-bit I2C address 0x03-0x77 (usually 0x3C or 0x3D)"))
    rotate: int = field(default=0, metadata=meta(int_of(0, 1, 2, 3),
                                                  "0, 1, 2 or 3 (quarter turns)"))
    contrast: int = field(default=255, metadata=meta(int_in(0, 255), "a whole number 0-255"))
    large_print: bool = field(default=False, metadata=meta(boolean, "true or false"))


@dataclass(frozen=True)
class LinkConfig:
    """The USB serial link to the Pico that drives the LED pegboard."""

    device: str = field(default="", metadata=meta(
        _device, '"" (no LED pegboard), "auto", or a device path under /dev/ such as '
        '/dev/serial/by-id/...'))
    serial_number: str = field(default="", metadata=meta(
        matching(r"[0-9A-Za-z_-]{0,64}"),
        '"" (any) or a USB serial number (letters, digits, - and _)'))
    baudrate: int = field(default=115200, metadata=meta(
        int_of(9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600),
        "one of 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600"))


@dataclass(frozen=True)
class StoreConfig:
    """Where games are kept (see :mod:`pegboard.store` for the search order)."""

    path: str = field(default="", metadata=meta(
        absolute_path, '"" (the usual place) or an absolute directory path such as '
        '"/var/lib/pegboard"'))


_SECONDS = "whole seconds 0-86400 (0 = never)"


@dataclass(frozen=True)
class IdleConfig:
    """Screen saving: dim, then blank, after this long without input (0 = never)."""

    dim_after_s: int = field(default=180, metadata=meta(int_in(0, 86400), _SECONDS))
    blank_after_s: int = field(default=900, metadata=meta(int_in(0, 86400), _SECONDS))

    def problem(self) -> str | None:
        """Blanking before dimming is refused (unless either is off)."""
        if self.dim_after_s and self.blank_after_s and self.blank_after_s < self.dim_after_s:
            return (f"idle.blank_after_s = {self.blank_after_s} is sooner than "
                    f"idle.dim_after_s = {self.dim_after_s}; allowed: 0 (never) or at least "
                    f"{self.dim_after_s}")
        return None


@dataclass(frozen=True)
class LedsConfig:
    """The LED strip: its length, layout, brightness cap, current budget and colours."""

    count: int = field(default=242, metadata=meta(int_in(1, 1024), "a whole number 1-1024"))
    sides: int = field(default=2, metadata=meta(int_of(2, 3), "2 or 3 (tracks on the board)"))
    serpentine: bool = field(default=True, metadata=meta(boolean, "true or false"))
    hole1_end: str = field(default="start", metadata=meta(
        one_of("start", "end"), '"start" (hole 1 at the data-in end) or "end"'))
    order: str = field(default="street", metadata=meta(
        one_of("street", "track"), '"street" (the chain goes row after row down the board) or '
        '"track" (all of side 1\'s track, then side 2\'s)'))
    skip: int = field(default=0, metadata=meta(
        int_in(0, 100), "whole LEDs 0-100 at the start of the chain that are never lit"))
    brightness: float = field(default=0.25, metadata=meta(number_in(0.0, 1.0),
                                                           "a number from 0.0 to 1.0"))
    budget_ma: int = field(default=500, metadata=meta(int_in(50, 10000),
                                                       "whole milliamps 50-10000"))
    colours: tuple[str, ...] = field(default=("#e02020", "#2050f0", "#20b040"), metadata=meta(
        colours, 'a list of 1-4 colours written "#rrggbb"'))

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
