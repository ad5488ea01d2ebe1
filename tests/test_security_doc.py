"""docs/security.md names the test holding each promise: every test it names exists, and
every row of its table of promises names at least one."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "security.md"
NAMED = re.compile(r"`(test_\w+\.py)::(\w+)`")


def defined_tests(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in tree.body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.name.startswith("test_")}


def test_every_test_the_security_doc_names_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    named = NAMED.findall(text)
    assert len(named) >= 60, named
    found: dict[str, set[str]] = {}
    missing = []
    for module, name in named:
        path = ROOT / "tests" / module
        if module not in found:
            found[module] = defined_tests(path) if path.is_file() else set()
        if name not in found[module]:
            missing.append(f"{module}::{name}")
    assert missing == [], missing


def test_every_promise_in_the_table_names_its_test() -> None:
    text = DOC.read_text(encoding="utf-8")
    table = text.split("## Each promise and the test that holds it", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines()
            if line.startswith("| ") and not line.startswith(("| promise", "|---"))]
    assert len(rows) >= 30, rows
    bare = [row[:80] for row in rows if not NAMED.search(row.rsplit(" | ", 1)[-1])]
    assert bare == [], bare
