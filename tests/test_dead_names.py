"""The names found dead stay gone: defined once and never used, they were removed.

The checker is also run on a small tree made to fail, so a checker that stopped seeing
anything could not pass.
"""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "pegboard"

DEAD = frozenset({"card_label", "on_wheel", "RESUME", "key_counts", "REASONS", "Pump",
                  "configure", "line_ends"})
"""Names that were defined and never used (``RESUME`` was ``Screen.RESUME``)."""


def dead_names(root: Path) -> list[str]:
    """Where a name of :data:`DEAD` stands as a name in code under ``root`` (strings and
    comments do not count)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.NAME and token.string in DEAD:
                found.append(f"{path.relative_to(root)}:{token.start[0]}: {token.string}")
    return found


def test_the_dead_names_are_gone() -> None:
    assert dead_names(PACKAGE) == []


def test_the_checker_sees_a_dead_name_in_code_only(tmp_path: Path) -> None:
    (tmp_path / "dead.py").write_text('def on_wheel():\n    "key_counts"  # Pump\n',
                                      encoding="utf-8")
    assert dead_names(tmp_path) == ["dead.py:1: on_wheel"]
