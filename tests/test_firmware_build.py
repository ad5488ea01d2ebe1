"""Every firmware file compiles for the Pico with mpy-cross, and the hardware stays in one place."""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import pytest

from pegboard.link.fwsim import FIRMWARE_DIR, tool

SOURCES = sorted(FIRMWARE_DIR.glob("*.py"))


def test_the_firmware_is_all_there() -> None:
    names = {path.name for path in SOURCES}
    assert {"main.py", "pb_app.py", "pb_hw.py", "pb_layout.py", "pb_proto.py",
            "pb_render.py"} <= names


@pytest.mark.parametrize("source", SOURCES, ids=[p.name for p in SOURCES])
def test_compiles_with_mpy_cross(source: Path, tmp_path: Path) -> None:
    out = tmp_path / (source.stem + ".mpy")
    result = subprocess.run(
        [tool("mpy-cross"), "-march=armv6m", "-o", str(out), str(source)],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert result.returncode == 0, result.stderr
    assert out.read_bytes()[:1] == b"M"  # the .mpy magic


def test_mpy_cross_rejects_broken_source(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("def f(:\n")
    result = subprocess.run([tool("mpy-cross"), str(broken)], capture_output=True, check=False)
    assert result.returncode != 0


HARDWARE_MODULES = {"machine", "neopixel", "rp2"}


@pytest.mark.parametrize("source", SOURCES, ids=[p.name for p in SOURCES])
def test_only_the_adapter_touches_hardware(source: Path) -> None:
    tree = ast.parse(source.read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree)
                if isinstance(node, ast.Import) for alias in node.names}
    imported |= {(node.module or "").split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom)}
    if source.name != "pb_hw.py":
        touched = imported & HARDWARE_MODULES
        assert not touched, f"{source.name} imports {touched}"
