"""The writer's lock on a store: one process at a time may change it.

The lock is ``fcntl.flock`` on the file ``lock`` inside the store directory. The kernel drops it
when the holder exits for any reason (even SIGKILL or a power cut), so a stale lock can never
keep the box from starting. The holder writes its process id and what it is (``pegboard run``,
``pegboard game add``) into the file, so the next writer can be told who is in the way.

The file is opened without following a link and must be a regular file of this user: a link
named ``lock`` once made a writer run by root truncate the file it pointed at. A holder whose
lock file was deleted or replaced (the store directory removed under it) no longer excludes
anyone, so :meth:`StoreLock.check` refuses from then on.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
from pathlib import Path

from pegboard.errors import StoreError
from pegboard.store.logfile import OddFileError, moved, open_regular

LOCK_NAME = "lock"


class StoreLock:
    """An exclusive, non-blocking lock on a store directory, held until :meth:`release`."""

    def __init__(self, directory: Path, owner: str) -> None:
        self.path = directory / LOCK_NAME
        self.directory = directory
        try:
            fd = open_regular(self.path, os.O_RDWR | os.O_CREAT)
        except OddFileError as error:
            raise StoreError(
                f"the lock file {self.path} {error.problem}: if no Pegboard is running, remove "
                f"it (`rm {self.path}`) and Pegboard makes a new one"
            ) from None
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
        status = os.fstat(fd)
        self._identity = (status.st_dev, status.st_ino)
        # Who holds it, for the message another writer gets. Not synced: it only matters
        # while this process lives.
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()} {owner}\n".encode(), 0)
        except OSError as error:
            os.close(fd)  # drops the flock
            advice = (
                f"the disk holding the store is full (`df {directory}`): free some space, "
                "then start Pegboard again" if error.errno in (errno.ENOSPC, errno.EDQUOT)
                else "the disk holding the store may be failing or read-only"
            )
            raise StoreError(
                f"cannot write to the lock file {self.path}: {error.strerror or error}; "
                f"{advice}"
            ) from None
        self._fd = fd

    def check(self) -> None:
        """StoreError unless this lock is still the store's lock (its file still in place).

        A lock file deleted or replaced under a running writer (the store directory removed
        or swapped) lets a second writer lock a new file while this one still runs.
        """
        if self._fd < 0:
            raise StoreError(f"the store at {self.directory} is closed")
        what = moved(self.path, self._identity)
        if what is None:
            return
        raise StoreError(
            f"the store at {self.directory} {what} while Pegboard was using it (its lock file "
            f"{self.path} is not the one this process holds); nothing more is saved. "
            "Restart Pegboard to open the store again"
        )

    def release(self) -> None:
        """Let the next writer in."""
        if self._fd >= 0:
            with contextlib.suppress(OSError):  # the holder's name only; the lock still drops
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
