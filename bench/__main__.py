"""Run every ``bench/bench_*.py`` module's ``main()`` in name order."""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
from pathlib import Path


def main() -> int:
    """Run all benchmarks; words given on the command line select the matching ones (a word
    starting with ``--`` is a benchmark's own flag, e.g. ``pages --long``)."""
    wanted = [word for word in sys.argv[1:] if not word.startswith("--")]
    here = Path(__file__).resolve().parent
    names = sorted(
        info.name for info in pkgutil.iter_modules([str(here)]) if info.name.startswith("bench_")
    )
    print(f"Pegboard benchmarks on {os.cpu_count()} cores (python {sys.version.split()[0]})")
    for name in names:
        if wanted and not any(word in name for word in wanted):
            continue
        print(f"\n== {name} ==", flush=True)
        importlib.import_module(f"bench.{name}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
