"""The checkout as install-check copies it into a clean root: every file but the repository's
own metadata, virtual environments and tool caches.

A name is left out only when it is one of those exactly (`.git`, `.venv`, `__pycache__`,
`*.pyc`) or a dot-folder whose name ends in `_cache` (`.mypy_cache`, `.pytest_cache`,
`.ruff_cache`) or `.hypothesis`: a package such as `pegboard/dataclass_cache` is code and is
copied. Matching is on one path component at a time, never on the whole path, so no pattern can
reach across a `/`.

    python3 tools/checkout_copy.py SRC DEST

Standard library only: install-check runs it with the host's python3 before any venv exists.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterable
from pathlib import Path

LEFT_OUT_NAMES = frozenset({".git", ".venv", "__pycache__", ".hypothesis"})


def left_out(name: str) -> bool:
    """Whether a file or folder of this name (one path component) stays out of the copy."""
    return (
        name in LEFT_OUT_NAMES
        or name.endswith(".pyc")
        or (name.startswith(".") and name.endswith("_cache"))
    )


def _ignore(_folder: str, names: Iterable[str]) -> set[str]:
    return {name for name in names if left_out(name)}


def copy_checkout(src: Path, dest: Path) -> None:
    """Copy the checkout at src to dest (which must not exist yet), leaving out what
    `left_out` names. Symbolic links are copied as links."""
    shutil.copytree(src, dest, symlinks=True, ignore=_ignore)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python3 tools/checkout_copy.py SRC DEST", file=sys.stderr)
        return 2
    src, dest = Path(argv[0]), Path(argv[1])
    if not src.is_dir():
        print(f"checkout_copy: {src} is not a folder", file=sys.stderr)
        return 2
    if dest.exists():
        print(f"checkout_copy: {dest} exists already; the copy needs a fresh folder",
              file=sys.stderr)
        return 2
    copy_checkout(src, dest)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
