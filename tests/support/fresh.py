"""Running a few lines in a fresh interpreter, for the tests of what an import or a command
loads (``sys.modules`` starts empty there, whatever this process has imported)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any


def printed_json(code: str) -> tuple[Any, str]:
    """Run ``code`` with this interpreter in a new process (it must exit 0): the JSON value of
    the last line it printed, and what it wrote to standard error."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout.splitlines()[-1]), done.stderr
