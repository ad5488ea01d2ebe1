"""Text on a 1-bit screen: Pillow's built-in bitmap font, card suits, and big digits.

The font is Pillow's own bitmap font (:func:`PIL.ImageFont.load_default_imagefont`): every
glyph is a fixed 6x11 cell of hand-tuned pixels, so frames are sharp on the OLED and identical
on every machine (no font rasteriser involved). It covers Latin-1; the suits and a few marks
it lacks are drawn from small bitmaps below. Large text (scores, the count) is the same font
scaled by whole numbers, which keeps it crisp and bold.
"""

from __future__ import annotations

import functools
import textwrap

from PIL import Image, ImageDraw, ImageFont

CHAR_W = 6
"""Every character is this many pixels wide (the font is monospaced)."""

LINE_H = 10
"""Pixels from one line of small text to the next."""

_TOP = 1  # the font's first row that is ever inked; text is drawn shifted up by this

_EXTRA: dict[str, tuple[str, ...]] = {
    "♥": (".##.##", "######", "######", ".####.", "..##.."),
    "♦": ("..#...", ".###..", "#####.", ".###..", "..#..."),
    "♠": ("..#...", ".###..", "#####.", "..#...", ".###.."),
    "♣": (".###..", "#####.", "#####.", "..#...", ".###.."),
    "◂": ("...#..", "..##..", ".###..", "..##..", "...#.."),
    "▸": ("..#...", "..##..", "..###.", "..##..", "..#..."),
    "▴": ("..#...", ".###..", "#####.", "......", "......"),
    "▾": ("......", "......", "#####.", ".###..", "..#..."),
    "•": ("......", ".##...", ".##...", "......", "......"),
    "…": ("......", "......", "......", "......", "#.#.#."),
}
_EXTRA_TOP = 3  # first row of the extra glyphs inside the 11-row cell (the cap height)

_SUBSTITUTE = {"♡": "♥", "♢": "♦", "♤": "♠", "♧": "♣", "—": "-", "–": "-", "’": "'",
               "‘": "'", "“": '"', "”": '"', "→": ">", "←": "<", "×": "x"}


@functools.cache
def font() -> ImageFont.ImageFont:
    """Pillow's built-in bitmap font."""
    return ImageFont.load_default_imagefont()


def _drawable(char: str) -> str:
    char = _SUBSTITUTE.get(char, char)
    if char in _EXTRA:
        return char
    try:
        char.encode("latin-1")
    except UnicodeEncodeError:
        return "?"
    return char


def width(text: str, scale: int = 1) -> int:
    """Width in pixels of ``text`` drawn at ``scale``."""
    return len(text) * CHAR_W * scale


def fit(text: str, chars: int) -> str:
    """``text`` cut to ``chars`` characters, ending in an ellipsis when cut."""
    if len(text) <= chars:
        return text
    return text[: max(0, chars - 1)] + "…" if chars > 0 else ""


def wrap(text: str, chars: int) -> list[str]:
    """Break ``text`` into lines of at most ``chars`` characters, at spaces where possible."""
    return textwrap.wrap(text, chars, break_long_words=True, break_on_hyphens=False) or [""]


def draw_text(image: Image.Image, x: int, y: int, text: str, *, fill: int = 1,
              scale: int = 1) -> int:
    """Draw ``text`` with its top at ``y``; returns the x after the last character."""
    if not text:
        return x
    if scale == 1:
        _stamp(image, fill, x, y - _TOP, _mask(text))
        return x + width(text)
    big = _big_mask(text, scale)
    _stamp(image, fill, x, y, big)
    return x + big.width


def _stamp(image: Image.Image, fill: int, x: int, y: int, mask: Image.Image) -> None:
    """Set ``image`` to ``fill`` wherever ``mask`` is inked, ``mask``'s corner at (x, y)
    (clipped at the edges). Straight to Pillow's core: the checks ``Image.paste`` makes on
    each call cost more than the copy, for the dozen or so strings of every frame, and these
    images are always ours: mode "1", loaded, and not shared."""
    image.load()
    image.im.paste(fill, (x, y, x + mask.width, y + mask.height), mask.im)


@functools.lru_cache(maxsize=256)
def _big_mask(text: str, scale: int) -> Image.Image:
    """``text`` scaled by a whole number (the scores and the count, redrawn every frame)."""
    small = Image.new("1", (width(text), 11), 0)
    _draw_small(small, 0, 0, text, 1)
    return small.resize((small.width * scale, small.height * scale), Image.Resampling.NEAREST)


@functools.lru_cache(maxsize=2048)
def _mask(text: str) -> Image.Image:
    """``text``'s inked pixels, drawn once: a frame redraws the same names, labels and
    legends every time, and drawing through Pillow costs more than pasting."""
    mask = Image.new("1", (width(text), _MASK_H), 0)
    _draw_small(mask, 0, _TOP, text, 1)
    return mask


_MASK_H = 12  # rows from the cell's top row to the lowest descender, inclusive


def _draw_small(image: Image.Image, x: int, y: int, text: str, fill: int) -> None:
    draw = ImageDraw.Draw(image)
    run = ""
    run_x = x
    for char in map(_drawable, text):
        if char in _EXTRA:
            if run:
                draw.text((run_x, y - _TOP), run, font=font(), fill=fill)
            _draw_extra(image, x, y + _EXTRA_TOP - _TOP, char, fill)
            run, run_x = "", x + CHAR_W
        else:
            run += char
        x += CHAR_W
    if run:
        draw.text((run_x, y - _TOP), run, font=font(), fill=fill)


def _draw_extra(image: Image.Image, x: int, y: int, char: str, fill: int) -> None:
    for dy, row in enumerate(_EXTRA[char]):
        for dx, cell in enumerate(row):
            if cell == "#" and 0 <= x + dx < image.width and 0 <= y + dy < image.height:
                image.putpixel((x + dx, y + dy), fill)


def text_height(scale: int = 1) -> int:
    """Pixels from the top of a line of text to the bottom of its descenders."""
    return LINE_H * scale
