"""The Pi wiring table in hardware/README.md matches the config defaults, pin for pin."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pegboard.config import Config
from tests.support.pins import input_pins

README = Path(__file__).resolve().parent.parent / "hardware" / "README.md"

# BCM GPIO -> physical pin on the Raspberry Pi's 40-pin header.
HEADER_PIN = {
    2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18, 10: 19,
    9: 21, 25: 22, 11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29, 6: 31, 12: 32, 13: 33, 19: 35,
    16: 36, 26: 37, 20: 38, 21: 40,
}


def pin_table() -> list[tuple[str, int, int]]:
    """Rows (function, BCM GPIO, header pin) of the table headed `function | BCM GPIO | ...`."""
    rows: list[tuple[str, int, int]] = []
    columns: list[str] | None = None
    for line in README.read_text(encoding="utf-8").splitlines():
        if not line.strip().startswith("|"):
            if rows:
                break
            columns = None
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        lowered = [cell.lower() for cell in cells]
        if columns is None:
            if "function" in lowered and "bcm gpio" in lowered and "header pin" in lowered:
                columns = lowered
            continue
        if set(line.replace("|", "").strip()) <= set("-: "):
            continue
        gpio = re.search(r"\d+", cells[columns.index("bcm gpio")])
        pin = re.search(r"\d+", cells[columns.index("header pin")])
        if gpio and pin:
            rows.append((cells[columns.index("function")], int(gpio.group()), int(pin.group())))
    return rows


def config_key(function: str) -> str | None:
    """The config key a wiring-table function names (None for power, ground and the like)."""
    text = function.lower().strip("` ")
    named = re.fullmatch(r"input\.(\w+(?:\[\d\])?)", text)
    if named:  # the table may name the config key itself, e.g. input.encoder_a
        return named.group(1)
    if "sda" in text:
        return "oled_sda"
    if "scl" in text:
        return "oled_scl"
    if "keypad" in text or "row" in text or "col" in text:
        number = re.search(r"(\d+)", text)
        if number is None:
            return None
        index = int(number.group(1)) - 1
        return f"keypad_rows[{index}]" if "row" in text else f"keypad_cols[{index}]"
    if "encoder" in text or "ky-040" in text:
        if re.search(r"\b(a|clk)\b", text):
            return "encoder_a"
        if re.search(r"\b(b|dt)\b", text):
            return "encoder_b"
        if re.search(r"\b(push|sw|switch|button)\b", text):
            return "encoder_push"
    for word, key in (("go", "button_go"), ("undo", "button_undo"), ("back", "button_undo"),
                      ("menu", "button_menu")):
        if re.search(rf"\b{word}\b", text):
            return key
    return None


def config_pins() -> dict[str, int]:
    return input_pins(Config().input) | {"oled_sda": 2, "oled_scl": 3}


def test_the_wiring_table_matches_the_config_defaults() -> None:
    rows = pin_table()
    assert rows, f"no `function | BCM GPIO | header pin` table in {README}"
    documented: dict[str, int] = {}
    for function, gpio, pin in rows:
        assert HEADER_PIN.get(gpio) == pin, f"{function}: GPIO {gpio} is header pin " \
            f"{HEADER_PIN.get(gpio)}, not {pin}"
        key = config_key(function)
        if key is not None:
            documented[key] = gpio
    assert documented == config_pins()


@pytest.mark.parametrize(
    ("function", "key"),
    [
        ("Encoder A (CLK)", "encoder_a"),
        ("Encoder B (DT)", "encoder_b"),
        ("Encoder push (SW)", "encoder_push"),
        ("GO button", "button_go"),
        ("UNDO/BACK button", "button_undo"),
        ("MENU button", "button_menu"),
        ("Keypad row 3", "keypad_rows[2]"),
        ("Keypad column 4", "keypad_cols[3]"),
        ("OLED SDA", "oled_sda"),
        ("OLED VCC (3.3 V)", None),
        ("input.encoder_a", "encoder_a"),
        ("`input.keypad_cols[2]`", "keypad_cols[2]"),
        ("display.scl", "oled_scl"),
    ],
)
def test_functions_are_read_as_config_keys(function: str, key: str | None) -> None:
    assert config_key(function) == key
