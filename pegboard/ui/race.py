"""The score race picture: each side's score after every deal, with the skunk lines.

Three renderings of one :class:`~pegboard.stats.Race`:

* :func:`race_image` — the 128x64 1-bit picture the OLED shows at the end of a game. Sides are
  told apart by line pattern (solid, dashed, dotted) since the screen has one colour; the
  skunk line is a sparse dotted row and the double-skunk line a sparser one. On the right,
  each side's initial, a sample of its line and its final score.
* :func:`race_png` — a 640x400 colour chart for ``pegboard stats --plot FILE.png``.
* :func:`race_svg` — the same chart as hand-written SVG text for ``--plot FILE.svg``.

The PNG and SVG share one :class:`_Chart` layout, so they agree point for point. Text uses
Pillow's built-in bitmap font, which renders identically everywhere (golden images stay
stable).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from html import escape as _html_escape
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from pegboard.errors import PegboardError
from pegboard.rules.value import Value
from pegboard.stats import Race, skunk_lines


def escape(text: str) -> str:
    """Text for an SVG text node (``&``, ``<`` and ``>`` escaped)."""
    # html.escape rather than xml.sax.saxutils: the latter imports urllib, http and ssl,
    # a tenth of a second of start-up on a Pi for three replacements.
    return _html_escape(text, quote=False)

OLED_SIZE = (128, 64)
CHART_SIZE = (640, 400)
PLOT_FORMATS = (".png", ".svg")

# One colour and one marker per side (up to three sides); distinct for colour-blind readers
# too, since the markers differ.
_COLOURS = ("#1f5fbf", "#c0392b", "#2e8b57")
_MARKERS = ("circle", "square", "triangle")
_SKUNK_COLOUR = "#d98c00"
_DOUBLE_COLOUR = "#8e44ad"
_GRID = "#dddddd"
_INK = "#222222"

# OLED line patterns: which pixels of each run of the pattern are lit.
_PATTERNS: tuple[tuple[bool, ...], ...] = (
    (True,),
    (True, True, True, False, False),
    (True, False),
)


class PlotFormatError(PegboardError, ValueError):
    """A plot file name whose extension is not a picture format Pegboard writes."""


def _font() -> ImageFont.ImageFont:
    return ImageFont.load_default_imagefont()


# --- the OLED picture ---------------------------------------------------------------------


def race_image(race: Race) -> Image.Image:
    """The race as a 128x64 1-bit image for the OLED (white on black).

    The plot takes the left 88 columns: deals run left to right, 0 to the target bottom to
    top. Skunk lines are dotted rows (every 4th pixel; double skunk every 8th).
    """
    image = Image.new("1", OLED_SIZE, 0)
    draw = ImageDraw.Draw(image)
    width, height = 88, OLED_SIZE[1]
    deals = max(race.deals, 1)

    def at(deal: int, score: float) -> tuple[int, int]:
        x = round(deal * (width - 1) / deals)
        y = round((height - 1) - min(score, race.target) * (height - 1) / race.target)
        return x, y

    skunk, double = skunk_lines(race.target)
    for line, step in ((skunk, 4), (double, 8)):
        if line is None:
            continue
        _, y = at(0, line + 0.5)
        for x in range(0, width, step):
            image.putpixel((x, y), 1)
    draw.line([(width, 0), (width, height - 1)], fill=1)  # frame the plot on the right
    for side in range(len(race.names)):
        points = [at(k, s) for k, s in enumerate(race.series(side))]
        pattern = _PATTERNS[side % len(_PATTERNS)]
        phase = 0
        for a, b in itertools.pairwise(points):
            phase = _pattern_line(image, a, b, pattern, phase)
        if len(points) == 1:
            image.putpixel(points[0], 1)
    font = _font()
    for side, name in enumerate(race.names):
        y = 2 + side * 21
        initial = (name.strip()[:1] or "?").upper()
        if not initial.isascii():
            initial = str(side + 1)
        draw.text((width + 3, y), initial, font=font, fill=1)
        pattern = _PATTERNS[side % len(_PATTERNS)]
        _pattern_line(image, (width + 11, y + 5), (width + 20, y + 5), pattern, 0)
        score = race.final[side] if race.final else 0
        text = f"{score}"
        draw.text((OLED_SIZE[0] - 6 * len(text), y + 10), text, font=font, fill=1)
        if race.winner == side:
            draw.rectangle([width + 3, y + 12, width + 6, y + 15], fill=1)  # the winner's mark
    return image


def _pattern_line(
    image: Image.Image, a: tuple[int, int], b: tuple[int, int],
    pattern: Sequence[bool], phase: int,
) -> int:
    """Draw a Bresenham line from ``a`` to ``b`` lighting pixels per ``pattern``.

    Returns the pattern phase after the last pixel, so a polyline's dashes run on smoothly.
    """
    (x0, y0), (x1, y1) = a, b
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx = 1 if x0 < x1 else -1
    sy = 1 if y0 < y1 else -1
    err = dx + dy
    while True:
        if pattern[phase % len(pattern)]:
            image.putpixel((x0, y0), 1)
        phase += 1
        if (x0, y0) == (x1, y1):
            return phase
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy


# --- the chart (PNG and SVG) --------------------------------------------------------------


class _Chart(Value):
    """Geometry shared by the PNG and the SVG chart."""

    __slots__ = ("bottom", "left", "race", "right", "top")
    __match_args__ = ("race", "left", "top", "right", "bottom")

    race: Race
    left: int
    top: int
    right: int
    bottom: int

    def __init__(
        self,
        race: Race,
        left: int = 48,
        top: int = 36,
        right: int = 470,
        bottom: int = 360,
    ) -> None:
        setter = object.__setattr__
        setter(self, "race", race)
        setter(self, "left", left)
        setter(self, "top", top)
        setter(self, "right", right)
        setter(self, "bottom", bottom)

    def x(self, deal: float) -> float:
        return self.left + deal * (self.right - self.left) / max(self.race.deals, 1)

    def y(self, score: float) -> float:
        # A finishing score may pass the target; the board stops at the game hole.
        score = min(score, self.race.target)
        return self.bottom - score * (self.bottom - self.top) / self.race.target

    def y_ticks(self) -> list[int]:
        step = 30 if self.race.target > 61 else 10
        # A tick too close to the target would print over the target's own label.
        ticks = [t for t in range(0, self.race.target, step) if self.race.target - t > step // 2]
        return [*ticks, self.race.target]

    def x_ticks(self) -> list[int]:
        step = 1 if self.race.deals <= 20 else 5
        return list(range(0, self.race.deals + 1, step))

    def skunk_marks(self) -> list[tuple[float, str, str]]:
        """(score between the holes, label, colour) for each skunk line."""
        skunk, double = skunk_lines(self.race.target)
        marks = [(skunk + 0.5, f"skunk {skunk}/{skunk + 1}", _SKUNK_COLOUR)]
        if double is not None:
            marks.append((double + 0.5, f"double skunk {double}/{double + 1}", _DOUBLE_COLOUR))
        return marks

    def title(self) -> str:
        race = self.race
        scores = " - ".join(f"{n} {s}" for n, s in zip(race.names, race.final, strict=True))
        outcome = ""
        if race.winner is not None:
            outcome = f": {race.names[race.winner]} wins"
            if race.skunk == "skunk":
                outcome += " (skunk)"
            elif race.skunk == "double":
                outcome += " (double skunk)"
        return f"Score race, {scores}{outcome}"

    def legend(self) -> list[tuple[int, str]]:
        race = self.race
        rows = []
        for side, name in enumerate(race.names):
            mark = "  won" if race.winner == side else ""
            rows.append((side, f"{name} {race.final[side]}{mark}"))
        return rows


def race_png(race: Race) -> Image.Image:
    """The race as a colour chart (RGB, 640x400)."""
    chart = _Chart(race)
    image = Image.new("RGB", CHART_SIZE, "white")
    draw = ImageDraw.Draw(image)
    font = _font()
    for score in chart.y_ticks():
        y = round(chart.y(score))
        draw.line([(chart.left, y), (chart.right, y)], fill=_GRID)
        label = str(score)
        draw.text((chart.left - 6 - 6 * len(label), y - 5), label, font=font, fill=_INK)
    for deal in chart.x_ticks():
        x = round(chart.x(deal))
        draw.line([(x, chart.bottom), (x, chart.bottom + 4)], fill=_INK)
        label = str(deal)
        draw.text((x - 3 * len(label), chart.bottom + 7), label, font=font, fill=_INK)
    draw.text((chart.left, chart.bottom + 22), "deal", font=font, fill=_INK)
    for level, label, colour in chart.skunk_marks():
        y = round(chart.y(level))
        for dash in range(chart.left, chart.right, 10):
            draw.line([(dash, y), (min(dash + 5, chart.right), y)], fill=colour, width=2)
        draw.text((chart.right + 6, y - 5), label, font=font, fill=colour)
    draw.rectangle([chart.left, chart.top, chart.right, chart.bottom], outline=_INK)
    for side in range(len(race.names)):
        colour = _COLOURS[side % len(_COLOURS)]
        points = [(round(chart.x(k)), round(chart.y(s)))
                  for k, s in enumerate(race.series(side))]
        if len(points) > 1:
            draw.line(points, fill=colour, width=2)
        for x, y in points:
            _marker(draw, _MARKERS[side % len(_MARKERS)], x, y, colour)
    draw.text((chart.left, 12), chart.title(), font=font, fill=_INK)
    for row, (side, text) in enumerate(chart.legend()):
        colour = _COLOURS[side % len(_COLOURS)]
        y = chart.top + 4 + 18 * row
        _marker(draw, _MARKERS[side % len(_MARKERS)], chart.right + 12, y + 5, colour)
        draw.text((chart.right + 22, y), text, font=font, fill=_INK)
    return image


def _marker(draw: ImageDraw.ImageDraw, shape: str, x: int, y: int, colour: str) -> None:
    if shape == "circle":
        draw.ellipse([x - 3, y - 3, x + 3, y + 3], fill=colour)
    elif shape == "square":
        draw.rectangle([x - 3, y - 3, x + 3, y + 3], fill=colour)
    else:
        draw.polygon([(x, y - 4), (x - 4, y + 3), (x + 4, y + 3)], fill=colour)


def _num(value: float) -> str:
    """A coordinate for SVG: one decimal at most, no trailing zeros."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def race_svg(race: Race) -> str:
    """The race as an SVG document (text), laid out exactly like :func:`race_png`."""
    chart = _Chart(race)
    w, h = CHART_SIZE
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="11">',
        f"<title>{escape(chart.title())}</title>",
        f'<rect width="{w}" height="{h}" fill="white"/>',
    ]
    for score in chart.y_ticks():
        y = _num(chart.y(score))
        out += [_svg_line(chart.left, y, chart.right, y, _GRID),
                _svg_label(chart.left - 6, _num(chart.y(score) + 4), "end", score)]
    for deal in chart.x_ticks():
        x = _num(chart.x(deal))
        out += [_svg_line(x, chart.bottom, x, chart.bottom + 4, _INK),
                _svg_label(x, chart.bottom + 16, "middle", deal)]
    out.append(f'<text x="{chart.left}" y="{chart.bottom + 32}" fill="{_INK}">deal</text>')
    for level, label, colour in chart.skunk_marks():
        row_y = _num(chart.y(level))
        out.append(f'<line class="skunk" x1="{chart.left}" y1="{row_y}" x2="{chart.right}" '
                   f'y2="{row_y}" stroke="{colour}" stroke-width="2" stroke-dasharray="5 5"/>')
        out.append(f'<text x="{chart.right + 6}" y="{_num(chart.y(level) + 4)}" '
                   f'fill="{colour}">{escape(label)}</text>')
    out.append(f'<rect x="{chart.left}" y="{chart.top}" width="{chart.right - chart.left}" '
               f'height="{chart.bottom - chart.top}" fill="none" stroke="{_INK}"/>')
    for side in range(len(race.names)):
        colour = _COLOURS[side % len(_COLOURS)]
        coords = [(chart.x(k), chart.y(s)) for k, s in enumerate(race.series(side))]
        path = " ".join(f"{_num(px)},{_num(py)}" for px, py in coords)
        out.append(f'<polyline class="side{side}" points="{path}" fill="none" '
                   f'stroke="{colour}" stroke-width="2"/>')
        for px, py in coords:
            out.append(_svg_marker(_MARKERS[side % len(_MARKERS)], px, py, colour))
    out.append(f'<text x="{chart.left}" y="22" fill="{_INK}">{escape(chart.title())}</text>')
    for row, (side, text) in enumerate(chart.legend()):
        colour = _COLOURS[side % len(_COLOURS)]
        top = chart.top + 4 + 18 * row
        out.append(_svg_marker(_MARKERS[side % len(_MARKERS)], chart.right + 12, top + 5, colour))
        out.append(f'<text x="{chart.right + 22}" y="{top + 9}" fill="{_INK}">'
                   f"{escape(text)}</text>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _svg_line(x1: object, y1: object, x2: object, y2: object, stroke: str) -> str:
    return f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{stroke}"/>'


def _svg_label(x: object, y: object, anchor: str, text: object) -> str:
    return f'<text x="{x}" y="{y}" text-anchor="{anchor}" fill="{_INK}">{text}</text>'


def _svg_marker(shape: str, x: float, y: float, colour: str) -> str:
    if shape == "circle":
        return f'<circle cx="{_num(x)}" cy="{_num(y)}" r="3.5" fill="{colour}"/>'
    if shape == "square":
        return (f'<rect x="{_num(x - 3.5)}" y="{_num(y - 3.5)}" width="7" height="7" '
                f'fill="{colour}"/>')
    return (f'<polygon points="{_num(x)},{_num(y - 4)} {_num(x - 4)},{_num(y + 3)} '
            f'{_num(x + 4)},{_num(y + 3)}" fill="{colour}"/>')


def write_plot(race: Race, path: str | Path) -> Path:
    """Write the race chart to ``path``: PNG or SVG, chosen by the file's extension."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in PLOT_FORMATS:
        raise PlotFormatError(
            f"cannot plot to {str(path)!r}: the file name must end in .png or .svg"
        )
    if suffix == ".png":
        race_png(race).save(target, format="PNG")
    else:
        target.write_text(race_svg(race), encoding="utf-8")
    return target
