"""The installed package holds what a player runs: no test support, no tools, no benchmarks.

The packages come from ``[tool.setuptools.packages.find]`` as setuptools reads it; the sources
are read with ast, so a development-only library imported anywhere in ``pegboard/`` (even
lazily, inside a function) is caught.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import setuptools

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pegboard"
DEVELOPMENT_ONLY = {"pytest", "hypothesis", "playwright", "httpx2", "tests", "tools", "bench"}
"""The dev extra's libraries and the repository's own test, tool and benchmark folders."""


def installed_packages() -> list[str]:
    found = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    include = found["tool"]["setuptools"]["packages"]["find"]["include"]
    return sorted(setuptools.find_packages(str(ROOT), include=include))


def top_level_imports(path: Path) -> set[str]:
    """The first part of every absolute import in ``path``, wherever in the file it is."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def test_only_pegboard_is_installed() -> None:
    packages = installed_packages()
    assert "pegboard" in packages and "pegboard.sim" in packages
    assert [name for name in packages if name.split(".")[0] != "pegboard"] == []


def test_no_installed_module_imports_test_support_or_development_tools() -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(top_level_imports(path) & DEVELOPMENT_ONLY)
        for path in PACKAGE.rglob("*.py")
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_the_check_sees_a_lazy_import(tmp_path: Path) -> None:
    source = tmp_path / "tool.py"
    source.write_text("def take() -> None:\n    from playwright.sync_api import sync_playwright\n",
                      encoding="utf-8")
    assert top_level_imports(source) == {"playwright"}
