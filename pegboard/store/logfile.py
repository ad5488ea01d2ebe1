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
import json
import os
import zlib
from dataclasses import dataclass
from typing import Any

from pegboard.errors import StoreError


def encode_line(entry: dict[str, Any]) -> bytes:
    """The bytes of one log line for ``entry`` (a JSON object), newline included."""
    text = json.dumps(entry, ensure_ascii=False, allow_nan=False).encode("utf-8")
    if b"\n" in text:  # json.dumps never emits a raw newline; keep it that way
        raise ValueError("a log entry must encode to a single line")
    return b"%08x %s\n" % (zlib.crc32(text), text)


def _decode_line(raw: bytes, seq: int) -> dict[str, Any] | None:
    """The entry on one line (without its newline), or None if it is damaged or out of order."""
    if len(raw) < 10 or raw[8:9] != b" ":
        return None
    try:
        crc = int(raw[:8], 16)
    except ValueError:
        return None
    text = raw[9:]
    if zlib.crc32(text) != crc:
        return None
    try:
        entry = json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(entry, dict) or entry.get("seq") != seq:
        return None
    if not isinstance(entry.get("at"), int | float) or isinstance(entry.get("at"), bool):
        return None
    if isinstance(entry.get("record"), dict) == isinstance(entry.get("finish"), dict):
        return None  # exactly one of the two
    return entry


@dataclass(frozen=True)
class Scan:
    """What a log file holds: its good entries, and what follows them."""

    entries: list[dict[str, Any]]
    good_bytes: int  # length of the prefix made of good, complete lines
    total_bytes: int
    damaged: str | None  # why the file is unreadable (damage before the tail), or None

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
    while True:
        end = data.find(b"\n", position)
        if end < 0:
            break
        entry = _decode_line(data[position:end], len(entries))
        if entry is None:
            break
        if entries and "finish" in entries[-1]:
            return Scan(entries, position, len(data), "a line follows the finish line")
        entries.append(entry)
        position = end + 1
    good = position
    damaged = None
    if good < len(data):
        if _holds_a_later_line(data, good):
            damaged = f"line {len(entries) + 1} is damaged or out of place, and intact lines follow"
        elif not entries and data[good:].strip(b"\0 \n"):
            # Even a torn first line is kept aside rather than cut: it may be a file that
            # is not a Pegboard log at all, and nothing is ever thrown away on a guess.
            damaged = "the first line is not a readable Pegboard log line"
    return Scan(entries, good, len(data), damaged)


def _holds_a_later_line(data: bytes, start: int) -> bool:
    """Whether a complete line from ``start`` on has a valid checksum.

    A torn write leaves an incomplete line or one whose checksum fails; a complete line that
    passes its checksum but is out of place (wrong sequence number, bad shape) is damage.
    """
    for raw in data[start:].split(b"\n")[:-1]:
        if len(raw) > 9 and raw[8:9] == b" ":
            try:
                crc = int(raw[:8], 16)
            except ValueError:
                continue
            if zlib.crc32(raw[9:]) == crc:
                return True
    return False


def fsync_directory(path: str | os.PathLike[str]) -> None:
    """Make a directory's entries (a file created, renamed or removed) durable."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync(fd: int) -> None:
    # fdatasync writes the data and the metadata needed to read it back (the new file
    # size), which is all an append needs; it spares a journal commit for the times.
    sync = getattr(os, "fdatasync", os.fsync)
    sync(fd)


class LogWriter:
    """Appends lines to one log file; each append returns only once the line is on disk."""

    def __init__(self, path: str | os.PathLike[str], next_seq: int) -> None:
        self.path = os.fspath(path)
        self.next_seq = next_seq
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)
        self._size = os.fstat(self._fd).st_size  # the end of the last good line
        self._broken: str | None = None

    @classmethod
    def create(cls, path: str | os.PathLike[str], first: dict[str, Any]) -> LogWriter:
        """Create a new log file holding ``first`` (seq 0), durable with its directory entry."""
        line = encode_line({"seq": 0, **first})
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o640)
        try:
            _write_all(fd, line)
            os.fsync(fd)
        except OSError:
            os.close(fd)
            with contextlib.suppress(OSError):  # never acknowledged: leave nothing behind
                os.unlink(path)
            raise
        os.close(fd)
        fsync_directory(os.path.dirname(os.path.abspath(path)))
        return cls(path, 1)

    def append(self, entry: dict[str, Any]) -> int:
        """Write ``entry`` as the next line and sync it; returns its sequence number."""
        if self._broken:
            raise StoreError(self._broken)
        seq = self.next_seq
        line = encode_line({"seq": seq, **entry})
        try:
            _write_all(self._fd, line)
            _sync(self._fd)
        except OSError as error:
            self._cut_back()
            raise StoreError(f"cannot save to {self.path}: {error.strerror or error}") from None
        self.next_seq = seq + 1
        self._size += len(line)
        return seq

    def _cut_back(self) -> None:
        """Remove whatever a failed append left (part of a line, or a whole unsynced one)."""
        try:
            os.ftruncate(self._fd, self._size)
            _sync(self._fd)
        except OSError as error:
            # The file may now end in a stray line: refuse further appends after it, which
            # would turn a torn tail (cut off on the next start) into damage mid-file.
            self._broken = (
                f"cannot save to {self.path} after a failed write ({error.strerror or error}); "
                "restart Pegboard to recover the store"
            )

    def close(self) -> None:
        """Close the file (every append is already durable)."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
