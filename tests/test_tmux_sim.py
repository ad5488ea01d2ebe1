"""``pegboard sim`` in a real terminal: tmux runs it, send-keys types, capture-pane reads.

The keys for one deal come from the pretend table playing the same deal headless; the test
types them into the interactive simulator and reads both scores off the terminal. Other tests
start it in the classic 80x24 terminal, in one too small for it, and resize the window
(``resize-window``) to see the drawing follow. Every wait is for the expected text with a
deadline (polling the pane, never a fixed sleep).
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PIL import Image

from pegboard.app.view import Screen, View
from pegboard.config import Config
from pegboard.sim.autoplay import record_game
from pegboard.sim.keys import parse_script
from pegboard.sim.screen import LEGENDS
from pegboard.sim.script import run_script
from pegboard.store import Store
from pegboard.ui.term import frame_to_braille, frame_to_halfblocks

TMUX_KEYS = {"right": "Right", "left": "Left", "ok": "Enter", "go": "g", "undo": "u",
             "menu": "m"}
HOLD_KEYS = {"ok": "O", "go": "G", "undo": "U", "menu": "M"}
SCORE_LINE = re.compile(r"[ >*] (?P<name>\S+)(?: \(D\))?\s+(?P<score>\d+) \[")

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


class Tmux:
    def __init__(self, socket: str) -> None:
        self.socket = socket

    def __call__(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-u", "-L", self.socket, *args], capture_output=True,
                              text=True, check=True, timeout=60)
        return done.stdout

    def start_sim(self, store: Path, columns: int, rows: int) -> None:
        """``pegboard sim`` in a new detached session of exactly ``columns`` x ``rows``."""
        env = f"PEGBOARD_STORE={store.parent / 'unused'} LANG=C.UTF-8"
        command = f"env {env} {sys.executable} -m pegboard sim --store {store}; sleep 30"
        self("new-session", "-d", "-s", "sim", "-x", str(columns), "-y", str(rows), command)

    def resize(self, columns: int, rows: int) -> None:
        self("resize-window", "-t", "sim", "-x", str(columns), "-y", str(rows))
        assert self.size() == (columns, rows)

    def size(self) -> tuple[int, int]:
        columns, rows = self("display-message", "-p", "-t", "sim",
                             "#{pane_width} #{pane_height}").split()
        return int(columns), int(rows)

    def kill(self) -> None:
        """Stop the server and remove its socket file (tmux leaves it behind)."""
        found = subprocess.run(["tmux", "-L", self.socket, "display-message", "-p",
                                "#{socket_path}"], capture_output=True, text=True, check=False)
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True,
                       check=False)
        if found.returncode == 0 and found.stdout.strip():
            Path(found.stdout.strip()).unlink(missing_ok=True)

    def screen(self) -> str:
        return self("capture-pane", "-p", "-t", "sim")

    def wait_for(self, pattern: re.Pattern[str] | str | Callable[[str], bool],
                 deadline_s: float, what: str = "") -> str:
        deadline = time.monotonic() + deadline_s
        text = ""
        while time.monotonic() < deadline:
            text = self.screen()
            if isinstance(pattern, re.Pattern):
                found = pattern.search(text) is not None
            elif isinstance(pattern, str):
                found = pattern in text
            else:
                found = pattern(text)
            if found:
                return text
            time.sleep(0.1)  # polling another process's screen
        raise AssertionError(f"{what or repr(pattern)} never appeared; the screen was:\n{text}")


def one_deal_done() -> tuple[str, View]:
    """Keys for the first deal (up to the next starter) and the screen they end on."""
    state = {"played": False}

    def until(view: View) -> bool:
        if view.screen is Screen.PLAY:
            state["played"] = True
        return state["played"] and view.screen is Screen.STARTER

    game = record_game(seed=5, until=until)
    assert game.final is not None and game.final.screen is Screen.STARTER
    return game.script, game.final


def test_one_deal_in_tmux(tmp_path: Path) -> None:
    script, final = one_deal_done()
    expected = {side.name: side.score for side in final.sides}
    assert sum(expected.values()) > 0, "a deal always scores something"
    tmux = Tmux(f"pegboard-test-{os.getpid()}")
    env = f"PEGBOARD_STORE={tmp_path / 'unused'} LANG=C.UTF-8"
    command = (f"env {env} {sys.executable} -m pegboard sim --store {tmp_path / 'store'}; "
               "sleep 30")
    tmux("new-session", "-d", "-s", "sim", "-x", "200", "-y", "50", command)
    try:
        tmux.wait_for("PEGBOARD simulator", 90)
        keys: list[str] = []
        for step in parse_script(script):
            key = HOLD_KEYS[step.key] if step.hold else TMUX_KEYS[step.key]
            keys.extend([key] * step.count)
        for start in range(0, len(keys), 40):
            tmux("send-keys", "-t", "sim", *keys[start:start + 40])
        wanted = re.compile(r"[\s\S]*".join(
            rf"[ >*] {re.escape(name)}(?: \(D\))?\s+{score} \[" for name, score in
            expected.items()))
        # The OLED frame is on screen too, in half blocks (200 columns: beside the board),
        # and the key legend; a redraw reaches the pane a piece at a time, so wait for all.
        screen = tmux.wait_for(
            lambda text: wanted.search(text) is not None
            and "\u2510  PEGBOARD simulator" in text and "x quit" in text
            and all(block in text for block in "\u2580\u2584\u2588"), 90,
            "the deal's scores beside the frame and the legend")
        scores = {m["name"]: int(m["score"]) for m in SCORE_LINE.finditer(screen)}
        assert scores == expected
        tmux("send-keys", "-t", "sim", "x")
        tmux.wait_for("Game saved in", 90)
    finally:
        tmux.kill()


# -- fitting the terminal ------------------------------------------------------------------

BOX_TOP = "\u250c" + "\u2500" * 64 + "\u2510"
SERVERS = itertools.count()


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    # A server of its own for each test: the last one may still be on its way out.
    server = Tmux(f"pegboard-fit-{os.getpid()}-{next(SERVERS)}")
    try:
        yield server
    finally:
        server.kill()


def headless_frame(script: str, directory: Path) -> Image.Image:
    """The last frame of a headless run of ``script`` on a fresh store: what the interactive
    simulator must show after the same keys."""
    store = Store(directory / "store", owner="test")
    try:
        result = run_script(parse_script(script), Config(), store)
    finally:
        store.close()
    return result.frames[-1]


@pytest.fixture(scope="module")
def home_frame(tmp_path_factory: pytest.TempPathFactory) -> Image.Image:
    """The first frame on a fresh store."""
    return headless_frame("", tmp_path_factory.mktemp("home"))


def shows_braille_frame(image: Image.Image) -> Callable[[str], bool]:
    """The whole frame in braille in its box, top row first, and both legend lines."""
    boxed = [BOX_TOP, *("\u2502" + row + "\u2502" for row in frame_to_braille(image))]

    def check(screen: str) -> bool:
        lines = screen.splitlines()
        return lines[:len(boxed)] == boxed and all(line in lines for line in LEGENDS["encoder"])

    return check


def says_too_small(columns: int, rows: int) -> Callable[[str], bool]:
    wanted = (f"Pegboard needs a terminal of at least 66x20; this one is {columns}x{rows}. "
              "Make the window larger.")

    def check(screen: str) -> bool:
        return wanted in " ".join(screen.split()) and "\u2502" not in screen

    return check


def test_80x24_shows_the_whole_frame_and_the_legend(tmp_path: Path, tmux: Tmux,
                                                    home_frame: Image.Image) -> None:
    tmux.start_sim(tmp_path / "store", 80, 24)
    assert tmux.size() == (80, 24)
    screen = tmux.wait_for(shows_braille_frame(home_frame), 90, "the braille frame")
    lines = screen.splitlines()
    assert lines[0] == BOX_TOP  # the top of the frame, not scrolled away
    assert lines[1] == "\u2502" + frame_to_braille(home_frame)[0] + "\u2502"
    assert lines[17] == "\u2514" + "\u2500" * 64 + "\u2518"
    # Below the frame, its words (the dots are too small to read): the title, the row chosen
    # and what the keys do, side by side so that none is cut off.
    assert lines[18].startswith("Pegboard \u2502 > New game \u2502 ")
    assert lines[18].rstrip().endswith("OK choose")
    assert lines[-2:] == list(LEGENDS["encoder"])  # capture-pane: the pane's 24 rows
    assert len(lines) == 24


def test_resizing_the_terminal_redraws_to_fit(tmp_path: Path, tmux: Tmux,
                                              home_frame: Image.Image) -> None:
    tmux.start_sim(tmp_path / "store", 80, 24)
    tmux.wait_for(shows_braille_frame(home_frame), 90, "the braille frame")
    tmux.resize(60, 20)
    tmux.wait_for(says_too_small(60, 20), 90, "the too-small message")
    tmux.resize(80, 24)
    tmux.wait_for(shows_braille_frame(home_frame), 60, "the braille frame")
    tmux.resize(200, 60)
    halves = frame_to_halfblocks(home_frame)

    def redrawn_big(screen: str) -> bool:
        # The redraw reaches the pane a piece at a time: wait for the whole of it.
        lines = screen.splitlines()
        return (len(lines) > 1 and "\u2510  PEGBOARD simulator" in screen
                and lines[1] == "\u2502" + halves[0] + "\u2502"
                and all(line in screen for line in LEGENDS["encoder"]))

    tmux.wait_for(redrawn_big, 60, "the half-block frame with its legend")
    tmux("send-keys", "-t", "sim", "x")
    tmux.wait_for("Game saved in", 90)


def test_too_small_at_the_start_says_so_and_plays_on(tmp_path: Path, tmux: Tmux,
                                                     home_frame: Image.Image) -> None:
    moved = headless_frame("right", tmp_path / "headless")
    assert moved != home_frame
    tmux.start_sim(tmp_path / "store", 50, 15)
    tmux.wait_for(says_too_small(50, 15), 90, "the too-small message")
    tmux("send-keys", "-t", "sim", "Right")  # the game goes on behind the message
    tmux.resize(80, 24)
    tmux.wait_for(shows_braille_frame(moved), 90, "the frame after the key")
    tmux("send-keys", "-t", "sim", "x")
    tmux.wait_for("Game saved in", 90)
