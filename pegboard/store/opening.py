"""Opening a store for writing: the directory made and locked, and whatever a crash or damage
left put right before anything is written (:class:`Opened`, which :class:`~pegboard.store.
store.Store` extends with the writing itself)."""

from __future__ import annotations

import logging
import os
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from pegboard import lazy
from pegboard.errors import StoreError
from pegboard.store.aside import (
    ASIDE_NAME,
    PARTIAL,
    free_aside,
    keep_copy,
    move_legacy_asides,
    named,
)
from pegboard.store.games import CurrentGame, FinishedGame, game_from_entries
from pegboard.store.ids import check_id
from pegboard.store.lock import StoreLock
from pegboard.store.logfile import (
    LogWriter,
    encode_line,
    file_problem,
    fsync_directory,
    open_regular,
    read_regular,
    write_new_file,
)
from pegboard.store.reader import (
    CURRENT_NAME,
    HISTORY_NAME,
    StoreReader,
    note_newest,
    noted_newest,
)
from pegboard.store.recovery import Check, Recovery, plan

if TYPE_CHECKING:
    from pegboard.store import index as store_index
else:
    store_index = lazy.module("pegboard.store.index")

log = logging.getLogger(__name__)

SALVAGE_NAME = "current.log.new"  # a restored game being written, renamed over current.log


class Opened(StoreReader):
    """The store opened for writing: holds the lock, recovers, and appends durably.

    Opening cuts a torn tail off the unfinished game, completes a finish that a crash
    interrupted, and restores what can be restored of a damaged game (or one the ``check``
    refuses), keeping the whole file in ``aside/`` — each reported in :attr:`notices` and
    :attr:`recoveries` (and logged) — so a new game can always start.
    """

    def __init__(
        self,
        directory: str | os.PathLike[str],
        *,
        owner: str = "pegboard",
        clock: Callable[[], float] = time.time,
        check: Check | None = None,
    ) -> None:
        self.directory = Path(directory)
        self.notices = []
        self.recoveries = []
        self._check = check
        self._clock = clock
        self._current = None
        self._leftover = None
        self._writer: LogWriter | None = None
        self._lock: StoreLock | None = None
        try:
            self.directory.mkdir(mode=0o750, parents=True, exist_ok=True)
            _check_owner(self.directory)
            for name in (HISTORY_NAME, ASIDE_NAME):
                folder = self.directory / name
                folder.mkdir(mode=0o750, exist_ok=True)
                _check_folder(folder)
        except OSError as error:
            if isinstance(error, StoreError):
                raise
            raise StoreError(
                f"cannot use {self.directory} as the game store: {error.strerror or error}"
            ) from None
        self._lock = StoreLock(self.directory, owner)
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

    def _note_newest(self) -> None:
        """A store kept before the newest game was noted (or whose note names a file gone)
        gets its note now: the history is listed this once, and every later start reads the
        note."""
        noted = noted_newest(self.directory)
        if noted is not None and os.path.isfile(self.directory / HISTORY_NAME / noted):
            return
        newest = self.newest_kept()
        if newest is not None and newest != noted:
            try:
                note_newest(self.directory, newest)
            except OSError as error:
                log.warning("the newest game kept was not noted: %s", error)

    def _recover(self) -> None:
        move_legacy_asides(self.directory, self._clock)
        self._note_newest()
        # Files being written when a crash came: each is only ever a copy of something that
        # is still in place, so they go.
        for stale in [self.directory / SALVAGE_NAME,
                      *named(self.directory / ASIDE_NAME, end=PARTIAL)]:
            if os.path.lexists(stale):
                os.unlink(stale)
        path = self.directory / CURRENT_NAME
        try:
            problem = file_problem(os.lstat(path))
        except FileNotFoundError:
            return
        if problem is not None:
            self._put_aside(path, f"{CURRENT_NAME} {problem}", None, 0)
            return
        data = read_regular(path)
        if data is None:
            return
        kept = plan(data, self._check)
        game = kept.game_at(path)
        if game is None:
            if kept.problem is None:
                # Never acknowledged: the power went while the game was being created.
                path.unlink()
                fsync_directory(self.directory)
                return
            self._put_aside(path, kept.problem, kept.game_id, kept.total)
            return
        if kept.problem is not None:
            copy = keep_copy(self.directory, data, kept.game_id, self._clock)
            recovery = kept.recovery(f"{ASIDE_NAME}/{copy.name}")
            game = self._write_current(kept.entries, recovery)
            self._recovered(recovery)
        elif kept.torn:
            fd = open_regular(path, os.O_WRONLY)
            try:
                os.ftruncate(fd, len(data) - kept.torn)
                os.fsync(fd)
            finally:
                os.close(fd)
            self._notice(
                f"cut off an unfinished write at the end of {path} ({kept.torn} bytes; "
                "it was never confirmed)"
            )
        self._take(game)

    def _take(self, game: CurrentGame | FinishedGame | None) -> None:
        """Make ``game`` (just read from current.log) the store's: archive it if finished."""
        if isinstance(game, FinishedGame):
            self._archive(game)
        elif game is not None:
            self._current = game
            self._writer = LogWriter(game.path, len(game.records))

    def _notice(self, text: str) -> None:
        self.notices.append(text)
        log.warning("%s", text)

    def _recovered(self, recovery: Recovery) -> None:
        self.recoveries.append(recovery)
        self._notice(recovery.message())

    def _put_aside(self, path: Path, reason: str, game_id: str | None, total: int) -> Path:
        """Move a whole file into ``aside/`` (renamed, never opened for writing)."""
        target = free_aside(self.directory, game_id, self._clock)
        os.rename(path, target)
        fsync_directory(target.parent)
        fsync_directory(path.parent)
        self._recovered(Recovery(game_id, 0, total, reason, f"{ASIDE_NAME}/{target.name}"))
        return target

    def _write_current(self, entries: list[dict[str, Any]], recovery: Recovery | None
                       ) -> CurrentGame | FinishedGame:
        """Replace current.log by ``entries`` (a restored game) in one rename.

        The new file is written and synced under another name first, so after a crash the
        store holds either the old file or the whole new one.
        """
        first = {key: value for key, value in entries[0].items() if key != "recovered"}
        if recovery is not None:
            first["recovered"] = recovery.note()
        entries = [first, *entries[1:]]
        temporary = self.directory / SALVAGE_NAME
        if os.path.lexists(temporary):
            os.unlink(temporary)
        write_new_file(temporary, b"".join(encode_line(entry) for entry in entries))
        os.rename(temporary, self.directory / CURRENT_NAME)
        fsync_directory(self.directory)
        game = game_from_entries(entries, self.directory / CURRENT_NAME)
        assert game is not None  # the plan kept a header and at least one entry
        return game

    def _archive(self, game: FinishedGame) -> FinishedGame:
        target = self.directory / HISTORY_NAME / f"{check_id(game.id)}.log"
        number = 2
        while os.path.lexists(target):
            target = target.with_name(f"{game.id[:56]}-{number}.log")
            number += 1
        os.rename(game.path, target)
        fsync_directory(target.parent)
        try:
            note_newest(self.directory, target.name)
        except OSError as error:  # a hint: the next start finds the newest game by listing
            log.warning("the newest game kept was not noted: %s", error)
        fsync_directory(self.directory)
        archived = FinishedGame(
            game.id, target, game.records, game.times, recovered=game.recovered,
            result=game.result, finished_at=game.finished_at, summaries=game.summaries,
        )
        # Imported here: the index (SQLite, the statistics) is needed when a game ends, not
        # at start-up.
        store_index.add_finished(self.directory, archived)
        return archived

    def _require_open(self) -> StoreLock:
        if self._lock is None:
            raise StoreError(f"the store at {self.directory} is closed")
        self._lock.check()
        return self._lock

    def _let_go_of_current(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        self._current = None

    def close(self) -> None:
        """Release the lock (everything appended is already on disk)."""
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _check_folder(folder: Path) -> None:
    """``history/`` and ``aside/`` must be real directories of this user: files are written
    into them by name, and a link in their place would take the writes elsewhere."""
    status = os.lstat(folder)
    if not stat.S_ISDIR(status.st_mode) or status.st_uid != os.geteuid():
        raise StoreError(
            f"{folder} is not a directory of this user (a link, a file, or another user's); "
            "move it out of the store and start Pegboard again"
        )


def _check_owner(directory: Path) -> None:
    """A writer must own the store directory: files it made in another user's store would
    belong to it, and that user (the service) could not write them any more."""
    owner = os.stat(directory).st_uid
    if owner != os.geteuid():
        raise StoreError(
            f"the store {directory} belongs to user id {owner}, not to this user (id "
            f"{os.geteuid()}): run Pegboard as that user (for the service's store: "
            "`sudo -u pegboard pegboard game ...`)"
        )
