"""The screen and hardware layers import only downward (read from the source with ast)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "pegboard"

# For each package or module: the pegboard parts it may import (its own name included).
ALLOWED = {
    "ui": {"errors", "lazy", "rules", "record", "config", "stats", "app", "ui"},
    "hw": {"errors", "lazy", "rules", "record", "config", "app", "ui", "hw"},
    "sim/fakes": {"lazy"},
    "sim/keys": {"rules"},  # the value base alone (pegboard.rules.value)
}
# Libraries that must be imported lazily (through a seam of pegboard.lazy, the real import only
# for the type checker) so that importing the package on a desktop never needs them.
LAZY = {"gpiozero", "luma"}


def pegboard_imports(path: Path) -> list[tuple[str, bool]]:
    """(pegboard part, imported at module level) for every pegboard or library import."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top_level = {id(node) for node in tree.body}
    found: list[tuple[str, bool]] = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module == "pegboard":
            names = [f"pegboard.{alias.name}" for alias in node.names]  # its modules
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module]
        for name in names:
            parts = name.split(".")
            part = parts[1] if parts[0] == "pegboard" and len(parts) > 1 else parts[0]
            found.append((part if parts[0] == "pegboard" else "lib:" + part,
                          id(node) in top_level))
    return found


def files(name: str) -> list[Path]:
    path = PACKAGE / name
    return sorted(path.glob("*.py")) if path.is_dir() else [PACKAGE / f"{name}.py"]


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layer_imports_point_downward(layer: str) -> None:
    for path in files(layer):
        for part, _ in pegboard_imports(path):
            if part.startswith("lib:"):
                continue
            assert part in ALLOWED[layer], f"{path.name} ({layer}) imports pegboard.{part}"


@pytest.mark.parametrize("layer", ["ui", "hw", "sim/fakes", "device", "sim"])
def test_hardware_libraries_are_imported_lazily(layer: str) -> None:
    for path in files(layer):
        if layer == "sim":
            continue  # the simulator is a desktop program built on the mock pins
        for part, module_level in pegboard_imports(path):
            if part.startswith("lib:") and part[4:] in LAZY:
                assert not module_level, f"{path.name} imports {part[4:]} at import time"


def test_render_never_touches_hardware() -> None:
    for path in files("ui"):
        libraries = {part[4:] for part, _ in pegboard_imports(path) if part.startswith("lib:")}
        assert not libraries & {"gpiozero", "luma", "serial", "threading", "time"}, path.name
