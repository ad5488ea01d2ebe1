"""The tree's figures: no module over 400 lines, at most 5 functions over McCabe 12 (ruff's
C901). (The dead names are held by ``test_dead_names.py``.)

Each figure is read from the tree as it is; each checker is also run on a small tree made to
fail, so a checker that stopped seeing anything could not pass.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "pegboard"

MAX_LINES = 400
MAX_COMPLEX = 5
"""Functions allowed over :data:`COMPLEXITY`."""
COMPLEXITY = 12


def long_modules(root: Path) -> dict[str, int]:
    """Every module under ``root`` over MAX_LINES lines, with its length."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES:
            found[str(path.relative_to(root))] = lines
    return found


def complex_functions(root: Path) -> list[str]:
    """ruff's C901 findings under ``root`` at :data:`COMPLEXITY`, one line each."""
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--isolated", "--select", "C901",
         "--config", f"lint.mccabe.max-complexity={COMPLEXITY}", "--output-format", "concise",
         "--exit-zero", str(root)],
        capture_output=True, text=True, check=True, timeout=120,
    )
    return [line for line in done.stdout.splitlines() if "C901" in line]


def test_no_module_is_over_400_lines() -> None:
    assert long_modules(PACKAGE) == {}


def test_at_most_five_functions_are_over_mccabe_12() -> None:
    found = complex_functions(PACKAGE)
    assert len(found) <= MAX_COMPLEX, "\n".join(found)


def test_the_checkers_see_what_they_look_for(tmp_path: Path) -> None:
    (tmp_path / "long.py").write_text("x = 1\n" * (MAX_LINES + 1), encoding="utf-8")
    branches = "".join(f"    if x == {n}:\n        return {n}\n" for n in range(COMPLEXITY))
    (tmp_path / "tangle.py").write_text(f"def tangle(x):\n{branches}    return -1\n",
                                        encoding="utf-8")
    assert long_modules(tmp_path) == {"long.py": MAX_LINES + 1}
    assert [line.split(": ", 1)[1] for line in complex_functions(tmp_path)] == [
        f"C901 `tangle` is too complex ({COMPLEXITY + 1} > {COMPLEXITY})"]
