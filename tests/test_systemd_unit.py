"""The systemd unit: verified by systemd-analyze, sandboxed to an exposure of 2.0 or less."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from pegboard.voice.espeak import player_command
from tests.support.systemd_units import PROTECT_HOME_REFUSED, analyze, exposure, unit_settings
from tests.support.systemd_units import make_root as make_units_root

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "pegboard.service"


SETTINGS = unit_settings(UNIT.read_text(encoding="utf-8"))


def one(key: str) -> str:
    values = SETTINGS.get(key, [])
    assert len(values) == 1, f"{key}: {values}"
    return values[0]


def make_root(tmp_path: Path, unit_text: str) -> Path:
    """A root holding this system's units, ours at its installed path and its ExecStart."""
    return make_units_root(tmp_path, "pegboard.service", unit_text, one("Service.ExecStart"))


def verify(tmp_path: Path, unit_text: str) -> subprocess.CompletedProcess[str]:
    root = make_root(tmp_path, unit_text)
    return subprocess.run(
        [analyze(), "verify", "--man=no", f"--root={root}", "/etc/systemd/system/pegboard.service"],
        capture_output=True,
        text=True,
        check=False,
    )


def test_systemd_analyze_verify_prints_nothing(tmp_path: Path) -> None:
    done = verify(tmp_path, UNIT.read_text(encoding="utf-8"))
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


def test_verify_would_catch_a_mistake(tmp_path: Path) -> None:
    broken = UNIT.read_text(encoding="utf-8").replace("ProtectHome=yes", "ProtectHome=yse")
    broken = broken.replace("WatchdogSec=", "WachdogSec=")
    done = verify(tmp_path, broken)
    output = done.stdout + done.stderr
    assert PROTECT_HOME_REFUSED.search(output), output
    assert "Unknown key 'WachdogSec'" in output


def test_exposure_is_at_most_2(tmp_path: Path) -> None:
    assert exposure(UNIT) <= 2.0


def test_the_exposure_check_can_fail(tmp_path: Path) -> None:
    loose = tmp_path / "pegboard.service"
    kept = [
        line
        for line in UNIT.read_text(encoding="utf-8").splitlines()
        if not line.startswith(("Protect", "Private", "Restrict", "SystemCall", "Capability"))
    ]
    loose.write_text("\n".join(kept) + "\n", encoding="utf-8")
    assert exposure(loose) > 2.0


def test_the_unit_is_a_notify_service_with_a_watchdog_that_always_restarts() -> None:
    assert one("Service.Type") == "notify"
    assert one("Service.NotifyAccess") == "main"
    assert 5 <= int(one("Service.WatchdogSec")) <= 120
    assert one("Service.Restart") == "always"
    assert one("Service.ExecStart") == (
        "/opt/pegboard/venv/bin/pegboard run --config /etc/pegboard/config.toml"
    )
    assert one("Install.WantedBy") == "multi-user.target"


def test_it_runs_as_its_own_user_with_only_the_device_groups() -> None:
    assert one("Service.User") == "pegboard"
    assert one("Service.SupplementaryGroups").split() == [
        "gpio", "i2c", "spi", "dialout", "audio"]
    assert one("Service.CapabilityBoundingSet") == ""
    assert one("Service.NoNewPrivileges") == "yes"


def test_only_the_box_devices_are_allowed() -> None:
    assert one("Service.DevicePolicy") == "closed"
    allowed = {value.split()[0] for value in SETTINGS["Service.DeviceAllow"]}
    assert allowed == {"char-gpiochip", "char-i2c", "char-spi", "char-ttyACM", "char-alsa"}


#: The kernel's name for ALSA's character devices (/dev/snd/*, major 116), the name
#: ``DeviceAllow=char-…`` matches in /proc/devices (sound/core/sound.c registers "alsa").
ALSA_CLASS = "char-alsa"
#: Where Debian's udev puts sound devices: ``SUBSYSTEM=="sound", GROUP="audio"``.
UDEV_RULES = Path("/usr/lib/udev/rules.d/50-udev-default.rules")


@pytest.mark.parametrize("device", ["", "plughw:CARD=MAX98357A,DEV=0"])
def test_the_unit_lets_the_voice_open_what_its_player_opens(device: str) -> None:
    """The voice plays through ALSA (aplay, or sox's alsa output): the unit must allow ALSA's
    devices for reading and writing (a PCM is opened read-write) and run in the group udev
    gives them, or the player fails with nothing but its exit status to say why."""
    player = player_command(device)
    assert player is not None, "no player: `make test` installs sox (aplay comes with alsa-utils)"
    assert player[0] == "aplay" or player[player.index("-t", 4) + 1] == "alsa", player
    allowed = dict(value.split() for value in SETTINGS["Service.DeviceAllow"])
    assert allowed.get(ALSA_CLASS) == "rw", allowed
    rule = re.search(r'SUBSYSTEM=="sound", GROUP="(\w+)"', UDEV_RULES.read_text())
    assert rule, f"{UDEV_RULES} gives sound devices no group"
    assert rule[1] in one("Service.SupplementaryGroups").split()


def test_the_installer_puts_the_service_user_in_the_units_groups() -> None:
    script = (ROOT / "systemd/install.sh").read_text(encoding="utf-8")
    [line] = [line for line in script.splitlines() if line.startswith("GROUPS_NEEDED=")]
    assert line.removeprefix("GROUPS_NEEDED=(").rstrip(")").split() == one(
        "Service.SupplementaryGroups").split()
    [packages] = [line for line in script.splitlines() if line.startswith("PACKAGES=")]
    names = packages.removeprefix("PACKAGES=(").rstrip(")").split()
    assert {"espeak-ng", "alsa-utils"} <= set(names)


def test_the_only_writable_places_are_the_state_and_runtime_directories() -> None:
    assert one("Service.ProtectSystem") == "strict"
    assert one("Service.StateDirectory") == "pegboard"  # the store, $STATE_DIRECTORY
    assert one("Service.RuntimeDirectory") == "pegboard"
    # lgpio makes its notification pipes in the working directory ($LG_WD): it must be
    # writable under ProtectSystem=strict, so it is the runtime directory.
    assert one("Service.WorkingDirectory") == "/run/pegboard"
    assert "LG_WD=/run/pegboard" in SETTINGS["Service.Environment"]
    assert "Service.ReadWritePaths" not in SETTINGS


def test_logs_go_to_the_journal_and_no_log_file_is_named() -> None:
    assert one("Service.StandardOutput") == "journal"
    assert one("Service.StandardError") == "journal"
    assert not re.search(r"\.log\b|/var/log", UNIT.read_text(encoding="utf-8"))


@pytest.mark.parametrize("family", ["AF_INET", "AF_INET6", "AF_PACKET"])
def test_no_network_sockets(family: str) -> None:
    assert family not in one("Service.RestrictAddressFamilies")
    assert one("Service.PrivateNetwork") == "yes"
