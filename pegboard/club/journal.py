"""The standings service's journal: every write that decides the standings, appended and
synced before it is committed, so that a damaged results database is rebuilt from it.

The results database (:mod:`pegboard.club.results`) is an index of two sources: the results
the boards keep retained on the broker (and in their own stores), and what only the service
knows, the director's acts, the seatings and the roster, and the order in which results
were decided. This file keeps the second source, and the results as they were decided, so a
rebuild gives the very standings of before, corrections and held revisions included.

Each line is ``CCCCCCCC {json}\\n`` as a store log's (:mod:`pegboard.store.lines`: the CRC-32
of the JSON text, then the text), with a sequence number ``seq`` (0, 1, 2, ... with no
gaps), the time ``at`` and the ``kind`` of write. The first line (``begin``) names the
journal (``id``) and the copy of the database it starts from (``base``: the SHA-256 of the
``.base`` file beside it, "" when it starts from an empty database). A line is appended
inside the database's write transaction, written whole and synced before the transaction
commits; so after a power cut only the last line can be damaged (a torn tail, cut off with a
notice as the store cuts one: its transaction never committed, and the result it held was
never acknowledged, so the broker delivers it again). A damaged line followed by good ones
is not a torn write: it is named in the notice and left out of a rebuild.

Why a journal, and not SQLite's backup API after each act: a backup copies the whole
database (a night's results and the digests of every refusal, megabytes) after every act
and every result, and a copy taken between two results would still need the results since
asked of the broker, in whatever order it sends them, so a held revision could come back
counted. The journal costs one short synced append a decision and replays in the order the
decisions were made.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import threading
import time
from pathlib import Path
from typing import Any

from pegboard.errors import ClubError
from pegboard.store.lines import checksum_ok, encode_line
from pegboard.store.logfile import fsync_directory

JOURNAL_SUFFIX = ".journal"
BASE_SUFFIX = ".base"


def journal_path(db_path: Path) -> Path:
    """The journal beside the results database ``db_path`` (``results.db``:
    ``results.journal``; never a name SQLite gives its own files)."""
    named = db_path.with_name(db_path.stem + JOURNAL_SUFFIX)
    return named if named != db_path else db_path.with_name(db_path.name + JOURNAL_SUFFIX)


def base_path(db_path: Path) -> Path:
    """The copy of the database the journal starts from (when it did not start empty)."""
    named = db_path.with_name(db_path.stem + BASE_SUFFIX)
    return named if named != db_path else db_path.with_name(db_path.name + BASE_SUFFIX)


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    hashed = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            hashed.update(block)
    return hashed.hexdigest()


class Stale(ClubError):
    """A write on a connection to a results database that was rebuilt since it was made."""


class Read:
    """What a journal file holds: its good ``entries`` in order, the ``torn`` bytes at its
    end (0: none), and each ``damaged`` line (its number from 1, and why)."""

    def __init__(self, entries: list[dict[str, Any]], good_bytes: int, torn: int,
                 damaged: list[tuple[int, str]]) -> None:
        self.entries = entries
        self.good_bytes = good_bytes
        self.torn = torn
        self.damaged = damaged


def read_journal(data: bytes) -> Read:
    """Read journal bytes. The good lines are every complete line with a right checksum
    whose JSON is an object with the next sequence number; a bad line with a good one after
    it is damage (named, and skipped: the sequence goes on after it); bad bytes after the
    last good line are a torn tail."""
    entries: list[dict[str, Any]] = []
    damaged: list[tuple[int, str]] = []
    position = good = number = 0
    lines = data.split(b"\n")
    lines.pop()  # after the last newline: an unfinished line, or b""
    pending: list[tuple[int, str]] = []
    for raw in lines:
        number += 1
        position += len(raw) + 1
        entry = _entry(raw)
        if isinstance(entry, str):
            pending.append((number, entry))
            continue
        expected = entries[-1]["seq"] + 1 if entries else 0
        if entry["seq"] < expected:
            pending.append((number, f"its sequence number {entry['seq']} is out of place"))
            continue
        lost = entry["seq"] - expected - len(pending)  # beyond the damaged lines
        damaged.extend(pending)
        pending = []
        if lost > 0:
            damaged.append((number, f"{lost} entries before it are missing"))
        entries.append(entry)
        good = position
    return Read(entries, good, len(data) - good, damaged)


def _entry(raw: bytes) -> dict[str, Any] | str:
    if not checksum_ok(raw):
        return "its checksum does not match"
    try:
        entry = json.loads(raw[9:].decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return "it is not JSON text"
    if (type(entry) is not dict or type(entry.get("seq")) is not int
            or type(entry.get("kind")) is not str):
        return "it is not a journal entry"
    return entry


class Journal:
    """The journal of one results database, one object a process (:func:`journal_of`):
    the page and the subscriber append to it under its lock, in the order their
    transactions commit (each appends while it holds SQLite's write lock).

    ``generation`` counts the rebuilds of the database in this process: a connection made
    before the newest is to the file moved aside, and is made again
    (:func:`pegboard.club.heal.open_results`)."""

    def __init__(self, db_path: Path) -> None:
        self.db_path = db_path
        self.path = journal_path(db_path)
        self.lock = threading.RLock()
        self.generation = 0
        self.ready = False
        """Whether the journal was checked against the database in this process."""
        self.id = ""
        self.next_seq = 0
        self.notices: list[str] = []
        """What the healing said in this process, oldest first."""
        self._size = 0

    def load(self) -> Read:
        """Read the journal file (a missing one holds nothing); a torn tail is cut off."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            data = b""
        found = read_journal(data)
        if found.torn:
            with open(self.path, "r+b") as file:
                file.truncate(found.good_bytes)
                os.fsync(file.fileno())
        self._size = found.good_bytes
        self.id = str(found.entries[0].get("id", "")) if found.entries else ""
        self.next_seq = found.entries[-1]["seq"] + 1 if found.entries else 0
        return found

    def begin(self, base: str, *, name: str | None = None, now: float | None = None) -> None:
        """Start the journal afresh (the old one, if any, is replaced): its ``begin`` line,
        from the copy of the database whose digest is ``base`` ("" when from none); ``name``:
        the journal's id (made here when None)."""
        self.id = secrets.token_hex(8) if name is None else name
        line = encode_line({"seq": 0, "at": time.time() if now is None else now,
                            "kind": "begin", "id": self.id, "base": base})
        partial = self.path.with_name(self.path.name + ".partial")
        with open(partial, "wb") as file:
            file.write(line)
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, self.path)
        fsync_directory(self.path.parent)
        self._size = len(line)
        self.next_seq = 1

    def append(self, kind: str, fields: dict[str, Any], *, generation: int,
               now: float | None = None) -> tuple[int, int]:
        """Append one entry, written whole and synced, for a connection made in
        ``generation``: its sequence number and the journal's size before it. OSError when
        it cannot be (a full disk): the file is as it was; :class:`Stale` when the database was
        rebuilt since the connection was made (its transaction is on the file moved aside)."""
        with self.lock:
            if generation != self.generation:
                raise Stale(f"the results database {self.db_path} was rebuilt meanwhile")
            seq, before = self.next_seq, self._size
            line = encode_line({"seq": seq, "at": time.time() if now is None else now,
                                "kind": kind, **fields})
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC,
                         0o640)
            try:
                try:
                    written = os.write(fd, line)
                    if written != len(line):
                        raise OSError(28, "the journal line was written in part")
                    os.fdatasync(fd)
                except OSError:
                    with contextlib.suppress(OSError):
                        os.ftruncate(fd, self._size)
                    raise
            finally:
                os.close(fd)
            self._size += len(line)
            self.next_seq = seq + 1
            return seq, before

    def undo(self, seq: int, size: int, generation: int) -> None:
        """Take back the entry ``seq`` appended last, the journal ``size`` bytes before it
        (its transaction, on a connection made in ``generation``, did not commit). One a
        rebuild has replayed since stays: the rebuilt database holds it."""
        with self.lock:
            if self.next_seq != seq + 1 or generation != self.generation:
                return
            with contextlib.suppress(OSError):
                with open(self.path, "r+b") as file:
                    file.truncate(size)
                    os.fsync(file.fileno())
                self._size = size
                self.next_seq = seq

    @property
    def size(self) -> int:
        return self._size


_JOURNALS: dict[Path, Journal] = {}
_JOURNALS_LOCK = threading.Lock()


def journal_of(db_path: Path) -> Journal:
    """The one journal object of the results database ``db_path`` in this process."""
    key = db_path.resolve()
    with _JOURNALS_LOCK:
        found = _JOURNALS.get(key)
        if found is None:
            found = _JOURNALS[key] = Journal(db_path)
        return found


def forget(db_path: Path) -> None:
    """Forget the journal object of ``db_path`` (the database is checked again when next
    opened: a service started anew in the same process)."""
    with _JOURNALS_LOCK:
        _JOURNALS.pop(db_path.resolve(), None)
