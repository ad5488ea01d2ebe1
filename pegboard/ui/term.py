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

from collections.abc import Callable
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
    return width, height, [v != 0 for v in mono.convert("L").tobytes()]


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
    width, height, pixels = _lit(image)

    def cell(cx: int, cy: int) -> str:
        bits = 0
        for (dx, dy), bit in BRAILLE_DOTS.items():
            x, y = cx + dx, cy + dy
            if x < width and y < height and pixels[y * width + x]:
                bits |= bit
        return chr(BRAILLE_BLANK + bits)

    return ["".join(cell(x, y) for x in range(0, width, 2)) for y in range(0, height, 4)]


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
