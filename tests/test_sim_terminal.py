"""The simulator's terminal screen: frame in half blocks, text pegboard, legend."""

from __future__ import annotations

import io

from pegboard.app.view import Brightness, Screen, SideView, View
from pegboard.sim.terminal import TerminalDisplay, compose, split_keys
from pegboard.ui.render import render
from pegboard.ui.term import frame_to_halfblocks, frame_to_quadrants

VIEW = View(Screen.PLAY, sides=(SideView("Ann", 45, 38, dealer=True),
                                SideView("Ben", 38, 30, to_act=True)),
            count=23, turn="Ben", award="Fifteen for 2")


def test_wide_terminal_puts_board_beside_the_frame() -> None:
    image = render(VIEW)
    lines = compose(image, VIEW, VIEW.sides, 121, "encoder", 200)
    rows = frame_to_halfblocks(image)
    assert len(rows) == 32 and all(len(row) == 128 for row in rows)
    assert lines[1].startswith("\u2502" + rows[0] + "\u2502")
    assert "PEGBOARD simulator" in lines[0]
    assert any("Ann (D)" in line and " 45 [" in line for line in lines)
    assert any("> Ben" in line and " 38 [" in line for line in lines)
    assert any("Count 23 - Ben to play" in line for line in lines)
    assert lines[-2].startswith("Keys:") and "x quit" in lines[-1]


def test_narrow_terminal_uses_quadrants_and_stacks() -> None:
    image = render(VIEW)
    lines = compose(image, VIEW, VIEW.sides, 121, "keypad", 80)
    quads = frame_to_quadrants(image)
    assert len(quads) == 32 and len(quads[0]) == 64
    assert lines[1] == "\u2502" + quads[0] + "\u2502"
    assert max(len(line) for line in lines) <= 80
    assert "0/t ten" in lines[-2]


def test_blank_screen_is_dark_in_the_terminal() -> None:
    out = io.StringIO()
    display = TerminalDisplay("encoder", out=out, columns=lambda: 200)
    blank = View(Screen.PLAY, sides=VIEW.sides, brightness=Brightness.BLANK)
    display.frame(blank, render(VIEW))
    text = out.getvalue()
    assert "\u2588" not in text.split("PEGBOARD")[0]
    display.set_power(True)
    assert "\u2588" in out.getvalue().rsplit("\x1b[H", 1)[1]


def test_arrow_keys_split_across_reads_are_joined() -> None:
    keys, rest = split_keys("g\x1b")
    assert keys == ["g"] and rest == "\x1b"
    keys, rest = split_keys(rest + "[C\x1b[D")
    assert keys == ["\x1b[C", "\x1b[D"] and rest == ""
