"""Imports point downward only: every package under ``pegboard/`` is held to an allow-list of
the packages it may import (read from the source with ``ast``), the rules and the app stay pure,
and nothing below the command layer imports it. The table is DEVELOPERS.md's "Layers"."""

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


COACH_FILES = sorted((RULES.parent / "coach").glob("*.py"))
PURE = [*((path, ("errors", "rules")) for path in RULE_FILES),
        *((path, ("errors", "rules", "coach")) for path in COACH_FILES)]
"""The pure layers and the pegboard parts each may import: the rules core, and teaching and
help beside it (no clock, threads, I/O or hardware in either)."""


@pytest.mark.parametrize(("path", "allowed"), PURE,
                         ids=[f"{path.parent.name}/{path.name}" for path, _ in PURE])
def test_the_pure_layers_import_only_the_standard_library_and_below(
        path: Path, allowed: tuple[str, ...]) -> None:
    for module in imported_modules(path):
        top = module.split(".")[0]
        assert top not in FORBIDDEN_MODULES, f"{path.name} imports {module}"
        if top == "pegboard":
            parts = module.split(".")
            assert len(parts) >= 2, f"{path.name} imports the top package"
            assert parts[1] not in HIGHER_LAYERS, f"{path.name} imports {module}"
            assert parts[1] in allowed, f"{path.name} imports {module}"


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
    "__future__", "collections", "dataclasses", "enum", "itertools", "re", "typing",
}
"""The standard library the app may use: values and text only (no time, threads, files,
processes, sockets or randomness: the app is a pure function of its inputs)."""
APP_ALLOWED_PEGBOARD = {"app", "rules", "record", "config", "errors", "lazy", "stats", "coach"}
"""The layers below the app (``stats`` replays a game for the score-race picture)."""


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


def test_the_app_allow_list_catches_time_and_the_store(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import time\nfrom pegboard.store import Store\n", encoding="utf-8")
    found = imported_modules(bad)
    assert {m for m in found if m.split(".")[0] not in APP_ALLOWED_STDLIB
            and not (m.startswith("pegboard.") and m.split(".")[1] in APP_ALLOWED_PEGBOARD)
            } == {"time", "pegboard.store"}


# -- every package: an allow-list ------------------------------------------------------------

PACKAGE = RULES.parent
BASE = {"errors", "lazy", "__version__", "__init__"}
"""What every part may import: the errors, the lazy seams and the package's version."""
LAYERS: dict[str, set[str]] = {
    # 0 and 1: the errors, the rules core
    "errors": set(),
    "lazy": set(),
    "rules": set(),
    # 2: records, the configuration, statistics, teaching and help
    "record": {"rules"},
    "config": {"rules"},
    "stats": {"rules", "record", "coach"},
    # teaching and help: advice, hints, the pegging look-ahead, lessons, rule help
    "coach": {"rules"},
    # 3: the app, pure
    "app": {"rules", "record", "config", "stats", "coach"},
    # 4: drawing views
    "ui": {"rules", "coach", "record", "config", "stats", "app"},
    # 5: adapters, each with its one library
    "hw": {"rules", "config", "app", "ui"},
    "link": {"rules", "config", "app"},
    "store": {"rules", "record", "stats"},
    "service": set(),
    "voice": {"rules", "coach", "config", "app", "hw"},
    "web": {"rules", "coach", "record", "stats", "app", "ui", "link", "store"},
    # the club's publisher follows the store as the web page does, and serves on its server
    "club": {"rules", "record", "store", "web"},
    # 6: the loop, the simulator, the commands, the composition root
    "device": {"rules", "coach", "record", "config", "stats", "app", "ui", "hw", "link", "store",
               "service", "voice"},
    "sim": {"rules", "coach", "record", "config", "stats", "app", "ui", "hw", "link", "store",
            "service", "voice", "device"},
    "commands": {"rules", "coach", "record", "config", "stats", "app", "ui", "hw", "link", "store",
                 "service", "voice", "web", "club", "device", "sim"},
    "cli": {"commands"},
    "__main__": {"cli"},
}
"""Each package (or top-level module) and the pegboard parts it may import."""
MODULE_EXTRA: dict[str, set[str]] = {
    "voice/samples.py": {"device", "sim"},
    "device/phones.py": {"web"},
    "device/build.py": {"web"},
    "device/pairing.py": {"web"},
    "device/club_status.py": {"club"},
}
"""Modules allowed more than their package: the voice's sample maker plays a scripted game on
the simulated device (a program of layer 6 kept beside the voice it records); the device's
phone seats wire the loop to the phone server (the one module of the device that loads the
web stack, and only when phones are on); the device's pairing port and its builder use the
phones' passes (``web/passes``, stdlib only), which the phone server checks tokens against;
the device reads the club publisher's status file through its one module
(``club/status``, stdlib only) to show the broker's refusal on the board's screen."""
COMMAND_LAYER = ("pegboard.commands", "pegboard.cli")
COMMAND_USERS = {"cli.py", "__main__.py"}
"""The only modules outside ``commands/`` that may import the command layer."""


def unit_of(path: Path) -> str:
    """The package a source file belongs to (a top-level module is its own unit)."""
    rel = path.relative_to(PACKAGE)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def pegboard_parts(path: Path) -> dict[str, str]:
    """Every pegboard part ``path`` imports (statically, or by name with importlib), each
    with the module named."""
    return parts_in(path.read_text(encoding="utf-8"), path.relative_to(PACKAGE))


def parts_in(text: str, rel: Path) -> dict[str, str]:
    """:func:`pegboard_parts` of source ``text`` at ``rel`` in the package."""
    found: dict[str, str] = {}
    for node in ast.walk(ast.parse(text)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ["pegboard", *rel.parts[:-1]][: len(rel.parts) - node.level + 1]
                names = [".".join([*base, *([node.module] if node.module else [])])]
            elif node.module == "pegboard":
                names = [f"pegboard.{alias.name}" for alias in node.names]
            elif node.module is not None:
                names = [node.module]
        elif isinstance(node, ast.Call) and _import_by_name(node) and node.args:
            names = [_constant_prefix(node.args[0])]
        for name in names:
            parts = name.split(".")
            if parts[0] == "pegboard" and len(parts) > 1 and parts[1]:
                found.setdefault(parts[1], name)
    return found


def _import_by_name(node: ast.Call) -> bool:
    func = node.func
    names = ("import_module", "__import__", "module")  # module: a lazy seam (pegboard.lazy)
    return (isinstance(func, ast.Attribute) and func.attr in names
            ) or (isinstance(func, ast.Name) and func.id in names)


def _constant_prefix(arg: ast.expr) -> str:
    """The constant start of a module name given as text ("pegboard.commands." of an
    f-string)."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
        return str(arg.values[0].value)
    return ""


SOURCES = sorted(PACKAGE.rglob("*.py"))


def test_every_package_has_a_row() -> None:
    units = {unit_of(path) for path in SOURCES} - {"__init__"}
    assert units <= set(LAYERS), f"no allow-list for {sorted(units - set(LAYERS))}"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_each_module_imports_only_what_its_layer_allows(path: Path) -> None:
    rel = str(path.relative_to(PACKAGE))
    unit = unit_of(path)
    allowed = LAYERS.get(unit, set()) | BASE | {unit} | MODULE_EXTRA.get(rel, set())
    if unit == "__init__":
        allowed = BASE
    for part, name in pegboard_parts(path).items():
        assert part in allowed, (
            f"{rel} imports {name}: {unit} may import only {sorted(allowed - {unit})}")


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_nothing_below_the_command_layer_imports_it(path: Path) -> None:
    rel = path.relative_to(PACKAGE)
    if rel.parts[0] == "commands" or str(rel) in COMMAND_USERS:
        return
    for name in pegboard_parts(path).values():
        assert not name.startswith(COMMAND_LAYER), f"{rel} imports {name}"


def test_the_package_checker_sees_relative_and_by_name_imports() -> None:
    text = ("from ..commands import run\nimport importlib\n"
            "importlib.import_module(f\"pegboard.cli.{x}\")\nfrom . import hook\n"
            "web = lazy.module(\"pegboard.web.app\")\n")
    assert parts_in(text, Path("voice") / "phrases.py") == {
        "commands": "pegboard.commands", "cli": "pegboard.cli.", "voice": "pegboard.voice",
        "web": "pegboard.web.app"}
    assert unit_of(PACKAGE / "voice" / "phrases.py") == "voice"
