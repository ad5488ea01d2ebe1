"""The simulator in a terminal: the OLED frame, a text pegboard, a key legend.

The frame is drawn as large as the terminal allows, in braille at 80x24 and in half blocks
when there is room, and redrawn to fit whenever the terminal is resized; a terminal too small
for it gets a message saying so (:mod:`pegboard.sim.screen` has the layout rules).

Plain ANSI on a terminal in cbreak mode (no curses, no window system), so it works over SSH
and in tmux. Keys are read on their own thread, which presses them on the mock pins like a
hand on the real box; the loop runs on the main thread and draws through
:class:`TerminalDisplay`.
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
import termios
import textwrap
import threading
import tty
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from PIL import Image

from pegboard.app.view import Brightness, PickerView, Screen, SideView, View
from pegboard.app.words import rejoined
from pegboard.device.loop import STOP
from pegboard.device.observers import Seen
from pegboard.sim.keys import KeyStep
from pegboard.sim.screen import (
    FRAME_H,
    FRAME_W,
    LEGEND_ROWS,
    LEGENDS,
    box_size,
    choose_layout,
    compose,
    terminal_size,
)
from pegboard.sim.session import Simulator

if TYPE_CHECKING:
    from pegboard.hw.oled import Display

ENCODER_KEYS: dict[str, KeyStep] = {
    "\x1b[C": KeyStep("right"), "\x1b[B": KeyStep("right"), ".": KeyStep("right"),
    "\x1b[D": KeyStep("left"), "\x1b[A": KeyStep("left"), ",": KeyStep("left"),
    "\r": KeyStep("ok"), "\n": KeyStep("ok"), " ": KeyStep("ok"), "o": KeyStep("ok"),
    "g": KeyStep("go"), "u": KeyStep("undo"), "\x7f": KeyStep("undo"), "m": KeyStep("menu"),
    "O": KeyStep("ok", hold=True), "G": KeyStep("go", hold=True),
    "U": KeyStep("undo", hold=True), "M": KeyStep("menu", hold=True),
}
KEYPAD_KEYS: dict[str, KeyStep] = {
    **{str(n): KeyStep(str(n)) for n in range(2, 10)},
    "a": KeyStep("A"), "1": KeyStep("A"), "0": KeyStep("10"), "t": KeyStep("10"),
    "j": KeyStep("J"), "q": KeyStep("Q"), "k": KeyStep("K"),
    "\r": KeyStep("ok"), "\n": KeyStep("ok"), " ": KeyStep("ok"), "g": KeyStep("go"),
    "u": KeyStep("undo"), "\x7f": KeyStep("undo"), "m": KeyStep("menu"),
    "G": KeyStep("go", hold=True), "U": KeyStep("undo", hold=True),
    "M": KeyStep("menu", hold=True),
    # Shift holds a rank key (a suit fact such as "J, with nobs" on the card wheel).
    "A": KeyStep("A", hold=True), "T": KeyStep("10", hold=True), ")": KeyStep("10", hold=True),
    "J": KeyStep("J", hold=True), "Q": KeyStep("Q", hold=True), "K": KeyStep("K", hold=True),
    **{mark: KeyStep(str(n), hold=True) for n, mark in enumerate("@#$%^&*(", start=2)},
}
QUIT_KEYS = ("x", "\x03", "\x04")
KEY_POLL_S = 0.2  # the longest the keyboard thread waits: a lone Escape, a resize
STATUS_S = 0.1
"""How often the LED board's status lines are read again between frames (``--leds``)."""

def keymap(kit: str) -> dict[str, KeyStep]:
    """Terminal keys to key steps for the kit."""
    return KEYPAD_KEYS if kit == "keypad" else ENCODER_KEYS


def split_keys(data: str) -> tuple[list[str], str]:
    """Split terminal input into keys; arrow keys arrive as three-character sequences, which a
    read may cut in two, so an unfinished sequence at the end is handed back to prepend to
    the next read.

    >>> split_keys("\\x1b[Cg\\x1b[D \\x1b[")
    (['\\x1b[C', 'g', '\\x1b[D', ' '], '\\x1b[')
    """
    keys: list[str] = []
    i = 0
    while i < len(data):
        if data[i] == "\x1b" and len(data) - i < 3 and "\x1b[".startswith(data[i:]):
            return keys, data[i:]
        if data.startswith("\x1b[", i):
            keys.append(data[i:i + 3])
            i += 3
        else:
            keys.append(data[i])
            i += 1
    return keys, ""


def board_lines(view: View | None, sides: tuple[SideView, ...], target: int) -> list[str]:
    """The text pegboard: each side's name, score and a bar to the target.

    >>> board_lines(None, (SideView("Ann", 45, 38, dealer=True), SideView("Ben", 38)), 121)[1]
    '  Ann (D)     45 [######.....|....]'
    """
    lines = ["PEGBOARD simulator" + (f"   to {target}" if sides else "")]
    skunk = 90 if target == 121 else 30
    cells = 15
    for side in sides:
        filled = round(min(side.score, target) * cells / max(1, target))
        bar = ["#" if i < filled else "." for i in range(cells)]
        mark = round(skunk * cells / max(1, target))
        bar.insert(mark, "|")
        name = side.name[:8] + (" (D)" if side.dealer else "")
        turn = ">" if side.to_act else ("*" if side.winner else " ")
        lines.append(f"{turn} {name:<11}{side.score:>3} [{''.join(bar)}]")
    if view is not None:
        lines.append("")
        if view.count is not None:
            lines.append(f"Count {view.count}" + (f" - {view.turn} to play" if view.turn else ""))
        lines.extend(line for line in (view.entered, view.award, view.coach, view.title)
                     if line)
        if view.picker is not None:
            lines.append(wheel_line(view.picker))
        # Every line of a page and what the keys do (a suit fact GO would set among them).
        lines.extend(f"  {line}" for line in view.lines)
        if view.hint:
            lines.append(view.hint)
    return lines


def wheel_line(picker: PickerView) -> str:
    """The wheel on a line of the panel: "Ann plays: > 7 <", the card OK would enter between
    the marks; a wheel offering no card says what it says instead ("Ann plays: No card fits,
    GO says go"); keys that answer at once, the keys ("A: suit for nobs? press 1♣ 2♦ 3♥
    4♠")."""
    if not picker.options and picker.empty:
        return f"{picker.prompt}: {picker.empty_words}"
    if picker.keys:  # a key answers at once: the keys, as the frame shows them
        return f"{picker.prompt} {picker.key_legend}"
    return f"{picker.prompt}: > {picker.entering} <"


def screen_lines(image: Image.Image | None, view: View | None, sides: tuple[SideView, ...],
                 target: int, kit: str, size: tuple[int, int], *, lit: bool = True,
                 extra: Sequence[str] = ()) -> list[str]:
    """The whole terminal screen as lines for a terminal of ``size`` (columns, rows): the
    frame (dark when the panel is off), the text pegboard with any ``extra`` lines, and the
    kit's legend, laid out by :func:`pegboard.sim.screen.compose`."""
    frame = image if (image is not None and lit) else Image.new("1", (FRAME_W, FRAME_H))
    layout = choose_layout(*size)
    below = layout is not None and not layout.beside
    if below and view is not None:
        assert layout is not None
        room = size[1] - LEGEND_ROWS - box_size(layout.mode)[1] - len(extra) - (
            1 if extra else 0)
        board = words_below(view, sides, target, rows=max(1, room), width=size[0])
    else:
        board = board_lines(view, sides, target)
    if extra:
        board = [*board, "", *extra]
    return compose(frame, board, LEGENDS.get(kit, LEGENDS["encoder"]), *size)


def words_below(view: View, sides: tuple[SideView, ...], target: int, *,
                rows: int = 4, width: int = 80) -> list[str]:
    """Under the frame (80x24 leaves four rows) the frame's words, which its dots are too
    small to read: the scores, the title with the count, the pegging coach's line whole,
    the card the wheel is on or every line of the page (a list's chosen row first, marked),
    and what the keys do, packed
    side by side (a bar between them) so that a whole page fits; the keys are never left
    out. A page longer than the rows (a long rule help) shows from where it is scrolled to,
    saying there is more.

    >>> from pegboard.app.view import Screen
    >>> words_below(View(Screen.MENU, "Menu", ("Scores", "Undo"), 1, hint="OK choose"),
    ...             (SideView("Ann", 45, dealer=True), SideView("Ben", 38, to_act=True)), 121)
    ['Ann (D) 45   >Ben 38   to 121 \u2502 Menu \u2502 > Undo \u2502 OK choose', '', '', '']
    """
    scores = "   ".join(f"{'>' if side.to_act else '*' if side.winner else ''}{side.name}"
                        f"{' (D)' if side.dealer else ''} {side.score}" for side in sides)
    head = [f"{scores}   to {target}"] if sides else []
    title = view.title
    if view.count is not None:
        title += f"{'  ' if title else ''}Count {view.count}" + (
            f", {view.turn} to play" if view.turn else "")
    for last in (view.entered, view.award):  # a held key's card and fact, the last award
        if last:
            title += f"{'  ' if title else ''}{last}"
    if title:
        head.append(title)
    if view.coach:  # the pegging coach's line (teaching), whole: the frame may show its start
        head.append(view.coach)
    body: list[str] = []
    if view.picker is not None:
        body.append(wheel_line(view.picker))
        body.extend(view.lines)
    elif view.selected is not None and view.lines:
        chosen = view.selected % len(view.lines)
        body.append(f"> {view.lines[chosen]}")  # the chosen row first, the rest after it
        body.extend(line for i, line in enumerate(view.lines) if i > chosen)
    else:
        body.extend(view.lines)
    tail = [view.hint] if view.hint else []
    # A count's and a claim's lines are phrases: only the lines their screen wrapped join.
    body = rejoined(body, by_case=view.screen not in PHRASES)
    packed = pack_words([*head, *body, *tail], width)
    if len(packed) > rows and view.picker is None and view.selected is None:
        # Too long for the rows: from where the page is scrolled to, with the keys kept.
        rest = list(view.lines[view.first_line:])
        rest = rejoined(rest, by_case=view.screen not in PHRASES)
        while rest and len(packed) > rows:
            rest.pop()
            packed = pack_words([*head, *rest, "(turn for more)", *tail], width)
    shown = packed[:rows]
    return [*shown, *[""] * (rows - len(shown))]  # the legend stays on the last rows


PHRASES = (Screen.SHOW, Screen.CLAIM)
"""The screens whose lines are phrases, one fact a line ("hand: 4", "cards: 10 A 3 5",
"suits: plain"), never a sentence split by hand: the panel joins none of them by case."""

WORD_BAR = " \u2502 "
"""What stands between two lines of the frame packed on one row of the panel."""


def pack_words(lines: Sequence[str], width: int) -> list[str]:
    """Lines packed in order onto rows of at most ``width`` characters, a bar between two on
    the same row; a line wider than a row goes on over rows of its own, broken between words
    (the panel shows every word of a page's line: nothing is cut at its edge).

    >>> pack_words(["Ann's hand: 12", "fifteen 2 (7 8)", "cards: 7 8 9 J"], 36)
    ["Ann's hand: 12 \u2502 fifteen 2 (7 8)", 'cards: 7 8 9 J']
    >>> pack_words(["OK", "First to 121 wins at that moment."], 16)
    ['OK', 'First to 121', 'wins at that', 'moment.']
    """
    rows: list[str] = []
    for line in (line.strip() for line in lines if line.strip()):
        if rows and len(rows[-1]) + len(WORD_BAR) + len(line) <= width:
            rows[-1] += WORD_BAR + line
        else:
            rows.extend(textwrap.wrap(line, width, break_on_hyphens=False))
    return rows


class TerminalDisplay:
    """Draws the composed screen with ANSI escapes on ``out``.

    The loop thread draws each new frame; the keyboard thread calls :meth:`refit` so a resized
    terminal is redrawn at once (the loop draws only when the view changes). A lock keeps the
    two from writing at the same time, and only the loop thread calls ``extra`` (the LED
    board's status), so the adapters stay the loop's own.
    """

    def __init__(self, kit: str, out: TextIO | None = None,
                 size: Callable[[], tuple[int, int]] | None = None,
                 extra: Callable[[], list[str]] | None = None,
                 mirror: Display | None = None) -> None:
        self.kit = kit
        self.extra = extra
        self.mirror = mirror
        self.out = out or sys.stdout
        self._size = size or (lambda: terminal_size(self.out))
        self._lock = threading.Lock()
        self._drawn_size: tuple[int, int] | None = None
        self._full = False  # the last drawing filled every row (the cursor is on the bottom one)
        self._extra_lines: list[str] = []
        self.image: Image.Image | None = None
        self.view: View | None = None
        self.sides: tuple[SideView, ...] = ()
        self.target = 121
        self.lit = True

    def show(self, image: Image.Image) -> None:
        """Keep the frame (drawn with its view in :meth:`frame`)."""
        self.image = image
        if self.mirror is not None:
            self.mirror.show(image)

    def frame(self, view: View, image: Image.Image) -> None:
        """The loop's frame hook: remember the view and redraw."""
        with self._lock:
            self.view = view
            if view.sides:
                self.sides, self.target = view.sides, view.target
            self.image = image
            self.lit = view.brightness is not Brightness.BLANK
        self.redraw()

    def set_contrast(self, level: int) -> None:
        """Contrast cannot be shown in a terminal."""

    def set_power(self, on: bool) -> None:
        """Blank or light the frame."""
        if self.mirror is not None:
            self.mirror.set_power(on)
        with self._lock:
            changed, self.lit = on != self.lit, on
        if changed:
            self.redraw()

    def close(self, final: Image.Image | None = None) -> None:
        """Draw the frame left on the screen at shutdown, if the terminal is big enough for it
        (the too-small message would say the game carries on), leaving the cursor on a fresh
        line for whatever is printed after it."""
        if final is not None:
            with self._lock:
                self.image, self.lit = final, True
            if choose_layout(*self._size()) is not None:
                self.redraw()
            if self._full:
                self.out.write("\r\n")
                self.out.flush()
        if self.mirror is not None:
            self.mirror.close(final)

    def redraw(self) -> None:
        """Write the whole screen (on the loop thread, so the LED status is read here)."""
        extra = self.extra() if self.extra is not None else self._extra_lines
        with self._lock:
            self._extra_lines = extra
            self._draw(self._size())

    def redraw_if_extra_changed(self) -> bool:
        """Redraw if the extra lines (the LED board's status) changed since the last drawing
        (on the loop thread, as :meth:`redraw`); say whether it did. Nothing before the
        first frame."""
        if self.extra is None or self.view is None:
            return False
        extra = self.extra()
        with self._lock:
            if extra == self._extra_lines:
                return False
            self._extra_lines = extra
            self._draw(self._size())
        return True

    def refit(self) -> bool:
        """Redraw if the terminal's size changed since the last drawing (any thread); say
        whether it did."""
        with self._lock:
            size = self._size()
            if size == self._drawn_size:
                return False
            self._draw(size)
            return True

    def _draw(self, size: tuple[int, int]) -> None:
        # Each line is placed by its row number and cleared before it is written; no newline
        # follows the last one, so a drawing as tall as the terminal never scrolls its top off.
        lines = screen_lines(self.image, self.view, self.sides, self.target, self.kit, size,
                             lit=self.lit, extra=self._extra_lines)
        rows = size[1]
        parts = [f"\x1b[{row};1H\x1b[2K{line}" for row, line in enumerate(lines, start=1)]
        self._full = len(lines) >= rows
        if not self._full:  # clear what an earlier, taller drawing left below this one
            parts.append(f"\x1b[{len(lines) + 1};1H\x1b[J")
        self.out.write("\x1b[H" + "".join(parts))
        self.out.flush()
        self._drawn_size = size


class StatusWatch:
    """The loop's observer that keeps the LED board's status under the frame current: the
    firmware shows a frame a moment after the loop sends it, after the frame that sent it was
    drawn, so the status is read again every :data:`STATUS_S` and drawn when it changed (the
    LED walk's lit LED is then the one the panel names)."""

    def __init__(self, display: TerminalDisplay, every_s: float = STATUS_S) -> None:
        self.display = display
        self.every_s = every_s
        self._due: float | None = None

    def saw(self, seen: Seen[Any]) -> None:
        """Nothing: the frame hook draws each new view with the status as it is."""

    def poll(self, now: float) -> list[Any]:
        """Read the status again when due; it brings no input."""
        if self._due is None or now >= self._due:
            self._due = now + self.every_s
            self.display.redraw_if_extra_changed()
        return []

    def next_deadline(self) -> float | None:
        """The next reading."""
        return self._due


def run_interactive(sim: Simulator, display: TerminalDisplay, stdin: TextIO, *,
                    entered: bool = False, ready: Callable[[], None] | None = None) -> None:
    """Play in the terminal until the player quits (x or Ctrl-C) or the app quits
    (``entered``: the splash has already switched to the simulator's screen; ``ready`` is
    called once the first frame is drawn, before the first key is read).

    The keyboard thread wakes at least every ``KEY_POLL_S`` and then asks the display to
    refit, so a resized terminal is redrawn within that time, between frames as well. An
    error on it (a key the keypad's scan never saw) ends the simulator and is raised here once
    the terminal is handed back.
    """
    fd = stdin.fileno()
    saved = termios.tcgetattr(fd)
    mapping = keymap(sim.config.input.kit)
    stop = threading.Event()
    failed: list[Exception] = []

    def read_keys() -> None:
        try:
            serve_keys()
        except Exception as error:  # raised on the main thread once the terminal is back
            failed.append(error)
        finally:  # however the keyboard ends, the loop must not wait for it forever
            sim.inbox.put(STOP)

    def serve_keys() -> None:
        pending = ""
        while not stop.is_set():
            ready, _, _ = select.select([fd], [], [], KEY_POLL_S)
            display.refit()
            if not ready:
                if pending == "\x1b":  # a lone Escape press, not the start of an arrow key
                    pending = ""
                continue
            data = os.read(fd, 256).decode("utf-8", errors="replace")
            if not data:
                sim.inbox.put(STOP)
                return
            keys, pending = split_keys(pending + data)
            for key in keys:
                if key in QUIT_KEYS or (key == "q" and sim.config.input.kit == "encoder"):
                    sim.inbox.put(STOP)
                    return
                step = mapping.get(key)
                if step is not None:
                    sim.press(step)

    if not entered:
        display.out.write("\x1b[?1049h\x1b[?25l\x1b[2J")
    # Now, not after flushing: keys pressed while the splash was showing are kept.
    tty.setcbreak(fd, termios.TCSANOW)
    reader = threading.Thread(target=read_keys, name="keyboard", daemon=True)
    try:
        sim.start()
        if ready is not None:
            ready()
        reader.start()
        with contextlib.suppress(KeyboardInterrupt):
            sim.loop.run()
    finally:
        stop.set()
        sim.loop_ended()  # a key held for the scan to see is let go
        if reader.is_alive():  # let it finish a refit before the screen is handed back
            reader.join(timeout=1.0)
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        display.out.write("\x1b[?25h\x1b[?1049l")
        display.out.flush()
    if failed:
        raise failed[0]
