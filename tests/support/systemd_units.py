"""What the unit-file tests share: systemd-analyze, a unit's settings, its exposure score."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

SYSTEM_UNITS = Path("/usr/lib/systemd/system")


def analyze() -> str:
    """The systemd-analyze program (``make test`` installs it)."""
    path = shutil.which("systemd-analyze")
    assert path, "systemd-analyze is missing: `make test` installs it (apt-get install systemd)"
    return path


def unit_settings(text: str) -> dict[str, list[str]]:
    """``Section.Key`` -> every value given, in order (systemd keys may repeat)."""
    settings: dict[str, list[str]] = {}
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        settings.setdefault(f"{section}.{key}", []).append(value)
    return settings


def exposure(path: Path) -> float:
    """The overall exposure level ``systemd-analyze security`` gives the unit file."""
    done = subprocess.run(
        [analyze(), "security", "--offline=true", "--no-pager", str(path)],
        capture_output=True, text=True, check=False,
    )
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout + done.stderr)
    assert match, done.stdout + done.stderr
    return float(match.group(1))
