"""The game store: the unfinished game and the history of finished ones, never lost.

A store is a directory::

    lock                     the writer's lock (see lock.py)
    current.log              the unfinished game, one synced line per accepted event
    history/<id>.log         each finished (or abandoned) game, same format, never changed again
    newest                   the name of the history file moved there last (a hint for a start)
    aside/<name>.log         games that could not be read whole, kept byte for byte

The log format is described in :mod:`pegboard.store.logfile`. A game is finished by appending
a ``finish`` line (its result) and then renaming the file into ``history/``; a crash between
the two is completed the next time the store is opened. What is kept of a damaged file, or of
one the engine cannot replay, is decided by :mod:`pegboard.store.recovery`.

The store keeps record lines (JSON objects, the first a ``game`` header) in the order they were
accepted. The device hands it the engine's values (a header, an event, the state a game ended
in): their record objects are made by the record's writer (:mod:`pegboard.record.writer`) and
their text once, as the log line is written, the one place the record's text is made; text or
objects from elsewhere (the command line, a restore) are checked first. Beyond that it is
engine-agnostic: and the caller decides what is legal and when a game is over
(and, through ``check``, which stored lines the engine can still replay). An undo is itself
recorded (``{"type": "undo"}``), so nothing that was recorded is ever lost.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pegboard import __version__, lazy, record
from pegboard.errors import StoreError
from pegboard.rules.value import Value
from pegboard.store.aside import (
    ASIDE_NAME,
    AsideGame,
    free_aside,
    timestamp,
)
from pegboard.store.games import (
    CurrentGame,
    FinishedGame,
    parse_record_line,
    record_text,
)
from pegboard.store.ids import check_id
from pegboard.store.logfile import (
    LogWriter,
    fsync_directory,
    read_regular,
)
from pegboard.store.opening import Opened
from pegboard.store.reader import CURRENT_NAME, HISTORY_NAME, StoreReader
from pegboard.store.recovery import Plan, Recovery, plan, plan_skipping_damage

if TYPE_CHECKING:
    from pegboard.store import index_rows
else:
    index_rows = lazy.module("pegboard.store.index_rows")

if TYPE_CHECKING:
    from pegboard.rules.events import Event, GameHeader
    from pegboard.rules.state import GameState

log = logging.getLogger(__name__)

__all__ = [
    "CURRENT_NAME",
    "HISTORY_NAME",
    "AsideGame",
    "CurrentGame",
    "FinishedGame",
    "Restored",
    "Store",
    "StoreReader",
    "parse_record_line",
    "record_text",
]


class Restored(Value):
    """What :meth:`Store.restore` did: the game now in the store (or, if it had finished, in
    the history), the recovery when only part of it came back, and where the game that was in
    progress went (``--set-aside-current``)."""

    __slots__ = ("game", "moved", "recovery")
    __match_args__ = ("game", "recovery", "moved")

    game: CurrentGame | FinishedGame
    recovery: Recovery | None
    moved: Path | None

    def __init__(
        self,
        game: CurrentGame | FinishedGame,
        recovery: Recovery | None,
        moved: Path | None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "game", game)
        setter(self, "recovery", recovery)
        setter(self, "moved", moved)


class Store(Opened):
    """The store opened for writing: holds the lock, recovers (see :class:`Opened`), and
    appends durably."""

    def new_game(self, header: GameHeader | str | Mapping[str, Any]) -> CurrentGame:
        """Start a game from its header (the engine's, or its record line); an unfinished
        game is kept as abandoned."""
        self._require_open()
        record = _record(header)
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
        game_id = f"{timestamp(now)}-{os.urandom(3).hex()}"
        path = self.directory / CURRENT_NAME
        try:
            self._writer = LogWriter.create(
                path, {"at": now, "id": game_id, "pegboard": __version__, "record": record}
            )
        except OSError as error:
            if isinstance(error, StoreError):
                raise
            raise StoreError(f"cannot create {path}: {error.strerror or error}") from None
        self._current = CurrentGame(game_id, path, (record,), (now,), seats=(None,))
        return self._current

    def append(self, line: Event | str | Mapping[str, Any], *,
               scores: Sequence[int] | None = None, seat: int | None = None) -> int:
        """Record one accepted event (the engine's, or its record line); returns only when
        it is on disk (its line number).

        ``scores``, the scores once the event is in force, are kept on its line so that the
        device can show them at start-up before it has loaded the engine (a hint only: the
        record is the truth, see :mod:`pegboard.store.peek`). ``seat``: the seat whose phone
        made the entry, kept on its line too (:attr:`CurrentGame.seats`).
        """
        lock = self._require_open()
        record = _record(line)
        game, writer = self._current, self._writer
        if game is None or writer is None:
            raise StoreError('no game in progress: start one first with its {"type": "game"} line')
        now = self._clock()
        entry: dict[str, Any] = {"at": now, "record": record}
        if scores is not None:
            entry["scores"] = [int(score) for score in scores]
        if seat is not None:
            entry["seat"] = int(seat)
        seq = writer.append(entry, guard=lock.check)
        known = len(game.seats) == len(game.records)
        self._current = CurrentGame(
            game.id, game.path, (*game.records, record), (*game.times, now),
            recovered=game.recovered, seats=(*game.seats, seat) if known else (),
        )
        return seq

    def undo(self, *, scores: Sequence[int] | None = None) -> int:
        """Record that the last event was taken back (the event itself stays in the log)."""
        return self.append({"type": "undo"}, scores=scores)

    def finish(self, result: GameState | Mapping[str, Any]) -> FinishedGame:
        """End the current game with ``result`` (the engine's table as the game ended, or
        a result object) and move it into the history."""
        lock = self._require_open()
        game, writer = self._current, self._writer
        if game is None or writer is None:
            raise StoreError("no game in progress to finish")
        if isinstance(result, Mapping):
            payload = dict(result)
            try:
                record_text(payload)
            except (TypeError, ValueError) as error:
                raise StoreError(f"cannot save the result as JSON: {error}") from None
        else:  # the writer's own object: JSON by construction
            payload = record.result_json(result)
        # Imported here: the statistics (the engine) are needed when a game ends, not at
        # start-up. They are kept on the finish line, so that the index can be made again
        # from the history without replaying every record.
        note = index_rows.summaries_note(game)
        now = self._clock()
        entry: dict[str, Any] = {"at": now, "finish": payload}
        if note is not None:
            entry["summaries"] = note
        writer.append(entry, guard=lock.check)
        writer.close()
        self._writer = None
        self._current = None
        try:
            archived = self._archive(
                FinishedGame(game.id, game.path, game.records, game.times,
                             recovered=game.recovered, result=payload, finished_at=now,
                             summaries=note)
            )
        except OSError as error:
            raise StoreError(
                f"the game is finished but could not be moved into the history "
                f"({error.strerror or error}); it will be on the next start"
            ) from None
        return archived

    def set_aside_current(self, reason: str) -> Path | None:
        """Move the unfinished game whole into ``aside/`` (a record the engine cannot
        replay); ``reason`` says why, in :attr:`notices` and :attr:`recoveries`."""
        self._require_open()
        game = self._current
        if game is None:
            return None
        self._let_go_of_current()
        return self._put_aside(game.path, reason, game.id, len(game.records))

    def restore(self, name: str, *, skip_damaged: bool = False,
                set_aside_current: bool = False) -> Restored:
        """Bring the set-aside game ``name`` back as the current game.

        What comes back is what :func:`~pegboard.store.recovery.plan` keeps of it (with
        ``skip_damaged``, :func:`~pegboard.store.recovery.plan_skipping_damage`). When all
        of it comes back the file leaves ``aside/``; otherwise it stays there, whole. A game
        in progress is never overwritten: without ``set_aside_current`` the restore is
        refused, with it that game goes into ``aside/`` first.
        """
        self._require_open()
        path = self.directory / ASIDE_NAME / f"{check_id(name, 'set-aside game')}.log"
        try:
            data = read_regular(path)
        except OSError as error:
            raise StoreError(f"cannot read {path}: {error}") from None
        if data is None:
            raise StoreError(f"there is no set-aside game {name!r} in {self.directory}; "
                             "`pegboard game repair` lists them")
        kept: Plan = (plan_skipping_damage if skip_damaged else plan)(data, self._check)
        if not kept.entries:
            hint = "" if skip_damaged else " (--skip-damaged leaves damaged lines out)"
            raise StoreError(f"nothing of {name} can be restored: {kept.problem}{hint}; "
                             f"it stays in {ASIDE_NAME}/")
        moved = None
        current = self._current
        if current is not None:
            if not set_aside_current:
                raise StoreError(
                    f"a game is in progress ({current.id}, {current.events} entries): finish "
                    f"it first, or add --set-aside-current to keep it in {ASIDE_NAME}/ and "
                    f"restore {name} in its place"
                )
            self._let_go_of_current()
            moved = free_aside(self.directory, current.id, self._clock)
            os.rename(current.path, moved)
            fsync_directory(moved.parent)
            self._notice(f"the game in progress {current.id} ({current.events} entries) was "
                         f"set aside as {ASIDE_NAME}/{moved.name}; `pegboard game restore "
                         f"{moved.stem}` brings it back")
        recovery = None if kept.whole else kept.recovery(f"{ASIDE_NAME}/{path.name}")
        game = self._write_current(kept.entries, recovery)
        if kept.whole:  # every line is in current.log now, synced: the copy is not needed
            path.unlink()
            fsync_directory(path.parent)
        if isinstance(game, FinishedGame):
            game = self._archive(game)
        else:
            self._take(game)
        return Restored(game, recovery, moved)


def _record(line: Event | GameHeader | str | Mapping[str, Any]) -> dict[str, Any]:
    """The record object of a line: the writer's for the engine's values (JSON by
    construction, so no text is made here: the log line is its one encoding), or a line
    from elsewhere checked by :func:`parse_record_line`."""
    if isinstance(line, str | Mapping):
        return parse_record_line(line)
    return record.dump(line)
