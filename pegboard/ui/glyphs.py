"""The screen font's glyphs as plain bits, for the first frame (:mod:`pegboard.ui.splash`).

Pillow's built-in bitmap font (:func:`ImageFont.load_default_imagefont`) is the screen's
font, but loading it opens an image, and Pillow then imports its image-file plugins: tens of
milliseconds before the first frame on a Pi. Every glyph fits a 6x12 cell, so each is kept
here as 12 rows of 6 bits in ``glyphs.txt``, one line per character::

    0041 00 00 20 50 88 88 f8 88 88 00 00 00

(the code point, then each row as a byte whose top 6 bits are the pixels, left to right).
``python -m pegboard.ui.glyphs`` writes the file from Pillow's own font, and a test checks
that it still matches. Text put together from whole cells is the font's, except where Pillow
lets a glyph's box cover a pixel of the glyph before it; the splash's few words are drawn
this way, and every other frame through Pillow (:mod:`pegboard.ui.text`).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image

from pegboard import lazy

if TYPE_CHECKING:
    from PIL import ImageDraw, ImageFont
else:
    ImageDraw = lazy.module("PIL.ImageDraw")
    ImageFont = lazy.module("PIL.ImageFont")

CELL_W, CELL_H = 6, 12
CHARACTERS = "".join(chr(code) for code in (*range(0x20, 0x7F), *range(0xA0, 0x100)))
"""Latin-1's printable characters: everything the font draws."""

FILE = "glyphs.txt"


def from_pillow() -> dict[str, tuple[int, ...]]:
    """Each character's rows, drawn by Pillow's built-in font into a 6x12 cell."""
    font = ImageFont.load_default_imagefont()
    glyphs: dict[str, tuple[int, ...]] = {}
    for char in CHARACTERS:
        cell = Image.new("1", (CELL_W, CELL_H), 0)
        ImageDraw.Draw(cell).text((0, 0), char, font=font, fill=1)
        glyphs[char] = tuple(
            sum(1 << (7 - x) for x in range(CELL_W) if cell.getpixel((x, y)))
            for y in range(CELL_H))
    return glyphs


def text_of(glyphs: dict[str, tuple[int, ...]]) -> str:
    """The file's text for ``glyphs``."""
    return "".join(f"{ord(char):04x} " + " ".join(f"{row:02x}" for row in rows) + "\n"
                   for char, rows in glyphs.items())


@functools.cache
def glyphs() -> dict[str, tuple[int, ...]]:
    """Each character's 12 rows, read from the file that ships with the package."""
    # Decoded from bytes: ASCII is built into bytes.decode, where a file opened as ASCII
    # text loads the codec's module (and its six classes) before the first frame.
    text = Path(__file__).with_name(FILE).read_bytes().decode("ascii")
    # Each line is the code point's 4 hex digits, then the rows as hex bytes: one
    # bytes.fromhex a line, not an int() a row (this runs before the first frame).
    return {chr(int(line[:4], 16)): tuple(bytes.fromhex(line[5:]))
            for line in text.splitlines()}


@functools.lru_cache(maxsize=64)
def cell_mask(text: str) -> Image.Image:
    """``text``'s pixels, one 6x12 cell per character (a character the font lacks is "?")."""
    table = glyphs()
    cells = [table.get(char, table["?"]) for char in text]
    stride = (len(cells) * CELL_W + 7) // 8
    pad = stride * 8 - len(cells) * CELL_W
    rows = bytearray()
    for y in range(CELL_H):
        bits = 0
        for cell in cells:
            bits = (bits << CELL_W) | (cell[y] >> 2)  # the cell's 6 pixels, top bits first
        rows += (bits << pad).to_bytes(stride, "big")
    return Image.frombytes("1", (len(cells) * CELL_W, CELL_H), bytes(rows))


def main() -> None:
    """Write ``glyphs.txt`` beside this module from Pillow's font."""
    path = Path(__file__).with_name(FILE)
    path.write_text(text_of(from_pillow()), encoding="ascii")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
