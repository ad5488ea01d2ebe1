"""A first game with the coach, played by keys through the simulator (``pegboard sim --script``
on the keypad kit, mock pins, the real app and store): what the voice says, coach pages
included, and the screen at the end, against golden text; once with the hands closed (each
player's cards their own), once open-handed as a first game is taught.

After an intended change, regenerate with ``PEGBOARD_REGEN_GOLDEN=1`` and read the diff.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden_text"
SCRIPT = GOLDEN / "first_game_coach.keys"
OPEN_SCRIPT = GOLDEN / "first_game_open.keys"
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


def played(script: Path, tmp_path: Path, golden: Path) -> tuple[list[str], list[str], Path]:
    """The key script played on the simulator: what the voice said, the screen at the end
    (both checked against the golden text) and the store."""
    speech = tmp_path / "speech"
    store = tmp_path / "store"
    done = subprocess.run(
        [sys.executable, "-m", "pegboard", "sim", "--kit", "keypad", "--script", str(script),
         "--speech", str(speech), "--store", str(store)],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr
    said = [path.read_text(encoding="utf-8").strip()
            for path in sorted(speech.glob("[0-9]*.txt"))]  # not transcript.txt
    screen = done.stdout.rstrip("\n").splitlines()[:-1]  # the last line counts key steps
    text = "voice:\n" + "\n".join(said) + "\n\nscreen at the end:\n" + "\n".join(screen) + "\n"
    if REGEN:
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")
    return said, screen, store


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_a_first_deal_with_the_coach_through_the_simulator(tmp_path: Path) -> None:
    said, screen, _ = played(SCRIPT, tmp_path, GOLDEN / "first_game_coach.txt")
    # Each step taught once, in the order the deal brings it up, and said cleanly.
    found = [next(i for i, line in enumerate(said) if line.startswith(step))
             for step in COACH_STEPS]
    assert found == sorted(found)
    assert all(sum(line.startswith(step) for line in said) == 1 for step in COACH_STEPS)
    assert not [line for line in said if set("♣♦♥♠") & set(line)]
    # The screen at the end: the next deal, its starter's wheel and what the keys do.
    assert screen[-3:] == ["Deal 2: P2 deals", "Starter: > 6 <", "OK starter  GO jump"]


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_an_open_handed_first_deal_through_the_simulator(tmp_path: Path) -> None:
    """Learn to play: the basics, both hands entered at the deal, the coach's advice said
    before each discard, the cards laid away as advised, the play from the known hands, and
    the show and the crib counted with no entry."""
    said, screen, store = played(OPEN_SCRIPT, tmp_path, GOLDEN / "first_game_open.txt")
    advice = [line for line in said if line.startswith("Lay ") and " away. Keep " in line]
    assert [line.split(" away.")[0] for line in advice] == [
        "Lay jack of clubs king of clubs", "Lay 9 of spades 10 of clubs"]
    shown = [line for line in said if line.startswith(("P2: fifteen two", "P1: fifteen two"))]
    assert len(shown) == 2 and any(line.startswith("P1's crib: ") for line in said)
    # The next deal: the pone's cards first (its wheel and keys below the title).
    assert screen[-4] == "Dealt to P1" and screen[-1] == "OK add  UNDO back"
    from pegboard.sim.script import game_record
    from pegboard.store import Store

    record = game_record(Store(store, owner="test"))
    kinds = [json.loads(line)["type"] for line in record.splitlines()]
    assert kinds.count("laid_away") == 2 and "show" not in kinds and "crib" not in kinds
    # The crib's J♣ could be his nobs: the starter's suit was asked once, before the crib.
    assert kinds.count("starter_suit") == 1
