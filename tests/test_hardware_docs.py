"""The hardware documentation matches the code: pin tables, power figures and drawings."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pegboard.config import DisplayConfig, InputConfig
from pegboard.link.drawings import DRAWINGS, board_svg
from pegboard.link.layout import LedConfig
from pegboard.link.wiring import pi_pin_table, pico_pin_table, power_budget_table

HARDWARE = Path(__file__).resolve().parent.parent / "hardware"
README = (HARDWARE / "README.md").read_text()


@pytest.mark.parametrize("name", sorted(DRAWINGS))
def test_drawings_are_regenerated_byte_for_byte(name: str) -> None:
    path = HARDWARE / name
    assert path.exists(), f"{path} is missing: run `pegboard leds svg`"
    assert path.read_text() == DRAWINGS[name](), f"{name} is stale: run `pegboard leds svg`"
    ET.fromstring(path.read_text())  # well-formed SVG


def test_board_drawing_has_a_hole_per_led() -> None:
    for tracks in (2, 3):
        root = ET.fromstring(board_svg(LedConfig(tracks=tracks)))
        circles = root.findall("{http://www.w3.org/2000/svg}circle")
        # every track hole, the game hole, and one start ring per track
        assert len(circles) == tracks * 120 + 1 + tracks


def test_readme_carries_the_generated_tables() -> None:
    assert pi_pin_table() in README
    assert pico_pin_table() in README
    assert power_budget_table() in README


def readme_pin_rows() -> dict[str, tuple[int, int]]:
    section = README.split("## Raspberry Pi header wiring", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for match in re.finditer(r"^\| (\S+) \| (\d+) \| (\d+) \|$", section, re.MULTILINE):
        rows[match[1]] = (int(match[2]), int(match[3]))
    return rows


def test_readme_pins_are_the_config_defaults() -> None:
    inputs, _ = InputConfig(), DisplayConfig()
    expected = {
        "input.encoder_a": inputs.encoder_a, "input.encoder_b": inputs.encoder_b,
        "input.encoder_push": inputs.encoder_push, "input.button_go": inputs.button_go,
        "input.button_undo": inputs.button_undo, "input.button_menu": inputs.button_menu,
        "display.sda": 2, "display.scl": 3,
    }
    expected |= {f"input.keypad_rows[{i}]": p for i, p in enumerate(inputs.keypad_rows)}
    expected |= {f"input.keypad_cols[{i}]": p for i, p in enumerate(inputs.keypad_cols)}
    rows = readme_pin_rows()
    assert {name: bcm for name, (bcm, _) in rows.items()} == expected
    # Physical pins, from the Raspberry Pi's published 40-pin header map.
    header = {2: 3, 3: 5, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18, 5: 29, 6: 31,
              13: 33, 19: 35, 12: 32, 16: 36, 20: 38, 21: 40}
    assert all(header[bcm] == pin for bcm, pin in rows.values())


def test_the_team_pin_defaults_are_documented() -> None:
    rows = readme_pin_rows()
    assert rows["input.encoder_a"] == (17, 11) and rows["input.encoder_b"] == (18, 12)
    assert rows["input.encoder_push"] == (27, 13) and rows["input.button_go"] == (22, 15)
    assert rows["input.button_undo"] == (23, 16) and rows["input.button_menu"] == (24, 18)
    assert "0x3C" in README and "i2cdetect -y 1" in README
