"""``pegboard leds``: demo, flash, sim and svg, against the real firmware on a pty."""

from __future__ import annotations

import argparse
import os
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
        assert "Connected: firmware 1.1.0, protocol v1" in out
        assert "side 1 pegs 39 to 121" in out
        frames = firmware.frames()
    assert any(len(f.lit()) >= 240 for f in frames), "the test pattern lit every hole"
    game = led_index(LedConfig(), 0, 121)
    assert game is not None and frames[-1].pixel(game)[0] > 0  # red won: the game hole is red


def test_flash_dry_run_prints_the_mpremote_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["leds", "flash", "--device", "/dev/ttyACM0", "--dry-run"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if not line.startswith("#")]
    assert len(lines) == 1  # one command; the service's state is said on "#" lines
    command = lines[0].split()
    assert command[1:4] == ["connect", "/dev/ttyACM0", "fs"]
    assert command[-3:] == [":", "+", "reset"]
    copied = [Path(c).name for c in command[5:-3]]
    assert copied[-1] == "main.py"  # last, so a half-finished copy never boots
    assert set(copied) == {p.name for p in FIRMWARE_DIR.glob("*.py")}


def test_flash_checks_the_handshake_after_copying(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ran: list[list[str]] = []

    def runner(command: list[str]) -> int:
        ran.append(command)
        return 0

    with FirmwareProcess(tmp_path) as firmware:
        args = argparse.Namespace(device=str(firmware.port), serial=None,
                                  firmware=FIRMWARE_DIR, dry_run=False)
        assert leds.run_flash(args, runner=runner) == 0
    assert ran and ran[0][1] == "connect"
    assert "LED board firmware 1.1.0 speaks protocol v1: OK" in capsys.readouterr().out


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


# -- flashing while the service runs: a stand-in systemctl on PATH -------------------------

FAKE_SYSTEMCTL = """#!/bin/sh
echo "systemctl $*" >> "$FLASH_LOG"
case "$1" in
    is-active) [ -e "$SERVICE_STATE/active" ] && exit 0; exit 3;;
    stop) [ -e "$SERVICE_STATE/refuse" ] && { echo "Access denied" >&2; exit 4; }
          rm -f "$SERVICE_STATE/active";;
    start) [ -e "$SERVICE_STATE/refuse" ] && exit 4; touch "$SERVICE_STATE/active";;
esac
exit 0
"""


@pytest.fixture
def service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder whose ``active`` file says the service runs; systemctl on PATH logs to
    ``log`` beside it."""
    bin_dir, state = tmp_path / "bin", tmp_path / "service"
    bin_dir.mkdir()
    state.mkdir()
    script = bin_dir / "systemctl"
    script.write_text(FAKE_SYSTEMCTL)
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    monkeypatch.setenv("FLASH_LOG", str(tmp_path / "log"))
    monkeypatch.setenv("SERVICE_STATE", str(state))
    monkeypatch.setattr(leds, "SYSTEMD_RUNTIME", state)  # as if systemd booted this system
    return state


def flash_log(service: Path) -> list[str]:
    log = service.parent / "log"
    return log.read_text().splitlines() if log.exists() else []


def test_flash_stops_the_running_service_and_starts_it_after(
    tmp_path: Path, service: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (service / "active").touch()

    def mpremote(command: list[str]) -> int:
        with (service.parent / "log").open("a") as log:
            log.write("mpremote\n")
        return 0

    with FirmwareProcess(tmp_path) as firmware:
        args = argparse.Namespace(device=str(firmware.port), serial=None,
                                  firmware=FIRMWARE_DIR, dry_run=False)
        assert leds.run_flash(args, runner=mpremote) == 0
    assert flash_log(service) == ["systemctl is-active --quiet pegboard.service",
                                  "systemctl stop pegboard.service", "mpremote",
                                  "systemctl start pegboard.service"]
    out = capsys.readouterr().out
    assert "Stopping pegboard.service: it holds the LED board's serial port" in out
    assert out.index("speaks protocol v1: OK") < out.index("Starting pegboard.service again")
    assert (service / "active").exists()


def test_flash_leaves_a_stopped_service_alone(service: Path) -> None:
    args = argparse.Namespace(device="/dev/ttyACM0", serial=None, firmware=FIRMWARE_DIR,
                              dry_run=False)
    with pytest.raises(LinkError, match="mpremote failed"):
        leds.run_flash(args, runner=lambda c: 1)
    assert flash_log(service) == ["systemctl is-active --quiet pegboard.service"]


def test_a_failed_flash_still_starts_the_service_again(service: Path) -> None:
    (service / "active").touch()
    args = argparse.Namespace(device="/dev/ttyACM0", serial=None, firmware=FIRMWARE_DIR,
                              dry_run=False)
    with pytest.raises(LinkError, match="mpremote failed"):
        leds.run_flash(args, runner=lambda c: 1)
    assert flash_log(service)[-1] == "systemctl start pegboard.service"
    assert (service / "active").exists()


def test_a_service_that_will_not_stop_is_a_clear_refusal(
    service: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (service / "active").touch()
    (service / "refuse").touch()
    ran: list[list[str]] = []
    args = ["leds", "flash", "--device", "/dev/ttyACM0"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "cannot stop pegboard.service (systemctl exit status 4)" in err
    assert "sudo pegboard leds flash --device auto" in err
    assert "sudo systemctl stop pegboard" in err
    assert ran == [] and "mpremote" not in "\n".join(flash_log(service))


def test_the_dry_run_says_the_service_would_be_stopped(
    service: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (service / "active").touch()
    assert main(["leds", "flash", "--device", "/dev/ttyACM0", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "pegboard.service is running: it would be stopped first and started after" in out
    assert flash_log(service) == ["systemctl is-active --quiet pegboard.service"]


# -- flashing where systemd does not run: a desktop, a container, a chroot ------------------

#: What systemctl says and does on a system systemd did not boot (systemd 252 and 257 alike).
NOT_BOOTED_SYSTEMCTL = """#!/bin/sh
echo "systemctl $*" >> "$FLASH_LOG"
echo "System has not been booted with systemd as init system (PID 1). Can't operate." >&2
echo "Failed to connect to bus: Host is down" >&2
exit 1
"""


@pytest.fixture
def no_systemd(tmp_path: Path, service: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """systemctl on PATH, but systemd did not boot this system (no /run/systemd/system)."""
    (tmp_path / "bin" / "systemctl").write_text(NOT_BOOTED_SYSTEMCTL)
    monkeypatch.setattr(leds, "SYSTEMD_RUNTIME", tmp_path / "run-systemd-system")
    return service


def test_a_flash_without_systemd_says_one_line_of_its_own(
    tmp_path: Path, no_systemd: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    with FirmwareProcess(tmp_path) as firmware:
        args = argparse.Namespace(device=str(firmware.port), serial=None,
                                  firmware=FIRMWARE_DIR, dry_run=False)
        assert leds.run_flash(args, runner=lambda command: 0) == 0
    out, err = capfd.readouterr()
    assert "booted with systemd" not in out + err and "Host is down" not in out + err
    assert out.splitlines()[0] == ("This system does not run systemd, so no pegboard.service "
                                   "holds the LED board's serial port: nothing to stop")
    assert "speaks protocol v1: OK" in out and "Starting" not in out and err == ""
    assert flash_log(no_systemd) == []  # systemctl was never asked


def test_a_dry_run_without_systemd_says_so_in_its_own_words(
    no_systemd: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    assert main(["leds", "flash", "--device", "/dev/ttyACM0", "--dry-run"]) == 0
    out, err = capfd.readouterr()
    assert out.splitlines()[0] == ("# This system does not run systemd, so no pegboard.service "
                                   "holds the LED board's serial port: nothing to stop")
    assert err == "" and flash_log(no_systemd) == []
