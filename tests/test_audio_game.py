"""Proof of audio mode: seeded whole 2-player games played through the real step function
by a listener that decides every key from what was said (tests/support/listening.py) end
with the referee's scores, say every scoring act once, and say what the golden transcript of
their kit says (``PEGBOARD_REGEN_GOLDEN=1`` writes them again)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from pegboard.rules.facts import Scored
from tests.referee.referee import judge
from tests.support.listening import Listener, record_lines, true_game

GOLDEN = Path(__file__).parent / "golden_text"
STANDING = re.compile(r"; P1 (\d+), P2 (\d+)$")
KITS = ["encoder", "keypad"]


def played(seed: int, kit: str, target: int, *, suits: bool) -> tuple[Listener, list[int]]:
    """The listener after playing the seed's game by ear, and the referee's scores."""
    game = true_game(seed, target, suits=suits)
    assert game is not None
    record, plan, counts = game
    listener = Listener(kit, list(plan), counts, target=target)
    listener.play()
    truth = judge(record_lines(record, target)).result
    assert truth.winner is not None
    return listener, truth.scores


def standings(listener: Listener) -> list[tuple[int, ...]]:
    """The board said after each score, in order."""
    return [tuple(map(int, m.groups())) for text in listener.transcript.texts()
            if (m := STANDING.search(text))]


@pytest.mark.parametrize("kit", KITS)
def test_every_scoring_act_is_said_once_with_the_board_it_left(kit: str) -> None:
    listener, truth = played(1, kit, 61, suits=False)  # to 61, no suit to put right
    session = listener.state.session
    assert session is not None and list(session.state.scores) == truth
    acts = [act.scores for report in session.game.reports() for act in report.of(Scored)
            if act.points and act.scores]
    assert standings(listener) == acts


@pytest.mark.parametrize("kit", KITS)
def test_a_whole_game_to_121_played_by_ear_ends_with_the_referees_scores(kit: str) -> None:
    listener, truth = played(1, kit, 121, suits=True)
    session = listener.state.session
    assert session is not None and list(session.state.scores) == truth
    assert max(truth) >= 121 and list(standings(listener)[-1]) == truth
    # the flushes and nobs the rank wheel left out were asked for by ear, on their pages
    asked = [line for line in listener.transcript.lines()
             if re.match(r"\d+ go\tP\d's (hand|crib): \d+\. ", line)]
    assert len(asked) >= 2, asked
    golden = GOLDEN / f"audio_{kit}.txt"
    lines = "".join(f"{line}\n" for line in listener.transcript.lines())
    if os.environ.get("PEGBOARD_REGEN_GOLDEN"):
        golden.write_text(lines, encoding="utf-8")
    assert lines == golden.read_text(encoding="utf-8")
