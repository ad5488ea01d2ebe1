"""Bounded waits on other processes, for the tests: a wait that would last for ever fails
instead, saying what it waited for.

A bound is only a guard against a hang, never a measure of speed: :data:`LIVENESS_S` is far
above what anything takes, so a machine busy with other work does not trip it.
"""

from __future__ import annotations

import queue
import subprocess
import threading
from typing import IO, Any

LIVENESS_S = 60.0
"""How long a test waits for another process before it calls it a hang."""


def line_from(stream: IO[str], what: str, within: float = LIVENESS_S, *,
              process: subprocess.Popen[Any] | None = None) -> str:
    """The next line ``stream`` gives ("" at its end); AssertionError naming ``what`` when
    none comes within ``within`` seconds. ``process``, the writer, is killed then, so that
    the reading thread ends with the pipe and nothing is left running."""
    got: queue.SimpleQueue[str | BaseException] = queue.SimpleQueue()

    def read() -> None:
        try:
            got.put(stream.readline())
        except BaseException as error:  # handed to the waiting test
            got.put(error)

    threading.Thread(target=read, name="line_from", daemon=True).start()
    try:
        line = got.get(timeout=within)
    except queue.Empty:
        if process is not None and process.poll() is None:
            process.kill()
        raise AssertionError(f"waited {within:g} s for {what}") from None
    if isinstance(line, BaseException):
        raise line
    return line
