"""The rules layer stays pure: its imports are read from the source and checked."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parent.parent / "pegboard" / "rules"
FORBIDDEN_MODULES = {
    "gpiozero", "luma", "serial", "sqlite3", "time", "threading", "logging", "PIL",
}
HIGHER_LAYERS = {
    "record", "config", "link", "app", "ui", "hw", "store", "sim", "cli", "commands",
    "device", "testing",
}


def imported_modules(path: Path) -> set[str]:
    """Every module name imported by a source file (absolute form)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against pegboard/rules
                base = ["pegboard", "rules"][: 3 - node.level]
                found.add(".".join([*base, *([node.module] if node.module else [])]))
            elif node.module == "pegboard":  # "from pegboard import stats": the submodule
                found.update(f"pegboard.{alias.name}" for alias in node.names)
            else:
                assert node.module is not None
                found.add(node.module)
    return found


RULE_FILES = sorted(RULES.glob("*.py"))


def test_the_rules_package_has_modules() -> None:
    assert {p.name for p in RULE_FILES} >= {"cards.py", "show.py", "pegging.py", "fast.py"}


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.name)
def test_rules_import_only_the_standard_library_and_errors(path: Path) -> None:
    for module in imported_modules(path):
        top = module.split(".")[0]
        assert top not in FORBIDDEN_MODULES, f"{path.name} imports {module}"
        if top == "pegboard":
            parts = module.split(".")
            assert len(parts) >= 2, f"{path.name} imports the top package"
            assert parts[1] not in HIGHER_LAYERS, f"{path.name} imports {module}"
            assert parts[1] in ("errors", "rules"), f"{path.name} imports {module}"


def test_the_checker_catches_a_forbidden_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import time\nfrom pegboard.store import Store\nfrom ..ui import render\n",
        encoding="utf-8",
    )
    assert imported_modules(bad) == {"time", "pegboard.store", "pegboard.ui"}


APP = RULES.parent / "app"
APP_FILES = sorted(APP.glob("*.py"))
APP_ALLOWED_STDLIB = {
    "__future__", "collections", "dataclasses", "enum", "itertools", "json", "re", "typing",
}
"""The standard library the app may use: values and text only (no time, threads, files,
processes, sockets or randomness: the app is a pure function of its inputs)."""
APP_ALLOWED_PEGBOARD = {"app", "rules", "record", "config", "errors", "stats"}
"""The layers below the app (``stats`` replays a game for the score-race picture)."""
APP_MAX_LINES = 400


@pytest.mark.parametrize("path", APP_FILES, ids=lambda p: p.name)
def test_the_app_imports_only_from_its_allow_list(path: Path) -> None:
    for module in imported_modules(path):
        parts = module.split(".")
        if parts[0] == "pegboard":
            assert len(parts) >= 2 and parts[1] in APP_ALLOWED_PEGBOARD, (
                f"{path.name} imports {module}: the app may import only "
                f"{sorted(APP_ALLOWED_PEGBOARD)}")
        else:
            assert parts[0] in APP_ALLOWED_STDLIB, (
                f"{path.name} imports {module}: the app is pure, allowed are "
                f"{sorted(APP_ALLOWED_STDLIB)}")


@pytest.mark.parametrize("path", APP_FILES, ids=lambda p: p.name)
def test_no_app_module_is_over_400_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= APP_MAX_LINES, f"{path.name} has {lines} lines"


def test_the_app_allow_list_catches_time_and_the_store(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import time\nfrom pegboard.store import Store\n", encoding="utf-8")
    found = imported_modules(bad)
    assert {m for m in found if m.split(".")[0] not in APP_ALLOWED_STDLIB
            and not (m.startswith("pegboard.") and m.split(".")[1] in APP_ALLOWED_PEGBOARD)
            } == {"time", "pegboard.store"}
