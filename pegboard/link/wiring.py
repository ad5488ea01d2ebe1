"""Where every wire goes: the Pi header and the Pico, from the config defaults.

The pin numbers come from :mod:`pegboard.config` (BCM numbering), so the wiring tables in
``hardware/README.md`` and the wiring drawing can never disagree with what the software
expects; a test checks the README's table is exactly :func:`pi_pin_table`.
"""

from __future__ import annotations

from pegboard.config import DisplayConfig, InputConfig
from pegboard.rules.value import Value

#: BCM GPIO number → physical pin on the 40-pin header (same on every 40-pin Pi).
BCM_TO_HEADER = {
    2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18, 10: 19,
    9: 21, 25: 22, 11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29, 6: 31, 12: 32, 13: 33, 19: 35,
    16: 36, 26: 37, 20: 38, 21: 40,
}
#: Power pins of the header.
HEADER_POWER = {1: "3V3", 2: "5V", 4: "5V", 6: "GND", 9: "GND", 14: "GND", 17: "3V3",
                20: "GND", 25: "GND", 30: "GND", 34: "GND", 39: "GND"}


class PiPin(Value):
    """One signal on the Pi header: the config key (or bus signal), BCM GPIO, physical pin."""

    __slots__ = ("bcm", "function", "header", "part")
    __match_args__ = ("function", "bcm", "header", "part")

    function: str
    bcm: int
    header: int
    part: str

    def __init__(self, function: str, bcm: int, header: int, part: str) -> None:
        setter = object.__setattr__
        setter(self, "function", function)
        setter(self, "bcm", bcm)
        setter(self, "header", header)
        setter(self, "part", part)


def pi_pins(inputs: InputConfig | None = None, display: DisplayConfig | None = None) -> list[PiPin]:
    """Every GPIO the device uses, in header order."""
    inputs = inputs or InputConfig()
    _ = display or DisplayConfig()  # the OLED is on I2C-1, whose pins are fixed
    named: list[tuple[str, int, str]] = [
        ("display.sda", 2, "OLED SDA"),
        ("display.scl", 3, "OLED SCL"),
        ("input.encoder_a", inputs.encoder_a, "encoder CLK"),
        ("input.encoder_b", inputs.encoder_b, "encoder DT"),
        ("input.encoder_push", inputs.encoder_push, "encoder SW"),
        ("input.button_go", inputs.button_go, "GO button"),
        ("input.button_undo", inputs.button_undo, "UNDO/BACK button"),
        ("input.button_menu", inputs.button_menu, "MENU button"),
    ]
    named += [(f"input.keypad_rows[{i}]", pin, f"keypad row {i + 1}")
              for i, pin in enumerate(inputs.keypad_rows)]
    named += [(f"input.keypad_cols[{i}]", pin, f"keypad column {i + 1}")
              for i, pin in enumerate(inputs.keypad_cols)]
    pins = [PiPin(function, bcm, BCM_TO_HEADER[bcm], part) for function, bcm, part in named]
    return sorted(pins, key=lambda p: p.header)


def pi_pin_table(pins: list[PiPin] | None = None) -> str:
    """The Markdown table of the Pi's GPIO wiring (columns: function | BCM GPIO | header pin).

    >>> for line in pi_pin_table().splitlines()[:5]:
    ...     print(line)
    | function | BCM GPIO | header pin |
    |---|---|---|
    | display.sda | 2 | 3 |
    | display.scl | 3 | 5 |
    | input.keypad_cols[2] | 4 | 7 |
    """
    rows = ["| function | BCM GPIO | header pin |", "|---|---|---|"]
    rows += [f"| {p.function} | {p.bcm} | {p.header} |" for p in (pins or pi_pins())]
    return "\n".join(rows) + "\n"


class PicoPin(Value):
    """One connection on the Pico: its label, physical pin and where it goes."""

    __slots__ = ("goes_to", "label", "pin")
    __match_args__ = ("label", "pin", "goes_to")

    label: str
    pin: int
    goes_to: str

    def __init__(self, label: str, pin: int, goes_to: str) -> None:
        setter = object.__setattr__
        setter(self, "label", label)
        setter(self, "pin", pin)
        setter(self, "goes_to", goes_to)


#: The Pico's side of the LED board (GP0 carries the WS2812B data; see firmware/pb_hw.py).
PICO_PINS = (
    PicoPin("GP0", 1, "74AHCT125 1A (level shifter input) → 1Y → 330 Ω → strip DIN"),
    PicoPin("GND", 3, "strip GND, 74AHCT125 GND, 1OE and unused A inputs, supply GND (one "
                      "common ground)"),
    PicoPin("VBUS", 40, "74AHCT125 VCC and 2OE/3OE/4OE (5 V); strip +5 V only when USB "
                        "powers the LEDs"),
    PicoPin("USB", 0, "the Pi (or any computer): power and the serial link"),
)


#: The 74AHCT125 quad buffer's pins (DIP-14 and SOIC-14, top view, pin 1 by the notch): four
#: gates, each with an active-low output enable (nOE), input (nA) and output (nY).
AHCT125_PINS = {1: "1OE", 2: "1A", 3: "1Y", 4: "2OE", 5: "2A", 6: "2Y", 7: "GND",
                8: "3Y", 9: "3A", 10: "3OE", 11: "4Y", 12: "4A", 13: "4OE", 14: "VCC"}

#: Where each 74AHCT125 pin goes: gate 1 buffers the data, gates 2-4 are unused and tied
#: off (OE high keeps their outputs off; a grounded input cannot float and oscillate).
AHCT125_WIRING = {
    "1OE": "GND (gate 1 always on)", "1A": "Pico GP0 (3.3 V data)",
    "1Y": "330 Ω → strip DIN (5 V data)", "GND": "common ground", "VCC": "5 V",
    "2OE": "5 V (unused gate off)", "3OE": "5 V (unused gate off)",
    "4OE": "5 V (unused gate off)", "2A": "GND (unused input)", "3A": "GND (unused input)",
    "4A": "GND (unused input)", "2Y": "not connected", "3Y": "not connected",
    "4Y": "not connected",
}


def ahct125_table() -> str:
    """The Markdown table of the 74AHCT125's pins and where each goes."""
    rows = ["| pin | name | goes to |", "|---|---|---|"]
    rows += [f"| {pin} | {name} | {AHCT125_WIRING[name]} |" for pin, name in AHCT125_PINS.items()]
    return "\n".join(rows) + "\n"


def pico_pin_table() -> str:
    """The Markdown table of the Pico's wiring."""
    rows = ["| Pico pin | physical pin | goes to |", "|---|---|---|"]
    rows += [f"| {p.label} | {p.pin if p.pin else 'micro-USB'} | {p.goes_to} |"
             for p in PICO_PINS]
    return "\n".join(rows) + "\n"


#: Quiescent draw of one WS2812B with all channels off, in mA (datasheets give 0.5-1 mA).
IDLE_MA_PER_LED = 1
#: Full-brightness draw of one channel, in mA (what the firmware's limiter assumes).
FULL_MA_PER_CHANNEL = 20


def power_budget_table(counts: tuple[int, ...] = (241, 361), brightness: int = 128) -> str:
    """Worked current figures for strips of ``counts`` LEDs, as a Markdown table."""
    rows = [
        "| LEDs | all off (idle) | a game: 8 pegs + 8 markers at cap | every LED white at cap, "
        "no limit | every LED white, full, no limit |",
        "|---|---|---|---|---|",
    ]
    for count in counts:
        idle = count * IDLE_MA_PER_LED
        pegs = (8 * 1 * FULL_MA_PER_CHANNEL * brightness // 255
                + 8 * 3 * FULL_MA_PER_CHANNEL * 12 * brightness // 255 // 255)
        capped = count * 3 * FULL_MA_PER_CHANNEL * brightness // 255
        full = count * 3 * FULL_MA_PER_CHANNEL
        rows.append(f"| {count} | {idle} mA | {idle + pegs} mA | {idle + capped} mA | "
                    f"{idle + full} mA |")
    return "\n".join(rows) + "\n"
