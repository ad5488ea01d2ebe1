"""`make lint` (and so CI, which runs `make test`) holds the whole repository to its checks:
ruff over everything, and mypy --strict over the package, the tests (their support and the
conformance harness included), the benchmarks and the tools, with no module let off."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def lint_recipe(makefile: str) -> list[str]:
    """The commands of the Makefile's ``lint`` target."""
    found = re.search(r"^lint:[^\n]*\n((?:\t[^\n]*\n)+)", makefile, re.M)
    assert found, "the Makefile has no lint target"
    return [line.strip() for line in found.group(1).splitlines()]


def checked_paths(recipe: list[str]) -> set[str]:
    """What the recipe's mypy command checks."""
    for command in recipe:
        words = command.split()
        if words and words[0].endswith("/mypy"):
            assert "--strict" in words, command
            return {word for word in words[1:] if not word.startswith("-")}
    raise AssertionError(f"no mypy in the lint recipe: {recipe}")


def test_lint_type_checks_the_package_the_tests_the_benchmarks_and_the_tools() -> None:
    recipe = lint_recipe((ROOT / "Makefile").read_text(encoding="utf-8"))
    assert any(command.split()[:3] == ["$(BIN)/ruff", "check", "."] for command in recipe)
    assert checked_paths(recipe) == {"pegboard", "tests", "bench", "tools"}
    assert {path.name for path in ROOT.iterdir()
            if path.is_dir() and (path / "__init__.py").exists()} <= checked_paths(recipe)


def test_no_module_is_let_off_the_type_checks() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    overrides = config["mypy"].get("overrides", [])
    assert config["mypy"]["strict"] is True
    let_off = [entry["module"] for entry in overrides if entry.get("ignore_errors")]
    assert let_off == []
    # Only libraries without type information are read as untyped, never our own code.
    untyped = [name for entry in overrides if entry.get("ignore_missing_imports")
               for name in entry["module"]]
    assert untyped and not any(name.split(".")[0] in {"pegboard", "tests", "bench", "tools"}
                               for name in untyped)


def test_the_checks_see_what_they_look_for() -> None:
    makefile = "lint: x\n\t$(BIN)/ruff check .\n\t$(BIN)/mypy --strict pegboard tests\n\nrun:\n"
    assert checked_paths(lint_recipe(makefile)) == {"pegboard", "tests"}
    assert lint_recipe("lint:\n\techo\n") == ["echo"]
