"""The simulator's first frame, drawn before the device is loaded (see
:mod:`pegboard.ui.splash`): the terminal switches to its own screen and shows the splash with
the game being restored, then the simulator takes over the same screen."""

from __future__ import annotations

import os
from typing import TextIO

from pegboard.sim.screen import compose, terminal_size
from pegboard.store.peek import glance
from pegboard.ui.splash import splash

ENTER = "\x1b[?1049h\x1b[?25l\x1b[2J"
"""Switch to the terminal's own screen, hide the cursor and clear."""
LEAVE = "\x1b[?25h\x1b[?1049l"
"""Show the cursor and go back to the screen the player had."""


def draw_splash(out: TextIO, store: str | os.PathLike[str]) -> None:
    """Enter the simulator's screen and draw the splash for the store's game in progress."""
    seen = glance(store)
    image = splash(seen.players, seen.scores) if seen is not None else splash()
    board = ["PEGBOARD simulator", "", "Starting..."]
    columns, rows = terminal_size(out)
    lines = compose(image, board, ("", ""), columns, rows)
    out.write(ENTER + "".join(f"\x1b[{row};1H\x1b[2K{line}"
                              for row, line in enumerate(lines, start=1)))
    out.flush()
