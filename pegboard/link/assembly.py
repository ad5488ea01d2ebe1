"""The builder's drawings and figures: strip joints, power injection, the box, the battery.

Everything here is worked out from the layout table (:mod:`pegboard.link.layout`) and the
power figures of :mod:`pegboard.link.wiring`, so ``hardware/builders_guide.md`` and its
pictures cannot drift from what the firmware lights. ``pegboard leds svg`` writes the drawings
(``strip_wiring_2.svg``, ``strip_wiring_3.svg``, ``enclosure_2.svg``); a test regenerates them
and checks the guide's tables are :func:`injection_table` and :func:`battery_table`.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from pegboard.link.layout import STREET, STREETS, LedConfig, led_at
from pegboard.link.wiring import FULL_MA_PER_CHANNEL, IDLE_MA_PER_LED
from pegboard.rules.value import Value

#: Strip pitch at 60 LEDs per metre, in metres.
LED_M = 1 / 60
#: Resistance of a strip's +5 V and GND rails together, per metre: 1 oz (35 µm) copper, traces
#: about 3 mm wide, ρ = 1.7e-8 Ω·m, gives 0.16 Ω a rail (assumed, not measured: a thicker strip
#: does better; measure yours as the guide says).
STRIP_LOOP_OHM_PER_M = 2 * 1.7e-8 / (3e-3 * 35e-6)
#: The drop the strip may have at its worst point, in volts (5 %: 4.75 V at the far LED).
MAX_DROP_V = 0.25
#: The firmware's current budget with a separate 5 V 3 A supply (``leds.budget_ma``).
SUPPLY_BUDGET_MA = 2000
#: Copper wire resistance per metre by AWG (IEC 60228 / ASTM B258 tables), in ohms.
AWG_OHM_PER_M = {18: 0.0210, 20: 0.0333, 22: 0.0530}


class Injection(Value):
    """Where a strip of ``count`` LEDs takes power: ``points`` LED indices, the worst drop."""

    __slots__ = ("amps", "count", "drop_v", "points")
    __match_args__ = ("count", "amps", "points", "drop_v")

    count: int
    amps: float
    points: tuple[int, ...]
    drop_v: float

    def __init__(self, count: int, amps: float, points: tuple[int, ...], drop_v: float) -> None:
        setter = object.__setattr__
        setter(self, "count", count)
        setter(self, "amps", amps)
        setter(self, "points", points)
        setter(self, "drop_v", drop_v)


def strip_amps(count: int, budget_ma: int = SUPPLY_BUDGET_MA) -> float:
    """The most the strip draws: the firmware's colour budget plus every LED's idle current."""
    return (budget_ma + count * IDLE_MA_PER_LED) / 1000


def injection(count: int, budget_ma: int = SUPPLY_BUDGET_MA) -> Injection:
    """The fewest feed points that keep the drop within :data:`MAX_DROP_V`.

    The strip is cut into ``k`` equal pieces, each fed at both ends (``k + 1`` points, the
    first at LED 0 and the last at the final LED). With the current spread evenly along a piece
    of length ``s`` fed at both ends, the worst drop, in its middle, is ``w·s²·R/8`` (``w`` the
    current per metre, ``R`` the rails' resistance per metre).

    >>> injection(241).points
    (0, 120, 240)
    """
    amps = strip_amps(count, budget_ma)
    length = count * LED_M
    per_m = amps / length
    pieces = 1
    while per_m * (length / pieces) ** 2 * STRIP_LOOP_OHM_PER_M / 8 > MAX_DROP_V:
        pieces += 1
    drop = per_m * (length / pieces) ** 2 * STRIP_LOOP_OHM_PER_M / 8
    points = tuple(round(i * (count - 1) / pieces) for i in range(pieces + 1))
    return Injection(count, amps, points, drop)


def one_end_drop(count: int, budget_ma: int = SUPPLY_BUDGET_MA) -> float:
    """The worst drop of a strip fed only at its start: ``w·L²·R/2``, at the far end."""
    amps = strip_amps(count, budget_ma)
    length = count * LED_M
    return amps / length * length**2 * STRIP_LOOP_OHM_PER_M / 2


def wire_drop(awg: int, metres: float, amps: float) -> float:
    """The drop along a pair of wires (there and back) of ``metres`` each."""
    return 2 * metres * AWG_OHM_PER_M[awg] * amps


def injection_table(counts: tuple[int, ...] = (121, 241, 361)) -> str:
    """The Markdown table of feed points and wires for each strip length."""
    rows = ["| LEDs (strip) | most current | fed at the start only | feed points (LED index) "
            "| worst drop with them | supply to the fuse and the block | block to each point |",
            "|---|---|---|---|---|---|---|"]
    for count in counts:
        feed = injection(count)
        pieces = len(feed.points) - 1
        # An inner point feeds half of two pieces, an end point half of one.
        branch = feed.amps / pieces if pieces >= 2 else feed.amps / 2
        trunk = wire_drop(18, 0.5, feed.amps)
        rows.append(
            f"| {count} ({count * LED_M:.1f} m) | {feed.amps:.2f} A | {one_end_drop(count):.2f} V "
            f"| {', '.join(str(p) for p in feed.points)} | {feed.drop_v:.2f} V | 18 AWG "
            f"(0.5 m: {trunk:.2f} V) | 20 AWG (≤ 0.7 m at {branch:.1f} A: "
            f"{wire_drop(20, 0.7, branch):.2f} V) |")
    return "\n".join(rows) + "\n"


# -- the battery ---------------------------------------------------------------------------

#: Typical bare-board active current of each Pi at 5 V, in mA (Raspberry Pi documentation,
#: "Power supply": Zero 2 W 350 mA, 3 B+ 500 mA, 4 B 600 mA).
PI_MA = {"Zero 2 W": 350, "3 B+": 500, "4 B": 600}
#: The Pico running the firmware (README power budget) and the OLED (SSD1306 datasheet: about
#: 20 mA with half the pixels lit).
PICO_MA, OLED_MA = 25, 20
#: A 10,000 mAh power bank's cells (3.7 V) give about 85 % of their energy at 5 V.
BANK_MAH, CELL_V, BANK_EFFICIENCY = 10_000, 3.7, 0.85


def game_ma(count: int, brightness: int = 128) -> int:
    """The LED strip during a game: every LED idle, 8 pegs and 8 markers at the cap (the
    README's power budget, from the firmware's own current estimate)."""
    pegs = (8 * FULL_MA_PER_CHANNEL * brightness // 255
            + 8 * 3 * FULL_MA_PER_CHANNEL * 12 * brightness // 255 // 255)
    return count * IDLE_MA_PER_LED + pegs


def battery_hours(pi: str, count: int) -> float:
    """Hours of play from a 10,000 mAh power bank: its energy at 5 V over the box's current."""
    usable_mah_at_5v = BANK_MAH * CELL_V / 5 * BANK_EFFICIENCY
    return usable_mah_at_5v / (PI_MA[pi] + PICO_MA + OLED_MA + game_ma(count))


def battery_table(counts: tuple[int, ...] = (241, 361)) -> str:
    """The Markdown table of run times from a 10,000 mAh power bank."""
    rows = ["| Pi | LEDs | Pi + Pico + OLED | strip in a game | in all | hours of play |",
            "|---|---|---|---|---|---|"]
    for pi in PI_MA:
        for count in counts:
            board = PI_MA[pi] + PICO_MA + OLED_MA
            rows.append(f"| {pi} | {count} | {board} mA | {game_ma(count)} mA | "
                        f"{board + game_ma(count)} mA | {battery_hours(pi, count):.1f} |")
    return "\n".join(rows) + "\n"


# -- the pictures --------------------------------------------------------------------------

def _text(x: float, y: float, text: str, size: float = 11, anchor: str = "middle",
          fill: str = "#222", weight: str = "normal") -> str:
    return (f'<text x="{x:.2f}" y="{y:.2f}" font-size="{size:g}" text-anchor="{anchor}" '
            f'fill="{fill}" font-weight="{weight}">{escape(text)}</text>')


def _svg(width: float, height: float, parts: list[str], unit: str = "") -> str:
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}{unit}" '
            f'height="{height:g}{unit}" viewBox="0 0 {width:g} {height:g}" '
            'font-family="sans-serif">')
    return "\n".join([head, f'<rect width="{width:g}" height="{height:g}" fill="#fff"/>',
                      *parts, "</svg>"]) + "\n"


def strip_wiring_svg(cfg: LedConfig) -> str:
    """The strip under the board: each row of 30 LEDs with its data direction (DIN → DOUT),
    the joints between rows (three wires: +5 V, data, GND), the game-hole LED, and the feed
    points of :func:`injection` with their wires from the fuse and the block."""
    rows = cfg.tracks * 4
    count = cfg.skip + rows * STREET + 1
    pitch, lane, left, top = 16.0, 56.0, 270.0, 90.0
    width, height = left + STREET * pitch + 110, top + rows * lane + 50

    def x(col: float) -> float:
        return left + col * pitch + pitch / 2

    def y(row: int) -> float:
        return top + row * lane

    parts = [_text(width / 2, 28, f"The strip under a {cfg.tracks}-track board: {rows} rows, "
                   f"{rows - 1} joints, {count} LEDs", 16, weight="bold"),
             _text(width / 2, 48, "seen from above, through the top (not to scale); data runs "
                   "DIN → DOUT along each row (arrows); a joint carries +5 V, data and GND", 11,
                   fill="#555")]
    feed = injection(count)
    ends: list[tuple[tuple[float, float], tuple[float, float]]] = []
    for row in range(rows):
        first, last = led_at(cfg, row, 0), led_at(cfg, row, STREET - 1)
        forward = first < last  # the chain runs left to right in this row
        parts.append(f'<rect x="{left:g}" y="{y(row) - 9:g}" width="{STREET * pitch:g}" '
                     'height="18" rx="2" fill="#f4f4f4" stroke="#999"/>')
        for col in range(STREET):
            parts.append(f'<rect x="{x(col) - 4:g}" y="{y(row) - 4:g}" width="8" height="8" '
                         'fill="#fff8dc" stroke="#666" stroke-width="0.6"/>')
        start, end = (0, STREET - 1) if forward else (STREET - 1, 0)
        arrow_y = y(row) + 15
        parts.append(f'<path d="M{x(start):g} {arrow_y:g}H{x(end):g}" stroke="#2ca02c" '
                     'stroke-width="1.4" marker-end="url(#arrow)"/>')
        parts.append(_text(x(start), y(row) - 12, "DIN", 9, fill="#2ca02c"))
        parts.append(_text(x(end), y(row) - 12, "DOUT", 9, fill="#2ca02c"))
        parts.append(_text(left - 58, y(row) + 4, f"row {row + 1}: LEDs {min(first, last)}–"
                           f"{max(first, last)}", 10, "end"))
        ends.append(((x(start), y(row)), (x(end), y(row))))
    for joint in range(rows - 1):
        (ex, ey), (sx, sy) = ends[joint][1], ends[joint + 1][0]
        out = 22 if ex > width / 2 else -22
        for k, colour in enumerate(("#d62728", "#2ca02c", "#222")):
            dx = out + (k - 1) * 5 * (1 if out > 0 else -1)
            parts.append(f'<path d="M{ex:g} {ey - 5 + 5 * k:g}h{dx:g}V{sy - 5 + 5 * k:g}'
                         f'H{sx:g}" fill="none" stroke="{colour}" stroke-width="1.3"/>')
        parts.append(_text(ex + out * 2.1, (ey + sy) / 2 + 4, f"J{joint + 1}", 11,
                           weight="bold"))
    (gx, gy) = ends[-1][1]
    step = pitch if gx > width / 2 else -pitch
    game = (gx + 2 * step, gy)
    parts.append(f'<circle cx="{game[0]:g}" cy="{game[1]:g}" r="6" fill="#fff8dc" '
                 'stroke="#b8860b" stroke-width="1.5"/>')
    parts.append(f'<path d="M{gx:g} {gy:g}H{game[0] - 6 * (1 if step > 0 else -1):g}" '
                 'stroke="#2ca02c" stroke-width="1.3"/>')
    parts.append(_text(game[0] - 8, game[1] + 17, f"game hole (LED {count - 1})", 9, "end"))
    din = ends[0][0]
    parts.append(_text(din[0] - 30, din[1] - 26, "from 330 Ω (10 kΩ to GND) →", 9, "start",
                       "#2ca02c"))
    # Feed points: where the LED with that index sits, fed from the block at the left.
    block = (36.0, top + (rows - 1) * lane / 2)
    parts.append(f'<rect x="{block[0] - 26:g}" y="{block[1] - 30:g}" width="52" height="60" '
                 'rx="4" fill="#fff" stroke="#333"/>')
    parts.append(_text(block[0], block[1] - 6, "fuse +", 9))
    parts.append(_text(block[0], block[1] + 8, "block", 9))
    parts.append(_text(block[0], block[1] + 44, "from the", 9))
    parts.append(_text(block[0], block[1] + 56, "5 V supply", 9))
    spots = {led_at(cfg, row, col): (x(col), y(row)) for row in range(rows)
             for col in range(STREET)}
    spots[count - 1] = game
    for i, led in enumerate(feed.points):
        px, py = spots[led]
        lane_x = 76 + 8 * i
        parts.append(f'<path d="M{block[0] + 26:g} {block[1] - 20 + 8 * i:g}H{lane_x:g}'
                     f'V{py + 22:g}H{px:g}V{py + 9:g}" fill="none" stroke="#d62728" '
                     'stroke-width="2" stroke-dasharray="1 0"/>')
        parts.append(f'<circle cx="{px:g}" cy="{py + 9:g}" r="4" fill="#d62728"/>')
        parts.append(_text(px + 10, py + 31, f"feed {i + 1}: LED {led}", 9, "start", "#d62728"))
    parts.append(_text(width / 2, height - 30, f"Feed points for {count} LEDs at "
                       f"{feed.amps:.2f} A: worst drop {feed.drop_v:.2f} V (fed at the start "
                       f"only: {one_end_drop(count):.2f} V); +5 V and GND go to each point",
                       11, fill="#d62728"))
    marker = ('<defs><marker id="arrow" markerWidth="8" markerHeight="8" refX="6" refY="3" '
              'orient="auto"><path d="M0 0L6 3L0 6z" fill="#2ca02c"/></marker></defs>')
    return _svg(width, height, [marker, *parts])


#: The strip's LED pitch: 60 LEDs a metre (WS2812B 60/m), in mm.
STRIP_PITCH_MM = 1000 / 60
#: Drill for an LED window (a 5050 LED is 5 mm square), and the spacing of the rows in mm.
DRILL_MM = 5.0
LANE_MM = 20.0
STREET_GAP_MM = 12.0
BOARD_WIDTH_MM = 600
TEMPLATE_MARGIN_MM = 40.0


def board_size_mm(tracks: int) -> tuple[int, int]:
    """The board's width and height in mm: the rows, the game hole, the scale and margins,
    rounded up to 10 mm (600 × 300 for two tracks)."""
    rows = tracks * STREETS
    height = 2 * TEMPLATE_MARGIN_MM + (rows - 1) * LANE_MM + (STREETS - 1) * STREET_GAP_MM + 40
    return BOARD_WIDTH_MM, int(-(-height // 10) * 10)


class OledWindow(Value):
    """A panel's window in the front apron: its active area (the lit pixels) and the cut-out,
    1 mm wider than the active area on every side so the pixels never hide behind the edge."""

    __slots__ = ("active_mm", "name", "window_mm")
    __match_args__ = ("name", "active_mm", "window_mm")

    name: str
    active_mm: tuple[float, float]
    window_mm: tuple[int, int]

    def __init__(
        self,
        name: str,
        active_mm: tuple[float, float],
        window_mm: tuple[int, int],
    ) -> None:
        setter = object.__setattr__
        setter(self, "name", name)
        setter(self, "active_mm", active_mm)
        setter(self, "window_mm", window_mm)


OLED_WINDOWS = (
    OledWindow('0.96" SSD1306', (21.74, 10.86), (24, 13)),
    OledWindow('1.3" SH1106', (29.42, 14.70), (32, 17)),
)
"""One window for each panel the parts list offers (active areas from the panels' datasheets:
128 × 64 pixels at 0.17 mm and at 0.23 mm pitch)."""


APRON_MM = 50.0
"""The aprons' height: they stand on the base plate round the electronics and carry the
strip's carrier on their top edges (:func:`pegboard.link.box.layers_svg`)."""

APRON_BOARD_MM = 6.0
"""The aprons' sheet (plywood or acrylic)."""

CORNER_BLOCK_MM = 20.0
"""The square section of the four corner blocks (softwood, as long as the aprons are high)
glued inside the box's corners: the aprons, the base plate and the top are screwed to them."""

PI_CABLE_NOTCH_MM = (8.0, 6.0)
"""The notch in the back apron's bottom edge the Pi's power cable leaves through, wide by
high: room for a supply cable up to 5 mm thick, with the base plate closing it from below, so
that the plug stays inside and never has to pass a hole."""


def enclosure_svg(tracks: int = 2) -> str:
    """The box's panels at 1:1 (the SVG's units are millimetres): the front apron with the
    OLED window, the encoder and the three buttons; the back apron with the supply's jack and
    the Pi's cable; the base plate with the Pi, Pico and level-shifter board holes."""
    board_w, board_h = board_size_mm(tracks)
    apron_h, gap = APRON_MM, 22.0
    width, height = board_w + 20.0, 30 + 2 * (apron_h + gap) + board_h + 40
    parts: list[str] = [_text(width / 2, 12, f"Pegboard box, {tracks} tracks: print at 100 % "
                              "(actual size); every dimension in mm", 6)]

    def hole(cx: float, cy: float, d: float, name: str) -> list[str]:
        r = d / 2
        return [f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="{r:g}" fill="none" stroke="#000" '
                'stroke-width="0.3"/>',
                f'<path d="M{cx - r - 2:.2f} {cy:.2f}h{d + 4:g}M{cx:.2f} {cy - r - 2:.2f}'
                f'v{d + 4:g}" stroke="#000" stroke-width="0.15"/>',
                _text(cx, cy + r + 4.5, name, 3)]

    def rect(x0: float, y0: float, w: float, h: float, name: str = "") -> list[str]:
        out = [f'<rect x="{x0:.2f}" y="{y0:.2f}" width="{w:g}" height="{h:g}" fill="none" '
               'stroke="#000" stroke-width="0.3"/>']
        return out + ([_text(x0 + w / 2, y0 + h + 4.5, name, 3)] if name else [])

    x0, y_front = 10.0, 30.0
    parts += rect(x0, y_front, board_w, apron_h)
    parts.append(_text(x0 + 2, y_front - 2, f"front apron {board_w} × {apron_h:g} (6 mm "
                       "plywood or acrylic), seen from the front", 4, "start"))
    mid = y_front + apron_h / 2
    # One window for each panel offered: cut the one that matches yours (OLED_WINDOWS).
    for i, window in enumerate(OLED_WINDOWS):
        name, (w, h) = window.name, window.window_mm
        cx = x0 + 95 + 50 * i
        parts += rect(cx - w / 2, mid - h / 2, w, h, f"{name}: {w} × {h}")
        parts.append(_text(cx, mid - h / 2 - 2.5, "or" if i else "OLED window, cut one:", 2.6))
    parts.append(_text(x0 + 120, mid + 16, "mark the module's screw holes through it", 2.6))
    parts += hole(x0 + 220, mid, 7, "encoder Ø7 (M7 bush)")
    for i, name in enumerate(("GO", "UNDO", "MENU")):
        parts += hole(x0 + 320 + 60 * i, mid, 16, f"{name} Ø16")
    y_back = y_front + apron_h + gap
    parts += rect(x0, y_back, board_w, apron_h)
    parts.append(_text(x0 + 2, y_back - 2, f"back apron {board_w} × {apron_h:g}, seen from "
                       "the back", 4, "start"))
    back_mid = y_back + apron_h / 2
    # Seen from the back, the hole-1 end is on the right: the jack goes there, near the fuse
    # and the block it feeds (well within the half metre of 18 AWG the injection table
    # allows), and the Pi's cable near the Pi; the vents at the far end, away from both.
    parts += hole(x0 + board_w - 60, back_mid, 8, "5 V jack Ø8 (5.5/2.1 panel jack)")
    # The Pi's cable leaves through a notch in the bottom edge, closed by the base plate: its
    # plug never has to pass (no USB plug goes through a 10 mm hole, let alone a grommet).
    notch_w, notch_h = PI_CABLE_NOTCH_MM
    notch_x = x0 + board_w - 200 - notch_w / 2
    parts += rect(notch_x, y_back + apron_h - notch_h, notch_w, notch_h)
    parts.append(_text(notch_x + notch_w / 2, y_back + apron_h - notch_h - 2.5,
                       f"Pi power cable: notch {notch_w:g} × {notch_h:g} in the bottom edge", 3))
    parts.append(_text(x0 + board_w - 2, y_back - 2, "hole-1 end (the base plate's left, seen "
                       "from above)", 3.5, "end"))
    for i in range(6):
        parts += rect(x0 + 100 + 14 * i, back_mid - 12, 5, 24)
    parts.append(_text(x0 + 137, back_mid + 18, "vent slots 5 × 24", 3))
    y_base = y_back + apron_h + gap
    parts += rect(x0, y_base, board_w, board_h)
    parts.append(_text(x0 + 2, y_base - 2, f"base plate {board_w} × {board_h} (the top's "
                       "size), seen from above, front apron at the bottom edge: Ø2.7 holes for "
                       "M2.5 standoffs 10 mm", 4, "start"))
    # Row 1's DIN, the feed points and the first joints are all at the hole-1 end (drawn on the
    # left, the data-in end): the level shifter and the fuse and block go there, so the data
    # wire to the first LED stays short (under 30 cm) and so do the feed wires.
    # A corner block stands inside each corner, behind the aprons: the boards keep clear.
    inner = APRON_BOARD_MM
    for cx in (x0 + inner, x0 + board_w - inner - CORNER_BLOCK_MM):
        for cy in (y_base + inner, y_base + board_h - inner - CORNER_BLOCK_MM):
            parts += rect(cx, cy, CORNER_BLOCK_MM, CORNER_BLOCK_MM)
    parts.append(_text(x0 + inner + CORNER_BLOCK_MM + 3,
                       y_base + board_h - inner - CORNER_BLOCK_MM / 2 + 1,
                       f"corner block {CORNER_BLOCK_MM:g} × {CORNER_BLOCK_MM:g} (one in each "
                       "corner)", 3, "start"))
    parts += rect(x0 + 35, y_base + 20, 70, 50, "74AHCT125 board 70 × 50 (drill through it): "
                  "under row 1's DIN")
    parts += rect(x0 + 20, y_base + 95, 60, 40, "fuse holder and +5 V / GND block")
    parts.append(_text(x0 + 4, y_base + 160, "hole-1 end: row 1's DIN (top left, under the "
                       "board's row 1) and every feed point", 3.5, "start"))
    pi4 = (x0 + 180, y_base + 40)
    for dx, dy in ((0, 0), (58, 0), (0, 49), (58, 49)):
        parts += hole(pi4[0] + dx, pi4[1] + dy, 2.7, "")
    parts.append(_text(pi4[0] + 29, pi4[1] + 25, "Pi 3 B+/4/5: 58 × 49", 3.5))
    zero = (x0 + 180, y_base + 130)
    for dx, dy in ((0, 0), (58, 0), (0, 23), (58, 23)):
        parts += hole(zero[0] + dx, zero[1] + dy, 2.7, "")
    parts.append(_text(zero[0] + 29, zero[1] + 13, "or Zero 2 W: 58 × 23", 3.5))
    pico = (x0 + 135, y_base + 20)
    for across, along in ((0.0, 0.0), (11.4, 0.0), (0.0, 47.0), (11.4, 47.0)):
        parts += hole(pico[0] + across, pico[1] + along, 2.2, "")
    parts.append(_text(pico[0] + 5.7, pico[1] + 56, "Pico 11.4 × 47 (Ø2.2, M2)", 3.5))
    parts.append(_text(x0 + board_w / 2, y_base + board_h - 20, "the LED supply stays outside "
                       "the box (its jack on the back apron)", 4))
    scale_y = height - 12
    parts.append(f'<path d="M{x0} {scale_y}h100" stroke="#000" stroke-width="0.4"/>')
    parts.append(_text(x0 + 50, scale_y + 6, "100 mm: measure it on the print", 3))
    assert math.isfinite(width)
    return _svg(width, height, parts, "mm")
