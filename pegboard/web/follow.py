"""Following the game in progress as the device appends to it, reading only the new bytes.

The store's ``current.log`` only ever grows by whole lines while a game is played (see
docs/store.md); it is replaced (a new file) when a game starts or a damaged game is restored,
cut back when a failed write is taken back, and renamed into ``history/`` when the game ends.
:class:`Follower` keeps the file's identity (device and inode) and how many bytes it has read:

- same file, same size: nothing to do (one ``stat`` per poll, no read);
- same file, larger: read only the bytes after those already read (a line still being
  written is kept and completed by the next bytes, never read again), apply each new line;
- same file, shorter (a failed write taken back): the lines after the last good one go;
- another file: start again from the top of the new file;
- no file: the game in progress has gone into the history (its finish line, if it was
  written before the move, has been read already).

Lines are checked as the store checks them (checksum, sequence number, the bounded JSON
reader) and read through the one record reader into the rules engine. The follower never
stops on a line: a line it cannot use (damaged, or refused by the engine) is set aside with a
message in :attr:`Follower.problems` (the newest in :attr:`Follower.problem`), and the lines
after it keep coming. A damaged last line is only judged once the next line arrives, since it
may be a torn write the writer is about to cut off. Nothing is ever written.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pegboard.errors import PegboardError
from pegboard.record.reader import Replayer, reason
from pegboard.rules.events import Event, GameHeader, Undo
from pegboard.rules.facts import Report
from pegboard.rules.game import Game
from pegboard.rules.state import Award
from pegboard.rules.value import Value
from pegboard.store.lines import MAX_LOG_LINE, checksum_ok, read_line
from pegboard.store.logfile import open_regular
from pegboard.store.reader import CURRENT_NAME

_CHUNK = 1 << 16
_HEAD = 32  # bytes of an unconfirmed line checked again (its checksum, seq and time)
MAX_PROBLEMS = 20
"""The most problems kept for one game (the newest; a file of garbage must not fill memory)."""


class Entry(Value):
    """One applied record line: the entry and the engine's report of it."""

    __slots__ = ("event", "line", "report")
    __match_args__ = ("line", "event", "report")

    line: int
    event: Event
    report: Report

    def __init__(self, line: int, event: Event, report: Report) -> None:
        setter = object.__setattr__
        setter(self, "line", line)
        setter(self, "event", event)
        setter(self, "report", report)

    @property
    def awards(self) -> tuple[Award, ...]:
        """The awards the entry pegged, from its report."""
        return self.report.awards


class Follower:
    """The game in ``directory/current.log``, kept up to date by :meth:`poll`."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self.path = self.directory / CURRENT_NAME
        self._fd: int | None = None
        self._reset(None)
        self.finished_id: str | None = None

    def _reset(self, key: tuple[int, int] | None) -> None:
        self._key = key
        self._good_end = 0  # file offset after the last line taken (or set aside)
        self._read_to = 0  # file offset up to which bytes were read
        self._pending = bytearray()  # bytes read after the last whole line
        self._skipping = False  # the line being read is too long: drop it to its newline
        self._suspect: tuple[bytes, int, str] | None = None  # a damaged whole line:
        # its bytes, the offset of its end, and why it cannot be used
        self._seq = 0
        self._replayer = Replayer()
        self.game_id: str | None = None
        self.started_at: float | None = None
        self.header: dict[str, Any] | None = None
        self.entries: list[Entry] = []  # in force (undone entries removed)
        self.lines = 0  # record lines read, header and undo lines included
        self.finish: dict[str, Any] | None = None
        self.problems: list[str] = []
        """Each line set aside since this game's file was opened, oldest first (at most
        :data:`MAX_PROBLEMS`): what the page and ``/api/game`` show as the game's problem."""
        self.updated_at: float | None = None  # the ``at`` of the last line read

    @property
    def game(self) -> Game | None:
        """The engine's game with every line taken so far (None before a header)."""
        return self._replayer.game

    @property
    def problem(self) -> str | None:
        """The newest line set aside, or None when every line was used."""
        return self.problems[-1] if self.problems else None

    def _set_aside(self, why: str) -> None:
        self.problems.append(why)
        del self.problems[:-MAX_PROBLEMS]

    def poll(self) -> bool:
        """Bring the game up to date with the file; True when anything changed."""
        try:
            status = os.stat(self.path, follow_symlinks=False)
        except FileNotFoundError:
            status = None
        key = (status.st_dev, status.st_ino) if status is not None else None
        changed = False
        if self._fd is not None and key != self._key:
            # The file was moved into the history or replaced: what was appended before
            # that is still to be read from the file we hold open.
            changed = self._read()
            self._close()
            if key is None:
                self.finished_id = self.game_id
                self._key = None
                return True
        if key is None:
            return changed
        if key != self._key:
            had_game = self.game is not None
            self._reset(key)
            try:
                self._fd = open_regular(self.path, os.O_RDONLY)
            except FileNotFoundError:
                self._key = None
                return changed or had_game
            except OSError as error:  # a link or another odd file under the name
                self._set_aside(f"{self.path} cannot be read: {error}")
                return True
            return self._read() or had_game or changed
        return self._read() or changed

    def _close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def close(self) -> None:
        """Let go of the file."""
        self._close()

    def _read(self) -> bool:
        """Read the bytes not read yet and take every whole line among them."""
        if self._fd is None:
            return False
        size = os.fstat(self._fd).st_size
        changed = False
        if size < self._read_to:
            changed = self._cut_back(size)
        elif not self._same_start():
            self._cut_back(self._good_end)
        while self._read_to < size:
            chunk = os.pread(self._fd, min(_CHUNK, size - self._read_to), self._read_to)
            if not chunk:
                break
            self._read_to += len(chunk)
            changed = self._feed(chunk) or changed
        return changed

    def _same_start(self) -> bool:
        """Whether the bytes read after the last good line are still in the file: a failed
        write taken back and the next line written in its place between two polls leave the
        size as it was, but not the checksum at the start of the line."""
        head = self._suspect[0] if self._suspect is not None else bytes(self._pending)
        head = head[:_HEAD]
        if not head or self._fd is None:
            return True
        return os.pread(self._fd, len(head), self._good_end) == head

    def _cut_back(self, size: int) -> bool:
        """The file is shorter: the writer took back a failed write after its last good line
        (anything before that is never cut: then the file is read again from the top)."""
        if size < self._good_end:
            fd, key = self._fd, self._key
            self._reset(key)
            self._fd = fd
            return True
        self._pending.clear()
        self._skipping = False
        self._suspect = None
        self._read_to = self._good_end
        return False

    def _feed(self, chunk: bytes) -> bool:
        """Take the whole lines that ``chunk`` completes (each byte is looked at once)."""
        changed = False
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            if end < 0:
                break
            if self._skipping:
                self._skipping = False
                self._pending.clear()
                self._good_end = self._read_to - len(chunk) + end + 1
                start = end + 1
                continue
            self._pending += chunk[start:end]
            line = bytes(self._pending)
            self._pending.clear()
            changed = self._line(line, self._read_to - len(chunk) + end + 1) or changed
            start = end + 1
        rest = chunk[start:]
        if self._skipping or not rest:
            return changed
        self._pending += rest
        if len(self._pending) > MAX_LOG_LINE:
            # No line this long can be used: say so now, and drop it up to its newline
            # instead of holding (and re-reading) megabytes.
            self._judge_suspect()
            self._set_aside(f"line {self._seq + 1} of {self.path} is longer than "
                            f"{MAX_LOG_LINE:,} bytes; it was set aside")
            self._seq += 1
            self._skipping = True
            self._pending.clear()
            changed = True
        return changed

    def _judge_suspect(self) -> None:
        """A damaged line followed by more: damage, not a torn write; set it aside."""
        if self._suspect is not None:
            _, end, why = self._suspect
            self._suspect = None
            self._set_aside(f"line {self._seq + 1} of {self.path} is damaged ({why}); it "
                            "was set aside")
            self._seq += 1
            self._good_end = end

    def _line(self, raw: bytes, end: int) -> bool:
        """Take one whole line ending at file offset ``end``; True if anything changed."""
        self._judge_suspect()
        entry = read_line(raw)
        if isinstance(entry, str) or entry["seq"] != self._seq:
            why = entry if isinstance(entry, str) else (
                f"its sequence number is {entry['seq']}, not {self._seq}")
            if isinstance(entry, str) and not checksum_ok(raw):
                self._suspect = (raw, end, why)  # maybe a torn write: judged by what follows
                return False
            self._set_aside(f"line {self._seq + 1} of {self.path} cannot be read ({why}); "
                            "it was set aside")
        else:
            self._take(entry)
        self._seq += 1
        self._good_end = end
        return True

    def _take(self, entry: dict[str, Any]) -> None:
        at = entry["at"]
        self.updated_at = float(at)
        if "finish" in entry:
            self.finish = entry["finish"]
            return
        record = entry["record"]
        self.lines += 1
        number = self._seq + 1
        try:
            taken = self._replayer.apply(record, number)
        except PegboardError as error:
            self._set_aside(f"line {number} cannot be replayed ({reason(error, number)}); "
                            "it was set aside")
            return
        except Exception as error:  # an engine bug must not stop the scoreboard
            self._set_aside(f"line {number} cannot be replayed ({type(error).__name__}); it "
                            "was set aside")
            return
        if taken is None:
            return
        item, report = taken
        if isinstance(item, GameHeader) or report is None:
            self.header = record
            game_id = entry.get("id")
            self.game_id = game_id if isinstance(game_id, str) else None
            self.started_at = self.updated_at
            self.finished_id = None
        elif isinstance(item, Undo):
            if self.entries:
                self.entries.pop()
        else:
            self.entries.append(Entry(number, item, report))

