"""The club publisher's systemd unit (verified and sandboxed: tests/test_systemd_services.py): the
store read-only, what the broker acknowledged kept in its own state directory."""

from __future__ import annotations

from pathlib import Path

from tests.support.systemd_units import unit_settings

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "pegboard-club.service"
SETTINGS = unit_settings(UNIT.read_text(encoding="utf-8"))


def test_it_publishes_the_store_read_only_with_the_clubs_settings() -> None:
    command = SETTINGS["Service.ExecStart"][0].split()
    assert command[1:5] == ["club", "publish", "--store", "/var/lib/pegboard"]
    assert command[command.index("--acked") + 1].startswith("/var/lib/pegboard-club/")
    assert SETTINGS["Service.ReadOnlyPaths"] == ["-/var/lib/pegboard"]
    assert SETTINGS["Service.StateDirectory"] == ["pegboard-club"]
    assert SETTINGS["Service.User"] == ["pegboard"]


def test_its_club_settings_come_from_the_devices_config_file() -> None:
    """Broker, board and credentials are the config's [club] keys (pegboard/config/club.py),
    the file the device reads; no environment file, no password on the command line."""
    command = SETTINGS["Service.ExecStart"][0].split()
    assert command[command.index("--config") + 1] == "/etc/pegboard/config.toml"
    assert SETTINGS["Unit.ConditionPathExists"] == ["/etc/pegboard/config.toml"]
    assert "Service.EnvironmentFile" not in SETTINGS
    assert not {"--board", "--broker", "--user", "--password-file"} & set(command)
    assert SETTINGS["Service.RestartPreventExitStatus"] == ["2"]  # a config error stays down
