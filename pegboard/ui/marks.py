"""The marks every layout draws in its own place: the link-down mark (the LED board is not
answering) and the tournament lock's padlock, on the 128x64 canvas (shared by the normal
layouts, :mod:`pegboard.ui.render`, and the large-print ones, :mod:`pegboard.ui.large`)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from pegboard.ui.text import LINE_H, draw_text

WIDTH, HEIGHT = 128, 64
HEADER_H = 30  # board header: names, big scores, bars
BOTTOM_Y = HEIGHT - LINE_H  # the last line of small text
LINK_W = 21  # the link-down mark at the bottom right
_LOCK = (".###.", "#...#", "#...#", "#####", "##.##", "##.##", "#####")  # the padlock's ink
LOCK_X = WIDTH - len(_LOCK[0])  # the padlock's place: the right end of the line under the header


def link_mark(image: Image.Image, x0: int = WIDTH - LINK_W, y0: int = BOTTOM_Y) -> None:
    """The link-down mark, a boxed, struck-out ``LED`` with its corner at (x0, y0): the
    bottom right corner unless a layout has a better place for it."""
    draw = ImageDraw.Draw(image)
    x1, y1 = x0 + LINK_W - 1, y0 + LINE_H - 1
    draw.rectangle((x0 - 1, y0, x1, y1), fill=0)
    draw.rectangle((x0, y0, x1, y1), fill=1)
    draw_text(image, x0 + 1, y0 + 1, "LED", fill=0)
    draw.line((x0 + 1, y1 - 1, x1 - 1, y0 + 1), fill=0)


def lock_mark(image: Image.Image, x0: int = LOCK_X, y0: int = HEADER_H + 2,
              scale: int = 1) -> None:
    """The tournament lock's padlock (5 by 7 pixels, each ``scale`` times as big) with its
    corner at (x0, y0)."""
    draw = ImageDraw.Draw(image)
    for y, row in enumerate(_LOCK):
        for x, ink in enumerate(row):
            if ink == "#":
                draw.rectangle((x0 + x * scale, y0 + y * scale, x0 + (x + 1) * scale - 1,
                                y0 + (y + 1) * scale - 1), fill=1)
