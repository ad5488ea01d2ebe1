"""``pegboard leds``: demo, flash, sim and svg, against the real firmware on a pty."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from pegboard.cli import main
from pegboard.commands import leds
from pegboard.errors import LinkError
from pegboard.link.fwsim import FIRMWARE_DIR, FirmwareProcess
from pegboard.link.layout import LedConfig, led_index

HARDWARE = Path(__file__).resolve().parent.parent / "hardware"


def test_demo_without_a_device_explains_how_to_connect(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["leds", "demo"]) == 2
    err = capsys.readouterr().err
    assert "No LED board given" in err and "pegboard leds flash --device auto" in err


def test_demo_on_a_missing_device_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["leds", "demo", "--device", str(tmp_path / "ttyACM7")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"pegboard leds: cannot open {tmp_path / 'ttyACM7'}")


def test_demo_plays_a_game_on_the_firmware(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with FirmwareProcess(tmp_path) as firmware:
        assert main(["leds", "demo", "--device", str(firmware.port), "--pause", "0.05"]) == 0
        out = capsys.readouterr().out
        assert "Connected: firmware 1.0.0, protocol v1" in out
        assert "side 1 pegs 39 to 121" in out
        frames = firmware.frames()
    assert any(len(f.lit()) >= 240 for f in frames), "the test pattern lit every hole"
    game = led_index(LedConfig(), 0, 121)
    assert game is not None and frames[-1].pixel(game)[0] > 0  # red won: the game hole is red


def test_flash_dry_run_prints_the_mpremote_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["leds", "flash", "--device", "/dev/ttyACM0", "--dry-run"]) == 0
    command = capsys.readouterr().out.split()
    assert command[1:4] == ["connect", "/dev/ttyACM0", "fs"]
    assert command[-3:] == [":", "+", "reset"]
    copied = [Path(c).name for c in command[5:-3]]
    assert copied[-1] == "main.py"  # last, so a half-finished copy never boots
    assert set(copied) == {p.name for p in FIRMWARE_DIR.glob("*.py")}


def test_flash_checks_the_handshake_after_copying(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ran: list[list[str]] = []
    with FirmwareProcess(tmp_path) as firmware:
        args = argparse.Namespace(device=str(firmware.port), serial=None,
                                  firmware=FIRMWARE_DIR, dry_run=False)
        assert leds.run_flash(args, runner=lambda c: ran.append(c) or 0) == 0
    assert ran and ran[0][1] == "connect"
    assert "LED board firmware 1.0.0 speaks protocol v1: OK" in capsys.readouterr().out


def test_flash_reports_a_failed_copy(tmp_path: Path) -> None:
    args = argparse.Namespace(device="/dev/ttyACM0", serial=None, firmware=FIRMWARE_DIR,
                              dry_run=False)
    with pytest.raises(LinkError, match="mpremote failed"):
        leds.run_flash(args, runner=lambda c: 1)
    args.firmware = tmp_path
    with pytest.raises(LinkError, match=r"lacks pb_proto\.py"):
        leds.run_flash(args, runner=lambda c: 0)


def test_sim_prints_where_to_connect(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["leds", "sim", "--dir", str(tmp_path), "--seconds", "0.3", "--quiet"]) == 0
    assert f"connect to: {tmp_path / 'pegboard-leds'}" in capsys.readouterr().out


def test_svg_check_finds_stale_drawings(tmp_path: Path) -> None:
    assert main(["leds", "svg", "--out", str(HARDWARE), "--check"]) == 0
    assert main(["leds", "svg", "--out", str(tmp_path)]) == 0
    (tmp_path / "wiring.svg").write_text("<svg/>")
    assert main(["leds", "svg", "--out", str(tmp_path), "--check"]) == 1
