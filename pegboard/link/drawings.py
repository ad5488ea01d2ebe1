"""Drawings generated from the code's own tables: the board layout, the 1:1 drilling template
and the wiring diagram (SVG), and a terminal view of an LED frame.

``pegboard leds svg`` writes :data:`DRAWINGS` into ``hardware/``; a test regenerates them and
compares byte for byte, so the drawings always show what the firmware really does.
"""

from __future__ import annotations

from collections.abc import Callable
from xml.sax.saxutils import escape

from pegboard.link.assembly import (
    DRILL_MM,
    LANE_MM,
    STREET_GAP_MM,
    STRIP_PITCH_MM,
    TEMPLATE_MARGIN_MM,
    board_size_mm,
    enclosure_svg,
    strip_wiring_svg,
)
from pegboard.link.board import DEFAULT_COLOURS, colour_hex
from pegboard.link.box import keypad_ribbon_svg, layers_svg
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
from pegboard.link.schematic import wiring_diagram

PITCH = 22  # distance between hole centres in the drawing (the strip's pitch: no gaps)
ROW = 26  # distance between the lanes of one street
STREET_GAP = 34  # extra space between streets
MARGIN = 70


def _x(col: float) -> float:
    return MARGIN + col * PITCH


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
    width = _x(STREET) + MARGIN
    height = _y(cfg, cfg.rows - 1) + ROW + STREET_GAP + 60
    centres: dict[int, tuple[float, float]] = {}
    parts: list[str] = []
    title = (f"Pegboard LED layout: {cfg.tracks} tracks, {cfg.led_count} LEDs, "
             f"{cfg.order} order, {'serpentine' if cfg.serpentine else 'straight'} chain, "
             f"hole 1 on the {cfg.hole1_end}" + (f", {cfg.skip} skipped" if cfg.skip else ""))
    parts.append(_text(width / 2, 24, title, 13))
    for street in range(STREETS):
        top = _y(cfg, street * cfg.tracks) - ROW / 2 - 4
        first = street * STREET + 1
        for five in range(5, STREET, 5):  # fives are marked on the board, not by gaps
            x = _x(five - 0.5)
            parts.append(f'<line x1="{x:g}" y1="{top + 2:g}" x2="{x:g}" '
                         f'y2="{top + cfg.tracks * ROW + 2:g}" stroke="#ccc"/>')
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
    # The game hole's LED is the strip's next one after the last row's end: one pitch on.
    (x1, y1), (x2, y2) = centres[game_led - 2], centres[game_led - 1]
    game_x, game_y = 2 * x2 - x1, 2 * y2 - y1
    centres[game_led] = (game_x, game_y)
    parts.append(f'<circle cx="{game_x:g}" cy="{game_y:g}" r="8" fill="#ffd700" '
                 'fill-opacity="0.4" stroke="#444"/>')
    parts.append(_text(game_x, game_y + 3, str(game_led), 7, fill="#000"))
    parts.append(_text(game_x, game_y + 20, "game hole (121), shared", 9))
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


def template_svg(cfg: LedConfig) -> str:
    """A 1:1 drilling template of the board top: the SVG's units are millimetres, so printed
    at 100 % (tiled across sheets) every cross is a hole centre. Holes along a row sit at the
    strip's own pitch, with no gaps (a strip cannot have any); the game hole is the strip's
    next LED after the last row. A 100 mm scale checks the print."""
    width, height = board_size_mm(cfg.tracks)
    span = (STREET + 1) * STRIP_PITCH_MM  # a row and the start/game hole beside it
    left = (width - span) / 2 + STRIP_PITCH_MM

    def x(col: float) -> float:
        return left + col * STRIP_PITCH_MM

    def y(row: int) -> float:
        street = row // cfg.tracks
        return TEMPLATE_MARGIN_MM + row * LANE_MM + street * STREET_GAP_MM

    def mark(cx: float, cy: float, drill: float, colour: str) -> list[str]:
        r = drill / 2
        return [f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="{r:g}" fill="none" stroke="{colour}" '
                'stroke-width="0.3"/>',
                f'<path d="M{cx - r - 1.5:.2f} {cy:.2f}h{drill + 3:g}M{cx:.2f} {cy - r - 1.5:.2f}'
                f'v{drill + 3:g}" stroke="#000" stroke-width="0.15"/>']

    def label(tx: float, ty: float, text: str, size: float = 2.5, anchor: str = "middle",
              fill: str = "#333") -> str:
        return (f'<text x="{tx:.2f}" y="{ty:.2f}" font-size="{size:g}" text-anchor="{anchor}" '
                f'fill="{fill}">{escape(text)}</text>')

    parts = [f'<rect x="0.5" y="0.5" width="{width - 1}" height="{height - 1}" fill="none" '
             'stroke="#000" stroke-width="0.3"/>',
             label(width / 2, 12, f"Pegboard drilling template, {cfg.tracks} tracks: print at "
                   f"100 % (actual size), board {width} × {height} mm", 5),
             label(width / 2, 19, f"Ø{DRILL_MM:g} mm holes at the strip pitch "
                   f"{STRIP_PITCH_MM:.3f} mm (60 LEDs/m); rows {LANE_MM:g} mm apart, streets "
                   f"{STREET_GAP_MM:g} mm more", 3.2)]
    centres: dict[int, tuple[float, float]] = {}
    for side in range(cfg.tracks):
        colour = "#" + colour_hex(DEFAULT_COLOURS[side])
        for hole in range(1, HOLES + 1):
            row, col = hole_position(cfg, side, hole)
            led = led_index(cfg, side, hole)
            assert led is not None
            centres[led] = (x(col), y(row))
            parts += mark(x(col), y(row), DRILL_MM, colour)
            if hole % 5 == 0 or hole % STREET == 1:
                parts.append(label(x(col) + 3.2, y(row) - 3.2, str(hole), 2.2, "start", "#555"))
        row, col = hole_position(cfg, side, 1)
        start = x(col - 1 if col == 0 else col + 1)
        parts.append(label(start, y(row) + 1, f"P{side + 1}", 3, fill=colour))
    game = cfg.skip + cfg.tracks * HOLES
    (x1, y1), (x2, y2) = centres[game - 2], centres[game - 1]
    parts += mark(2 * x2 - x1, 2 * y2 - y1, DRILL_MM, "#b8860b")
    parts.append(label(2 * x2 - x1, 2 * y2 - y1 + 6, "121", 2.5))
    for street in range(1, STREETS):
        line_y = y(street * cfg.tracks) - (LANE_MM + STREET_GAP_MM) / 2
        if street * STREET + 1 in (61, 91):
            parts.append(f'<line x1="{x(-1):.2f}" y1="{line_y:.2f}" x2="{x(STREET):.2f}" '
                         f'y2="{line_y:.2f}" stroke="#999" stroke-width="0.3" '
                         'stroke-dasharray="2 1.5"/>')
            parts.append(label(x(STREET), line_y - 1, "skunk line" if street == 3 else
                               "double skunk line", 2.5, "end", "#777"))
    scale_y = height - 16
    parts.append(f'<path d="M20 {scale_y}h100" stroke="#000" stroke-width="0.4"/>')
    for mm in range(0, 101, 10):
        tick = 4 if mm % 50 == 0 else 2.5
        parts.append(f'<path d="M{20 + mm} {scale_y}v{-tick:g}" stroke="#000" '
                     'stroke-width="0.3"/>')
        if mm % 50 == 0:
            parts.append(label(20 + mm, scale_y - 5, f"{mm}", 3))
    parts.append(label(20, scale_y + 6, "100 mm: measure this on the print before drilling",
                       3, "start"))
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}mm" height="{height}mm" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif">')
    return "\n".join([head, '<rect width="100%" height="100%" fill="#fff"/>', *parts,
                      "</svg>"]) + "\n"


#: Every generated drawing by file name.
DRAWINGS: dict[str, Callable[[], str]] = {
    "board_layout_2.svg": lambda: board_svg(LedConfig(tracks=2)),
    "board_layout_3.svg": lambda: board_svg(LedConfig(tracks=3)),
    "drilling_template_2.svg": lambda: template_svg(LedConfig(tracks=2)),
    "drilling_template_3.svg": lambda: template_svg(LedConfig(tracks=3)),
    "wiring.svg": wiring_diagram,
    "strip_wiring_2.svg": lambda: strip_wiring_svg(LedConfig(tracks=2)),
    "strip_wiring_3.svg": lambda: strip_wiring_svg(LedConfig(tracks=3)),
    "enclosure_2.svg": lambda: enclosure_svg(2),
    "box_layers_2.svg": lambda: layers_svg(2),
    "keypad_ribbon.svg": keypad_ribbon_svg,
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


