"""The simulator in a terminal: the OLED frame in half blocks, a text pegboard, a key legend.

Plain ANSI on a terminal in cbreak mode (no curses, no window system), so it works over SSH
and in tmux. Keys are read on their own thread, which presses them on the mock pins like a
hand on the real box; the loop runs on the main thread and draws through
:class:`TerminalDisplay`.
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import sys
import termios
import threading
import tty
from collections.abc import Callable, Sequence
from typing import TextIO

from PIL import Image

from pegboard.app.view import Brightness, SideView, View
from pegboard.device.loop import STOP
from pegboard.hw.oled import Display
from pegboard.sim.session import Simulator
from pegboard.testing import KeyStep
from pegboard.ui.term import frame_to_halfblocks, frame_to_quadrants

BOARD_W = 36  # the text pegboard's width beside the frame

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
}
QUIT_KEYS = ("x", "\x03", "\x04")

LEGENDS = {
    "encoder": ("Keys: \u2190/\u2192 turn  Enter/Space OK (push)  g GO  u UNDO  m MENU",
                "      O G U M = hold that button   x quit (the game is saved)"),
    "keypad": ("Keys: a/1 ace  2-9  0/t ten  j q k  Enter OK  g GO  u UNDO",
               "      m MENU (hold OK)   G U = hold   x quit (the game is saved)"),
}


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
        if view.award:
            lines.append(view.award)
        if view.title:
            lines.append(view.title)
    return lines


def compose(image: Image.Image | None, view: View | None, sides: tuple[SideView, ...],
            target: int, kit: str, columns: int, *, lit: bool = True,
            extra: Sequence[str] = ()) -> list[str]:
    """The whole terminal screen as lines (pure, so it is tested directly)."""
    blank = Image.new("1", (128, 64))
    frame = image if (image is not None and lit) else blank
    wide = columns >= 128 + 4 + BOARD_W
    pixels = frame_to_halfblocks(frame) if columns >= 132 else frame_to_quadrants(frame)
    inner = len(pixels[0])
    box = ["\u250c" + "\u2500" * inner + "\u2510"]
    box += ["\u2502" + row + "\u2502" for row in pixels]
    box += ["\u2514" + "\u2500" * inner + "\u2518"]
    board = board_lines(view, sides, target)
    if extra:
        board = [*board, "", *extra]
    if wide:
        out = []
        for i in range(max(len(box), len(board))):
            left = box[i] if i < len(box) else " " * (inner + 2)
            right = board[i] if i < len(board) else ""
            out.append(f"{left}  {right}")
    else:
        out = box + board
    return [*out, "", *LEGENDS.get(kit, LEGENDS["encoder"])]


class TerminalDisplay:
    """Draws the composed screen with ANSI escapes on ``out`` (the loop thread calls it)."""

    def __init__(self, kit: str, out: TextIO | None = None,
                 columns: Callable[[], int] | None = None,
                 extra: Callable[[], list[str]] | None = None,
                 mirror: Display | None = None) -> None:
        self.kit = kit
        self.extra = extra
        self.mirror = mirror
        self.out = out or sys.stdout
        self._columns = columns or self._terminal_columns
        self.image: Image.Image | None = None
        self.view: View | None = None
        self.sides: tuple[SideView, ...] = ()
        self.target = 121
        self.lit = True

    def _terminal_columns(self) -> int:
        # Ask the terminal itself: $COLUMNS may be stale or inherited from another program.
        try:
            return os.get_terminal_size(self.out.fileno()).columns
        except (OSError, ValueError, AttributeError):
            return shutil.get_terminal_size((160, 48)).columns

    def show(self, image: Image.Image) -> None:
        """Keep the frame (drawn with its view in :meth:`frame`)."""
        self.image = image
        if self.mirror is not None:
            self.mirror.show(image)

    def frame(self, view: View, image: Image.Image) -> None:
        """The loop's frame hook: remember the view and redraw."""
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
        if on != self.lit:
            self.lit = on
            self.redraw()

    def close(self, final: Image.Image | None = None) -> None:
        """Draw the frame left on the screen at shutdown."""
        if final is not None:
            self.image, self.lit = final, True
            self.redraw()
        if self.mirror is not None:
            self.mirror.close(final)

    def redraw(self) -> None:
        """Write the whole screen."""
        lines = compose(self.image, self.view, self.sides, self.target, self.kit,
                        self._columns(), lit=self.lit,
                        extra=self.extra() if self.extra is not None else ())
        self.out.write("\x1b[H" + "".join(line + "\x1b[K\n" for line in lines) + "\x1b[J")
        self.out.flush()


def run_interactive(sim: Simulator, display: TerminalDisplay, stdin: TextIO) -> None:
    """Play in the terminal until the player quits (x or Ctrl-C) or the app quits."""
    fd = stdin.fileno()
    saved = termios.tcgetattr(fd)
    mapping = keymap(sim.config.input.kit)
    stop = threading.Event()

    def read_keys() -> None:
        try:
            serve_keys()
        finally:  # however the keyboard ends, the loop must not wait for it forever
            sim.inbox.put(STOP)

    def serve_keys() -> None:
        pending = ""
        while not stop.is_set():
            ready, _, _ = select.select([fd], [], [], 0.2)
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

    display.out.write("\x1b[?1049h\x1b[?25l\x1b[2J")
    tty.setcbreak(fd)
    reader = threading.Thread(target=read_keys, name="keyboard", daemon=True)
    try:
        sim.start()
        reader.start()
        with contextlib.suppress(KeyboardInterrupt):
            sim.loop.run()
    finally:
        stop.set()
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        display.out.write("\x1b[?25h\x1b[?1049l")
        display.out.flush()
