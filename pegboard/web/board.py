"""The pegboard as an SVG drawing, laid out by the LED board's own table.

Every hole sits where :func:`pegboard.link.layout.hole_position` puts it on the real board
(street by street, each side's track in its lane, grouped in fives); the start holes (0) are
left of the first street and the game hole (121) left of the last, where the tracks begin and
end. Each hole has an id, ``h{side}-{hole}``, and its centre in ``cx``/``cy``; the page moves
each side's front and back peg (``peg{side}-front``/``-back``) onto the hole of its score.
Skunk lines are drawn between the streets they fall between, as on the hardware drawing.
Colours are the LED board's default side colours, so the page matches the strip.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from pegboard.link.board import DEFAULT_COLOURS, colour_hex
from pegboard.link.layout import GAME_HOLE, HOLES, STREET, STREETS, LedConfig, hole_position
from pegboard.stats import skunk_lines as skunk_lines_of

PITCH = 20  # between hole centres
FIVE_GAP = 6  # after each group of five
LANE = 18  # between the tracks of one street
STREET_GAP = 22  # between streets
LEFT = 46  # room for the start and game holes
TOP = 14


def side_colours(sides: int) -> list[str]:
    """Each side's peg colour as ``#rrggbb``."""
    return ["#" + colour_hex(DEFAULT_COLOURS[s % len(DEFAULT_COLOURS)]) for s in range(sides)]


def _x(col: int) -> float:
    return LEFT + col * PITCH + (col // 5) * FIVE_GAP


def _y(cfg: LedConfig, row: int) -> float:
    street, lane = divmod(row, cfg.tracks)
    return TOP + street * (cfg.tracks * LANE + STREET_GAP) + lane * LANE


def hole_centre(cfg: LedConfig, side: int, hole: int) -> tuple[float, float]:
    """Where hole 0..121 of ``side``'s track is drawn."""
    if hole == 0:
        return LEFT - 30, _y(cfg, side)
    if hole >= GAME_HOLE:
        last = (STREETS - 1) * cfg.tracks
        return LEFT - 30, (_y(cfg, last) + _y(cfg, last + cfg.tracks - 1)) / 2
    row, col = hole_position(cfg, side, hole)
    return _x(col), _y(cfg, row)


def board_svg(sides: int, *, skunk_lines: tuple[int, ...] = (90, 60)) -> str:
    """The board for ``sides`` tracks (2 or 3) as an inline ``<svg>`` element."""
    cfg = LedConfig(tracks=sides)
    width = _x(STREET - 1) + 16
    height = _y(cfg, STREETS * sides - 1) + 16
    colours = side_colours(sides)
    out = [
        f'<svg class="board" viewBox="0 0 {width:g} {height:g}" role="img" '
        f'aria-labelledby="board-title" xmlns="http://www.w3.org/2000/svg">',
        '<title id="board-title">The pegboard</title>',
        f'<rect class="wood" x="0" y="0" width="{width:g}" height="{height:g}" rx="10"/>',
    ]
    for number, line in enumerate(skunk_lines):
        if line % STREET or not 0 < line < HOLES:
            continue
        below = line // STREET  # the street that starts with hole line + 1
        y = _y(cfg, below * sides) - STREET_GAP / 2 - LANE / 2 + 2
        label = "double skunk" if number else "skunk"
        out.append(f'<line class="skunk" x1="{LEFT - 12}" y1="{y:g}" x2="{width - 6:g}" '
                   f'y2="{y:g}"><title>{escape(label)} line {line}|{line + 1}</title></line>')
    for side in range(sides):
        for hole in (0, *range(1, HOLES + 1)):
            x, y = hole_centre(cfg, side, hole)
            out.append(f'<circle class="hole s{side}" id="h{side}-{hole}" cx="{x:g}" '
                       f'cy="{y:g}" r="4"/>')
    gx, gy = hole_centre(cfg, 0, GAME_HOLE)
    out.append(f'<circle class="hole game" cx="{gx:g}" cy="{gy:g}" r="6"/>')
    for side in range(sides):
        out.append(f'<circle class="hole" id="h{side}-{GAME_HOLE}" cx="{gx:g}" cy="{gy:g}" '
                   'r="0"/>')
    for side in range(sides):
        x, y = hole_centre(cfg, side, 0)
        for which in ("back", "front"):
            out.append(f'<circle class="peg {which}" id="peg{side}-{which}" data-hole="0" '
                       f'cx="{x:g}" cy="{y:g}" r="{6.5 if which == "front" else 5}" '
                       f'fill="{colours[side]}"/>')
    out.append("</svg>")
    return "\n".join(out)


def board_for(sides: int, target: int) -> str:
    """The board for a game of ``sides`` scores to ``target``, with its skunk lines."""
    skunk, double = skunk_lines_of(target)
    return board_svg(sides, skunk_lines=(skunk,) if double is None else (skunk, double))
