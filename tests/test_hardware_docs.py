"""The hardware documentation matches the code: pin tables, power figures and drawings."""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pegboard.config import DisplayConfig, InputConfig, LinkConfig, config_from_dict
from pegboard.config.schema import SECTIONS as CONFIG_SECTIONS
from pegboard.config.schema import section_keys
from pegboard.errors import ConfigError
from pegboard.link.assembly import board_size_mm
from pegboard.link.drawings import DRAWINGS, board_svg, template_svg
from pegboard.link.layout import LedConfig
from pegboard.link.schematic import header_pin, wiring_diagram
from pegboard.link.serial_link import SerialLink
from pegboard.link.wiring import (
    AHCT125_PINS,
    ahct125_table,
    pi_pin_table,
    pi_pins,
    pico_pin_table,
    power_budget_table,
)
from tests.support.pins import input_pins

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
    expected = {f"input.{name}": pin for name, pin in input_pins(inputs).items()}
    expected |= {"display.sda": 2, "display.scl": 3}
    rows = readme_pin_rows()
    assert {name: bcm for name, (bcm, _) in rows.items()} == expected
    # Physical pins, from the Raspberry Pi's published 40-pin header map.
    header = {2: 3, 3: 5, 4: 7, 7: 26, 17: 11, 27: 13, 22: 15, 23: 16, 24: 18, 25: 22,
              5: 29, 6: 31, 13: 33, 26: 37, 12: 32, 16: 36}
    assert all(header[bcm] == pin for bcm, pin in rows.values())


def test_the_team_pin_defaults_are_documented() -> None:
    rows = readme_pin_rows()
    # GPIO 18-21 belong to the I2S amplifier: no default pin of either kit is on them.
    assert not {bcm for bcm, _ in rows.values()} & {18, 19, 20, 21}
    assert rows["input.encoder_a"] == (17, 11) and rows["input.encoder_b"] == (25, 22)
    assert rows["input.encoder_push"] == (27, 13) and rows["input.button_go"] == (22, 15)
    assert rows["input.button_undo"] == (23, 16) and rows["input.button_menu"] == (24, 18)
    assert "0x3C" in README and "i2cdetect -y 1" in README


# -- every config key the documentation shows is one the config file accepts -----------------

REPO = HARDWARE.parent
SECTIONS = {name: set(section_keys(name)) for name in CONFIG_SECTIONS}
DOCUMENTS = sorted({REPO / "README.md", HARDWARE / "README.md", *REPO.glob("hardware/*.md"),
                    REPO / "systemd" / "README.md", REPO / "systemd" / "config.example.toml",
                    *REPO.glob("docs/*.md")})

def _link_attributes() -> set[str]:
    """`link.x` where x is one of the SerialLink object's attributes: docs/link.md describes
    the object the device loop calls `link` (the config keys it shares, such as device and
    serial_number, are accepted either way)."""
    link = SerialLink("auto")
    names = set(dir(link)) | set(vars(link))
    link.close()
    return {f"link.{name}" for name in names if not name.startswith("_")} - {
        f"link.{name}" for name in LinkConfig.__match_args__}


NOT_CONFIG = _link_attributes()

_CODE = re.compile(r"`([^`\n]+)`")
_DOTTED = re.compile(r"(?<![\w./$-])([a-z]+)\.([a-z_][a-z0-9_]*)(\[\d+\])?(?:\s*=\s*(.+))?$")
_HEADED = re.compile(r"^\[([a-z]+)\]\s+([a-z_]+)(?:\s*=\s*(.+))?$")
_BARE = re.compile(r"^([a-z_][a-z0-9_]*) = (.+)$")
# Pages about building and setting up the box, where a bare `key = value` is a config line
# (the developer docs under docs/ use the form for Python and SQL too).
BUILD_PAGES = {"README.md", "hardware", "systemd"}
_TOML_BLOCK = re.compile(r"```toml\n(.*?)```", re.S)


@dataclasses.dataclass(frozen=True)
class Mention:
    """One config key shown in a document: ``section`` None when the text names only the key."""

    where: str
    section: str | None
    key: str
    value: str | None


def config_mentions(path: Path) -> list[Mention]:
    """Every config key ``path`` shows: TOML examples, `section.key`, `[section] key` and
    `key = value` in code spans."""
    text = path.read_text(encoding="utf-8")
    found: list[Mention] = []
    blocks = [text] if path.suffix == ".toml" else _TOML_BLOCK.findall(text)
    for block in blocks:
        for section, table in tomllib.loads(block).items():
            for key, value in table.items():
                found.append(Mention(f"{path.name} (TOML)", section, key, _toml(value)))
    if path.suffix == ".toml":
        return found
    for number, line in enumerate(text.splitlines(), 1):
        where = f"{path.name}:{number}"
        for span in _CODE.findall(line):
            span = span.strip()
            if match := _DOTTED.search(span):
                section, key, _, value = match.groups()
                if section in SECTIONS and f"{section}.{key}" not in NOT_CONFIG:
                    found.append(Mention(where, section, key, value))
            elif match := _HEADED.match(span):
                found.append(Mention(where, match[1], match[2], match[3]))
            elif (match := _BARE.match(span)) and (
                    path.name == "README.md" or path.parent.name in BUILD_PAGES):
                found.append(Mention(where, None, match[1], match[2]))
        # Pin-table rows name their key in the first column.
        if row := re.match(r"^\| ((?:input|display)\.[a-z_]+)(?:\[\d\])? \|", line):
            section, key = row[1].split(".")
            if key not in ("sda", "scl"):  # the I2C bus pins of the OLED, fixed by the Pi
                found.append(Mention(where, section, key, None))
    return found


def _toml(value: object) -> str:
    """A parsed TOML value written back as TOML (strings, numbers, booleans and lists)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return json.dumps(value)


def accepted(mention: Mention) -> str | None:
    """Why the config refuses ``mention``, or None when it is accepted."""
    sections = [mention.section] if mention.section else [
        name for name, keys in SECTIONS.items() if mention.key in keys]
    if not sections:
        return f"{mention.where}: no config section has a key {mention.key!r}"
    problems = []
    for section in sections:
        text = f"[{section}]\n{mention.key} = {mention.value if mention.value else 0}\n"
        try:
            if mention.value is None:
                if mention.key not in SECTIONS[section]:
                    raise ConfigError(f"unknown key {section}.{mention.key}")
            else:
                data = tomllib.loads(text)
                # Keys checked alone; a long strip so that a count or skip fits any layout.
                if section == "leds" and mention.key != "count":
                    data["leds"].setdefault("count", 1000)
                if section == "club":  # what a club board and a password need beside them
                    for key, value in (("board", "b1"), ("broker", "h")):
                        data["club"].setdefault(key, value)
                    if data["club"].get("ca_file", "x"):  # a user goes over TLS only
                        data["club"].setdefault("user", "u")
                        data["club"].setdefault("ca_file", "/etc/pegboard/club-ca.crt")
                    if mention.key == "lock":  # the lock is a club board's
                        data["club"].setdefault("enabled", True)
                config_from_dict(data, mention.where)
            return None
        except (ConfigError, tomllib.TOMLDecodeError) as error:
            problems.append(f"{mention.where}: {section}.{mention.key}: {error}")
    return "; ".join(problems)


def test_every_config_key_in_the_docs_is_accepted() -> None:
    mentions = [m for path in DOCUMENTS for m in config_mentions(path)]
    # The extraction finds what the docs really show (so an empty result cannot pass).
    shown = {(m.section, m.key) for m in mentions}
    assert {(None, "skip"), ("link", "baudrate"), (None, "order"), ("input", "kit"),
            ("display", "i2c_address"), ("store", "path"), ("leds", "count")} <= shown
    problems = [problem for m in mentions if (problem := accepted(m))]
    assert problems == []


def test_the_docs_check_catches_a_key_the_config_refuses(tmp_path: Path) -> None:
    page = tmp_path / "README.md"
    page.write_text("Set `leds.skipped = 1`, `[link] speed`, `skip = -1` and\n\n"
                    '```toml\n[leds]\norder = "zigzag"\n```\n')
    problems = [p for m in config_mentions(page) if (p := accepted(m))]
    assert len(problems) == 4
    assert any("unknown key leds.skipped (did you mean leds.skip?)" in p for p in problems)
    assert any("link.speed" in p for p in problems)
    assert any("leds.skip = -1 is not accepted" in p for p in problems)
    assert any('leds.order = "zigzag" is not accepted' in p for p in problems)


# -- drilling template, wiring diagram and the build notes ----------------------------------

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("tracks", [2, 3])
def test_the_drilling_template_is_actual_size_at_the_strip_pitch(tracks: int) -> None:
    root = ET.fromstring(template_svg(LedConfig(tracks=tracks)))
    width, height = board_size_mm(tracks)
    assert (root.get("width"), root.get("height")) == (f"{width}mm", f"{height}mm")
    assert root.get("viewBox") == f"0 0 {width} {height}"  # one unit is one millimetre
    assert (width, height) == ((600, 300) if tracks == 2 else (600, 380))
    holes = [(float(c.get("cx", 0)), float(c.get("cy", 0))) for c in root.iter(f"{SVG}circle")]
    assert len(holes) == tracks * 120 + 1  # every LED hole and the game hole
    assert all(0 < x < width and 0 < y < height for x, y in holes)
    rows: dict[float, list[float]] = {}
    for x, y in holes:
        rows.setdefault(y, []).append(x)
    full = [sorted(xs) for xs in rows.values() if len(xs) >= 30]
    assert len(full) == tracks * 4
    for xs in full:  # fixed pitch: no gaps between groups of five
        steps = [b - a for a, b in itertools.pairwise(xs)]
        # Coordinates are written to 0.01 mm.
        assert all(abs(step - 1000 / 60) <= 0.011 for step in steps), steps
    scale = [p.get("d", "") for p in root.iter(f"{SVG}path") if "h100" in p.get("d", "")]
    assert scale, "a 100 mm scale bar"


def test_the_board_drawing_has_no_gaps_a_strip_cannot_have() -> None:
    root = ET.fromstring(board_svg(LedConfig(tracks=2)))
    rows: dict[str, list[float]] = {}
    for circle in root.iter(f"{SVG}circle"):
        rows.setdefault(circle.get("cy", ""), []).append(float(circle.get("cx", 0)))
    for xs in rows.values():
        xs.sort()
        if len(xs) >= 30:
            assert len({round(b - a, 3) for a, b in itertools.pairwise(xs)}) == 1


def test_the_wiring_diagram_draws_every_part_and_a_wire_to_every_pin() -> None:
    text = wiring_diagram()
    root = ET.fromstring(text)
    titles = {t.text for t in root.iter(f"{SVG}text")}
    for part in ("Raspberry Pi", "Raspberry Pi Pico", "74AHCT125 (DIP-14, top view)",
                 "KY-040 rotary encoder", "4×4 keypad (keypad kit)", "WS2812B strip, 60 LEDs/m",
                 "5 V 3 A supply (LED power)", "GO", "UNDO", "MENU", "330 Ω", "1000 µF"):
        assert part in titles, part
    assert any(t and t.startswith("OLED") for t in titles)
    ends = set()
    for line in root.iter(f"{SVG}polyline"):
        points = line.get("points", "").split()
        ends |= {points[0], points[-1]}
    # A wire ends on every header pin the config uses, on 3V3 (1) and on a ground (9).
    for pin in [p.header for p in pi_pins()] + [1, 9]:
        x, y = header_pin(pin)
        assert f"{x:g},{y:g}" in ends, f"header pin {pin}"
    # Every 74AHCT125 pin is drawn with its name.
    for pin, name in AHCT125_PINS.items():
        assert f"{pin} {name}" in titles


def test_the_build_notes_cover_what_a_builder_needs() -> None:
    assert ahct125_table() in README
    assert "OTG" in README.split("## Bill of materials", 1)[1].split("\n## ", 1)[0]
    cautions = README.split("## Power cautions", 1)[1].split("\n## ", 1)[0]
    assert "1000 µF" in cautions and "Zero 2 W or a 3B+" in cautions
    assert "600 mA" in cautions and "741 mA" in cautions
    trouble = README.split("## Troubleshooting", 1)[1]
    for heading in ("**No OLED found at 0x3C**", "**LEDs flicker, or the first LED shows the "
                    "wrong colour**", '**"LEDs: lost" on the screen**',
                    "**The service will not start**"):
        assert heading in trouble, heading
    assert "drilling_template_2.svg" in README and "drilling_template_3.svg" in README
