"""The writer's lock on a store: one process at a time may change it.

The lock is ``fcntl.flock`` on the file ``lock`` inside the store directory. The kernel drops it
when the holder exits for any reason (even SIGKILL or a power cut), so a stale lock can never
keep the box from starting. The holder writes its process id and what it is (``pegboard run``,
``pegboard game add``) into the file, so the next writer can be told who is in the way.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from pegboard.errors import StoreError

LOCK_NAME = "lock"


class StoreLock:
    """An exclusive, non-blocking lock on a store directory, held until :meth:`release`."""

    def __init__(self, directory: Path, owner: str) -> None:
        self.path = directory / LOCK_NAME
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o640)
        except OSError as error:
            raise StoreError(
                f"cannot open the lock file {self.path}: {error.strerror or error}"
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(fd)
            os.close(fd)
            raise StoreError(
                f"the store at {directory} is in use by {holder}; "
                "stop it or use --store for another store"
            ) from None
        except OSError as error:
            os.close(fd)
            raise StoreError(f"cannot lock {self.path}: {error.strerror or error}") from None
        self._fd = fd
        # Who holds it, for the message another writer gets. Not synced: it only matters
        # while this process lives.
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()} {owner}\n".encode(), 0)

    def release(self) -> None:
        """Let the next writer in."""
        if self._fd >= 0:
            os.ftruncate(self._fd, 0)
            os.close(self._fd)  # closing the last descriptor drops the flock
            self._fd = -1


def _read_holder(fd: int) -> str:
    try:
        text = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    pid, _, owner = text.partition(" ")
    if not pid.isdigit():
        return "another process"
    return f"process {pid} ({owner})" if owner else f"process {pid}"
