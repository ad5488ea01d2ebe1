"""Following the game in progress as the device appends to it, reading only the new bytes.

The store's ``current.log`` only ever grows by whole lines while a game is played (see
docs/store.md); it is replaced (a new file) when a game starts or a damaged game is restored,
cut back when a failed write is taken back, and renamed into ``history/`` when the game ends.
:class:`Follower` keeps the file's identity (device and inode) and how many bytes it has read:

- same file, same size: nothing to do (one ``stat`` per poll, no read);
- same file, larger: read the bytes after the last whole line, apply each new line;
- another file, or a shorter one: start again from the top of the new file;
- no file: the game in progress has gone into the history (its finish line, if it was
  written before the move, has been read already).

Lines are checked as the store checks them (checksum and sequence number) and applied
through the rules engine, like a :class:`~pegboard.store.StoreReader` opened with the
engine's check: a line the engine refuses stops the game there, with the reason kept in
:attr:`Follower.problem`. Nothing is ever written.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pegboard.errors import PegboardError
from pegboard.record import parse_line
from pegboard.rules.events import Event, GameHeader, Undo
from pegboard.rules.game import Game
from pegboard.rules.state import Award
from pegboard.store.games import record_text
from pegboard.store.logfile import decode_any, open_regular
from pegboard.store.store import CURRENT_NAME

_CHUNK = 1 << 16


@dataclass(frozen=True, slots=True)
class Entry:
    """One applied record line: the entry and the awards it pegged."""

    line: int
    event: Event
    awards: tuple[Award, ...]


class Follower:
    """The game in ``directory/current.log``, kept up to date by :meth:`poll`."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self.path = self.directory / CURRENT_NAME
        self._reset(None)
        self.finished_id: str | None = None

    def _reset(self, key: tuple[int, int] | None) -> None:
        self._fd: int | None = None
        self._key = key
        self._offset = 0  # bytes of whole lines consumed
        self._seq = 0
        self.game: Game | None = None
        self.game_id: str | None = None
        self.started_at: float | None = None
        self.header: dict[str, Any] | None = None
        self.entries: list[Entry] = []  # in force (undone entries removed)
        self.lines = 0  # record lines read, header and undo lines included
        self.finish: dict[str, Any] | None = None
        self.problem: str | None = None
        self.updated_at: float | None = None  # the ``at`` of the last line read

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
                self.problem = f"{self.path} cannot be read: {error}"
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
        if self._fd is None or self.problem is not None:
            return False
        size = os.fstat(self._fd).st_size
        if size < self._offset:  # cut back (a failed write taken back): read it again
            self._reset_same_file()
        if size == self._offset:
            return False
        data = b""
        while len(data) < size - self._offset:
            chunk = os.pread(self._fd, min(_CHUNK, size - self._offset - len(data)),
                             self._offset + len(data))
            if not chunk:
                break
            data += chunk
        changed = False
        position = 0
        while self.problem is None:
            end = data.find(b"\n", position)
            if end < 0:
                break  # a line still being written (or a torn tail): read it once whole
            entry = decode_any(data[position:end])
            if entry is None or entry.get("seq") != self._seq:
                if end + 1 == len(data):
                    break  # a damaged last line: a torn write the writer will cut off
                self.problem = f"line {self._seq + 1} of {self.path} is damaged"
                changed = True
                break
            self._take(entry)
            changed = True
            self._seq += 1
            position = end + 1
        self._offset += position
        return changed

    def _reset_same_file(self) -> None:
        fd, key = self._fd, self._key
        self._reset(key)
        self._fd = fd

    def _take(self, entry: dict[str, Any]) -> None:
        at = entry.get("at")
        self.updated_at = float(at) if isinstance(at, int | float) else self.updated_at
        if "finish" in entry:
            self.finish = entry["finish"]
            return
        record = entry["record"]
        self.lines += 1
        number = self.lines
        try:
            item = parse_line(record_text(record), number)
            if self.game is None:
                if not isinstance(item, GameHeader):
                    raise PegboardError(f"line {number} is not the game line")
                self.game = Game.from_header(item)
                self.header = record
                game_id = entry.get("id")
                self.game_id = game_id if isinstance(game_id, str) else None
                self.started_at = self.updated_at
                self.finished_id = None
                return
            if isinstance(item, GameHeader):
                raise PegboardError(f"line {number} is a second game line")
            awards = self.game.apply(item)
        except PegboardError as error:
            self.problem = f"line {number} cannot be replayed ({error})"
            return
        except Exception as error:  # an engine bug must not stop the scoreboard
            self.problem = f"line {number} cannot be replayed ({type(error).__name__})"
            return
        if isinstance(item, Undo):
            if self.entries:
                self.entries.pop()
        else:
            self.entries.append(Entry(number, item, awards))
