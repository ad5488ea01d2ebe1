"""``pegboard.record`` loads its parts when asked; each name is the same whatever came first."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("first", ["write", "dump_line", "result_json", "parse_line",
                                   "import pegboard.record.writer"])
def test_dump_is_the_function_whichever_name_is_used_first(first: str) -> None:
    code = (
        "import pegboard.record\n"
        + (f"{first}\n" if first.startswith("import") else
           f"getattr(pegboard.record, {first!r})\n")
        + "from pegboard.record import dump\n"
        "from pegboard.record.writer import dump as function\n"
        "print(dump is function)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["True"], done.stdout + done.stderr
