"""The box's layers and the parts that set their sizes: the stack (exploded), the diffuser's
gap worked out from the LED's real height, an OLED window for each panel the parts list
offers, and the keypad's ribbon with the pins each wire goes to.

``pegboard leds svg`` writes ``box_layers_2.svg`` and ``keypad_ribbon.svg`` from here; the
builder's guide quotes :func:`stack` and the README the ribbon's table (:func:`ribbon_table`),
and the tests check both against this code.
"""

from __future__ import annotations

from pegboard.config import InputConfig
from pegboard.config.pins import KEYPAD_LEGENDS, KEYPAD_RIBBON
from pegboard.link.assembly import APRON_MM, _svg, _text, board_size_mm
from pegboard.link.wiring import BCM_TO_HEADER
from pegboard.rules.value import Value

#: A WS2812B 5050 package is 5.0 × 5.0 × 1.6 mm (Worldsemi's datasheet).
LED_HEIGHT_MM = 1.6
#: The strip's flexible PCB with its adhesive tape under it (about 0.1 mm of copper-clad
#: polyimide on a 0.2 mm tape; measure yours with calipers).
STRIP_MM = 0.3
#: The air between the LED's top and the diffuser's underside that turns a 5 mm hole's dot into
#: an even glow through 3 mm opal acrylic: the guide's figure, checked by laying the sheet on a
#: lit strip (see the guide's diffuser section).
WANTED_GAP_MM = 4.0
#: Sheet thicknesses sold for the spacer frame (plywood, MDF, acrylic), in mm.
STOCK_MM = (3.0, 4.0, 5.0, 6.0, 8.0, 9.0, 10.0, 12.0)
TOP_MM = 6.0
DIFFUSER_MM = 3.0
CARRIER_MM = 3.0
STANDOFF_MM = 10.0
BASE_MM = 6.0
#: A Pi's or a protoboard's PCB.
BOARD_MM = 1.6
#: Lengths of 4 mm wood screws sold, in mm.
SCREW_STOCK_MM = (16.0, 20.0, 25.0, 30.0, 35.0, 40.0, 45.0, 50.0)
#: How far a 4 mm wood screw must go into the corner block to hold: five times its size.
SCREW_BITE_MM = 20.0
#: The clearance hole for a 4 mm screw through the layers it holds (acrylic cracks if a screw
#: cuts its own thread in it).
CLEARANCE_MM = 4.5


class Stack(Value):
    """The spacer frame the LED's height asks for, and the gap it leaves."""

    __slots__ = ("gap_mm", "led_top_mm", "spacer_mm")
    __match_args__ = ("led_top_mm", "spacer_mm", "gap_mm")

    led_top_mm: float
    spacer_mm: float
    gap_mm: float

    def __init__(self, led_top_mm: float, spacer_mm: float, gap_mm: float) -> None:
        setter = object.__setattr__
        setter(self, "led_top_mm", led_top_mm)
        setter(self, "spacer_mm", spacer_mm)
        setter(self, "gap_mm", gap_mm)


def stack(wanted_gap_mm: float = WANTED_GAP_MM) -> Stack:
    """The thinnest stock spacer that leaves at least ``wanted_gap_mm`` of air between the
    LED's top (the strip and the LED on the carrier) and the diffuser.

    >>> stack()
    Stack(led_top_mm=1.9, spacer_mm=6.0, gap_mm=4.1)
    """
    led_top = round(STRIP_MM + LED_HEIGHT_MM, 2)
    spacer = next(t for t in STOCK_MM if t - led_top >= wanted_gap_mm)
    return Stack(led_top, spacer, round(spacer - led_top, 2))


def top_screw_mm() -> float:
    """The 4 mm wood screw that holds the top's layers (top, diffuser, spacer frame, carrier)
    to a corner block: the shortest sold that passes them and still goes
    :data:`SCREW_BITE_MM` into the block, which is as long as the aprons are high.

    >>> top_screw_mm()
    40.0
    """
    through = TOP_MM + DIFFUSER_MM + stack().spacer_mm + CARRIER_MM
    length = next(n for n in SCREW_STOCK_MM if n - through >= SCREW_BITE_MM)
    assert length - through <= APRON_MM  # it ends inside the block
    return length


def layers_svg(tracks: int = 2) -> str:
    """The box's layers pulled apart, seen from the front apron's side (not to scale across,
    every thickness drawn 4 times over): the top, the diffuser, the spacer frame, the strip on
    its carrier, the standoffs and the base with the electronics, and the aprons round them."""
    board_w, _ = board_size_mm(tracks)
    s = stack()
    k = 4.0  # drawing units per mm of thickness
    width, left, span = 440.0, 20.0, 200.0
    out = [_text(width / 2, 14, f"The box's layers, pulled apart ({tracks} tracks, "
                 f"{board_w} mm long): thicknesses ×4, lengths not to scale", 7)]
    y = 34.0

    def layer(thick: float, fill: str, name: str, note: str, *, frame: bool = False) -> None:
        nonlocal y
        h = thick * k
        if frame:  # a frame round the edge: two strips in this section
            for x in (left, left + span - 12):
                out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="12" height="{h:.1f}" '
                           f'fill="{fill}" stroke="#000" stroke-width="0.5"/>')
        else:
            out.append(f'<rect x="{left:.1f}" y="{y:.1f}" width="{span:.1f}" height="{h:.1f}" '
                       f'fill="{fill}" stroke="#000" stroke-width="0.5"/>')
        out.append(_text(left + span + 8, y + h / 2 + 2, name, 6, "start", weight="bold"))
        out.append(_text(left + span + 8, y + h / 2 + 9, note, 5, "start"))
        y += h + 14

    layer(TOP_MM, "#d9b38c", f"top, {TOP_MM:g} mm", "Ø5 holes from the drilling template")
    layer(DIFFUSER_MM, "#f4f4f4", f"diffuser, {DIFFUSER_MM:g} mm opal acrylic", "about 50 % "
          "light transmission")
    frame_top = y
    layer(s.spacer_mm, "#c8a27a", f"spacer frame, {s.spacer_mm:g} mm",
          f"LED tops {s.led_top_mm:g} mm up ({LED_HEIGHT_MM:g} mm LED, {STRIP_MM:g} mm "
          f"strip): {s.gap_mm:g} mm of air below the diffuser", frame=True)
    # The strip and its LEDs sit inside the frame, on the carrier.
    strip_y = y - 14 - STRIP_MM * k
    out.append(f'<rect x="{left + 16:.1f}" y="{strip_y:.1f}" width="{span - 32:.1f}" '
               f'height="{STRIP_MM * k:.1f}" fill="#fff" stroke="#000" stroke-width="0.4"/>')
    for i in range(8):
        x = left + 22 + i * (span - 50) / 7
        out.append(f'<rect x="{x:.1f}" y="{strip_y - LED_HEIGHT_MM * k:.1f}" width="{5 * 1.6:.1f}" '
                   f'height="{LED_HEIGHT_MM * k:.1f}" fill="#fffbe0" stroke="#000" '
                   'stroke-width="0.4"/>')
    gap_x = left + span - 20
    out.append(f'<path d="M{gap_x:.1f} {frame_top:.1f}V{strip_y - LED_HEIGHT_MM * k:.1f}" '
               'stroke="#c00" stroke-width="0.6"/>')
    out.append(_text(gap_x - 2, frame_top + s.gap_mm * k / 2 + 2, f"{s.gap_mm:g}", 5, "end",
                     fill="#c00"))
    layer(CARRIER_MM, "#b08a64", f"carrier, {CARRIER_MM:g} mm hardboard", "the strip's rows "
          "stuck on, LEDs up, each under its hole")
    posts = y
    # Each board rests on two standoffs (four in all, seen edge on), the standoffs on the base.
    for x0, x1, fill in ((left + 30, left + 90, "#2e7d32"), (left + 115, left + 175, "#1565c0")):
        out.append(f'<rect x="{x0 - 4:.1f}" y="{posts:.1f}" width="{x1 - x0 + 14:.1f}" '
                   f'height="5" fill="{fill}" stroke="#000" stroke-width="0.4"/>')
        for x in (x0, x1):
            out.append(f'<rect x="{x:.1f}" y="{posts + 5:.1f}" width="6" '
                       f'height="{STANDOFF_MM * k - 5:.1f}" fill="#bbb" stroke="#000" '
                       'stroke-width="0.4"/>')
    out.append(_text(left + span + 8, posts + STANDOFF_MM * k / 2 + 2, f"standoffs, "
                     f"{STANDOFF_MM:g} mm (M2.5; the Pico's M2)", 6, "start", weight="bold"))
    out.append(_text(left + span + 8, posts + STANDOFF_MM * k / 2 + 9, "the Pi, the Pico, the "
                     "74AHCT125 board; the fuse holder and block screwed down", 5, "start"))
    y = posts + STANDOFF_MM * k + 4
    layer(BASE_MM, "#d9b38c", f"base plate, {BASE_MM:g} mm", "the electronics screwed to it")
    room = room_above_boards_mm()
    tall = BASE_MM + APRON_MM + CARRIER_MM + s.spacer_mm + DIFFUSER_MM + TOP_MM
    out.append(_text(width / 2, y + 4, f"Assembled: the aprons ({APRON_MM:g} mm) stand on the "
                     "base plate round the boards and carry the carrier on their top edges,", 6))
    out.append(_text(width / 2, y + 12, f"so a board on its standoffs has {room:g} mm above it "
                     f"for its plugs and jumpers; the box is {tall:g} mm tall", 6))
    out.append(_text(width / 2, y + 21, f"Screws: four 4 × {top_screw_mm():g} mm through the "
                     "top, the diffuser, the spacer frame and the carrier (Ø"
                     f"{CLEARANCE_MM:g} holes) into the corner blocks; never glued (the strip "
                     "must stay reachable)", 5))
    return _svg(width, y + 30, out)


def room_above_boards_mm() -> float:
    """The height left between a board on its standoffs and the carrier above it: the aprons'
    height less the standoff and the board's own PCB.

    >>> room_above_boards_mm()
    38.4
    """
    return round(APRON_MM - STANDOFF_MM - BOARD_MM, 1)


def ribbon_pins(inputs: InputConfig | None = None) -> list[tuple[int, str, int, int]]:
    """Each ribbon wire: its number, its line (R1 .. C4), its BCM GPIO and header pin."""
    inputs = inputs or InputConfig()
    gpios = [*inputs.keypad_rows, *inputs.keypad_cols]
    return [(n + 1, line, gpio, BCM_TO_HEADER[gpio])
            for n, (line, gpio) in enumerate(zip(KEYPAD_RIBBON, gpios, strict=True))]


def ribbon_table(inputs: InputConfig | None = None) -> str:
    """The ribbon as a Markdown table."""
    rows = ["| ribbon wire | line | BCM GPIO | header pin |", "|---|---|---|---|"]
    rows += [f"| {n} | {line} | {gpio} | {pin} |" for n, line, gpio, pin in ribbon_pins(inputs)]
    return "\n".join(rows)


def keypad_ribbon_svg() -> str:
    """The keypad from the front, its row and column lines, and the ribbon's eight wires with
    the GPIO and header pin each goes to (the config's defaults)."""
    width, height = 370.0, 350.0
    out = [_text(width / 2, 16, "4×4 keypad from the front: the ribbon's wires, left to right",
                 9)]
    x0, y0, key, pitch = 60.0, 40.0, 30.0, 38.0
    out.append(f'<rect x="{x0 - 12:.0f}" y="{y0 - 12:.0f}" width="{4 * pitch + 16:.0f}" '
               f'height="{4 * pitch + 16:.0f}" rx="6" fill="#eee" stroke="#000"/>')
    for r, row in enumerate(KEYPAD_LEGENDS):
        for c, legend in enumerate(row):
            x, y = x0 + c * pitch, y0 + r * pitch
            out.append(f'<rect x="{x:.0f}" y="{y:.0f}" width="{key:.0f}" height="{key:.0f}" '
                       'rx="4" fill="#fff" stroke="#000"/>')
            out.append(_text(x + key / 2, y + key / 2 + 5, legend, 14, weight="bold"))
        out.append(_text(x0 - 18, y0 + r * pitch + key / 2 + 3, f"R{r + 1}", 8, "end",
                         fill="#b00"))
    for c in range(4):
        out.append(_text(x0 + c * pitch + key / 2, y0 - 16, f"C{c + 1}", 8, fill="#00b"))
    # The ribbon leaves the keypad's bottom edge; its wires fan out to the labels.
    tail_y = y0 + 4 * pitch + 4
    wire_x0, wire_pitch = x0 + 20, 13.0
    label_y = tail_y + 40
    for n, line, gpio, pin in ribbon_pins():
        x = wire_x0 + (n - 1) * wire_pitch
        colour = "#b00" if line.startswith("R") else "#00b"
        out.append(f'<path d="M{x:.1f} {tail_y:.1f}V{label_y - 22:.1f}" stroke="{colour}" '
                   'stroke-width="3"/>')
        out.append(_text(x, label_y - 13, str(n), 7, weight="bold"))
        ty = label_y + (n - 1) * 12 + 4
        out.append(f'<path d="M{x:.1f} {label_y - 9:.1f}V{ty - 3:.1f}H{wire_x0 + 112:.1f}" '
                   f'fill="none" stroke="{colour}" stroke-width="0.8"/>')
        out.append(_text(wire_x0 + 116, ty, f"wire {n}: {line} → GPIO {gpio} (header pin {pin})",
                         8, "start", fill=colour))
    out.append(_text(width / 2, height - 12, "Check it: pegboard bringup keypad names each key "
                     "with its row and column pins", 8))
    return _svg(width, height, out)
