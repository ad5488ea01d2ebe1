"""The simulator makes its mock pins on the first key (``pegboard.sim.session``): the keys
typed at its first keyed frame all reach the app, in order, on either kit.

The keypad is the harder case: its keys are found by the loop's scan, which must start as
soon as the pins exist, while the loop may be waiting out its idle tick, or the first key
(held for 50 ms) would pass unseen. Each run types its keys in one write into the real
simulator on a pseudo-terminal and waits for the frame a headless run of the same keys ends
on."""

from __future__ import annotations

import os
import pty
import select
import signal
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from pegboard.config import Config
from pegboard.sim.keys import parse_script
from pegboard.sim.script import run_script
from pegboard.store import Store
from pegboard.ui.term import frame_to_braille

TYPED = {
    # kit: (what the player types, the same keys as a script)
    "encoder": ("\r\r\r..\r", "ok ok ok right right ok"),
    "keypad": ("\r\r\r46j", "ok ok ok 4 6 J"),
}


def _frame_rows(kit: str, script: str, directory: Path) -> list[str]:
    """The braille rows of the frame a headless run of ``script`` ends on."""
    config = Config()
    config = replace(config, input=replace(config.input, kit=kit))
    with Store(directory, owner="test") as store:
        result = run_script(parse_script(script), config, store)
    return frame_to_braille(result.frames[-1])


def _read(fd: int, seen: bytes) -> bytes:
    ready, _, _ = select.select([fd], [], [], 30)
    assert ready, f"the simulator is silent; its terminal shows {seen[-400:]!r}"
    return os.read(fd, 1 << 16)


@pytest.mark.parametrize("kit", sorted(TYPED))
def test_the_keys_typed_at_the_first_frame_all_count(kit: str, tmp_path: Path) -> None:
    typed, script = TYPED[kit]
    rows = _frame_rows(kit, script, tmp_path / "headless")
    start = _frame_rows(kit, "", tmp_path / "first")
    assert rows != start  # the keys change the screen
    pid, fd = pty.fork()
    if pid == 0:  # the simulator, on a terminal of 80x24
        os.environ.update(COLUMNS="80", LINES="24", TERM="xterm")
        os.execv(sys.executable, [sys.executable, "-m", "pegboard", "sim", "--kit", kit,
                                  "--store", str(tmp_path / "store")])
    seen = b""
    try:
        while b"Keys:" not in seen:  # the first frame that takes a key: no pins yet
            seen += _read(fd, seen)
        os.write(fd, typed.encode())
        after = ""
        while not all(f"\u2502{row}\u2502" in after for row in rows):
            seen += _read(fd, seen)
            after = seen.decode("utf-8", errors="replace").rsplit("\x1b[H", 1)[-1]
        os.write(fd, b"x")
        while True:  # until the simulator ends and its terminal closes with it
            try:
                chunk = _read(fd, seen)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    except BaseException:
        os.kill(pid, signal.SIGKILL)  # a failed wait leaves no simulator behind
        raise
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0
