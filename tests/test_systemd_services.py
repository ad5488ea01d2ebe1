"""The service units beside the device's own (the scoreboard and the club publisher): each is
verified by systemd-analyze, which would catch a mistake, and sandboxed to an exposure of 2.0
or less. What each one runs is checked in its own test file."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.systemd_units import (
    PROTECT_HOME_REFUSED,
    exposure,
    unit_settings,
    verify_unit,
)

UNITS = Path(__file__).resolve().parent.parent / "systemd"
SERVICES = ("pegboard-web.service", "pegboard-club.service")


def verify(tmp_path: Path, name: str, text: str) -> str:
    """systemd-analyze's word on ``text`` installed as ``name`` (with the checked-in unit's
    program)."""
    checked_in = unit_settings((UNITS / name).read_text(encoding="utf-8"))
    return verify_unit(tmp_path, name, text, checked_in["Service.ExecStart"][0])


@pytest.mark.parametrize("name", SERVICES)
def test_systemd_analyze_verify_prints_nothing(tmp_path: Path, name: str) -> None:
    assert verify(tmp_path, name, (UNITS / name).read_text(encoding="utf-8")) == "0"


@pytest.mark.parametrize("name", SERVICES)
def test_verify_would_catch_a_mistake(tmp_path: Path, name: str) -> None:
    text = (UNITS / name).read_text(encoding="utf-8")
    broken = text.replace("ProtectHome=yes", "ProtectHome=yse")
    assert broken != text
    said = verify(tmp_path, name, broken)
    assert PROTECT_HOME_REFUSED.search(said), said


@pytest.mark.parametrize("name", SERVICES)
def test_exposure_is_at_most_2(name: str) -> None:
    assert exposure(UNITS / name) <= 2.0
