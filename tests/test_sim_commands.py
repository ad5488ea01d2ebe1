"""``pegboard run`` and ``pegboard sim`` as commands: config errors, scripts, headless runs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import Image

from pegboard.cli import main


def key_script(tmp_path: Path, text: str) -> Path:
    """A key script file (``tmp_path/keys.txt``) holding ``text``."""
    script = tmp_path / "keys.txt"
    script.write_text(text, encoding="utf-8")
    return script


def test_run_bad_config_names_key_and_exits_2(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[display]\nmodel = "ssd1309"\n', encoding="utf-8")
    assert main(["run", "--config", str(config), "--store", str(tmp_path / "s")]) == 2
    err = capsys.readouterr().err
    assert "display.model" in err and "ssd1309" in err and "sh1106" in err
    assert not (tmp_path / "s").exists()  # nothing was started


def test_run_unknown_key_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[input]\nhold = 1.0\n", encoding="utf-8")
    assert main(["run", "--config", str(config)]) == 2
    assert "input.hold" in capsys.readouterr().err


def test_run_missing_named_config_exits_2(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--config", str(tmp_path / "nope.toml")]) == 2
    assert "nope.toml" in capsys.readouterr().err


def test_sim_bad_script_word_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--script", str(key_script(tmp_path, "ok\nright*2 jump\n"))]) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and "'jump'" in err


def test_sim_keypad_word_on_encoder_kit_exits_2(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--script", str(key_script(tmp_path, "ok 7\n"))]) == 2
    assert "--kit keypad" in capsys.readouterr().err


def test_sim_script_writes_frames_and_record(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    script = key_script(tmp_path, "right ok wait:1 left\n")
    frames = tmp_path / "frames"
    assert main(["sim", "--script", str(script), "--frames", str(frames)]) == 0
    pngs = sorted(frames.glob("frame-*.png"))
    assert pngs, "at least the first frame"
    first = Image.open(pngs[0])
    assert first.size == (128, 64)
    assert (frames / "saved.png").exists()
    assert (frames / "game.jsonl").exists()
    out = capsys.readouterr().out
    assert f"{len(pngs)} frames" in out


def _wait_for(path: Path, text: str, deadline: float) -> str:
    while time.monotonic() < deadline:
        content = path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
        if text in content:
            return content
        time.sleep(0.05)  # polling a subprocess's output, not synchronising our own code
    raise AssertionError(f"{text!r} did not appear in {path}")


def test_run_on_mock_pins_starts_and_stops_cleanly(tmp_path: Path) -> None:
    """The real entry point with gpiozero's mock pins and luma's dummy display: ready, then
    SIGTERM (what systemd sends) stops it with exit status 0 and the store closed."""
    log = tmp_path / "log.txt"
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "PEGBOARD_STORE": str(tmp_path / "s")}
    with open(log, "w", encoding="utf-8") as stream:
        proc = subprocess.Popen(
            [sys.executable, "-m", "pegboard", "run", "--display", "dummy"],
            stdout=stream, stderr=subprocess.STDOUT, env=env,
        )
        try:
            _wait_for(log, "ready", time.monotonic() + 60)
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=60) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
    content = log.read_text(encoding="utf-8")
    assert "game saved" in content
    assert (tmp_path / "s").is_dir()
