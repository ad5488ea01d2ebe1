"""The wiring diagram: every part drawn with its pins, and every wire between them.

Drawn from the code's own tables: the Pi's GPIOs from :func:`pegboard.link.wiring.pi_pins`
(the config defaults), the Pico's from :data:`~pegboard.link.wiring.PICO_PINS` and the
74AHCT125's from :data:`~pegboard.link.wiring.AHCT125_PINS`, so the picture cannot disagree with
the software or the pin tables. ``pegboard leds svg`` writes it to ``hardware/wiring.svg``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from pegboard.config import I2S_PINS
from pegboard.link.wiring import AHCT125_PINS, BCM_TO_HEADER, HEADER_POWER, pi_pins

WIDTH, HEIGHT = 1120.0, 880.0
HX, HY, HP = 430.0, 110.0, 18.0  # header: pin 1's centre, pin pitch
COLOURS = {"3v3": "#e67e22", "5v": "#d62728", "gnd": "#222", "i2c": "#1f77b4",
           "input": "#17becf", "keypad": "#9467bd", "data": "#2ca02c", "usb": "#7f7f7f"}

I2S_RING = "#8c564b"  # the header pins the I2S amplifier takes
Point = tuple[float, float]


def _text(x: float, y: float, text: str, size: float = 10, anchor: str = "middle",
          fill: str = "#222", weight: str = "normal") -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" text-anchor="{anchor}" '
            f'fill="{fill}" font-weight="{weight}">{escape(text)}</text>')


def _wire(points: list[Point], kind: str, dashed: bool = False) -> str:
    path = " ".join(f"{x:g},{y:g}" for x, y in points)
    dash = ' stroke-dasharray="6 4"' if dashed else ""
    return (f'<polyline points="{path}" fill="none" stroke="{COLOURS[kind]}" '
            f'stroke-width="2" stroke-linejoin="round"{dash}/>')


def _dot(point: Point, kind: str) -> str:
    """A junction: the wire ending here joins the wire it touches (no dot, no join)."""
    return (f'<circle class="junction" cx="{point[0]:g}" cy="{point[1]:g}" r="3.5" '
            f'fill="{COLOURS[kind]}"/>')


def _terminal(point: Point, name: str) -> str:
    """A leg of a two-terminal part (resistor, capacitor, fuse), named ``part:leg``."""
    return (f'<circle data-pin="{name}" cx="{point[0]:g}" cy="{point[1]:g}" r="1.8" '
            'fill="#333"/>')


def _part(x: float, y: float, w: float, h: float, title: str, fill: str = "#fff",
          dashed: bool = False) -> list[str]:
    dash = ' stroke-dasharray="5 3"' if dashed else ""
    return [f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="5" fill="{fill}" '
            f'stroke="#333" stroke-width="1.5"{dash}/>',
            _text(x + w / 2, y - 6, title, 11, weight="bold")]


def _pin(point: Point, name: str, side: str, ident: str) -> list[str]:
    """A pin on a part's edge with its name inside the part (``side``: the edge it is on);
    ``ident`` (``part:pin``) names it for the net check."""
    x, y = point
    inside = {"left": (x + 6, "start"), "right": (x - 6, "end")}[side]
    return [f'<rect data-pin="{ident}" x="{x - 3:g}" y="{y - 3:g}" width="6" height="6" '
            'fill="#c9a227" stroke="#333" stroke-width="0.6"/>',
            _text(inside[0], y + 3.5, name, 9, inside[1])]


def header_pin(pin: int) -> Point:
    """The centre of a pin of the Pi's 40-pin header (odd pins on the left column)."""
    return HX + ((pin - 1) % 2) * HP, HY + ((pin - 1) // 2) * HP


def _route(start: Point, end: Point, channel: float) -> list[Point]:
    """Out of ``start`` to the vertical channel at x = ``channel``, along it, then to ``end``."""
    return [start, (channel, start[1]), (channel, end[1]), end]


def _around(start: Point, end: Point, out: float, level: float, channel: float) -> list[Point]:
    """From a right-column header pin out to x = ``out``, to y = ``level`` (above or below the
    header), across to the channel at x = ``channel`` and on to ``end``."""
    return [start, (out, start[1]), (out, level), (channel, level), (channel, end[1]), end]


def _switch(x: float, y: float, label: str) -> list[str]:
    """A push button between (x - 5, y) (leg 1) and (x - 35, y) (leg 2): two contacts and a
    lifted bar."""
    return [f'<circle cx="{x - 8:g}" cy="{y:g}" r="2.5" fill="none" stroke="#333"/>',
            f'<circle cx="{x - 32:g}" cy="{y:g}" r="2.5" fill="none" stroke="#333"/>',
            _terminal((x - 5, y), f"{label}:1"), _terminal((x - 35, y), f"{label}:2"),
            f'<path d="M{x - 36:g} {y - 8:g}h32M{x - 20:g} {y - 8:g}v-6" stroke="#333" '
            'stroke-width="1.5" fill="none"/>',
            _text(x - 20, y - 18, label, 9, weight="bold")]


def _resistor(a: Point, b: Point, leg_a: str, leg_b: str) -> list[str]:
    """A resistor between ``a`` and ``b`` (a horizontal or vertical zigzag)."""
    (x1, y1), (x2, y2) = a, b
    if y1 == y2:
        step = (x2 - x1) / 6
        path = f"M{x1:g} {y1:g}l{step / 2:g} -5" + "".join(
            f"l{step:g} {(10 if i % 2 == 0 else -10):g}" for i in range(5)) + f"l{step / 2:g} 5"
    else:
        step = (y2 - y1) / 6
        path = f"M{x1:g} {y1:g}l-5 {step / 2:g}" + "".join(
            f"l{(10 if i % 2 == 0 else -10):g} {step:g}" for i in range(5)) + f"l-5 {step / 2:g}"
    return [f'<path d="{path}" fill="none" stroke="#333" stroke-width="1.5"/>',
            _terminal(a, leg_a), _terminal(b, leg_b)]


def _fuse(a: Point, b: Point, leg_a: str, leg_b: str) -> list[str]:
    """A fuse between ``a`` and ``b`` (horizontal): a box with the wire through it."""
    (x1, y), (x2, _) = a, b
    return [f'<rect x="{x1 + 4:g}" y="{y - 5:g}" width="{x2 - x1 - 8:g}" height="10" '
            'fill="#fff" stroke="#333" stroke-width="1.5"/>',
            f'<path d="M{x1:g} {y:g}H{x2:g}" stroke="#333" stroke-width="1"/>',
            _terminal(a, leg_a), _terminal(b, leg_b)]


def _capacitor(a: Point, b: Point, leg_a: str, leg_b: str) -> list[str]:
    """A capacitor between ``a`` and ``b`` (horizontal): two plates, + on ``b``'s side."""
    (x1, y), (x2, _) = a, b
    return [f'<path d="M{x1:g} {y - 9:g}v18M{x2:g} {y - 9:g}v18" stroke="#333" '
            'stroke-width="2.5"/>', _text(x2 + 6, y - 8, "+", 9),
            _terminal(a, leg_a), _terminal(b, leg_b)]


@dataclass
class _Drawing:
    """The diagram being drawn: the parts and labels, and the wires (drawn under the parts)."""

    parts: list[str] = field(default_factory=list)
    wires: list[str] = field(default_factory=list)


def wiring_diagram() -> str:
    """The whole box: Pi header, OLED, encoder, buttons, keypad, Pico, 74AHCT125, resistor,
    capacitor, LED strip and supply, with every wire."""
    gpio = {p.function: p.header for p in pi_pins()}
    drawing = _Drawing([_text(WIDTH / 2, 26, "Pegboard wiring: parts and wires (BCM GPIO "
                              "numbers and header pins from the config defaults)", 14,
                              weight="bold")])
    board = _part(HX - 40, HY - 40, 2 * 40 + HP, 20 * HP + 70, "Raspberry Pi", "#2e7d32")
    usb_port = _pi_header(drawing, gpio)
    _left_side(drawing, gpio)
    _keypad(drawing, gpio)
    _led_side(drawing, usb_port)
    _legend(drawing)
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH:g}" height="{HEIGHT:g}" '
            f'viewBox="0 0 {WIDTH:g} {HEIGHT:g}" font-family="sans-serif">')
    background = f'<rect width="{WIDTH:g}" height="{HEIGHT:g}" fill="#fbf7ee"/>'
    return "\n".join([head, background, *board, *drawing.wires, *drawing.parts, "</svg>"]) + "\n"


def _pi_header(drawing: _Drawing, gpio: dict[str, int]) -> Point:
    """The Raspberry Pi's 40-pin header (the pins in use picked out) and its USB port, where
    the Pico's cable starts (returned)."""
    p = drawing.parts
    p.append(_text(HX + HP / 2, HY - 20, "40-pin header", 9, fill="#fff"))
    usb_port = (HX + HP / 2, HY + 20 * HP + 30)
    p.append(f'<rect x="{usb_port[0] - 14:g}" y="{usb_port[1] - 8:g}" width="28" height="10" '
             'fill="#bbb" stroke="#333"/>')
    p.append(_terminal(usb_port, "Pi:USB"))
    p.append(_text(usb_port[0], usb_port[1] - 12, "USB", 8, fill="#fff"))
    used = set(gpio.values()) | {1, 9, 6}
    i2s = {BCM_TO_HEADER[bcm] for bcm in I2S_PINS}
    for pin in range(1, 41):
        x, y = header_pin(pin)
        fill = ("#c9a227" if pin in used else
                "#d62728" if HEADER_POWER.get(pin) == "5V" else
                "#e67e22" if HEADER_POWER.get(pin) == "3V3" else
                "#111" if HEADER_POWER.get(pin) == "GND" else "#9e9e9e")
        p.append(f'<circle data-pin="Pi:{pin}" cx="{x:g}" cy="{y:g}" r="6" fill="{fill}" '
                 'stroke="#fff" '
                 'stroke-width="0.8"/>')
        p.append(_text(x, y + 3, str(pin), 6, fill="#fff" if fill in ("#111", "#d62728")
                       else "#000"))
        if pin in i2s:  # kept free for the I2S amplifier: ringed
            p.append(f'<circle cx="{x:g}" cy="{y:g}" r="8.5" fill="none" stroke="{I2S_RING}" '
                     'stroke-width="1.5"/>')
    return usb_port


def _left_side(drawing: _Drawing, gpio: dict[str, int]) -> None:
    """The OLED, the encoder and the buttons (3V3 from pin 1, GND from pin 9)."""
    p, back = drawing.parts, drawing.wires
    left = 200.0
    p += _part(60, 70, left - 60, 100, "OLED 128×64 (SSD1306/SH1106, I²C 0x3C)")
    oled = {name: (left, 90 + 20 * i) for i, name in enumerate(("GND", "VCC", "SCL", "SDA"))}
    for name, point in oled.items():
        p += _pin(point, name, "right", f"OLED:{name}")
    p += _part(60, 210, left - 60, 120, "KY-040 rotary encoder")
    enc = {name: (left, 228 + 20 * i) for i, name in enumerate(("GND", "+", "SW", "DT", "CLK"))}
    for name, point in enc.items():
        p += _pin(point, name, "right", f"KY-040:{name}")
    gnd_bus, v33_bus = 226.0, 240.0
    back.append(_wire(_route(header_pin(1), oled["VCC"], v33_bus), "3v3"))
    back.append(_wire([(v33_bus, oled["VCC"][1]), (v33_bus, enc["+"][1]), enc["+"]], "3v3"))
    back.append(_dot((v33_bus, oled["VCC"][1]), "3v3"))
    back.append(_wire(_route(header_pin(9), oled["GND"], gnd_bus), "gnd"))
    buttons = {"GO": gpio["input.button_go"], "UNDO": gpio["input.button_undo"],
               "MENU": gpio["input.button_menu"]}
    button_y = {name: 400 + 50 * i for i, name in enumerate(buttons)}
    # From pin 9's wire down to the encoder, and on to the buttons' common side.
    back.append(_wire([(gnd_bus, header_pin(9)[1]), (gnd_bus, enc["GND"][1]), enc["GND"]],
                      "gnd"))
    back.append(_dot((gnd_bus, header_pin(9)[1]), "gnd"))
    back.append(_wire([(gnd_bus, enc["GND"][1]), (gnd_bus, 520), (100, 520),
                       (100, button_y["GO"])], "gnd"))
    back.append(_dot((gnd_bus, enc["GND"][1]), "gnd"))
    for name, y in button_y.items():
        p += _switch(left - 40, y, name)
        back.append(_wire([(100, y), (left - 75, y)], "gnd"))
        if y != button_y["GO"]:
            back.append(_dot((100, y), "gnd"))
    p.append(_text(20, 545, "buttons: GPIO to GND (internal pull-ups), both kits", 9, "start"))
    back.append(_wire(_route(header_pin(3), oled["SDA"], 300), "i2c"))
    back.append(_wire(_route(header_pin(5), oled["SCL"], 290), "i2c"))
    back.append(_wire(_route(header_pin(gpio["input.encoder_a"]), enc["CLK"], 330), "input"))
    back.append(_wire(_route(header_pin(gpio["input.encoder_push"]), enc["SW"], 310), "input"))
    back.append(_wire(_around(header_pin(gpio["input.encoder_b"]), enc["DT"], HX + HP + 22,
                              HY - 66, 320), "input"))
    for i, (name, pin) in enumerate(buttons.items()):
        start, end = header_pin(pin), (left - 45, button_y[name])
        if (pin - 1) % 2:
            back.append(_wire(_around(start, end, HX + HP + 30 + 8 * i, HY + 20 * HP + 50 + 8 * i,
                                      350 + 10 * i), "input"))
        else:
            back.append(_wire(_route(start, end, 350 + 10 * i), "input"))


def _keypad(drawing: _Drawing, gpio: dict[str, int]) -> None:
    """The keypad kit (instead of the encoder), on the right."""
    p, back = drawing.parts, drawing.wires
    kx = 700.0
    p += _part(kx, 300, 150, 190, "4×4 keypad (keypad kit)", dashed=True)
    names = [f"R{i + 1}" for i in range(4)] + [f"C{i + 1}" for i in range(4)]
    keys = {name: (kx, 318 + 21 * i) for i, name in enumerate(names)}
    for name, point in keys.items():
        p += _pin(point, name, "left", f"keypad:{name}")
    p.append(_text(kx + 75, 510, "rows and columns: GPIO, no resistors", 9))
    for i in range(4):
        row, col = gpio[f"input.keypad_rows[{i}]"], gpio[f"input.keypad_cols[{i}]"]
        back.append(_wire(_around(header_pin(row), keys[f"R{i + 1}"], HX - 16 - 6 * i,
                                  HY + 20 * HP + 12 + 5 * i, 600 + 12 * i), "keypad"))
        if col % 2:  # a left-column pin: out to the left and round below the header, never
            # across the pin beside it
            back.append(_wire(_around(header_pin(col), keys[f"C{i + 1}"], HX - 16 - 6 * (4 + i),
                                      HY + 20 * HP + 12 + 5 * (4 + i), 520 + 12 * i), "keypad"))
        else:
            back.append(_wire(_route(header_pin(col), keys[f"C{i + 1}"], 520 + 12 * i),
                              "keypad"))


def _led_side(drawing: _Drawing, usb_port: Point) -> None:
    """The Pico, the level shifter, the resistors, the fuse, the capacitor, the strip and
    the supply. Crossing wires never join; a junction dot joins the wire that ends on it to
    the wire it touches."""
    p, back = drawing.parts, drawing.wires
    px, py = 360.0, 640.0
    p += _part(px, py, 170, 120, "Raspberry Pi Pico")
    pico = {"USB": (px, py + 60), "GP0": (px + 170, py + 20), "VBUS": (px + 170, py + 50),
            "GND": (px + 170, py + 100)}
    p += _pin(pico["USB"], "micro-USB", "left", "Pico:USB")
    p += _pin(pico["GP0"], "GP0 (pin 1)", "right", "Pico:GP0")
    p += _pin(pico["VBUS"], "VBUS (pin 40)", "right", "Pico:VBUS")
    p += _pin(pico["GND"], "GND (pin 3)", "right", "Pico:GND")
    back.append(_wire([usb_port, (usb_port[0], usb_port[1] + 40), (300, usb_port[1] + 40),
                       (300, pico["USB"][1]), pico["USB"]], "usb"))
    p.append(_text(306, 600, "USB data cable", 9, "start", "#555"))
    p.append(_text(306, 613, "(Zero 2 W: OTG adapter)", 9, "start", "#555"))
    cx, cy, pitch = 650.0, 590.0, 20.0
    p += _part(cx, cy, 110, 7 * pitch + 10, "74AHCT125 (DIP-14, top view)")
    p.append(f'<path d="M{cx + 45:g} {cy:g}a10 10 0 0 0 20 0" fill="none" stroke="#333"/>')
    chip: dict[int, Point] = {}
    for pin, name in AHCT125_PINS.items():
        on_left = pin <= 7
        where: Point = (cx, cy + 15 + (pin - 1) * pitch) if on_left else (
            cx + 110, cy + 15 + (14 - pin) * pitch)
        chip[pin] = where
        p += _pin(where, f"{pin} {name}", "left" if on_left else "right", f"74AHCT125:{name}")
    bus_y = 860.0  # the common ground along the bottom
    rail5, rail5_right, gnd_left, gnd_right = 590.0, cx + 130, 615.0, cx + 150
    # GP0 → 1A only.
    back.append(_wire([pico["GP0"], (565, pico["GP0"][1]), (565, chip[2][1]), chip[2]], "data"))
    # 5 V from VBUS: 2OE on the left; VCC, 4OE and 3OE on the right.
    back.append(_wire([pico["VBUS"], (rail5, pico["VBUS"][1]), (rail5, 560), (rail5_right, 560),
                       (rail5_right, chip[10][1]), chip[10]], "5v"))
    back.append(_wire([chip[4], (rail5, chip[4][1])], "5v"))
    back.append(_dot((rail5, chip[4][1]), "5v"))
    for pin in (14, 13):
        back.append(_wire([chip[pin], (rail5_right, chip[pin][1])], "5v"))
        back.append(_dot((rail5_right, chip[pin][1]), "5v"))
    # Ground: 1OE, 2A and GND on the left rail, 4A and 3A on the right, the Pico's GND, and
    # along the bottom to the strip and the supply.
    sx, sy = 900.0, 600.0
    din, gnd, v5 = (sx, sy + 20), (sx, sy + 50), (sx, sy + 80)
    strip_gnd_x, strip_5v_x = 866.0, 890.0
    back.append(_wire([chip[1], (gnd_left, chip[1][1]), (gnd_left, bus_y),
                       (strip_gnd_x, bus_y), (strip_gnd_x, gnd[1]), gnd], "gnd"))
    for start in (chip[5], chip[7], pico["GND"]):
        back.append(_wire([start, (gnd_left, start[1])], "gnd"))
        back.append(_dot((gnd_left, start[1]), "gnd"))
    back.append(_wire([chip[12], (gnd_right, chip[12][1]), (gnd_right, bus_y)], "gnd"))
    back.append(_dot((gnd_right, bus_y), "gnd"))
    back.append(_wire([chip[9], (gnd_right, chip[9][1])], "gnd"))
    back.append(_dot((gnd_right, chip[9][1]), "gnd"))
    p.append(_text(cx + 55, cy + 7 * pitch + 40, "gates 2-4 unused: OE to 5 V,", 9))
    p.append(_text(cx + 55, cy + 7 * pitch + 53, "A to GND, Y open; 0.1 µF", 9))
    p.append(_text(cx + 55, cy + 7 * pitch + 66, "from VCC to GND at the chip", 9))
    # 1Y → 330 Ω → strip DIN, over the top of the chip; 10 kΩ from DIN to ground.
    r1 = ((806.0, din[1]), (842.0, din[1]))
    back.append(_wire([chip[3], (cx - 15, chip[3][1]), (cx - 15, 546), (790, 546),
                       (790, din[1]), r1[0]], "data"))
    p += _resistor(r1[0], r1[1], "R1:1", "R1:2")
    p.append(_text(824, din[1] - 10, "330 Ω", 9))
    back.append(_wire([r1[1], din], "data"))
    r2 = ((850.0, din[1] + 12), (850.0, din[1] + 48))
    back.append(_wire([(850, din[1]), r2[0]], "data"))
    back.append(_dot((850, din[1]), "data"))
    p += _resistor(r2[0], r2[1], "R2:1", "R2:2")
    p.append(_text(843, din[1] + 34, "10 kΩ", 9, "end"))
    back.append(_wire([r2[1], (850, din[1] + 80), (strip_gnd_x, din[1] + 80)], "gnd"))
    back.append(_dot((strip_gnd_x, din[1] + 80), "gnd"))
    p += _part(sx, sy, 200, 100, "WS2812B strip, 60 LEDs/m")
    for name, pad in (("DIN", din), ("GND", gnd), ("+5V", v5)):
        p += _pin(pad, name, "left", f"strip:{name}")
    for i in range(5):
        p.append(f'<rect x="{sx + 50 + 27 * i:g}" y="{sy + 35:g}" width="16" height="16" '
                 'fill="#fff8dc" stroke="#333"/>')
    p.append(_text(sx + 120, sy + 80, "… one LED per hole →", 9))
    # The supply through the fuse to the strip's +5 V; 1000 µF across +5 V and GND at the
    # strip's input.
    fx, fy = 960.0, 780.0
    p += _part(fx, fy, 140, 70, "5 V 3 A supply (LED power)")
    sup5, supg = (fx, fy + 25), (fx, fy + 55)
    p += _pin(sup5, "+5V", "left", "supply:+5V")
    p += _pin(supg, "GND", "left", "supply:GND")
    f1 = ((906.0, sup5[1]), (942.0, sup5[1]))
    back.append(_wire([v5, (strip_5v_x, v5[1]), (strip_5v_x, sup5[1]), f1[0]], "5v"))
    p += _fuse(f1[0], f1[1], "F1:1", "F1:2")
    p.append(_text(924, sup5[1] - 12, "fuse 3 A", 9))
    back.append(_wire([f1[1], sup5], "5v"))
    back.append(_wire([supg, (strip_gnd_x, supg[1])], "gnd"))
    back.append(_dot((strip_gnd_x, supg[1]), "gnd"))
    cap_y = 750.0
    c1 = ((872.0, cap_y), (884.0, cap_y))
    back.append(_wire([(strip_gnd_x, cap_y), c1[0]], "gnd"))
    back.append(_dot((strip_gnd_x, cap_y), "gnd"))
    back.append(_wire([c1[1], (strip_5v_x, cap_y)], "5v"))
    back.append(_dot((strip_5v_x, cap_y), "5v"))
    p += _capacitor(c1[0], c1[1], "C1:-", "C1:+")
    p.append(_text(860, cap_y + 22, "1000 µF", 9, "end"))
    p.append(_text(1000, 728, "USB power only: no supply,", 9, "start"))
    p.append(_text(1000, 742, "no fuse; Pico VBUS → strip", 9, "start"))
    p.append(_text(1000, 756, "+5V instead", 9, "start"))


def _legend(drawing: _Drawing) -> None:
    """What each wire colour carries, and what a dot and a ring mean."""
    p = drawing.parts
    legend = [("3v3", "3.3 V"), ("5v", "5 V"), ("gnd", "GND (one common ground)"),
              ("i2c", "I²C"), ("input", "encoder, buttons"), ("keypad", "keypad"),
              ("data", "LED data"), ("usb", "USB")]
    for i, (kind, text) in enumerate(legend):
        y = 80 + 16 * i
        p.append(f'<path d="M900 {y:g}h24" stroke="{COLOURS[kind]}" stroke-width="3"/>')
        p.append(_text(930, y + 4, text, 9, "start"))
    p.append(f'<circle cx="912" cy="{80 + 16 * len(legend):g}" r="3.5" fill="#222"/>')
    p.append(_text(930, 84 + 16 * len(legend), "wires joined", 9, "start"))
    p.append(_text(930, 100 + 16 * len(legend), "(wires that cross without a dot", 9, "start"))
    p.append(_text(930, 112 + 16 * len(legend), "are not joined)", 9, "start"))
    ring_y = 132 + 16 * len(legend)
    p.append(f'<circle cx="912" cy="{ring_y:g}" r="6" fill="#9e9e9e" stroke="{I2S_RING}" '
             'stroke-width="1.5"/>')
    p.append(_text(930, ring_y + 4, "kept free for the I²S amplifier", 9, "start"))
    p.append(_text(930, ring_y + 16, "(GPIO 18-21, hardware/audio.md)", 9, "start"))
