"""How Pegboard's modules import each other, read from the source with ``ast``.

* No import cycles between modules, counting every import: inside functions, under
  ``TYPE_CHECKING`` and through a lazy seam (a cycle hidden in a function is still one).
* Nothing imports inside a function: a module imported late goes through a lazy seam of
  :mod:`pegboard.lazy`, declared there with its reason, and every declared seam is used.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from pegboard import lazy

PACKAGE = Path(__file__).resolve().parent.parent / "pegboard"


def module_name(path: Path, root: Path) -> str:
    """The dotted name of the module at ``path`` in the package ``root``."""
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def lazy_names(tree: ast.AST) -> Iterator[tuple[ast.Call, str]]:
    """Every ``lazy.module("name")`` (or ``module("name")``) call and the module it names."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else (
                func.id if isinstance(func, ast.Name) else "")
            first = node.args[0]
            if called == "module" and isinstance(first, ast.Constant) and isinstance(
                    first.value, str):
                yield node, first.value


def imported_by(path: Path, name: str, known: set[str]) -> set[str]:
    """The package's modules that the module ``name`` at ``path`` imports, every way."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[: len(up) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    found.update(seam for _, seam in lazy_names(tree) if seam in known and seam != name)
    return found


def import_graph(root: Path) -> dict[str, set[str]]:
    """Each module of the package at ``root`` and the package's modules it imports (a
    package's ``__init__`` importing its own modules is not counted: they are its parts)."""
    files = {module_name(path, root): path for path in sorted(root.rglob("*.py"))}
    known = set(files)
    return {name: {other for other in imported_by(path, name, known)
                   if not other.startswith(name + ".")}
            for name, path in files.items()}


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for node in sorted(graph):
            if node not in index:
                visit(node)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(found)


def imports_in_functions(path: Path) -> list[str]:
    """Every import statement inside a function of ``path``, as ``line: module``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[tuple[int, str]] = set()
    for function in ast.walk(tree):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for node in ast.walk(function):
                if isinstance(node, ast.Import):
                    found.add((node.lineno, ", ".join(alias.name for alias in node.names)))
                elif isinstance(node, ast.ImportFrom):
                    found.add((node.lineno, "." * node.level + (node.module or "")))
    return [f"{line}: {module}" for line, module in sorted(found)]


SOURCES = sorted(PACKAGE.rglob("*.py"))


def test_no_import_cycles_counting_every_import() -> None:
    assert cycles(import_graph(PACKAGE)) == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_nothing_imports_inside_a_function(path: Path) -> None:
    """A late import goes through a declared lazy seam (``pegboard.lazy.SEAMS``)."""
    assert imports_in_functions(path) == []


def test_every_lazy_seam_is_declared_used_and_importable() -> None:
    used: dict[str, list[str]] = {}
    for path in SOURCES:
        for _, name in lazy_names(ast.parse(path.read_text(encoding="utf-8"))):
            used.setdefault(name, []).append(str(path.relative_to(PACKAGE)))
    exported = {module_name(path.parent, PACKAGE) for path in SOURCES
                if path.name == "__init__.py" and "exports(__name__" in path.read_text(
                    encoding="utf-8")}
    assert sorted(set(used) - set(lazy.SEAMS)) == []  # each with its reason
    assert sorted(set(lazy.SEAMS) - set(used) - exported) == []  # no reason left behind
    assert all(reason.strip() for reason in lazy.SEAMS.values())


def test_a_seam_loads_its_module_on_first_use() -> None:
    name = "pegboard.store"  # a declared seam
    seam = lazy.module(name)
    assert "not loaded yet" in repr(seam)
    assert seam.Store is sys.modules[name].Store
    assert "loaded" in repr(seam) and "not" not in repr(seam)
    with pytest.raises(LookupError, match="'csv' is not a lazy seam"):
        lazy.module("csv")


def test_looking_at_a_seam_does_not_load_its_module() -> None:
    """doctest and inspect ask every module-level value for ``__wrapped__``: a seam to an
    optional library that is not installed (luma.emulator) must answer without importing."""
    seam = lazy.Seam("pegboard_no_such_module")
    assert not hasattr(seam, "__wrapped__")
    assert "not loaded yet" in repr(seam)
    with pytest.raises(ModuleNotFoundError):
        seam.anything  # noqa: B018 - the first real use loads it


def test_the_checkers_see_what_they_look_for(tmp_path: Path) -> None:
    root = tmp_path / "pkg"
    (root / "sub").mkdir(parents=True)
    (root / "__init__.py").write_text("from pkg import a\n", encoding="utf-8")
    (root / "a.py").write_text("from pkg.sub import b\n", encoding="utf-8")
    (root / "sub" / "__init__.py").write_text("", encoding="utf-8")
    (root / "sub" / "b.py").write_text(
        "from pegboard import lazy\nc = lazy.module('pkg.c')\n", encoding="utf-8")
    (root / "c.py").write_text("def late():\n    from . import a\n    import json\n",
                               encoding="utf-8")
    assert cycles(import_graph(root)) == [["pkg.a", "pkg.c", "pkg.sub.b"]]
    assert imports_in_functions(root / "c.py") == ["2: .", "3: json"]
    assert imports_in_functions(root / "a.py") == []
