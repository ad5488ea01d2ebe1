"""A first game with the coach, played by keys through the simulator (``pegboard sim --script``
on the keypad kit, mock pins, the real app and store): what the voice says, coach pages
included, and the screen at the end, against golden text.

After an intended change, regenerate with ``PEGBOARD_REGEN_GOLDEN=1`` and read the diff.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden_text"
SCRIPT = GOLDEN / "first_game_coach.keys"
REGEN = os.environ.get("PEGBOARD_REGEN_GOLDEN") == "1"

COACH_STEPS = (
    "6 cards each. Lay 2 away, face down, to P1's crib.",
    "P2 cut, P1 turned the starter:",
    "P2 leads.",
    "Can't play under 31? Say go.",
    "Show: P2 counts first, then P1, then the crib",
    "P1's crib: the cards laid away, counted last.",
)
"""The coach's pages in the order a first deal brings them up, each once."""


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_a_first_deal_with_the_coach_through_the_simulator(tmp_path: Path) -> None:
    speech = tmp_path / "speech"
    done = subprocess.run(
        [sys.executable, "-m", "pegboard", "sim", "--kit", "keypad", "--script", str(SCRIPT),
         "--speech", str(speech), "--store", str(tmp_path / "store")],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr
    said = [path.read_text(encoding="utf-8").strip()
            for path in sorted(speech.glob("[0-9]*.txt"))]  # not transcript.txt
    screen = done.stdout.rstrip("\n").splitlines()[:-1]  # the last line counts key steps
    text = "voice:\n" + "\n".join(said) + "\n\nscreen at the end:\n" + "\n".join(screen) + "\n"
    golden = GOLDEN / "first_game_coach.txt"
    if REGEN:
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")
    # Each step taught once, in the order the deal brings it up, and said cleanly.
    found = [next(i for i, line in enumerate(said) if line.startswith(step))
             for step in COACH_STEPS]
    assert found == sorted(found)
    assert all(sum(line.startswith(step) for line in said) == 1 for step in COACH_STEPS)
    assert not [line for line in said if set("♣♦♥♠") & set(line)]
    assert screen[-1] == "Deal 2: P2 deals"
