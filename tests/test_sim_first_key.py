"""The simulator makes its mock pins on the first key (``pegboard.sim.session``): the keys
typed at its first keyed frame all reach the app, in order, on either kit.

The keypad is the harder case: its keys are found by the loop's scan, which must start as
soon as the pins exist, while the loop may be waiting out its idle tick, and the hands hold
each key down until that scan has seen it (however busy the machine; see
tests/test_sim_held_keys.py). Each run types its keys in one write into the real simulator on
a pseudo-terminal and waits for the frame a headless run of the same keys ends on."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pegboard.config import Config
from pegboard.rules.value import replace
from pegboard.sim.keys import parse_script
from pegboard.sim.script import run_script
from pegboard.store import Store
from pegboard.ui.term import frame_to_braille
from tests.support.terminal import Terminal

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


@pytest.mark.parametrize("kit", sorted(TYPED))
def test_the_keys_typed_at_the_first_frame_all_count(kit: str, tmp_path: Path) -> None:
    typed, script = TYPED[kit]
    rows = _frame_rows(kit, script, tmp_path / "headless")
    start = _frame_rows(kit, "", tmp_path / "first")
    assert rows != start  # the keys change the screen
    with Terminal(["-m", "pegboard", "sim", "--kit", kit,
                   "--store", str(tmp_path / "store")]) as sim:
        # the first frame that takes a key: no pins yet
        seen = sim.read_until(b"Keys:", 30)
        os.write(sim.fd, typed.encode())
        after = ""
        while not all(f"\u2502{row}\u2502" in after for row in rows):
            chunk = sim.more(30, seen)
            assert chunk, f"the simulator ended; its terminal shows {seen[-400:]!r}"
            seen += chunk
            after = seen.decode("utf-8", errors="replace").rsplit("\x1b[H", 1)[-1]
        os.write(sim.fd, b"x")
        sim.read_to_end(30, seen)  # until the simulator ends and its terminal closes with it
    assert sim.status == 0
