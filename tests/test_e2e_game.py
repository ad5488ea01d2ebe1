"""A whole two-player game to 121 through the simulator's input path.

The pretend table deals real cards and decides each key from the screen; its keys become a
key script. The script is then played by ``pegboard sim --script`` (key words → gpiozero mock
pins → gesture rules → the loop → ``step`` → the engine → the store), which writes every
frame and the game record. The record is replayed by the engine (``pegboard replay --json``)
and its final scores must be the ones on the last frame.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from pegboard.app.view import Screen
from pegboard.cli import main
from pegboard.sim.autoplay import PlayedGame, record_game
from pegboard.ui.render import render


@pytest.fixture(scope="module")
def game() -> PlayedGame:
    return record_game(seed=1)


def test_pretend_table_finishes_a_game(game: PlayedGame) -> None:
    assert game.final is not None
    assert game.final.screen is Screen.GAME_OVER
    scores = [side.score for side in game.final.sides]
    assert max(scores) >= 121 and min(scores) < 121
    assert [side.winner for side in game.final.sides].count(True) == 1


def test_script_replays_to_the_same_game_and_engine_agrees(
    game: PlayedGame, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert game.final is not None
    script = tmp_path / "game.keys"
    script.write_text(game.script, encoding="utf-8")
    frames = tmp_path / "frames"
    record = tmp_path / "game.jsonl"
    assert main(["sim", "--script", str(script), "--frames", str(frames),
                 "--record", str(record)]) == 0
    capsys.readouterr()
    # The same keys on the mock pins make the same record.
    assert record.read_text(encoding="utf-8") == game.record
    # The engine's own replay of the written record.
    assert main(["replay", "--json", str(record)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line]
    result = lines[-1]
    assert result["type"] == "result"
    on_screen = [side.score for side in game.final.sides]
    assert result["scores"] == on_screen
    assert result["winner"] == next(i for i, s in enumerate(game.final.sides) if s.winner)
    # Frames: the last one before shutdown is the game-over screen, pixel for pixel.
    pngs = sorted(frames.glob("frame-*.png"))
    assert len(pngs) == game.frames
    last = Image.open(pngs[-1]).convert("1")
    assert ImageChops.logical_xor(last, render(game.final)).getbbox() is None
    # And the frame left on the panel at shutdown says the game is saved.
    saved = Image.open(frames / "saved.png").convert("1")
    assert ImageChops.logical_xor(last, saved).getbbox() is not None


def test_frames_show_the_play(game: PlayedGame, tmp_path: Path) -> None:
    """Every play frame shows the count and the side to act; awards reach the screen."""
    views = []
    record_game(seed=1, on_frame=lambda view, image: views.append(view))
    plays = [v for v in views if v.screen is Screen.PLAY]
    assert plays, "the play was entered card by card"
    assert all(v.count is not None for v in plays)
    assert all(any(s.to_act for s in v.sides) for v in plays)
    assert any(v.award for v in plays)
    assert any(s.dealer for v in plays for s in v.sides)
    assert any(v.screen is Screen.SHOW for v in views)
