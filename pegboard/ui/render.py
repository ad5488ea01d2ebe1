"""``render(view) -> Image``: the 128x64 1-bit frame for a :class:`~pegboard.app.view.View`.

Pure: the same view always gives the same pixels, nothing is read from anywhere else. The
layouts, by screen kind:

* **Table screens** (cut, starter, the play, crib, hands, the show, scores, game over) start
  with the board header: one column per side with its name and its score in large digits,
  the side to act shown inverted, the dealer (who owns the crib) marked with a boxed ``D``,
  and under them a pegboard bar per side against the target, with the back peg (the score
  before the last award) and a tick at the skunk line.
* **The play** adds the count in large digits, whose turn it is with the card picker, and
  the last award (or the cards of the current count) on the bottom line.
* **List screens** show an inverted title, the options with the chosen one inverted (the
  list scrolls to keep it in view) and the key legend.
* **Text screens** show the title and the text wrapped to the width, from ``first_line``.

A link-down mark (a boxed, struck-out ``LED``) sits in the bottom right corner whenever the
LED board is not connected. A game under a club night's tournament lock has a padlock at the
right end of the first line under the board header (the play's prompt, the table screen's
title), where no score is drawn.

With ``view.large_print`` every screen but the race and the frame left at shutdown is drawn
by :func:`pegboard.ui.large.render_large` instead (digits at least 24 pixels high, the card
being chosen filling the screen).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from pegboard import lazy
from pegboard.app.view import Brightness, PickerView, Screen, SideView, View
from pegboard.app.words import TEXT_WIDTH
from pegboard.ui import text
from pegboard.ui.marks import (
    BOTTOM_Y,
    HEADER_H,
    HEIGHT,
    LINK_W,
    LOCK_X,
    WIDTH,
    link_mark,
    lock_mark,
)
from pegboard.ui.text import CHAR_W, LINE_H, draw_text, fit, wrap

if TYPE_CHECKING:
    from pegboard import stats
    from pegboard.app import suit_facts
    from pegboard.ui import large, qr
    from pegboard.ui import race as race_picture
else:
    large = lazy.module("pegboard.ui.large")
    qr = lazy.module("pegboard.ui.qr")
    race_picture = lazy.module("pegboard.ui.race")
    stats = lazy.module("pegboard.stats")
    suit_facts = lazy.module("pegboard.app.suit_facts")

COLUMNS = WIDTH // CHAR_W  # 21 characters of small text per line

LIST_SCREENS = frozenset({Screen.HOME, Screen.MENU, Screen.SETUP, Screen.DEALER,
                          Screen.PENALTIES, Screen.CONFIRM, Screen.PEG})
TABLE_SCREENS = frozenset({Screen.CUT, Screen.STARTER, Screen.PLAY, Screen.CRIB, Screen.HAND,
                           Screen.SHOW, Screen.SCORES, Screen.GAME_OVER, Screen.MATCH,
                           Screen.CLAIM})

_HEADER_H = HEADER_H  # board header: names, big scores, bars
_BOTTOM_Y = BOTTOM_Y  # the last line of small text
_LINK_W = LINK_W  # the link-down mark at the bottom right


def render(view: View) -> Image.Image:
    """Draw ``view`` as a 128x64 mode "1" image (white = lit)."""
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    if view.brightness is Brightness.BLANK:
        return image
    if view.large_print and view.screen not in (Screen.SAVED, Screen.RACE, Screen.PAIR):
        large.render_large(image, view)  # (with its own place for the link-down mark)
        return image
    if view.screen is Screen.SAVED:
        _saved(image, view)
    elif view.screen is Screen.PAIR:
        _pair(image, view)
    elif view.screen is Screen.RACE:
        _race(image, view)
    elif view.screen is Screen.PLAY:
        _play(image, view)
    elif view.screen in TABLE_SCREENS and view.sides:
        _table(image, view)
    elif view.screen in LIST_SCREENS:
        _list(image, view)
    else:
        _text_screen(image, view)
    if view.link:
        link_mark(image)
    return image


# -- pieces ---------------------------------------------------------------------------------


def _inverted(image: Image.Image, x: int, y: int, w: int, h: int, label: str) -> None:
    ImageDraw.Draw(image).rectangle((x, y, x + w - 1, y + h - 1), fill=1)
    draw_text(image, x + 1, y, label, fill=0)


def _bottom_line(image: Image.Image, view: View, line: str, *, invert: bool = False) -> None:
    chars = COLUMNS - (_LINK_W // CHAR_W + 1 if view.link else 0)
    if invert and line:
        _inverted(image, 0, _BOTTOM_Y, chars * CHAR_W + 2, LINE_H, fit(line, chars))
    else:
        draw_text(image, 0, _BOTTOM_Y, fit(line, chars))


def _dealer_mark(image: Image.Image, x: int, y: int) -> None:
    """A boxed "D": this side deals and owns the crib (an outline, so that it never looks
    like the inverted name of the side to act)."""
    ImageDraw.Draw(image).rectangle((x, y, x + 8, y + LINE_H - 2), outline=1, fill=0)
    draw_text(image, x + 2, y, "D")


def _header(image: Image.Image, view: View, x0: int, x1: int) -> None:
    """Names and big scores for each side between ``x0`` and ``x1``, then the bars."""
    sides = view.sides
    span = (x1 - x0) // max(1, len(sides))
    for i, side in enumerate(sides):
        left = x0 + i * span
        _side_column(image, side, left, span, right_align=(i == len(sides) - 1 and i > 0))
    _bars(image, view, 24)


def _side_column(image: Image.Image, side: SideView, left: int, span: int, *,
                 right_align: bool) -> None:
    mark_w = 10 if side.dealer else 0
    name = fit(side.name, (span - mark_w - 2) // CHAR_W)
    name_w = text.width(name)
    nx = left + span - name_w - mark_w - 1 if right_align else left
    if side.to_act or side.winner:
        _inverted(image, nx, 0, name_w + 2, LINE_H, name)
    else:
        draw_text(image, nx + 1, 0, name)
    if side.dealer:
        _dealer_mark(image, nx + name_w + 3, 0)
    score = str(side.score)
    scale = 2 if text.width(score, 2) <= span - 2 else 1
    sx = left + span - text.width(score, scale) - 1 if right_align else left + 1
    draw_text(image, sx, 7, score, scale=scale)
    if side.winner:
        draw_text(image, sx + text.width(score, scale) + 1 if not right_align
                  else sx - CHAR_W - 1, 10, "•")


def _bars(image: Image.Image, view: View, top: int) -> None:
    """One bar per side: solid to the back peg, thin from there to the front peg."""
    draw = ImageDraw.Draw(image)
    target = max(1, view.target)
    span = WIDTH - 1

    def x_of(score: int) -> int:
        return round(min(max(score, 0), target) * span / target)

    height = 2 if len(view.sides) <= 2 else 1
    y = top
    for side in view.sides:
        back, front = x_of(min(side.back, side.score)), x_of(side.score)
        if side.score > 0:
            draw.rectangle((0, y, back, y + height - 1), fill=1)
            draw.line((back, y, front, y), fill=1)
            draw.line((front, y, front, y + height), fill=1)  # the front peg stands proud
        else:
            draw.point((0, y), fill=1)
        y += height + 1
    skunk = x_of(view.skunk_line)
    for yy in range(top - 1, y + 1, 2):
        draw.point((skunk, yy), fill=1)
    draw.point((span, top - 1), fill=1)
    draw.point((span, y), fill=1)


def wheel_layout(picker: PickerView, x: int, chars: int) -> list[tuple[int, int]]:
    """Where each shown option of the wheel goes: (option index, x), the highlighted one
    first, centred, then its neighbours outwards on both sides.

    The wheel wraps round, so the neighbours wrap too; no option is shown twice, and each
    side stops at the first neighbour that does not fit, so the wheel never skips a wide
    label (the 10) to show a narrower one beyond it: what is shown is always a run of
    neighbours."""
    options = picker.options
    count = len(options)
    current = picker.candidate
    x_end = x + chars * CHAR_W
    cx = x + (chars * CHAR_W - text.width(current)) // 2
    placed = [(picker.index % count, cx)]
    shown = {picker.index % count}
    left_x, right_x = cx - 4, cx + text.width(current) + 4
    right_open = left_open = True
    for step in range(1, count):
        right = (picker.index + step) % count
        if right_open and right not in shown and (
                right_x + text.width(options[right]) <= x_end - CHAR_W):
            placed.append((right, right_x))
            right_x += text.width(options[right]) + 4
            shown.add(right)
        else:
            right_open = False
        left = (picker.index - step) % count
        if left_open and left not in shown and left_x - text.width(options[left]) >= x + CHAR_W:
            left_x -= text.width(options[left])
            placed.append((left, left_x))
            left_x -= 4
            shown.add(left)
        else:
            left_open = False
        if not (right_open or left_open):
            break
    return placed


def _picker_line(image: Image.Image, x: int, y: int, picker: PickerView, chars: int) -> None:
    """The wheel around the highlighted option: ``◂ 5 6 [7] 8 9 ▸`` (see
    :func:`wheel_layout`)."""
    options = picker.options
    if not options:
        draw_text(image, x, y, fit(picker.empty[-1] if picker.empty else "(nothing fits)", chars))
        return
    if picker.keys:  # a key answers at once: each key with its suit, the wheel's own inverted
        legend = picker.key_legend
        draw_text(image, x, y, fit(legend, chars))
        at = legend.index(" ") + 1 + 3 * (picker.index % len(options))
        shown = legend[at:at + 2]
        _inverted(image, x + at * CHAR_W - 1, y, text.width(shown) + 2, LINE_H, shown)
        return
    (_, cx), *rest = wheel_layout(picker, x, chars)
    _inverted(image, cx - 2, y, text.width(picker.candidate) + 3, LINE_H, picker.candidate)
    for index, at in rest:
        draw_text(image, at, y, options[index])
    if len(options) > 1:
        draw_text(image, x, y, "◂")
        draw_text(image, x + chars * CHAR_W - CHAR_W, y, "▸")


# -- screens --------------------------------------------------------------------------------


def _play(image: Image.Image, view: View) -> None:
    _header(image, view, 0, WIDTH)
    top = _HEADER_H + 1
    count = "" if view.count is None else str(view.count)
    draw_text(image, 0, top - 1, count.rjust(2), scale=3)
    x = 3 * 2 * CHAR_W + 4
    chars = (WIDTH - x) // CHAR_W
    prompt = view.picker.prompt if view.picker else (f"{view.turn} to play" if view.turn else "")
    if view.picker is not None and not view.picker.options and len(view.picker.empty) > 1:
        # A wheel offering no card: why, over what to do (the side to act is lit above).
        prompt = view.picker.empty[0]
    draw_text(image, x, top, fit(prompt, (LOCK_X - 1 - x) // CHAR_W if view.locked else chars))
    if view.locked:
        lock_mark(image)
    if view.picker is not None:
        _picker_line(image, x, top + LINE_H + 1, view.picker, chars)
    if view.picker is not None and view.picker.facts:  # what a hold chose, in words
        _bottom_line(image, view, fact_line(view.picker, COLUMNS), invert=True)
    elif view.award or view.entered:
        _bottom_line(image, view, last_entered(view), invert=True)
    elif view.coach:  # the pegging coach (teaching): its card, when the page before said why
        _bottom_line(image, view, view.coach if len(view.coach) <= COLUMNS
                     else view.coach.split(":")[0])
    elif view.pile:
        _bottom_line(image, view, " ".join(view.pile))
    else:
        _bottom_line(image, view, view.hint)


def _table(image: Image.Image, view: View) -> None:
    """The board header, then the title (with a short key legend beside it when it fits),
    the lines (or the wheel's prompt and the wheel on the bottom line), and the last award
    on the bottom line when there is one."""
    _header(image, view, 0, WIDTH)
    top = _HEADER_H + 1
    rows = _table_rows(view)
    # The bottom line: the wheel, else the last award, else (a count or a claim) what GO
    # does there, so a forgotten flush or nobs is one visible press away.
    legend = view.hint if view.screen in (Screen.SHOW, Screen.CLAIM) and not view.award else ""
    # A count's own lines say the suit facts a held key set: its legend (what GO adds) keeps
    # the bottom line, where no award is said.
    last = last_entered(view) if view.picker is None and (view.award or not legend) else ""
    bottom = view.picker is not None or bool(last) or bool(legend)
    free = (HEIGHT - top) // LINE_H - (1 if view.title else 0) - (1 if bottom else 0)
    y = _table_title(image, view, top, legend)
    if view.locked:
        lock_mark(image)
    selected = view.selected
    first = 0
    if selected is not None and rows:
        first = min(max(0, selected - free + 1), max(0, len(rows) - free))
    for index, row in enumerate(rows[first:first + free], start=first):
        if index == selected:
            _inverted(image, 0, y, WIDTH - CHAR_W, LINE_H, "▸" + fit(row, COLUMNS - 2))
        else:  # (a row on the padlock's line stops short of it)
            chars = COLUMNS - (1 if view.locked and y == top else 0)
            draw_text(image, 0 if selected is None else CHAR_W + 1, y, fit(row, chars))
        y += LINE_H + 1
    if view.picker is not None:
        _picker_line(image, 0, _BOTTOM_Y, view.picker, COLUMNS - (4 if view.link else 0))
    elif last:
        _bottom_line(image, view, last, invert=True)
    elif legend:
        _bottom_line(image, view, legend)
    if len(rows) > first + free:
        mark_y = top + (LINE_H + 1) * (free - 1 + (1 if view.title else 0))
        draw_text(image, WIDTH - CHAR_W, mark_y, "▾")
    if first > 0 or view.first_line > 0:
        draw_text(image, WIDTH - CHAR_W, top + (LINE_H + 1 if view.title else 0), "▴")


def last_entered(view: View) -> str:
    """The bottom line's account of the last entry: the card a held key entered at once with
    its suit fact ("J, with nobs", until the next entry), then the last award; the card's
    words are kept whole, the award cut where the line ends (it stays after the next key)."""
    return "  ".join(part for part in (view.entered, view.award) if part)


def fact_line(picker: PickerView, chars: int) -> str:
    """The highlighted card with the suit facts a hold set on it, in words ("J: with nobs"),
    or in short words where those do not fit in ``chars`` ("J: nobs flush 5")."""
    line = f"{picker.candidate}: {picker.fact_words}"
    if len(line) <= chars:
        return line
    return f"{picker.candidate}: {suit_facts.suit_words(picker.facts, short=True)}"


def _table_rows(view: View) -> list[str]:
    """The table screen's rows: the wheel's prompt, or the lines from the first in view."""
    if view.picker is not None:
        # The cards entered so far (a crib, a hand, the cut) stay in view beside the prompt.
        entered = "  ".join(line for line in view.lines if line)
        # A suit fact a hold chose, in words, takes the prompt's place over the wheel while
        # it is chosen (what OK enters now).
        # So does the card a held key has just entered with its fact, until the next entry.
        prompt = (fact_line(view.picker, COLUMNS - 1) if view.picker.facts
                  else view.entered or view.picker.prompt)
        return [f"{prompt}  {entered}" if entered else prompt]
    # The last column holds the scroll marks, beside the rows.
    return [part for line in view.lines[view.first_line:] for part in wrap(line, COLUMNS - 1)]


def _table_title(image: Image.Image, view: View, y: int, legend: str) -> int:
    """The title at ``y``, inverted, with the key hint beside it when it fits (and no legend
    takes the bottom line); returns the ``y`` of the first row."""
    if not view.title:
        return y
    title = fit(view.title, COLUMNS - 1)
    width = min(WIDTH, text.width(title) + 2)
    _inverted(image, 0, y, width, LINE_H, title)
    right = LOCK_X - 2 if view.locked else WIDTH  # the hint stops short of the padlock
    room = (right - width - 2) // CHAR_W
    if view.hint and not legend and view.selected is None and len(view.hint) <= room:
        draw_text(image, right - text.width(view.hint), y, view.hint)
    return y + LINE_H + 1


def _title_bar(image: Image.Image, title: str, marks: str = "") -> None:
    """The inverted title across the top, with ``marks`` (the scroll marks) at its right."""
    chars = COLUMNS - len(marks)
    _inverted(image, 0, 0, WIDTH, LINE_H + 1, fit(title, chars))
    if marks:
        draw_text(image, WIDTH - text.width(marks) - 1, 0, marks, fill=0)


def _list(image: Image.Image, view: View) -> None:
    _title_bar(image, view.title)
    visible = 4
    selected = view.selected if view.selected is not None else 0
    first = min(max(0, selected - visible + 1), max(0, len(view.lines) - visible))
    first = max(0, min(first, selected))
    y = LINE_H + 2
    for index in range(first, min(len(view.lines), first + visible)):
        line = fit(view.lines[index], COLUMNS - 2)
        if index == view.selected:
            _inverted(image, 0, y, WIDTH - CHAR_W, LINE_H, "▸" + line)
        else:
            draw_text(image, CHAR_W + 1, y, line)
        y += LINE_H
    if first > 0:
        draw_text(image, WIDTH - CHAR_W, LINE_H + 2, "▴")
    if first + visible < len(view.lines):
        draw_text(image, WIDTH - CHAR_W, LINE_H * 4 + 2, "▾")
    _bottom_line(image, view, view.hint)


def text_rows(view: View) -> list[str]:
    """A text screen's rows from ``first_line``: each line as the app wrapped it, at
    :data:`TEXT_WIDTH`, the screen's whole width (the scroll marks are in the title bar);
    only a line the app wrote whole, longer than that, is broken here."""
    return [part for line in view.lines[view.first_line:] for part in wrap(line, TEXT_WIDTH)]


def page_rows(view: View) -> list[str]:
    """The rows of small text a page's lines take on the screen it is read on."""
    if view.screen in TABLE_SCREENS and view.sides and view.screen is not Screen.PLAY:
        return _table_rows(view)
    return text_rows(view)


def _text_screen(image: Image.Image, view: View) -> None:
    """The title bar, then the rows from ``first_line`` across the whole width; a page that
    scrolls has its marks (▴ more above, ▾ more below) at the right end of the key legend's
    line, or of the title bar where the legend leaves no room, so that no row gives up a
    column to them."""
    rows = text_rows(view)
    room = 4 if view.hint else 5
    marks = ("▴" if view.first_line > 0 else "") + ("▾" if len(rows) > room else "")
    legend_room = COLUMNS - (_LINK_W // CHAR_W + 1 if view.link else 0)
    below = bool(view.hint) and len(view.hint) + 1 + len(marks) <= legend_room
    _title_bar(image, view.title, "" if below else marks)
    y = LINE_H + 2
    for row in rows[:room]:
        draw_text(image, 0, y, row)
        y += LINE_H
    if below and marks:
        draw_text(image, legend_room * CHAR_W - text.width(marks), _BOTTOM_Y, marks)
    if view.hint:
        _bottom_line(image, view, view.hint)


def _race(image: Image.Image, view: View) -> None:
    """The score race of the game just ended (``view.race``), drawn by the race picture."""
    winner = next((i for i, side in enumerate(view.sides) if side.winner), None)
    race = stats.Race(tuple(side.name for side in view.sides), view.target, view.race, winner)
    image.paste(race_picture.race_image(race))


def _pair(image: Image.Image, view: View) -> None:
    """A seat's pairing: the QR code of its join address filling the left half, and on the
    right the seat's name (inverted), its join code in double size, three characters a
    line, and the key legend (large print draws it the same: the code is large already)."""
    if view.qr:
        image.paste(qr.qr_image(view.qr, HEIGHT), (0, 0))
    x = HEIGHT + 2
    chars = (WIDTH - x) // CHAR_W
    _inverted(image, x, 0, WIDTH - x, LINE_H, fit(view.title, chars))
    half = (len(view.code) + 1) // 2
    for row, part in enumerate((view.code[:half], view.code[half:])):
        draw_text(image, x + (WIDTH - x - text.width(part, 2)) // 2, LINE_H + 2 + row * 21,
                  part, scale=2)
    draw_text(image, x, _BOTTOM_Y, fit(view.hint, chars - (_LINK_W // CHAR_W + 1
                                                           if view.link else 0)))


def _saved(image: Image.Image, view: View) -> None:
    title = view.title or "Game saved"
    scale = 2 if text.width(title, 2) <= WIDTH else 1
    draw_text(image, (WIDTH - text.width(title, scale)) // 2, 2, title, scale=scale)
    y = 2 + LINE_H * scale + 2
    if view.sides:
        line = "  ".join(f"{side.name} {side.score}" for side in view.sides)
        for row in wrap(line, COLUMNS)[:2]:
            draw_text(image, (WIDTH - text.width(row)) // 2, y, row)
            y += LINE_H
    for row in [part for line in view.lines for part in wrap(line, COLUMNS)][:2]:
        draw_text(image, (WIDTH - text.width(row)) // 2, y, row)
        y += LINE_H
