"""The club publisher's systemd unit: verified, sandboxed to an exposure of 2.0 or less, the
store read-only, what the broker acknowledged kept in its own state directory."""

from __future__ import annotations

from pathlib import Path

from tests.support.systemd_units import exposure, unit_settings, verify_unit

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "pegboard-club.service"
SETTINGS = unit_settings(UNIT.read_text(encoding="utf-8"))


def verify(tmp_path: Path, text: str) -> str:
    return verify_unit(tmp_path, "pegboard-club.service", text, SETTINGS["Service.ExecStart"][0])


def test_systemd_analyze_verify_prints_nothing(tmp_path: Path) -> None:
    assert verify(tmp_path, UNIT.read_text(encoding="utf-8")) == "0"


def test_verify_would_catch_a_mistake(tmp_path: Path) -> None:
    broken = UNIT.read_text(encoding="utf-8").replace("ProtectHome=yes", "ProtectHome=yse")
    assert "Failed to parse protect home value, ignoring: yse" in verify(tmp_path, broken)


def test_exposure_is_at_most_2() -> None:
    assert exposure(UNIT) <= 2.0


def test_it_publishes_the_store_read_only_with_the_clubs_settings() -> None:
    command = SETTINGS["Service.ExecStart"][0].split()
    assert command[1:5] == ["club", "publish", "--store", "/var/lib/pegboard"]
    assert command[command.index("--acked") + 1].startswith("/var/lib/pegboard-club/")
    assert SETTINGS["Service.ReadOnlyPaths"] == ["-/var/lib/pegboard"]
    assert SETTINGS["Service.StateDirectory"] == ["pegboard-club"]
    assert SETTINGS["Service.EnvironmentFile"] == ["/etc/pegboard/club.env"]
    assert SETTINGS["Service.User"] == ["pegboard"]
    assert "--password-file" in command  # never the password on the command line
