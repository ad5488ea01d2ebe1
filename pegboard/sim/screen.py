"""The simulator's terminal screen laid out for the terminal's size (pure, so tested directly).

The screen is the 128x64 OLED frame in a box, the text pegboard, and the two-line key legend
at the bottom. :func:`choose_layout` is the rule:

- the frame is drawn in the largest cell mode of :data:`~pegboard.ui.term.CELL_MODES` whose
  box and the legend below it fit: half blocks (a 130x34 box) from 130x36, else braille (a
  66x18 box) from 66x20, which the classic 80x24 terminal has;
- the board goes beside the box when ``GAP + BOARD_W`` more columns are free, else below it in
  the rows left over, shortened (blank lines first, then from the end) or left out;
- a terminal smaller than the braille box and the legend shows :func:`too_small` instead: a
  frame cut by the terminal's edge would be garbled, and scrolling would push its top away.

Every line :func:`compose` returns is at most ``columns`` characters and there are at most
``rows`` of them, so the drawing never wraps or scrolls.
"""

from __future__ import annotations

import os
import shutil
import textwrap
from collections.abc import Sequence
from typing import NamedTuple, TextIO

from PIL import Image

from pegboard.ui.term import CELL_MODES, CellMode

FRAME_W, FRAME_H = 128, 64
BOARD_W = 36  # the text pegboard's widest line
GAP = 2  # columns between the box and the board beside it
LEGEND_ROWS = 2


class Layout(NamedTuple):
    """How the screen is laid out: the frame's cell mode, the board beside it or below it."""

    mode: CellMode
    beside: bool


def box_size(mode: CellMode) -> tuple[int, int]:
    """Columns and rows of the frame drawn in ``mode`` with its one-character border.

    >>> from pegboard.ui.term import BRAILLE
    >>> box_size(BRAILLE)
    (66, 18)
    """
    columns, rows = mode.size(FRAME_W, FRAME_H)
    return columns + 2, rows + 2


def minimum_size() -> tuple[int, int]:
    """The smallest terminal that shows the whole frame and the legend: the smallest mode's box
    with the legend's rows below it.

    >>> minimum_size()
    (66, 20)
    """
    box_w, box_h = box_size(CELL_MODES[-1])
    return box_w, box_h + LEGEND_ROWS


def choose_layout(columns: int, rows: int) -> Layout | None:
    """The largest cell mode whose box and legend fit in ``columns`` x ``rows``, with the board
    beside the box if it fits there too; ``None`` when the terminal is too small for any.

    >>> layout = choose_layout(80, 24)
    >>> layout.mode.name, layout.beside
    ('braille', False)
    >>> choose_layout(60, 20) is None
    True
    """
    for mode in CELL_MODES:
        box_w, box_h = box_size(mode)
        if columns >= box_w and rows >= box_h + LEGEND_ROWS:
            return Layout(mode, beside=columns >= box_w + GAP + BOARD_W)
    return None


def fit_lines(lines: Sequence[str], count: int) -> list[str]:
    """At most ``count`` lines: when they do not all fit, blank lines go first, then lines
    from the end (the board's first lines, its title and the scores, matter most).

    >>> fit_lines(["Title", "Ann 45", "", "Count 23"], 3)
    ['Title', 'Ann 45', 'Count 23']
    >>> fit_lines(["Title", "Ann 45", "", "Count 23"], 2)
    ['Title', 'Ann 45']
    """
    if len(lines) <= count:
        return list(lines)
    return [line for line in lines if line][:max(0, count)]


def boxed(rows: Sequence[str]) -> list[str]:
    """The drawn frame with a single-line border round it."""
    inner = len(rows[0]) if rows else 0
    return [
        "\u250c" + "\u2500" * inner + "\u2510",
        *("\u2502" + row + "\u2502" for row in rows),
        "\u2514" + "\u2500" * inner + "\u2518",
    ]


def side_by_side(left: Sequence[str], right: Sequence[str], columns: int) -> list[str]:
    """``right`` beside ``left``, ``GAP`` columns apart, as long as the longer of the two."""
    width = max((len(line) for line in left), default=0)
    room = max(0, columns - width - GAP)
    out = []
    for i in range(max(len(left), len(right))):
        here = left[i] if i < len(left) else ""
        there = right[i][:room] if i < len(right) else ""
        out.append(f"{here:<{width}}{' ' * GAP}{there}".rstrip() if there else here)
    return out


def too_small(columns: int, rows: int) -> list[str]:
    """The message shown instead of the frame when the terminal is below :func:`minimum_size`,
    wrapped to the terminal's width and cut to its height.

    >>> too_small(65, 24)[0]
    'Pegboard needs a terminal of at least 66x20; this one is 65x24.'
    """
    if columns < 1 or rows < 1:
        return []
    need_w, need_h = minimum_size()
    paragraphs = (
        f"Pegboard needs a terminal of at least {need_w}x{need_h}; this one is "
        f"{columns}x{rows}.",
        "Make the window larger. The game carries on: x quits (it is saved).",
    )
    lines: list[str] = []
    for text in paragraphs:
        lines.extend(textwrap.wrap(text, width=columns))
    return lines[:rows]


def compose(image: Image.Image, board: Sequence[str], legend: Sequence[str], columns: int,
            rows: int) -> list[str]:
    """The whole screen for a ``columns`` x ``rows`` terminal: the frame in a box, the board
    beside or below it and the legend on the last lines (a blank line before the legend when
    a row is spare), laid out by :func:`choose_layout`; else the :func:`too_small` message."""
    layout = choose_layout(columns, rows)
    if layout is None:
        return too_small(columns, rows)
    box = boxed(layout.mode.draw(image))
    room = rows - LEGEND_ROWS
    if layout.beside:
        body = side_by_side(box, fit_lines(board, room), columns)
    else:
        body = box + fit_lines(board, room - len(box))
    if len(body) < room:
        body.append("")
    return [line[:columns] for line in (*body, *legend[:LEGEND_ROWS])]


LEGENDS = {
    "encoder": ("Keys: \u2190/\u2192 turn  Enter/Space OK (push)  g GO  u UNDO  m MENU",
                "      O G U M = hold that button   x quit (the game is saved)"),
    "keypad": ("Keys: a/1 ace  2-9  0/t ten  j q k  Enter OK  g GO  u UNDO",
               "      m MENU  Shift+key = hold (J, with nobs)  x quit (saved)"),
}
"""Each kit's key legend, the last two lines of the screen."""


def terminal_size(out: TextIO) -> tuple[int, int]:
    """Columns and rows of the terminal ``out`` writes to, asked of the terminal itself
    ($COLUMNS may be stale or inherited from another program); 80x24 when it cannot say."""
    try:
        size = os.get_terminal_size(out.fileno())
    except (OSError, ValueError, AttributeError):
        size = shutil.get_terminal_size((80, 24))
    if size.columns <= 0 or size.lines <= 0:  # a pty nobody has given a size yet
        size = shutil.get_terminal_size((80, 24))
    return size.columns, size.lines
