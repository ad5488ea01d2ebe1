"""The wiring diagram is electrically what the pin tables say: nets read from the drawing the
way a builder reads it (wire ends and junction dots, see ``wiring_nets``), compared with the
74AHCT125 and Pico tables in hardware/README.md and with the Pi pins of the config defaults;
then the committed drawing rendered by Chromium, as a builder sees it."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from pegboard.link.schematic import HEIGHT, WIDTH, wiring_diagram
from pegboard.link.wiring import pi_pins
from tests.support.wiring_nets import Drawing, Nets, nets

HARDWARE = Path(__file__).resolve().parent.parent / "hardware"
README = (HARDWARE / "README.md").read_text(encoding="utf-8")


def table(heading: str) -> dict[str, str]:
    """First column (or the pin name, for the chip's table) → "goes to", from a README table."""
    section = README.split(heading, 1)[1].split("\n## ", 1)[0]
    rows: dict[str, str] = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].isdigit():  # | pin | name | goes to |
            rows[cells[1]] = cells[2]
        elif len(cells) == 3 and re.fullmatch(r"GP\d+|GND|VBUS", cells[0]):
            rows[cells[0]] = cells[2]
    return rows


@pytest.fixture(scope="module")
def drawn() -> Nets:
    return nets(Drawing.parse(wiring_diagram()))


def test_the_drawing_has_no_ambiguous_wire(drawn: Nets) -> None:
    assert drawn.faults == []


def test_the_level_shifter_is_wired_as_its_table_says(drawn: Nets) -> None:
    rows = table("## The 74AHCT125 level shifter")
    assert len(rows) == 14, rows
    gnd, five = drawn.of("Pico:GND"), drawn.of("Pico:VBUS")
    assert gnd != five
    for name, goes_to in rows.items():
        net = drawn.of(f"74AHCT125:{name}")
        if goes_to.startswith(("GND", "common ground")):
            assert net == gnd, (name, sorted(net))
        elif goes_to.startswith("5 V"):
            assert net == five, (name, sorted(net))
        elif goes_to.startswith("Pico GP0"):
            assert net == {"74AHCT125:1A", "Pico:GP0"}, sorted(net)
        elif goes_to.startswith("330 Ω"):
            assert net == {"74AHCT125:1Y", "R1:1"}, sorted(net)
        else:
            assert goes_to == "not connected", goes_to
            assert net == {f"74AHCT125:{name}"}, (name, sorted(net))


def test_the_strip_side_follows_the_pico_table(drawn: Nets) -> None:
    rows = table("## Pico wiring")
    assert rows["GP0"].startswith("74AHCT125 1A") and "330 Ω → strip DIN" in rows["GP0"]
    assert drawn.of("R1:2") == {"R1:2", "strip:DIN", "R2:1"}  # 330 Ω to DIN, 10 kΩ pull-down
    gnd = drawn.of("Pico:GND")
    assert {"strip:GND", "supply:GND", "R2:2", "C1:-", "74AHCT125:GND"} <= gnd
    assert drawn.of("strip:+5V") == {"strip:+5V", "C1:+", "F1:1"}
    assert drawn.of("supply:+5V") == {"supply:+5V", "F1:2"}
    assert drawn.of("Pico:VBUS") == {"Pico:VBUS", "74AHCT125:VCC", "74AHCT125:2OE",
                                     "74AHCT125:3OE", "74AHCT125:4OE"}
    assert drawn.of("Pico:USB") == {"Pico:USB", "Pi:USB"}


PART_PINS = {"OLED SDA": "OLED:SDA", "OLED SCL": "OLED:SCL", "encoder CLK": "KY-040:CLK",
             "encoder DT": "KY-040:DT", "encoder SW": "KY-040:SW", "GO button": "GO:1",
             "UNDO/BACK button": "UNDO:1", "MENU button": "MENU:1"}
PART_PINS |= {f"keypad row {i}": f"keypad:R{i}" for i in range(1, 5)}
PART_PINS |= {f"keypad column {i}": f"keypad:C{i}" for i in range(1, 5)}


def test_every_pi_pin_reaches_only_its_part(drawn: Nets) -> None:
    for pin in pi_pins():
        assert drawn.of(f"Pi:{pin.header}") == {f"Pi:{pin.header}", PART_PINS[pin.part]}, pin
    assert drawn.of("Pi:1") == {"Pi:1", "OLED:VCC", "KY-040:+"}
    assert drawn.of("Pi:9") == {"Pi:9", "OLED:GND", "KY-040:GND", "GO:2", "UNDO:2", "MENU:2"}


# -- the check itself catches the faults of a wrong drawing ----------------------------------

def svg(body: str) -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg">{body}</svg>'


PINS = ('<rect data-pin="a:1" x="-3" y="-3" width="6" height="6"/>'
        '<rect data-pin="b:1" x="97" y="-3" width="6" height="6"/>'
        '<rect data-pin="c:1" x="97" y="47" width="6" height="6"/>')


def test_a_dot_joins_and_a_crossing_does_not() -> None:
    joined = nets(Drawing.parse(svg(PINS + '<polyline points="0,0 100,0"/>'
                                    '<polyline points="100,50 50,50 50,0"/>'
                                    '<circle class="junction" cx="50" cy="0" r="3"/>')))
    assert joined.faults == [] and joined.nets == [{"a:1", "b:1", "c:1"}]
    crossing = nets(Drawing.parse(svg(PINS + '<polyline points="0,0 100,0"/>'
                                      '<polyline points="100,50 50,50 50,-20 40,-20"/>')))
    assert crossing.of("c:1") == {"c:1"} and len(crossing.faults) == 1  # the loose end


def test_the_faults_of_the_old_drawing_are_caught() -> None:
    # A wire ending on another without a dot, a dot that joins nothing (1OE's stub), and two
    # wires sharing a vertical (GP0 and 1Y along x = 610): each is reported, and the shared
    # line joins their nets, as a builder would wire it.
    found = nets(Drawing.parse(svg(
        PINS + '<polyline points="0,0 100,0"/><polyline points="50,0 50,50 100,50"/>'
        '<circle class="junction" cx="30" cy="30" r="3"/>')))
    assert any("without a junction dot" in fault for fault in found.faults)
    assert any("joins nothing" in fault for fault in found.faults)
    shared = nets(Drawing.parse(svg(
        PINS + '<polyline points="0,0 20,0 20,60 40,60"/>'
        '<polyline points="100,0 20,0"/>')))
    assert shared.of("a:1") == {"a:1"}  # ends on a corner of the other: no dot, no join
    assert any("(20.0, 0.0) without a junction dot" in fault for fault in shared.faults)
    overlap = nets(Drawing.parse(svg(
        PINS + '<polyline points="0,0 10,0 10,50 100,0"/>'
        '<polyline points="100,50 10,50 10,20"/>')))
    assert overlap.of("a:1") == {"a:1", "b:1", "c:1"}
    assert any("two wires on one line" in fault for fault in overlap.faults)


# -- the committed drawing, rendered -----------------------------------------------------------

CHROMIUM = shutil.which("chromium")


@pytest.mark.skipif(CHROMIUM is None, reason="needs chromium (`make test` installs it)")
def test_the_rendered_drawing_shows_every_junction_dot(tmp_path: Path) -> None:
    """Chromium draws the committed wiring.svg to PNG: every junction dot is visible in its
    wire's colour (no part hides one), and the picture is the drawing's size."""
    png = tmp_path / "wiring.png"
    assert CHROMIUM is not None
    done = subprocess.run(
        [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--hide-scrollbars",
         f"--screenshot={png}", f"--window-size={WIDTH:g},{HEIGHT:g}",
         (HARDWARE / "wiring.svg").as_uri()],
        capture_output=True, text=True, timeout=300, check=False)
    assert png.exists(), done.stderr
    image = Image.open(png).convert("RGB")
    assert image.size == (int(WIDTH), int(HEIGHT))
    drawing = Drawing.parse((HARDWARE / "wiring.svg").read_text(encoding="utf-8"))
    assert len(drawing.dots) >= 10
    colours = {"#222": (0x22, 0x22, 0x22), "#d62728": (0xD6, 0x27, 0x28),
               "#2ca02c": (0x2C, 0xA0, 0x2C), "#e67e22": (0xE6, 0x7E, 0x22)}
    for x, y in drawing.dots:
        seen = image.getpixel((round(x), round(y)))
        assert isinstance(seen, tuple)
        assert min(sum(abs(a - b) for a, b in zip(seen, rgb, strict=True))
                   for rgb in colours.values()) < 40, ((x, y), seen)
