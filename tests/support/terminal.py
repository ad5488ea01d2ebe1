"""A program on an 80x24 pseudo-terminal, for the tests and benchmarks of what the simulator
draws there (it draws its frames only on a terminal)."""

from __future__ import annotations

import os
import pty
import select
import signal
import sys
from collections.abc import Sequence
from types import TracebackType


class Terminal:
    """This interpreter running ``args`` in a child on a new 80x24 pseudo-terminal of type
    ``term``: ``pid`` and the terminal's descriptor ``fd``.

    As a context manager it waits for the child at the end (:attr:`status`, its exit status)
    and closes the terminal; leaving on an error kills the child first, so a failed wait
    leaves no program behind.
    """

    def __init__(self, args: Sequence[str], *, term: str = "xterm") -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # pragma: no cover - the child
            os.environ.update(COLUMNS="80", LINES="24", TERM=term)
            os.execv(sys.executable, [sys.executable, *args])
        self.status: int | None = None

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        try:
            if kind is not None:
                os.kill(self.pid, signal.SIGKILL)
            _, status = os.waitpid(self.pid, 0)
            self.status = os.waitstatus_to_exitcode(status)
        finally:
            os.close(self.fd)

    def more(self, seconds: float, seen: bytes = b"") -> bytes:
        """What the terminal shows next (b"" once it has closed); TimeoutError, naming the
        end of ``seen``, when ``seconds`` pass with nothing new."""
        ready, _, _ = select.select([self.fd], [], [], seconds)
        if not ready:
            raise TimeoutError(f"nothing new in {seconds:g} s; the terminal shows "
                               f"{seen[-400:]!r}")
        try:
            return os.read(self.fd, 1 << 16)
        except OSError:  # the program has gone and the terminal with it
            return b""

    def read_until(self, marker: bytes, seconds: float, seen: bytes = b"") -> bytes:
        """``seen`` and what the terminal shows after it, until ``marker`` is in it."""
        while marker not in seen:
            chunk = self.more(seconds, seen)
            if not chunk:
                raise EOFError(f"the terminal closed before {marker!r}: {seen[-400:]!r}")
            seen += chunk
        return seen

    def read_to_end(self, seconds: float, seen: bytes = b"") -> bytes:
        """``seen`` and all the terminal shows until it closes with its program."""
        while chunk := self.more(seconds, seen):
            seen += chunk
        return seen
