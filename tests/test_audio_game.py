"""Proof of audio mode: a seeded whole 2-player game played through the real step function
by a listener that decides every key from what was said (tests/support/listening.py) ends
with the referee's scores, says every scoring act once, and says what the golden transcript
of its kit says (``PEGBOARD_REGEN_GOLDEN=1`` writes them again)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from pegboard.rules.events import Option
from pegboard.rules.facts import Scored
from tests.referee.referee import judge
from tests.support.listening import Listener, record_lines, true_game

GOLDEN = Path(__file__).parent / "golden_text"
SEED = 1
STANDING = re.compile(r"; P1 (\d+), P2 (\d+)$")


@pytest.mark.parametrize("kit", ["encoder", "keypad"])
def test_a_whole_game_played_by_ear_ends_with_the_referees_scores(kit: str) -> None:
    game = true_game(SEED)
    assert game is not None
    record, plan, counts = game
    listener = Listener(kit, list(plan), counts)
    listener.play()
    session = listener.state.session
    assert session is not None
    truth = judge(record_lines(record)).result
    assert list(session.state.scores) == truth.scores and truth.winner is not None
    # every scoring act the engine reported is said once, with the board it left
    acts = [act.scores for report in session.game.reports() for act in report.of(Scored)
            if act.points and act.scores]
    said = [tuple(map(int, m.groups())) for text in listener.transcript.texts()
            if (m := STANDING.search(text))]
    assert said == acts
    assert not [e for e in session.events if isinstance(e, Option)]
    golden = GOLDEN / f"audio_{kit}.txt"
    lines = "".join(f"{line}\n" for line in listener.transcript.lines())
    if os.environ.get("PEGBOARD_REGEN_GOLDEN"):
        golden.write_text(lines, encoding="utf-8")
    assert lines == golden.read_text(encoding="utf-8")
