"""A QR code drawn for the 128x64 panel (segno makes the symbol; nothing here encodes).

The rules, for a code a phone's camera reads off a small OLED:

* the smallest symbol at error level M (15 % of it may be lost), else at L where M would
  need a symbol over version 3: a join address of up to 38 capitals and digits
  (:func:`pegboard.web.passes.qr_text`) is version 2, 25 modules;
* each module as large as fits with at least one module of quiet zone on each side: 2×2
  pixels for versions 1 to 3 in 64 pixels (version 2: 50 pixels and 7 pixels of quiet
  zone), 1 pixel beyond;
* dark modules unlit on a lit square, as printed codes are: not every phone reads a code
  drawn light on dark.
"""

from __future__ import annotations

import segno
from PIL import Image, ImageDraw

MAX_VERSION = 3
"""The largest symbol tried at error level M before falling back to L."""


def symbol(text: str) -> segno.QRCode:
    """The QR code of ``text``: level M up to version 3, else the smallest at level L."""
    code = segno.make_qr(text, error="m", boost_error=False)
    if code.version is not None and int(code.version) > MAX_VERSION:
        code = segno.make_qr(text, error="l", boost_error=False)
    return code


def module_size(modules: int, size: int) -> int:
    """The pixels of one module's side when ``modules`` of them, with a module of quiet zone
    each side, fit in ``size`` (at least 1).

    >>> module_size(25, 64), module_size(29, 64), module_size(33, 64)
    (2, 2, 1)
    """
    return max(1, size // (modules + 2))


def qr_image(text: str, size: int = 64) -> Image.Image:
    """``text`` as a QR code in a ``size`` square (mode "1": 1 lit, 0 dark), centred."""
    code = symbol(text)
    matrix = code.matrix
    modules = len(matrix)
    scale = module_size(modules, size)
    image = Image.new("1", (size, size), 1)
    offset = (size - modules * scale) // 2
    draw = ImageDraw.Draw(image)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                left, top = offset + x * scale, offset + y * scale
                draw.rectangle((left, top, left + scale - 1, top + scale - 1), fill=0)
    return image
