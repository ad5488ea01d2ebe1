"""``python -m pegboard.dataclass_cache``: compile every value type's methods into the table
(run at install, beside the bytecode compiling)."""

from __future__ import annotations

import importlib
import pkgutil
import sys

import pegboard
from pegboard.dataclass_cache import install


def main() -> int:
    """Import every Pegboard module, so each value type's methods are compiled, and keep
    exactly them (written even where bytecode is not, as ``compileall`` does): a table grown
    in a working tree by classes since changed starts again from what the code makes now.
    Prints how many sources the table holds."""
    table = install()
    table.stored = {}
    for info in pkgutil.walk_packages(pegboard.__path__, "pegboard."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    table.save(force=True)
    print(f"{len(table.stored)} dataclass methods compiled in {table.path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
