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

from pegboard.app.view import Screen, View
from pegboard.cli import main
from pegboard.config import Config
from pegboard.rules.value import replace
from pegboard.sim.autoplay import PlayedGame, record_game
from pegboard.ui.render import render


def kit_config(kit: str) -> Config:
    config = Config()
    return replace(config, input=replace(config.input, kit=kit))


@pytest.fixture(scope="module", params=["encoder", "keypad"])
def game(request: pytest.FixtureRequest) -> tuple[str, PlayedGame]:
    kit = str(request.param)
    return kit, record_game(seed=1, config=kit_config(kit))


def test_pretend_table_finishes_a_game(game: tuple[str, PlayedGame]) -> None:
    _, played = game
    assert played.final is not None
    assert played.final.screen is Screen.GAME_OVER
    scores = [side.score for side in played.final.sides]
    assert max(scores) >= 121 and min(scores) < 121
    assert [side.winner for side in played.final.sides].count(True) == 1


def test_script_replays_to_the_same_game_and_engine_agrees(
    game: tuple[str, PlayedGame], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kit, played = game
    assert played.final is not None
    script = tmp_path / "game.keys"
    script.write_text(played.script, encoding="utf-8")
    frames = tmp_path / "frames"
    record = tmp_path / "game.jsonl"
    assert main(["sim", "--kit", kit, "--script", str(script), "--frames", str(frames),
                 "--record", str(record)]) == 0
    capsys.readouterr()
    # The same keys on the mock pins make the same record.
    assert record.read_text(encoding="utf-8") == played.record
    # The engine's own replay of the written record.
    assert main(["replay", "--json", str(record)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line]
    result = lines[-1]
    assert result["type"] == "result"
    on_screen = [side.score for side in played.final.sides]
    winner = next(i for i, s in enumerate(played.final.sides) if s.winner)
    assert result["winner"] == winner
    # The screen shows the winner at the target (a pegged-out 122 is 121), the others as kept.
    assert [min(score, 121) if side == winner else score
            for side, score in enumerate(result["scores"])] == on_screen
    # Frames: the last one before shutdown is the game-over screen, pixel for pixel.
    pngs = sorted(frames.glob("frame-*.png"))
    assert len(pngs) == played.frames
    last = Image.open(pngs[-1]).convert("1")
    assert ImageChops.logical_xor(last, render(played.final)).getbbox() is None
    # And the frame left on the panel at shutdown says the game is saved.
    saved = Image.open(frames / "saved.png").convert("1")
    assert ImageChops.logical_xor(last, saved).getbbox() is not None


def test_keypad_takes_fewer_keys_than_the_encoder() -> None:
    """The same deals entered on each kit: the same record, far fewer keys on the keypad."""
    encoder = record_game(seed=3, until=_second_deal)
    keypad = record_game(seed=3, config=kit_config("keypad"), until=_second_deal)
    assert encoder.record == keypad.record
    assert keypad.keys < encoder.keys / 2


def _second_deal(view: View) -> bool:
    return view.screen is Screen.STARTER and view.title.startswith("Deal 2")


def test_frames_show_the_play(game: tuple[str, PlayedGame]) -> None:
    """Every play frame shows the count and the side to act; awards reach the screen."""
    views = game[1].views
    plays = [v for v in views if v.screen is Screen.PLAY]
    assert plays, "the play was entered card by card"
    assert all(v.count is not None for v in plays)
    assert all(any(s.to_act for s in v.sides) for v in plays)
    assert any(v.award for v in plays)
    assert any(s.dealer for v in plays for s in v.sides)
    assert any(v.screen is Screen.SHOW for v in views)
