"""What the unit-file tests share: systemd-analyze, a unit's settings, its exposure score."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

SYSTEM_UNITS = Path("/usr/lib/systemd/system")

PROTECT_HOME_REFUSED = re.compile(
    r"Failed to parse (protect home value, ignoring: yse"  # systemd 252 (Debian bookworm)
    r"|ProtectHome=yse, ignoring)")  # systemd 257 (Debian trixie)
"""What ``systemd-analyze verify`` says of ``ProtectHome=yse``, in either systemd's words."""


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


def make_root(tmp_path: Path, name: str, unit_text: str, exec_start: str) -> Path:
    """A root holding this system's units, ``unit_text`` installed as unit ``name`` and its
    program (the first word of ``exec_start``).

    ``systemd-analyze verify`` checks that the program ExecStart names exists and is
    executable; in the temporary root it does, as a stub, at the exact installed path.
    """
    root = tmp_path / "root"
    shutil.copytree(SYSTEM_UNITS, root / "usr/lib/systemd/system", symlinks=True)
    program = root / exec_start.split()[0].lstrip("/")
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    installed = root / "etc/systemd/system" / name
    installed.parent.mkdir(parents=True)
    installed.write_text(unit_text, encoding="utf-8")
    return root


def verify_unit(tmp_path: Path, name: str, unit_text: str, exec_start: str) -> str:
    """What ``systemd-analyze verify`` says of ``unit_text`` installed as unit ``name``: its
    exit status, then anything it printed ("0" alone when it found nothing)."""
    root = make_root(tmp_path, name, unit_text, exec_start)
    done = subprocess.run(
        [analyze(), "verify", "--man=no", f"--root={root}", f"/etc/systemd/system/{name}"],
        capture_output=True, text=True, check=False,
    )
    return f"{done.returncode} {done.stdout}{done.stderr}".strip()
