"""A 1-bit frame as terminal text, in one of two cell modes.

- Half blocks (:func:`frame_to_halfblocks`): each character cell shows a top and a bottom
  pixel, ``▀`` (top lit), ``▄`` (bottom lit), ``█`` (both) or a space, so a 128x64 frame takes
  128 columns by 32 lines.
- Braille (:func:`frame_to_braille`): each cell is a Unicode braille pattern (U+2800..U+28FF),
  2 dots wide by 4 high, so a 128x64 frame takes 64 columns by 16 lines and fits an 80x24
  terminal.

A terminal cell is about twice as high as it is wide, so both modes keep the OLED's 2:1 shape
(2x2 quadrant blocks would not: they draw every pixel twice as high as it is wide).

>>> from PIL import Image
>>> image = Image.new("1", (2, 4))
>>> image.putpixel((0, 0), 1); image.putpixel((1, 1), 1); image.putpixel((1, 3), 1)
>>> frame_to_halfblocks(image)
['▀▄', ' ▄']
>>> frame_to_braille(image)
['⢑']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from PIL import Image

_HALF = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}

BRAILLE_BLANK = 0x2800
"""U+2800, the braille pattern with no dots; a pattern's dots are bits added to it."""

BRAILLE_DOTS: dict[tuple[int, int], int] = {
    (0, 0): 0x01, (0, 1): 0x02, (0, 2): 0x04, (0, 3): 0x40,
    (1, 0): 0x08, (1, 1): 0x10, (1, 2): 0x20, (1, 3): 0x80,
}
"""The bit of each dot, keyed by its (x, y) in the 2x4 cell. Unicode numbers the dots 1-2-3
down the left column, 4-5-6 down the right, then 7 and 8 along the bottom (dot n is bit n-1),
which is why the bottom row's bits come last."""


def _lit(image: Image.Image) -> tuple[int, int, list[bool]]:
    mono = image.convert("1")
    width, height = mono.size
    # The pixel values, not tobytes(): that loads Pillow's file encoders (and logging),
    # 15 ms of the simulator's first frame. Pillow 13 renamed getdata.
    values: Iterable[int] = getattr(mono, "get_flattened_data", mono.getdata)()
    return width, height, [v != 0 for v in values]


def frame_to_halfblocks(image: Image.Image) -> list[str]:
    """One string per pair of pixel rows (an odd last row is padded dark)."""
    width, height, pixels = _lit(image)

    def at(x: int, y: int) -> bool:
        return y < height and pixels[y * width + x]

    return [
        "".join(_HALF[(at(x, y), at(x, y + 1))] for x in range(width))
        for y in range(0, height, 2)
    ]


def frame_to_braille(image: Image.Image) -> list[str]:
    """One string per four pixel rows, two pixels across per character; the pixel at (x, y)
    is the dot ``BRAILLE_DOTS[x % 2, y % 4]`` of cell (x // 2, y // 4). Pixels beyond the
    image's edge (an odd width, a height not a multiple of 4) are dark."""
    width, height, lit = _lit(image)
    # Padded with dark pixels to whole cells, so each dot is one lookup (this runs for the
    # simulator's first frame, before anything else is drawn).
    across, down = width + width % 2, height + -height % 4
    p = [False] * (across * down)
    for y in range(height):
        p[y * across:y * across + width] = lit[y * width:(y + 1) * width]
    rows = []
    for top in range(0, down, 4):
        a, b, c, d = (top * across, (top + 1) * across, (top + 2) * across,
                      (top + 3) * across)
        rows.append("".join(
            chr(BRAILLE_BLANK + (p[a + x] | p[b + x] << 1 | p[c + x] << 2 | p[a + x + 1] << 3
                                 | p[b + x + 1] << 4 | p[c + x + 1] << 5 | p[d + x] << 6
                                 | p[d + x + 1] << 7))
            for x in range(0, across, 2)))
    return rows


class CellMode(NamedTuple):
    """A way to draw a frame in character cells: ``dots_x`` by ``dots_y`` pixels per cell."""

    # A named tuple, not a dataclass: the simulator's first frame is drawn before the
    # dataclasses module (and the inspect module it loads) is imported.
    name: str
    dots_x: int
    dots_y: int
    draw: Callable[[Image.Image], list[str]]

    def size(self, width: int, height: int) -> tuple[int, int]:
        """Columns and lines a ``width`` x ``height`` frame takes.

        >>> BRAILLE.size(128, 64), HALF_BLOCKS.size(128, 64)
        ((64, 16), (128, 32))
        """
        return -(-width // self.dots_x), -(-height // self.dots_y)


HALF_BLOCKS = CellMode("half blocks", 1, 2, frame_to_halfblocks)
BRAILLE = CellMode("braille", 2, 4, frame_to_braille)

CELL_MODES = (HALF_BLOCKS, BRAILLE)
"""Largest drawing first: a caller picks the first one that fits."""
