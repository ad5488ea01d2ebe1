"""One game's durable log file: checksummed lines, appended and synced one at a time.

Each line is ``CCCCCCCC {json}\\n``: the CRC-32 of the JSON text as 8 lowercase hex digits, a
space, then one JSON object with a sequence number ``seq`` (0, 1, 2, ... with no gaps), the
wall-clock time ``at`` (Unix seconds) and either

- ``"record": {...}`` — one line of the game record (the first is the record's ``game``
  header line; an ``undo`` is a record line like any other), or
- ``"finish": {...}`` — the result the game ended with (always the last line of a file).

A line is acknowledged only after it was written whole, newline included, and synced to the
disk. So after a power cut only the last line can be damaged — a torn tail: cut off, it loses
nothing that was acknowledged. Damage anywhere else (a bad line followed by good ones, a
sequence gap) is not a torn write and makes the file unreadable.

>>> line = encode_line({"seq": 0, "at": 1.5, "record": {"type": "undo"}})
>>> line
b'08a1d4ec {"seq": 0, "at": 1.5, "record": {"type": "undo"}}\\n'
>>> scan(line + b'08a1d4ec {"seq": 1').entries[0]["record"]
{'type': 'undo'}
>>> scan(line + b'08a1d4ec {"seq": 1').good_bytes == len(line)
True
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Callable
from typing import Any

from pegboard.errors import StoreError
from pegboard.rules.value import Value
from pegboard.store.lines import checksum_ok, read_line
from pegboard.store.lines import decode_any as decode_any  # re-exported: part of the format
from pegboard.store.lines import encode_line as encode_line


def count_lines(data: bytes) -> int:
    """How many lines ``data`` holds, an unfinished last one included."""
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


class Scan(Value):
    """What a log file holds: its good entries, and what follows them."""

    __slots__ = ("damaged", "damaged_line", "entries", "good_bytes", "refused", "total_bytes")
    __match_args__ = ("entries", "good_bytes", "total_bytes", "damaged", "damaged_line", "refused")

    entries: list[dict[str, Any]]
    good_bytes: int  # length of the prefix made of good, complete lines
    total_bytes: int
    damaged: str | None  # why the file is unreadable (damage before the tail), or None
    damaged_line: int  # the line number (from 1) of that damage, 0 when there is none
    refused: str | None  # why an intact line (its checksum right) cannot be used

    def __init__(
        self,
        entries: list[dict[str, Any]],
        good_bytes: int,
        total_bytes: int,
        damaged: str | None,
        damaged_line: int = 0,
        refused: str | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "entries", entries)
        setter(self, "good_bytes", good_bytes)
        setter(self, "total_bytes", total_bytes)
        setter(self, "damaged", damaged)
        setter(self, "damaged_line", damaged_line)
        setter(self, "refused", refused)

    @property
    def line_problem(self) -> str:
        """What is wrong with the damaged line, for a message (``line N ...``)."""
        if self.refused is not None:
            return f"line {self.damaged_line} cannot be read ({self.refused})"
        return f"line {self.damaged_line} is damaged or out of place"

    @property
    def torn_bytes(self) -> int:
        """How many bytes of torn tail follow the good lines (0 when the file is clean)."""
        return 0 if self.damaged else self.total_bytes - self.good_bytes


def scan(data: bytes) -> Scan:
    """Read log bytes: the good lines, then either nothing, a torn tail, or damage.

    The good lines are the longest prefix of complete lines with valid checksums and
    consecutive sequence numbers. Whatever follows is a torn tail if no good line could be
    found in it (only the write in progress when the power went can be there); otherwise the
    file was damaged some other way.
    """
    entries: list[dict[str, Any]] = []
    position = 0
    refused: str | None = None
    while True:
        end = data.find(b"\n", position)
        if end < 0:
            break
        entry = read_line(data[position:end])
        if isinstance(entry, str) or entry["seq"] != len(entries):
            if isinstance(entry, str) and checksum_ok(data[position:end]):
                refused = entry  # intact but unusable: damage, never a torn write
            break
        if entries and "finish" in entries[-1]:
            return Scan(entries, position, len(data), "a line follows the finish line",
                        len(entries) + 1)
        entries.append(entry)
        position = end + 1
    good = position
    damaged = None
    if good < len(data):
        if refused is not None:
            damaged = f"line {len(entries) + 1} cannot be read ({refused})"
        elif _holds_a_later_line(data, good):
            damaged = f"line {len(entries) + 1} is damaged or out of place, and intact lines follow"
        elif not entries and data[good:].strip(b"\0 \n"):
            # Even a torn first line is kept aside rather than cut: it may be a file that
            # is not a Pegboard log at all, and nothing is ever thrown away on a guess.
            damaged = "the first line is not a readable Pegboard log line"
    return Scan(entries, good, len(data), damaged, len(entries) + 1 if damaged else 0,
                refused if damaged else None)


def _holds_a_later_line(data: bytes, start: int) -> bool:
    """Whether a complete line from ``start`` on has a valid checksum.

    A torn write leaves an incomplete line or one whose checksum fails; a complete line that
    passes its checksum but is out of place (wrong sequence number, bad shape) is damage.
    """
    return any(checksum_ok(raw) for raw in data[start:].split(b"\n")[:-1])


def fsync_directory(path: str | os.PathLike[str]) -> None:
    """Make a directory's entries (a file created, renamed or removed) durable."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync(fd: int) -> None:
    # fdatasync writes the data and the metadata needed to read it back (the new file
    # size), which is all an append needs; it spares a journal commit for the times.
    sync = getattr(os, "fdatasync", os.fsync)
    sync(fd)


# -- files inside a store: never through a link, only regular files of this user ---------------


class OddFileError(StoreError):
    """A name in the store that is not a regular file Pegboard may use (a symbolic link, a
    directory, a pipe, or a file of another user)."""

    def __init__(self, path: str | os.PathLike[str], problem: str, advice: str) -> None:
        super().__init__(f"{os.fspath(path)} {problem}; {advice}")
        self.path = os.fspath(path)
        self.problem = problem


def file_problem(status: os.stat_result) -> str | None:
    """Why a file with this status must not be written by this process, or None.

    Only regular files of the process's own user: a link could point anywhere (the lock
    file was once truncated through one), a pipe would block the start, and a file of
    another user is not ours to change (a store run by root would leave files the service
    cannot write).
    """
    if stat.S_ISLNK(status.st_mode):
        return "is a symbolic link"
    if not stat.S_ISREG(status.st_mode):
        return "is not a regular file"
    if status.st_uid != os.geteuid():
        return f"belongs to user id {status.st_uid}, not to this user (id {os.geteuid()})"
    return None


def moved(path: str | os.PathLike[str], identity: tuple[int, int], *,
          deleted: str = "was deleted", replaced: str = "was replaced") -> str | None:
    """What became of the file ``identity`` (its device and inode) that ``path`` named, in
    words: ``deleted``, ``replaced`` or why it cannot be checked; None while ``path`` (not
    followed if a link) still names it."""
    try:
        status = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return deleted
    except OSError as error:
        return f"cannot be checked ({error.strerror or error})"
    return None if (status.st_dev, status.st_ino) == identity else replaced


def open_regular(path: str | os.PathLike[str], flags: int, mode: int = 0o640) -> int:
    """Open a file in the store without following a link; OddFileError if it is not one
    this process may use. Loosened permissions (writable by group or others) are tightened."""
    try:
        # O_NONBLOCK: opening a pipe planted under the name returns at once instead of
        # waiting for a writer; it changes nothing for regular files.
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, mode)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise OddFileError(
                path, "is a symbolic link",
                "Pegboard never follows links inside its store: put the file itself there",
            ) from None
        raise
    try:
        status = os.fstat(fd)
        problem = file_problem(status)
        if problem is not None:
            raise OddFileError(path, problem, "Pegboard does not write to it")
        if status.st_mode & 0o022 and flags & (os.O_WRONLY | os.O_RDWR):
            os.fchmod(fd, stat.S_IMODE(status.st_mode) & ~0o022)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular(path: str | os.PathLike[str]) -> bytes | None:
    """The bytes of a regular file (None if there is none), never through a link.

    Readers accept a file of another user (reading changes nothing); a link, a directory or
    a pipe is an :class:`OddFileError`.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise OddFileError(path, "is a symbolic link", "Pegboard does not follow it") from None
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OddFileError(path, "is not a regular file", "Pegboard does not read it")
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def write_new_file(path: str | os.PathLike[str], data: bytes) -> None:
    """Create ``path`` (it must not exist) holding ``data``, synced; nothing left on failure.

    The caller syncs the directory once its names are final.
    """
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                 0o640)
    try:
        _write_all(fd, data)
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise
    os.close(fd)


class LogWriter:
    """Appends lines to one log file; each append returns only once the line is on disk.

    Before an append is acknowledged the file must still be the one at its path (a store
    deleted, moved or replaced under a running writer is noticed, not written into unseen).
    A failed append is taken back durably before anything else is written: an entry the
    players were told was not saved must not come back after a restart.
    """

    def __init__(self, path: str | os.PathLike[str], next_seq: int) -> None:
        self.path = os.fspath(path)
        self.next_seq = next_seq
        self._fd = open_regular(self.path, os.O_WRONLY | os.O_APPEND)
        status = os.fstat(self._fd)
        self._identity = (status.st_dev, status.st_ino)
        self._size = status.st_size  # the end of the last confirmed line
        self._stray = False  # a failed append may have left bytes after _size
        self._spoiled = False  # ... and their first byte was overwritten so none can be read
        self._broken: str | None = None

    @classmethod
    def create(cls, path: str | os.PathLike[str], first: dict[str, Any]) -> LogWriter:
        """Create a new log file holding ``first`` (seq 0), durable with its directory entry."""
        write_new_file(path, encode_line({"seq": 0, **first}))
        fsync_directory(os.path.dirname(os.path.abspath(path)))
        return cls(path, 1)

    def append(self, entry: dict[str, Any], guard: Callable[[], None] | None = None) -> int:
        """Write ``entry`` as the next line and sync it; returns its sequence number.

        ``guard`` raises StoreError when the store may no longer be written (its lock was
        lost); it is asked before the write. After the sync, the path must still name this
        file, or the line is not acknowledged.
        """
        if self._stray:
            self._retract()  # a disk that failed once may work again: try before refusing
        if self._broken:
            raise StoreError(self._broken)
        if guard is not None:
            guard()
        seq = self.next_seq
        line = encode_line({"seq": seq, **entry})
        try:
            _write_all(self._fd, line)
            _sync(self._fd)
        except OSError as error:
            self._stray = True
            self._retract()
            reason = error.strerror or str(error)
            if self._broken:
                self._broken = f"cannot save to {self.path}: {reason}; {self._broken}"
                raise StoreError(self._broken) from None
            raise StoreError(
                f"cannot save to {self.path}: {reason}; the entry was not saved"
            ) from None
        try:
            self._still_here()
        except StoreError as error:
            # The line went into a file the store no longer has: nothing to take back.
            self._broken = str(error)
            raise
        self.next_seq = seq + 1
        self._size += len(line)
        return seq

    def _still_here(self) -> None:
        """StoreError unless the path still names the file this writer writes to."""
        what = moved(self.path, self._identity,
                     deleted="was deleted (was the store directory removed or moved?)",
                     replaced="was replaced by another file")
        if what is None:
            return
        raise StoreError(
            f"{self.path} {what} while Pegboard was writing to it; the entry was not saved. "
            "Restart Pegboard to open the store again"
        )

    def _retract(self) -> None:
        """Take back durably whatever a failed append left after the last confirmed line.

        First the file is cut back to its confirmed length. If the file system refuses that,
        the stray line's first byte is overwritten (through a second descriptor: ``pwrite``
        on an ``O_APPEND`` one appends) so that its checksum can never match: the next open
        cuts it off as a torn tail. Until the cut succeeds nothing more is appended, since a
        line after the spoiled one would turn a torn tail into damage.
        """
        try:
            if os.fstat(self._fd).st_size > self._size:
                os.ftruncate(self._fd, self._size)
            _sync(self._fd)
        except OSError as error:
            cut_error = error.strerror or str(error)
        else:
            self._stray = self._spoiled = False
            self._broken = None
            return
        if not self._spoiled:
            with contextlib.suppress(OSError):
                self._spoil()
        if self._spoiled:
            self._broken = (
                f"it could not be cut back after the failed write ({cut_error}); the unsaved "
                "entry is marked so that it is dropped: restart Pegboard to recover the store"
            )
        else:
            self._broken = (
                f"the unsaved entry could not be taken back out ({cut_error}): restart "
                "Pegboard to recover the store, and if the last entry is there after the "
                "restart, undo it"
            )

    def _spoil(self) -> None:
        fd = open_regular(self.path, os.O_WRONLY)
        try:
            status = os.fstat(fd)
            if (status.st_dev, status.st_ino) != self._identity:
                return  # not our file any more: nothing of ours to take back there
            if status.st_size > self._size:
                os.pwrite(fd, b"x", self._size)  # "x" is no hex digit: the CRC cannot match
                os.fsync(fd)
            self._spoiled = True
        finally:
            os.close(fd)

    def close(self) -> None:
        """Close the file (every append is already durable; a failed one is taken back)."""
        if self._fd >= 0:
            if self._stray:
                self._retract()
            os.close(self._fd)
            self._fd = -1


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
