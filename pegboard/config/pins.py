"""``[input]``: the input kit and its GPIO pins (BCM numbers), and the rules pins must keep."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from pegboard.config.values import Invalid, int_in, meta, number_in, one_of
from pegboard.rules.value import Value

# BCM GPIO numbers on the 40-pin header. GPIO 2 and 3 carry I2C-1 (the OLED), so they are
# never accepted as input pins.
_HEADER_GPIOS = range(0, 28)
_I2C1_PINS = (2, 3)

I2S_PINS = (18, 19, 20, 21)
"""The pins the Pi's PCM (I2S) block takes when it is on: BCLK 18, LRCLK 19, DIN 20 and DOUT 21,
fixed by the chip (a MAX98357A wires up 18, 19 and 21; 20 is claimed all the same). The
default pins of both kits leave them free."""

KEYPAD_LEGENDS: tuple[tuple[str, str, str, str], ...] = (
    ("1", "2", "3", "A"),
    ("4", "5", "6", "B"),
    ("7", "8", "9", "C"),
    ("*", "0", "#", "D"),
)
"""What a standard 4x4 membrane keypad's keys say, row 1 at the top as seen from the front;
``keypad_rows[r]`` and ``keypad_cols[c]`` are the pins of the key at row r, column c."""

KEYPAD_RIBBON = ("R1", "R2", "R3", "R4", "C1", "C2", "C3", "C4")
"""The lines of such a keypad's 8-wire ribbon, wire 1 first (on the left with the keys facing
you): the four rows, then the four columns."""

PIN_ALLOWED = "a BCM GPIO number 0-27 other than 2 and 3 (I2C-1, used by the OLED)"


def pin(value: Any) -> int:
    """A header GPIO that is not an I2C-1 pin."""
    number = int_in(_HEADER_GPIOS.start, _HEADER_GPIOS.stop - 1)(value)
    if number in _I2C1_PINS:
        raise Invalid
    return number


def pins(count: int) -> Callable[[Any], tuple[int, ...]]:
    """A list of ``count`` pins."""

    def check(value: Any) -> tuple[int, ...]:
        if not isinstance(value, list) or len(value) != count:
            raise Invalid
        return tuple(pin(item) for item in value)

    return check


_PIN = meta(pin, PIN_ALLOWED)


def _pins_meta(count: int) -> dict[str, Any]:
    return meta(pins(count), f"a list of {count} pins, each {PIN_ALLOWED}")


class InputConfig(Value):
    """How players enter things: the input kit and its pins (BCM numbers)."""

    __slots__ = (
        "button_go",
        "button_menu",
        "button_undo",
        "debounce_ms",
        "encoder_a",
        "encoder_b",
        "encoder_push",
        "hold_s",
        "keypad_cols",
        "keypad_rows",
        "kit",
        "repeat_s",
    )
    __match_args__ = ("kit", "encoder_a", "encoder_b", "encoder_push", "button_go", "button_undo",
                      "button_menu", "keypad_rows", "keypad_cols", "hold_s", "repeat_s",
                      "debounce_ms")

    kit: str
    encoder_a: int
    encoder_b: int
    encoder_push: int
    button_go: int
    button_undo: int
    button_menu: int
    keypad_rows: tuple[int, ...]
    keypad_cols: tuple[int, ...]
    hold_s: float
    repeat_s: float
    debounce_ms: int

    KEYS: ClassVar[dict[str, dict[str, Any]]] = {
        "kit": meta(one_of("encoder", "keypad"),
                    '"encoder" or "keypad"'),
        "encoder_a": _PIN,
        "encoder_b": _PIN,
        "encoder_push": _PIN,
        "button_go": _PIN,
        "button_undo": _PIN,
        "button_menu": _PIN,
        "keypad_rows": _pins_meta(4),
        "keypad_cols": _pins_meta(4),
        "hold_s": meta(number_in(0.2, 5.0),
                       "seconds from 0.2 to 5.0"),
        "repeat_s": meta(number_in(0.03, 2.0),
                         "seconds from 0.03 to 2.0"),
        "debounce_ms": meta(int_in(0, 200),
                            "whole milliseconds from 0 to 200"),
    }
    """Each key's check and what it allows (:func:`pegboard.config.values.meta`), in
    the order of the fields."""

    def __init__(
        self,
        kit: str = "encoder",
        encoder_a: int = 17,
        encoder_b: int = 25,
        encoder_push: int = 27,
        button_go: int = 22,
        button_undo: int = 23,
        button_menu: int = 24,
        keypad_rows: tuple[int, ...] = (5, 6, 13, 26),
        keypad_cols: tuple[int, ...] = (12, 16, 4, 7),
        hold_s: float = 0.8,
        repeat_s: float = 0.15,
        debounce_ms: int = 20,
    ) -> None:
        setter = object.__setattr__
        setter(self, "kit", kit)
        setter(self, "encoder_a", encoder_a)
        setter(self, "encoder_b", encoder_b)
        setter(self, "encoder_push", encoder_push)
        setter(self, "button_go", button_go)
        setter(self, "button_undo", button_undo)
        setter(self, "button_menu", button_menu)
        setter(self, "keypad_rows", keypad_rows)
        setter(self, "keypad_cols", keypad_cols)
        setter(self, "hold_s", hold_s)
        setter(self, "repeat_s", repeat_s)
        setter(self, "debounce_ms", debounce_ms)

    def pins_in_use(self) -> dict[str, int]:
        """The pins the selected kit uses, by key name (the buttons belong to both kits)."""
        used = {
            "button_go": self.button_go,
            "button_undo": self.button_undo,
            "button_menu": self.button_menu,
        }
        if self.kit == "encoder":
            used |= {
                "encoder_a": self.encoder_a,
                "encoder_b": self.encoder_b,
                "encoder_push": self.encoder_push,
            }
        else:
            used |= {f"keypad_rows[{i}]": pin for i, pin in enumerate(self.keypad_rows)}
            used |= {f"keypad_cols[{i}]": pin for i, pin in enumerate(self.keypad_cols)}
        return used

    def problem(self, *, i2s_amp: bool) -> str | None:
        """What is wrong with the pins taken together: one pin for two inputs, or an input on
        a pin the I2S amplifier takes (``voice.i2s_amp``); None when nothing is."""
        seen: dict[int, str] = {}
        for name, number in self.pins_in_use().items():
            if number in seen:
                return (f"input.{name} = {number} is the same pin as input.{seen[number]}; "
                        f"allowed: a pin that no other input of the {self.kit} kit uses")
            seen[number] = name
        taken = [(name, number) for name, number in self.pins_in_use().items()
                 if i2s_amp and number in I2S_PINS]
        if taken:
            name, number = taken[0]
            default = InputConfig(kit=self.kit).pins_in_use()[name]
            return (f"input.{name} = {number} is an I2S pin, and voice.i2s_amp = true puts the "
                    f"amplifier on GPIO {', '.join(map(str, I2S_PINS))}; allowed: another pin "
                    f"for the input, such as its default {default} (wire it there), or "
                    "voice.i2s_amp = false with a USB speaker or the Pi's audio out")
        return None
