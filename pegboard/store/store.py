"""The game store: the unfinished game and the history of finished ones, never lost.

A store is a directory::

    lock                     the writer's lock (see lock.py)
    current.log              the unfinished game, one synced line per accepted event
    history/<id>.log         each finished (or abandoned) game, same format, never changed again
    *.unreadable-<time>      files that could not be read, kept aside for inspection

The log format is described in :mod:`pegboard.store.logfile`. A game is finished by appending
a ``finish`` line (its result) and then renaming the file into ``history/``; a crash between
the two is completed the next time the store is opened.

The store is engine-agnostic: it keeps record lines (JSON objects, the first a ``game`` header)
in the order they were accepted, and the caller decides what is legal and when a game is over.
An undo is itself recorded (``{"type": "undo"}``), so nothing that was recorded is ever lost.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pegboard.errors import StoreError
from pegboard.store.lock import StoreLock
from pegboard.store.logfile import LogWriter, fsync_directory, scan

log = logging.getLogger(__name__)

CURRENT_NAME = "current.log"
HISTORY_NAME = "history"


def record_text(record: Mapping[str, Any]) -> str:
    """One record line as JSON text, in the record's usual spacing.

    >>> record_text({"type": "peg", "player": 0, "points": 2})
    '{"type": "peg", "player": 0, "points": 2}'
    """
    return json.dumps(record, ensure_ascii=False, allow_nan=False)


def parse_record_line(line: str | Mapping[str, Any]) -> dict[str, Any]:
    """A record line as a JSON object with a string ``type``, or a clear StoreError."""
    if isinstance(line, Mapping):
        record = dict(line)
    else:
        try:
            record = json.loads(line)
        except ValueError as error:
            raise StoreError(f"not a JSON record line ({error}): {line!r}") from None
    if not isinstance(record, dict) or not isinstance(record.get("type"), str):
        raise StoreError(
            f'a record line must be a JSON object with a "type", like {{"type": "undo"}}: '
            f"{line!r}"
        )
    try:
        record_text(record)
    except (TypeError, ValueError) as error:
        raise StoreError(f"cannot be saved as JSON ({error}): {line!r}") from None
    return record


@dataclass(frozen=True)
class _Game:
    id: str
    path: Path
    records: tuple[dict[str, Any], ...]
    times: tuple[float, ...]

    @property
    def lines(self) -> tuple[str, ...]:
        """The record lines as JSON text, header first, undo lines included."""
        return tuple(record_text(record) for record in self.records)

    @property
    def record(self) -> str:
        """The whole record as JSON Lines text (what ``pegboard replay`` reads)."""
        return "".join(line + "\n" for line in self.lines)

    @property
    def header(self) -> dict[str, Any]:
        """The record's first line, ``{"type": "game", ...}``."""
        return self.records[0]

    @property
    def players(self) -> list[Any]:
        """The players named in the header (empty if it names none)."""
        players = self.header.get("players", [])
        return list(players) if isinstance(players, list) else []

    @property
    def rules(self) -> dict[str, Any]:
        """The rules given in the header (the engine's defaults apply to the rest)."""
        rules = self.header.get("rules", {})
        return dict(rules) if isinstance(rules, dict) else {}

    @property
    def started_at(self) -> float:
        """When the game was started (Unix seconds)."""
        return self.times[0]

    @property
    def events(self) -> int:
        """How many lines follow the header (undo lines count as lines too)."""
        return len(self.records) - 1


@dataclass(frozen=True)
class CurrentGame(_Game):
    """The unfinished game: its record so far, with the time each line was accepted."""


@dataclass(frozen=True)
class FinishedGame(_Game):
    """A game in the history: the full record, when each line was made, and the result.

    ``result`` is what the caller passed to :meth:`Store.finish` — for a game played out,
    the engine's result (scores, winner, skunk, game points); ``{"abandoned": true, ...}``
    when a new game was started before this one ended.
    """

    result: dict[str, Any] = field(default_factory=dict)
    finished_at: float = 0.0

    @property
    def abandoned(self) -> bool:
        """Whether the game was left unfinished (a new game was started instead)."""
        return self.result.get("abandoned") is True


def _game_from_entries(
    entries: list[dict[str, Any]], path: Path
) -> CurrentGame | FinishedGame | None:
    """Turn good log entries into a game; None if they do not make one."""
    if not entries or "record" not in entries[0] or entries[0]["record"].get("type") != "game":
        return None
    body = entries[:-1] if "finish" in entries[-1] else entries
    if any("record" not in entry for entry in body):
        return None
    game_id = str(entries[0].get("id") or path.stem)
    records = tuple(entry["record"] for entry in body)
    times = tuple(float(entry["at"]) for entry in body)
    if "finish" in entries[-1]:
        return FinishedGame(
            game_id,
            path,
            records,
            times,
            result=dict(entries[-1]["finish"]),
            finished_at=float(entries[-1]["at"]),
        )
    return CurrentGame(game_id, path, records, times)


def _timestamp(now: float) -> str:
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(now))


class StoreReader:
    """Read a store without changing it (no lock needed: a writer may be running).

    A torn tail is ignored, not cut; damaged files are reported in :attr:`notices` and left
    where they are for the writer to set aside.
    """

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self.notices: list[str] = []
        self._current: CurrentGame | None = None
        self._leftover: FinishedGame | None = None
        if not self.directory.exists():
            return
        if not self.directory.is_dir():
            raise StoreError(f"the store {self.directory} is not a directory")
        game = self._read_log(self.directory / CURRENT_NAME)
        if isinstance(game, CurrentGame):
            self._current = game
        elif isinstance(game, FinishedGame):  # finished but not yet moved (a crash between)
            self._leftover = game

    def _read_log(self, path: Path) -> CurrentGame | FinishedGame | None:
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as error:
            raise StoreError(f"cannot read {path}: {error.strerror or error}") from None
        result = scan(data)
        game = _game_from_entries(result.entries, path) if not result.damaged else None
        if result.damaged:
            self.notices.append(f"{path} cannot be read: {result.damaged}")
        elif game is None and result.entries:
            self.notices.append(f"{path} cannot be read: it does not start with a game header")
        return game

    def current(self) -> CurrentGame | None:
        """The unfinished game, or None."""
        return self._current

    def history(self) -> list[FinishedGame]:
        """Every finished or abandoned game, oldest first, with full records and results."""
        games: list[FinishedGame] = []
        folder = self.directory / HISTORY_NAME
        paths = sorted(folder.glob("*.log")) if folder.is_dir() else []
        for path in paths:
            game = self._read_log(path)
            if isinstance(game, FinishedGame):
                games.append(game)
            elif game is not None:
                self.notices.append(f"{path} has no finish line; it was not counted")
        if self._leftover is not None:
            games.append(self._leftover)
        games.sort(key=lambda game: (game.started_at, game.id))
        return games


class Store(StoreReader):
    """The store opened for writing: holds the lock, recovers, and appends durably.

    Opening cuts a torn tail off the unfinished game, completes a finish that a crash
    interrupted, and sets aside a file that cannot be read — each reported in
    :attr:`notices` (and logged) — so a new game can always start.
    """

    def __init__(
        self,
        directory: str | os.PathLike[str],
        *,
        owner: str = "pegboard",
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.directory = Path(directory)
        self.notices = []
        self._clock = clock
        self._current = None
        self._leftover = None
        self._writer: LogWriter | None = None
        try:
            self.directory.mkdir(mode=0o750, parents=True, exist_ok=True)
            (self.directory / HISTORY_NAME).mkdir(mode=0o750, exist_ok=True)
        except OSError as error:
            raise StoreError(
                f"cannot use {self.directory} as the game store: {error.strerror or error}"
            ) from None
        self._lock: StoreLock | None = StoreLock(self.directory, owner)
        try:
            self._recover()
        except StoreError:
            self.close()
            raise
        except OSError as error:
            self.close()
            raise StoreError(
                f"cannot recover the store at {self.directory}: {error.strerror or error}"
            ) from None
        except BaseException:
            self.close()
            raise

    # -- opening ---------------------------------------------------------------------------

    def _recover(self) -> None:
        path = self.directory / CURRENT_NAME
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return
        except OSError as error:
            raise StoreError(f"cannot read {path}: {error.strerror or error}") from None
        result = scan(data)
        if result.damaged:
            self._set_aside(path, result.damaged)
            return
        if not result.entries:
            # Never acknowledged: the power went while the game was being created.
            path.unlink()
            fsync_directory(self.directory)
            return
        game = _game_from_entries(result.entries, path)
        if game is None:
            self._set_aside(path, "it does not start with a game header")
            return
        if result.torn_bytes:
            os.truncate(path, result.good_bytes)
            with open(path, "rb+") as stream:
                os.fsync(stream.fileno())
            self._notice(
                f"cut off an unfinished write at the end of {path} ({result.torn_bytes} bytes; "
                "it was never confirmed)"
            )
        if isinstance(game, FinishedGame):
            self._archive(game)
            return
        self._current = game
        self._writer = LogWriter(path, len(result.entries))

    def _notice(self, text: str) -> None:
        self.notices.append(text)
        log.warning("%s", text)

    def _set_aside(self, path: Path, reason: str) -> Path:
        aside = path.with_name(f"{path.name}.unreadable-{_timestamp(self._clock())}")
        while aside.exists():
            aside = aside.with_name(aside.name + "-" + secrets.token_hex(2))
        os.rename(path, aside)
        fsync_directory(path.parent)
        self._notice(f"{path} could not be read ({reason}); it was moved to {aside}")
        return aside

    def _archive(self, game: FinishedGame) -> FinishedGame:
        target = self.directory / HISTORY_NAME / f"{game.id}.log"
        while target.exists():
            target = target.with_name(f"{target.stem}-{secrets.token_hex(2)}.log")
        os.rename(game.path, target)
        fsync_directory(target.parent)
        fsync_directory(self.directory)
        return FinishedGame(
            game.id, target, game.records, game.times,
            result=game.result, finished_at=game.finished_at,
        )

    # -- writing ---------------------------------------------------------------------------

    def _require_open(self) -> None:
        if self._lock is None:
            raise StoreError(f"the store at {self.directory} is closed")

    def new_game(self, header: str | Mapping[str, Any]) -> CurrentGame:
        """Start a game from its record header; an unfinished game is kept as abandoned."""
        self._require_open()
        record = parse_record_line(header)
        if record["type"] != "game":
            raise StoreError(
                f'a new game starts with its header line {{"type": "game", ...}}, '
                f"not {record_text(record)!r}"
            )
        if self._current is not None:
            abandoned = self.finish({"abandoned": True})
            self._notice(
                f"the unfinished game {abandoned.id} ({abandoned.events} events) was kept in "
                "the history as abandoned"
            )
        now = self._clock()
        game_id = f"{_timestamp(now)}-{secrets.token_hex(3)}"
        path = self.directory / CURRENT_NAME
        try:
            self._writer = LogWriter.create(path, {"at": now, "id": game_id, "record": record})
        except OSError as error:
            raise StoreError(f"cannot create {path}: {error.strerror or error}") from None
        self._current = CurrentGame(game_id, path, (record,), (now,))
        return self._current

    def append(self, line: str | Mapping[str, Any]) -> int:
        """Record one accepted event; returns only when it is on disk (its line number)."""
        self._require_open()
        record = parse_record_line(line)
        game, writer = self._current, self._writer
        if game is None or writer is None:
            raise StoreError('no game in progress: start one first with its {"type": "game"} line')
        now = self._clock()
        seq = writer.append({"at": now, "record": record})
        self._current = CurrentGame(
            game.id, game.path, (*game.records, record), (*game.times, now)
        )
        return seq

    def undo(self) -> int:
        """Record that the last event was taken back (the event itself stays in the log)."""
        return self.append({"type": "undo"})

    def finish(self, result: Mapping[str, Any]) -> FinishedGame:
        """End the current game with ``result`` and move it into the history."""
        self._require_open()
        game, writer = self._current, self._writer
        if game is None or writer is None:
            raise StoreError("no game in progress to finish")
        payload = dict(result)
        try:
            json.dumps(payload, allow_nan=False)
        except (TypeError, ValueError) as error:
            raise StoreError(f"cannot save the result as JSON: {error}") from None
        now = self._clock()
        writer.append({"at": now, "finish": payload})
        writer.close()
        self._writer = None
        self._current = None
        try:
            return self._archive(
                FinishedGame(game.id, game.path, game.records, game.times,
                             result=payload, finished_at=now)
            )
        except OSError as error:
            raise StoreError(
                f"the game is finished but could not be moved into the history "
                f"({error.strerror or error}); it will be on the next start"
            ) from None

    def set_aside_current(self, reason: str) -> Path | None:
        """Move the unfinished game out of the way (for a record the engine cannot replay)."""
        self._require_open()
        if self._current is None:
            return None
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        path = self._current.path
        self._current = None
        return self._set_aside(path, reason)

    def close(self) -> None:
        """Release the lock (everything appended is already on disk)."""
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
