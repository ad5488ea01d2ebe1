"""Drawings generated from the code's own tables: the board layout and the wiring (SVG), and
a terminal view of an LED frame.

``pegboard leds svg`` writes :data:`DRAWINGS` into ``hardware/``; a test regenerates them and
compares byte for byte, so the drawings always show what the firmware really does.
"""

from __future__ import annotations

from collections.abc import Callable
from xml.sax.saxutils import escape

from pegboard.link.board import DEFAULT_COLOURS, colour_hex
from pegboard.link.layout import (
    GAME_HOLE,
    HOLES,
    STREET,
    STREETS,
    LedConfig,
    hole_position,
    led_at,
    led_index,
)
from pegboard.link.wiring import HEADER_POWER, PICO_PINS, pi_pins

PITCH = 22  # distance between hole centres in the drawing
FIVE_GAP = 8  # extra space after every group of five
ROW = 26  # distance between the lanes of one street
STREET_GAP = 34  # extra space between streets
MARGIN = 70


def _x(col: int) -> float:
    return MARGIN + col * PITCH + (col // 5) * FIVE_GAP


def _y(cfg: LedConfig, row: int) -> float:
    street, lane = divmod(row, cfg.tracks)
    return MARGIN + 30 + street * (cfg.tracks * ROW + STREET_GAP) + lane * ROW


def _text(x: float, y: float, text: str, size: int = 9, anchor: str = "middle",
          fill: str = "#333") -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" '
            f'fill="{fill}">{escape(text)}</text>')


def board_svg(cfg: LedConfig) -> str:
    """The board seen from above: every hole with its number and LED index, the LED chain's
    path from DIN, the skunk lines and the game hole."""
    width = _x(STREET - 1) + MARGIN
    game_y = _y(cfg, cfg.rows - 1) + ROW + STREET_GAP
    height = game_y + 60
    centres: dict[int, tuple[float, float]] = {}
    parts: list[str] = []
    title = (f"Pegboard LED layout: {cfg.tracks} tracks, {cfg.led_count} LEDs, "
             f"{cfg.order} order, {'serpentine' if cfg.serpentine else 'straight'} chain, "
             f"hole 1 on the {cfg.hole1_end}" + (f", {cfg.skip} skipped" if cfg.skip else ""))
    parts.append(_text(width / 2, 24, title, 13))
    for street in range(STREETS):
        top = _y(cfg, street * cfg.tracks) - ROW / 2 - 4
        first = street * STREET + 1
        parts.append(_text(12, top + cfg.tracks * ROW / 2 + 4,
                           f"{first}-{first + STREET - 1}", 9, "start"))
        if first in (61, 91):
            label = "double skunk line 60|61" if first == 61 else "skunk line 90|91"
            parts.append(f'<line x1="{MARGIN - 20}" y1="{top - STREET_GAP / 2 + 4:g}" '
                         f'x2="{width - MARGIN + 20:g}" y2="{top - STREET_GAP / 2 + 4:g}" '
                         'stroke="#999" stroke-dasharray="4 3"/>')
            parts.append(_text(width - MARGIN + 20, top - STREET_GAP / 2, label, 8, "end", "#777"))
    for side in range(cfg.tracks):
        colour = "#" + colour_hex(DEFAULT_COLOURS[side])
        for hole in range(1, HOLES + 1):
            row, col = hole_position(cfg, side, hole)
            x, y = _x(col), _y(cfg, row)
            led = led_index(cfg, side, hole)
            assert led is not None
            centres[led] = (x, y)
            parts.append(f'<circle cx="{x:g}" cy="{y:g}" r="6" fill="{colour}" '
                         'fill-opacity="0.25" stroke="#444" stroke-width="0.8"/>')
            parts.append(_text(x, y + 3, str(led), 6, fill="#000"))
            if hole % 5 == 0 or hole == 1:
                parts.append(_text(x, y - 8, str(hole), 6, fill="#666"))
        row, col = hole_position(cfg, side, 1)
        start_x = _x(col) + (-PITCH if col == 0 else PITCH)
        parts.append(f'<circle cx="{start_x:g}" cy="{_y(cfg, row):g}" r="5" fill="none" '
                     f'stroke="{colour}" stroke-width="1.5"/>')
        parts.append(_text(start_x + (-10 if col == 0 else 10), _y(cfg, row) + 3,
                           f"P{side + 1}", 8, "end" if col == 0 else "start", colour))
    game_led = led_index(cfg, 0, GAME_HOLE)
    assert game_led is not None
    _, end_col = hole_position(cfg, 0, HOLES)
    game_x = _x(end_col)
    centres[game_led] = (game_x, game_y)
    parts.append(f'<circle cx="{game_x:g}" cy="{game_y:g}" r="8" fill="#ffd700" '
                 'fill-opacity="0.4" stroke="#444"/>')
    parts.append(_text(game_x, game_y + 3, str(game_led), 7, fill="#000"))
    parts.append(_text(game_x + 14, game_y + 3, "game hole (121), shared", 9, "start"))
    path = " ".join(f"{centres[i][0]:g},{centres[i][1]:g}" for i in sorted(centres))
    chain = (f'<polyline points="{path}" fill="none" stroke="#2a7" stroke-width="1" '
             'stroke-opacity="0.6"/>')
    first_x, first_y = centres[cfg.skip]
    parts.append(_text(first_x, first_y + 16, "DIN", 8, fill="#2a7"))
    parts.append(_text(MARGIN, height - 14,
                       "Numbers in holes: LED index on the chain (green line, from DIN). "
                       "Start holes (0, ring) have no LED.", 9, "start"))
    return _svg(width, height, [chain, *parts])


def _svg(width: float, height: float, parts: list[str]) -> str:
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
            f'viewBox="0 0 {width:g} {height:g}" font-family="sans-serif">')
    background = f'<rect width="{width:g}" height="{height:g}" fill="#fbf7ee"/>'
    return "\n".join([head, background, *parts, "</svg>"]) + "\n"


def _box(x: float, y: float, w: float, h: float, title: str, lines: list[str]) -> list[str]:
    out = [f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="6" fill="#fff" '
           'stroke="#333"/>', _text(x + w / 2, y + 16, title, 11)]
    out += [_text(x + 8, y + 32 + 13 * i, line, 9, "start") for i, line in enumerate(lines)]
    return out


POWER_LABELS = {1: "3V3 → OLED VCC, encoder +", 6: "GND → OLED, encoder, buttons"}


def wiring_svg() -> str:
    """The Pi header with every signal the device uses, and the Pico to LED strip chain."""
    width, height = 980.0, 760.0
    parts = [_text(width / 2, 24, "Pegboard wiring (BCM numbers; pins from pegboard/config.py "
                   "defaults)", 13)]
    hx, hy = 430.0, 70.0
    parts.append(f'<rect x="{hx - 14:g}" y="{hy - 14:g}" width="56" height="{20 * 22 + 8}" '
                 'rx="4" fill="#1d5e2c"/>')
    parts.append(_text(hx + 14, hy - 20, "Pi 40-pin header", 10))
    used = {p.header: p for p in pi_pins()}
    for pin in range(1, 41):
        col, row = (pin - 1) % 2, (pin - 1) // 2
        x, y = hx + col * 28, hy + row * 22
        if pin in used:
            fill = "#f2c14e"
        elif pin in HEADER_POWER:
            fill = "#d9534f" if HEADER_POWER[pin] != "GND" else "#222"
        else:
            fill = "#bbb"
        parts.append(f'<circle cx="{x:g}" cy="{y:g}" r="7" fill="{fill}" stroke="#000"/>')
        parts.append(_text(x, y + 3, str(pin), 6, fill="#fff" if fill == "#222" else "#000"))
        label = None
        if pin in used:
            p = used[pin]
            label = f"{p.part} — GPIO{p.bcm} ({p.function})"
        elif pin in POWER_LABELS:
            label = POWER_LABELS[pin]
        if label:
            if col == 0:
                parts.append(f'<line x1="{x - 8:g}" y1="{y:g}" x2="{x - 40:g}" y2="{y:g}" '
                             'stroke="#555"/>')
                parts.append(_text(x - 44, y + 3, label, 9, "end"))
            else:
                parts.append(f'<line x1="{x + 8:g}" y1="{y:g}" x2="{x + 40:g}" y2="{y:g}" '
                             'stroke="#555"/>')
                parts.append(_text(x + 44, y + 3, label, 9, "start"))
    parts.append(_text(hx + 14, hy + 20 * 22 + 22,
                       "Buttons and encoder switch: GPIO to GND, internal pull-ups.", 9))
    parts.append(_text(hx + 14, hy + 20 * 22 + 36,
                       "OLED: SSD1306 0.96\" or SH1106 1.3\", I2C address 0x3C.", 9))
    by = 600.0
    pico_lines = [f"{p.label} (pin {p.pin})" if p.pin else "micro-USB ← Pi USB port"
                  for p in PICO_PINS]
    parts += _box(30, by, 190, 100, "Raspberry Pi Pico", pico_lines)
    parts += _box(270, by, 170, 100, "74AHCT125", ["VCC ← 5 V", "1OE, GND ← GND",
                                                    "1A ← Pico GP0", "1Y → 330 Ω"])
    parts += _box(490, by, 170, 100, "330 Ω + strip", ["near the first LED", "→ WS2812B DIN",
                                                        "strip GND ← common GND"])
    parts += _box(710, by, 240, 100, "5 V supply", ["→ strip +5 V at the input end",
                                                     "(and the far end on long runs)",
                                                     "1000 µF across +5 V/GND",
                                                     "GND → common ground"])
    for x1, x2 in ((220, 270), (440, 490), (660, 710)):
        parts.append(f'<line x1="{x1}" y1="{by + 50:g}" x2="{x2}" y2="{by + 50:g}" '
                     'stroke="#2a7" stroke-width="2"/>')
    parts.append(_text(width / 2, by + 130, "USB power alone: keep leds.budget_ma at 500 or "
                       "less and feed the strip from VBUS (pin 40).", 10))
    return _svg(width, height, parts)


#: Every generated drawing by file name.
DRAWINGS: dict[str, Callable[[], str]] = {
    "board_layout_2.svg": lambda: board_svg(LedConfig(tracks=2)),
    "board_layout_3.svg": lambda: board_svg(LedConfig(tracks=3)),
    "wiring.svg": wiring_svg,
}


def render_ansi(rgb: bytes, cfg: LedConfig) -> str:
    """An LED frame as coloured dots in a terminal, laid out like the board."""
    lines = []
    for row in range(cfg.rows):
        cells = []
        for col in range(STREET):
            led = led_at(cfg, row, col)
            r, g, b = rgb[led * 3 : led * 3 + 3]
            gap = " " if col % 5 == 4 else ""
            if r or g or b:
                scale = 255 / max(r, g, b)
                r, g, b = (int(c * scale) for c in (r, g, b))
                cells.append(f"\x1b[38;2;{r};{g};{b}m●\x1b[0m{gap}")
            else:
                cells.append(f"·{gap}")
        lines.append("".join(cells))
        if row % cfg.tracks == cfg.tracks - 1:
            lines.append("")
    game = cfg.skip + cfg.tracks * HOLES
    r, g, b = rgb[game * 3 : game * 3 + 3]
    lines.append("game hole: " + (f"\x1b[38;2;{r};{g};{b}m●\x1b[0m" if r or g or b else "·"))
    return "\n".join(lines)


