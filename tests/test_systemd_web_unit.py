"""The scoreboard's systemd unit (verified and sandboxed: tests/test_systemd_services.py): its
network limited to this machine and the local ranges, read-only, off until enabled."""

from __future__ import annotations

from pathlib import Path

from pegboard.commands.web import DEFAULT_PORT
from tests.support.systemd_units import exposure, unit_settings

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "pegboard-web.service"


SETTINGS = unit_settings(UNIT.read_text(encoding="utf-8"))


def test_the_exposure_check_can_fail(tmp_path: Path) -> None:
    loose = tmp_path / "pegboard-web.service"
    kept = [line for line in UNIT.read_text(encoding="utf-8").splitlines()
            if not line.startswith(("Protect", "Private", "Restrict", "SystemCall",
                                    "Capability", "IPAddress"))]
    loose.write_text("\n".join(kept) + "\n", encoding="utf-8")
    assert exposure(loose) > 2.0


def test_the_network_is_this_machine_and_the_local_ranges_only() -> None:
    assert SETTINGS["Service.IPAddressDeny"] == ["any"]
    allowed = " ".join(SETTINGS["Service.IPAddressAllow"]).split()
    assert sorted(allowed) == sorted(["localhost", "link-local", "10.0.0.0/8", "172.16.0.0/12",
                                      "192.168.0.0/16", "fc00::/7"])
    assert SETTINGS["Service.RestrictAddressFamilies"] == ["AF_INET AF_INET6 AF_UNIX"]


def test_the_store_is_read_only_and_the_service_runs_the_web_command() -> None:
    assert SETTINGS["Service.ProtectSystem"] == ["strict"]
    assert "StateDirectory" not in {key.split(".")[1] for key in SETTINGS}  # never made here
    assert "ReadWritePaths" not in {key.split(".")[1] for key in SETTINGS}
    command = SETTINGS["Service.ExecStart"][0].split()
    assert command[1:3] == ["web", "--store"]
    assert command[command.index("--port") + 1] == str(DEFAULT_PORT)
    assert SETTINGS["Service.User"] == ["pegboard"]


def test_the_unit_can_be_enabled_but_the_device_unit_does_not_pull_it_in() -> None:
    assert SETTINGS["Install.WantedBy"] == ["multi-user.target"]
    device = (ROOT / "systemd" / "pegboard.service").read_text(encoding="utf-8")
    assert "pegboard-web" not in device
