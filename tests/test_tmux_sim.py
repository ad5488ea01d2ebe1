"""``pegboard sim`` in a real terminal: tmux runs it, send-keys types, capture-pane reads.

The keys for one deal come from the pretend table playing the same deal headless; the test
types them into the interactive simulator and reads both scores off the terminal, waiting for
the expected text with a deadline (polling the pane, never a fixed sleep).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pegboard.app.view import Screen, View
from pegboard.sim.autoplay import record_game
from pegboard.testing import parse_script

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
                              text=True, check=True, timeout=20)
        return done.stdout

    def screen(self) -> str:
        return self("capture-pane", "-p", "-t", "sim")

    def wait_for(self, pattern: re.Pattern[str] | str, deadline_s: float) -> str:
        deadline = time.monotonic() + deadline_s
        text = ""
        while time.monotonic() < deadline:
            text = self.screen()
            if (pattern.search(text) if isinstance(pattern, re.Pattern) else pattern in text):
                return text
            time.sleep(0.1)  # polling another process's screen
        raise AssertionError(f"{pattern!r} never appeared; the screen was:\n{text}")


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
        tmux.wait_for("PEGBOARD simulator", 30)
        keys: list[str] = []
        for step in parse_script(script):
            key = HOLD_KEYS[step.key] if step.hold else TMUX_KEYS[step.key]
            keys.extend([key] * step.count)
        for start in range(0, len(keys), 40):
            tmux("send-keys", "-t", "sim", *keys[start:start + 40])
        wanted = re.compile(r"[\s\S]*".join(
            rf"[ >*] {re.escape(name)}(?: \(D\))?\s+{score} \[" for name, score in
            expected.items()))
        screen = tmux.wait_for(wanted, 90)
        scores = {m["name"]: int(m["score"]) for m in SCORE_LINE.finditer(screen)}
        assert scores == expected
        # The OLED frame is on screen too, in half blocks (200 columns: beside the board),
        # and the key legend.
        assert "\u2510  PEGBOARD simulator" in screen
        assert "\u2580" in screen and "\u2584" in screen and "\u2588" in screen
        assert "x quit" in screen
        tmux("send-keys", "-t", "sim", "x")
        tmux.wait_for("Game saved in", 20)
    finally:
        subprocess.run(["tmux", "-L", tmux.socket, "kill-server"], capture_output=True,
                       check=False)
