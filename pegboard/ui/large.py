"""Large print: the same views drawn for a player with low vision (``[display] large_print``).

White on black only, nothing dimmed or dotted, and everything a player must read at a glance
drawn big:

* **digits at least 24 pixels high**: every score and the count is the small font's digits
  (7 rows of ink) scaled 4 times in height, 28 pixels; their width is scaled as far as the
  sides fit (4, 3, 2 or 1 times), so the side to act stands out inverted and no score is cut;
* **the card being chosen fills the screen**: on the cut, the starter, a crib or a hand, the
  wheel's highlighted card is as tall as the screen allows (56 to 63 pixels) and as wide as it
  fits, with the prompt small beside it and a suit fact (``nobs``, ``flush``) at twice the
  size; in the play it takes the screen's full height on the left, beside the count and the
  scores;
* **words at twice the size**: titles, the chosen row of a list and text pages are drawn
  twice as big (10 characters a line), the small print kept only for key legends a sighted
  helper reads.

A game under the tournament lock shows the padlock at twice its size: in the play under the
count's label, elsewhere at the right end of the words under the scores.

Only what a screen needs most is shown; the rest (a hand's breakdown line by line, the pegboard
bars) is said by the voice and shown on the LAN page. Pure like :func:`~pegboard.ui.render.render`,
which draws through here when ``view.large_print`` is set; imported only then.
"""

from __future__ import annotations

import functools

from PIL import Image, ImageDraw

from pegboard.app.suit_facts import suit_words
from pegboard.app.view import PickerView, Screen, SideView, View
from pegboard.app.words import rejoined
from pegboard.ui import text
from pegboard.ui.marks import link_mark, lock_mark
from pegboard.ui.text import CHAR_W, LINE_H, draw_text, fit, wrap

WIDTH, HEIGHT = 128, 64
DIGIT_SCALE = 4
"""Digits are drawn this many times their small height: 7 rows of ink become 28 pixels."""
WORD_CHARS = WIDTH // (CHAR_W * 2)  # 10 characters of double-size text per line
_WORD_H = 17  # rows from one line of double-size text to the next (a descender's tail shared)
_CARD_W = 48  # the play's card column, left of the count and the scores
_BOTTOM_Y = HEIGHT - LINE_H
_LINK_ROOM = 23  # the link-down mark's corner, bottom right
_LOCK_ROOM = 12  # the padlock at twice its size, right of the words under the scores

LIST_SCREENS = frozenset({Screen.HOME, Screen.MENU, Screen.SETUP, Screen.DEALER,
                          Screen.PENALTIES, Screen.CONFIRM, Screen.PEG})
CARD_SCREENS = frozenset({Screen.CUT, Screen.STARTER, Screen.CRIB, Screen.HAND})
TEXT_SCREENS = frozenset({Screen.MESSAGE, Screen.HELP})  # their lines are what they say
RESULT_SCREENS = frozenset({Screen.GAME_OVER, Screen.MATCH})  # every line shown whole


def render_large(image: Image.Image, view: View) -> None:
    """Draw ``view`` in large print onto the blank 128x64 ``image``, with the link-down mark
    when the LED board is not connected (in the play in place of the count's label, where
    it covers no digit; elsewhere in the bottom right corner, which the layouts keep clear
    then)."""
    if view.screen is Screen.PLAY:
        _play(image, view)
        if view.link:
            link_mark(image, _CARD_W + 3, 0)
        return
    if view.screen in CARD_SCREENS and view.picker is not None:
        _card(image, view.picker, 0, 0, WIDTH, HEIGHT, prompt=True)
    elif view.screen in LIST_SCREENS:
        _list(image, view)
    elif view.sides and view.screen not in TEXT_SCREENS:
        _table(image, view)
    else:
        _text(image, view)
    if view.link:
        link_mark(image)


# -- big ink ------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=128)
def ink(label: str, sx: int, sy: int) -> Image.Image:
    """``label``'s inked pixels in the small font, cropped to the ink and scaled ``sx`` times
    in width and ``sy`` in height (whole numbers, so every stroke stays sharp)."""
    small = Image.new("1", (max(1, text.width(label)), LINE_H + 2), 0)
    draw_text(small, 0, 0, label)
    box = small.getbbox()
    if box is None:
        return Image.new("1", (1, 1), 0)
    cropped = small.crop(box)
    return cropped.resize((cropped.width * sx, cropped.height * sy), Image.Resampling.NEAREST)


def _stamp(image: Image.Image, x: int, y: int, mask: Image.Image, fill: int = 1) -> None:
    image.paste(fill, (x, y, x + mask.width, y + mask.height), mask)


def _widest(labels: list[str], room: int, gap: int, scales: tuple[int, ...]) -> int:
    """The largest width scale at which ``labels`` side by side fit in ``room`` pixels."""
    for sx in scales:
        used = sum(ink(label, sx, DIGIT_SCALE).width for label in labels)
        if used + gap * (len(labels) - 1) <= room:
            return sx
    return scales[-1]


def _number(image: Image.Image, x: int, y: int, mask: Image.Image, *, invert: bool) -> None:
    """A big number at (x, y); inverted (dark on a lit box) for the side to act or the winner."""
    if invert:
        ImageDraw.Draw(image).rectangle((x - 2, y - 2, x + mask.width + 1, y + mask.height + 1),
                                        fill=1)
    _stamp(image, x, y, mask, 0 if invert else 1)


def scores(image: Image.Image, sides: tuple[SideView, ...], x0: int, x1: int, y: int) -> None:
    """Each side's score in big digits between ``x0`` and ``x1``, in seat order from the left
    (the last side right-aligned), the side to act or the winner inverted."""
    if not sides:
        return
    labels = [str(side.score) for side in sides]
    sx = _widest(labels, x1 - x0 - 4, 8, (4, 3, 2, 1))
    masks = [ink(label, sx, DIGIT_SCALE) for label in labels]
    span = (x1 - x0) // len(sides)
    for i, (side, mask) in enumerate(zip(sides, masks, strict=True)):
        left = x0 + i * span
        last = i == len(sides) - 1 and i > 0
        x = x1 - mask.width - 2 if last else left + 2
        _number(image, x, y, mask, invert=side.to_act or side.winner)


def _edge(view: View, y: int, height: int) -> int:
    """Where what is drawn from ``y`` down ``height`` rows must end on the right: short of
    the link-down mark's corner when the mark is shown and the rows reach it."""
    return WIDTH - _LINK_ROOM if view.link and y + height > _BOTTOM_Y else WIDTH


def _words(image: Image.Image, x: int, y: int, line: str, *, right: int = WIDTH) -> None:
    draw_text(image, x, y, fit(line, (right - x) // (CHAR_W * 2)), scale=2)


def _legend(image: Image.Image, view: View) -> None:
    """The key legend, small, on the bottom line."""
    if view.hint:
        chars = _edge(view, _BOTTOM_Y, LINE_H) // CHAR_W
        draw_text(image, 0, _BOTTOM_Y, fit(view.hint, chars))


# -- screens ------------------------------------------------------------------------------------


def _card(image: Image.Image, picker: PickerView, x0: int, y0: int, w: int, h: int, *,
          prompt: bool) -> None:
    """The wheel's highlighted card as big as the box allows: the card itself (``7``, ``10``,
    ``7♥``) scaled to the box's height and as wide as fits; the suit facts a hold set on it
    (``nobs``, ``flush 4``: their short words) at twice the size beside it, under the prompt
    (small)."""
    card = picker.candidate or "-"
    fact = suit_words(picker.facts, short=True)
    beside = text.width(fact, 2) + 4 if fact else 0
    if prompt:
        beside = max(beside, min(text.width(picker.prompt), 13 * CHAR_W) + 4)
    small = ink(card, 1, 1)
    sy = max(1, (h - 2) // small.height)
    sx = max(1, min(sy, (w - 4 - beside) // small.width))
    mask = ink(card, sx, sy)
    x = x0 + 2 if beside else x0 + (w - mask.width) // 2
    _stamp(image, x, y0 + (h - mask.height) // 2, mask)
    right = x + mask.width + 4
    chars = (x0 + w - right) // CHAR_W
    if prompt and picker.keys:
        # A question a key answers: the question whole over two lines, the keys under it.
        lines = wrap(picker.prompt, chars)
        for row, line in enumerate([*lines[:2], fit(" ".join(
                f"{key}{option[-1]}" for key, option in zip(picker.keys, picker.options,
                                                            strict=True)), chars)]):
            draw_text(image, right, y0 + 1 + row * (LINE_H + 1), line)
    elif prompt:
        draw_text(image, right, y0 + 1, fit(picker.prompt, chars))
    if fact:
        draw_text(image, right, y0 + LINE_H + 4, fact, scale=2)


def _play(image: Image.Image, view: View) -> None:
    """The card being played on the left, full height in a frame; the count top right and the
    scores under it, all in big digits."""
    draw = ImageDraw.Draw(image)
    if view.picker is not None and not view.picker.options and view.picker.empty:
        # A wheel offering no card: why, in the card's column, a word a line ("No card
        # fits"; four letters fill the column, so no frame).
        for row, word in enumerate(view.picker.empty[0].split()[:3]):
            draw_text(image, 0, 4 + row * _WORD_H, word[:4], scale=2)
    elif view.picker is not None:
        draw.rectangle((0, 0, _CARD_W - 1, HEIGHT - 1), outline=1)
        _card(image, view.picker, 1, 1, _CARD_W - 2, HEIGHT - 2, prompt=False)
    x0 = _CARD_W + 2
    if view.count is not None:
        count = ink(str(view.count), DIGIT_SCALE, DIGIT_SCALE)
        _stamp(image, WIDTH - count.width, 0, count)  # flush right: clear of the label
        if not view.link:
            draw_text(image, x0, 0, "count")
    if view.locked:  # under the label, clear of the count (flush right) and the scores
        lock_mark(image, x0 + 1, LINE_H + 2, scale=2)
    scores(image, view.sides, x0, WIDTH, HEIGHT - 7 * DIGIT_SCALE - 2)


def _table(image: Image.Image, view: View) -> None:
    """The scores across the top in big digits; under them the title at twice the size on up
    to two lines (a second line, when the title needs only one, is the last award or the
    first line of the page). A result (the game or the match over) shows its lines whole
    instead, as many as fit from ``first_line`` (the title counted as line 0), with a mark
    when more follow: turning scrolls them."""
    scores(image, view.sides, 0, WIDTH, 1)
    chars = WORD_CHARS - 1 if view.locked else WORD_CHARS  # (a column for the padlock)
    rows = wrap(view.title, chars) if view.title else []
    if view.screen in RESULT_SCREENS:
        rows, left = _whole([view.title, *view.lines][view.first_line:], chars, 2)
        if left:
            draw_text(image, WIDTH - CHAR_W, HEIGHT - LINE_H, "▾")
    elif len(rows) < 2:
        more = view.entered or view.award or next(
            (line for line in view.lines[view.first_line:] if line), "")
        rows += wrap(more.strip(), chars)[:1] if more else []
    y = 1 + 7 * DIGIT_SCALE + 1
    if view.locked:
        lock_mark(image, WIDTH - _LOCK_ROOM + 2, y + 1, scale=2)
    for row in rows[:2]:
        right = min(_edge(view, y, _WORD_H), WIDTH - _LOCK_ROOM if view.locked else WIDTH)
        _words(image, 0, y, row, right=right)
        y += _WORD_H


def _whole(lines: list[str], chars: int, room: int) -> tuple[list[str], bool]:
    """The rows of as many of ``lines`` as fit whole in ``room`` rows (the first always, cut
    to the room if it alone is longer), and whether any line is left out."""
    rows: list[str] = []
    for at, line in enumerate(lines):
        wrapped = wrap(line, chars)
        if rows and len(rows) + len(wrapped) > room:
            return rows, True
        rows += wrapped
        if len(rows) >= room:
            return rows[:room], at + 1 < len(lines) or len(rows) > room
    return rows, False


def _list(image: Image.Image, view: View) -> None:
    """The title small and inverted with the chosen row's place ("5/10") at its right, the
    chosen row at twice the size (up to two lines), the key legend small at the bottom."""
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH - 1, LINE_H), fill=1)
    place = ""
    if view.lines:
        selected = (view.selected or 0) % len(view.lines)
        place = f"{selected + 1}/{len(view.lines)}"
        draw_text(image, WIDTH - text.width(place) - 1, 0, place, fill=0)
        y = LINE_H + 3
        for row in wrap(view.lines[selected], WORD_CHARS)[:2]:
            _words(image, 0, y, row)
            y += _WORD_H
    room = (WIDTH - text.width(place) - 4) // CHAR_W
    draw_text(image, 1, 0, fit(view.title, room), fill=0)
    _legend(image, view)


def text_rows(view: View) -> list[str]:
    """A text screen's rows of big words from ``first_line``: the lines the small screen's
    width broke are joined again first, so the big words are wrapped once, at their own
    width, and no row is a small line's leftover alone."""
    return [row for line in rejoined(view.lines[view.first_line:], by_case=False)
            for row in wrap(line, WORD_CHARS)]


def _text(image: Image.Image, view: View) -> None:
    """The title small and inverted, then the text at twice the size from ``first_line`` (three
    lines, or two above the key legend)."""
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH - 1, LINE_H), fill=1)
    draw_text(image, 1, 0, fit(view.title, WIDTH // CHAR_W - 1), fill=0)
    rows = text_rows(view)
    room = 2 if view.hint else 3
    y = LINE_H + 2
    for row in rows[:room]:
        _words(image, 0, y, row, right=_edge(view, y, _WORD_H))
        y += _WORD_H
    if len(rows) > room:
        draw_text(image, WIDTH - CHAR_W, LINE_H + 2, "▾")
    _legend(image, view)
