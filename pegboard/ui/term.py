"""A 1-bit frame as terminal text: two pixel rows per character line with half blocks.

Each character cell shows a top and a bottom pixel: ``▀`` (top lit), ``▄`` (bottom lit), ``█``
(both) or a space, so a 128x64 frame takes 128 columns by 32 lines. For narrow terminals
:func:`frame_to_quadrants` packs 2x2 pixels per cell (64 columns by 32 lines).

>>> from PIL import Image
>>> image = Image.new("1", (2, 2))
>>> image.putpixel((0, 0), 1); image.putpixel((1, 1), 1)
>>> frame_to_halfblocks(image)
['▀▄']
>>> frame_to_quadrants(image)
['▚']
"""

from __future__ import annotations

from PIL import Image

_HALF = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}

# Index: top-left 1, top-right 2, bottom-left 4, bottom-right 8.
_QUADRANTS = " ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█"


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


def frame_to_quadrants(image: Image.Image) -> list[str]:
    """One string per pair of pixel rows, two pixels across per character."""
    width, height, pixels = _lit(image)

    def at(x: int, y: int) -> int:
        return int(x < width and y < height and pixels[y * width + x])

    return [
        "".join(
            _QUADRANTS[at(x, y) | at(x + 1, y) << 1 | at(x, y + 1) << 2 | at(x + 1, y + 1) << 3]
            for x in range(0, width, 2)
        )
        for y in range(0, height, 2)
    ]
