"""The game store: the unfinished game and the history of finished ones, never lost.

A store is a directory::

    lock                     the writer's lock (see lock.py)
    current.log              the unfinished game, one synced line per accepted event
    history/<id>.log         each finished (or abandoned) game, same format, never changed again
    aside/<name>.log         games that could not be read whole, kept byte for byte

The log format is described in :mod:`pegboard.store.logfile`. A game is finished by appending
a ``finish`` line (its result) and then renaming the file into ``history/``; a crash between
the two is completed the next time the store is opened. What is kept of a damaged file, or of
one the engine cannot replay, is decided by :mod:`pegboard.store.recovery`.

The store is engine-agnostic: it keeps record lines (JSON objects, the first a ``game`` header)
in the order they were accepted, and the caller decides what is legal and when a game is over
(and, through ``check``, which stored lines the engine can still replay). An undo is itself
recorded (``{"type": "undo"}``), so nothing that was recorded is ever lost.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import stat
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pegboard import __version__
from pegboard.errors import StoreError
from pegboard.store.games import (
    CurrentGame,
    FinishedGame,
    game_from_entries,
    parse_record_line,
    record_text,
)
from pegboard.store.ids import check_id, is_valid_id
from pegboard.store.lock import StoreLock
from pegboard.store.logfile import (
    LogWriter,
    OddFileError,
    decode_any,
    encode_line,
    file_problem,
    fsync_directory,
    open_regular,
    read_regular,
    scan,
    write_new_file,
)
from pegboard.store.recovery import Check, Plan, Recovery, plan, plan_skipping_damage

log = logging.getLogger(__name__)

CURRENT_NAME = "current.log"
HISTORY_NAME = "history"
ASIDE_NAME = "aside"
SALVAGE_NAME = "current.log.new"  # a restored game being written, renamed over current.log
LEGACY_ASIDE = "current.log.unreadable-"  # where releases before aside/ kept unreadable files
PARTIAL = ".partial"  # a copy into aside/ being written, renamed once whole

__all__ = [
    "AsideGame",
    "CurrentGame",
    "FinishedGame",
    "Restored",
    "Store",
    "StoreReader",
    "parse_record_line",
    "record_text",
]


def _timestamp(now: float) -> str:
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(now))


@dataclass(frozen=True)
class AsideGame:
    """A set-aside game as ``pegboard game repair`` shows it.

    ``restorable`` is how many lines ``restore`` would bring back (0: none), ``skipping``
    how many with ``--skip-damaged``; ``dropped`` are the damaged lines that leaves out.
    """

    name: str
    path: Path
    game_id: str | None = None
    total: int = 0
    restorable: int = 0
    skipping: int = 0
    problem: str | None = None
    dropped: tuple[tuple[int, bytes], ...] = ()
    header: Mapping[str, Any] | None = None
    started_at: float | None = None
    written_by: str | None = None
    error: str | None = None  # the file itself cannot be read

    @property
    def players(self) -> list[Any]:
        """The players its header names, if it can be read."""
        players = (self.header or {}).get("players", [])
        return list(players) if isinstance(players, list) else []


@dataclass(frozen=True)
class Restored:
    """What :meth:`Store.restore` did: the game now in the store (or, if it had finished, in
    the history), the recovery when only part of it came back, and where the game that was in
    progress went (``--set-aside-current``)."""

    game: CurrentGame | FinishedGame
    recovery: Recovery | None
    moved: Path | None


class StoreReader:
    """Read a store without changing it (no lock needed: a writer may be running).

    A torn tail is ignored, not cut. A damaged unfinished game is shown as the game a writer
    would restore of it, with a :class:`Recovery` (``kept_as`` None) saying so in
    :attr:`notices` and :attr:`recoveries`; nothing is moved.
    """

    def __init__(self, directory: str | os.PathLike[str], *, check: Check | None = None
                 ) -> None:
        self.directory = Path(directory)
        self.notices: list[str] = []
        self.recoveries: list[Recovery] = []
        self._check = check
        self._current: CurrentGame | None = None
        self._leftover: FinishedGame | None = None
        if not self.directory.exists():
            return
        if not self.directory.is_dir():
            raise StoreError(f"the store {self.directory} is not a directory")
        path = self.directory / CURRENT_NAME
        try:
            data = read_regular(path)
        except OddFileError as error:
            self.notices.append(str(error))
            return
        except OSError as error:
            raise StoreError(f"cannot read {path}: {error.strerror or error}") from None
        if data is None:
            return
        kept = plan(data, check)
        if kept.problem is not None:
            self._recovered(kept.recovery(None))
        game = kept.game_at(path)
        if isinstance(game, CurrentGame):
            self._current = game
        elif isinstance(game, FinishedGame):  # finished but not yet moved (a crash between)
            self._leftover = game

    def _recovered(self, recovery: Recovery) -> None:
        self.recoveries.append(recovery)
        self.notices.append(recovery.message())

    @property
    def check(self) -> Check | None:
        """The engine's judgement this store was opened with (None: none)."""
        return self._check

    def current(self) -> CurrentGame | None:
        """The unfinished game, or None."""
        return self._current

    @property
    def leftover(self) -> FinishedGame | None:
        """A game finished but not yet moved into ``history/`` (a crash came between; the
        next writer moves it), which :meth:`history` lists last."""
        return self._leftover

    def history(self) -> list[FinishedGame]:
        """Every finished or abandoned game, oldest first, with full records and results."""
        games: list[FinishedGame] = []
        for path in self._logs(self.directory / HISTORY_NAME):
            try:
                data = read_regular(path)
            except OSError as error:  # OddFileError included
                self.notices.append(f"{path} cannot be read: {error}; it was not counted")
                continue
            found = scan(data or b"")
            game = game_from_entries(found.entries, path) if not found.damaged else None
            if isinstance(game, FinishedGame):
                games.append(game)
            elif found.damaged:
                self.notices.append(f"{path} cannot be read: {found.damaged}; it was not "
                                    "counted")
            else:
                self.notices.append(f"{path} has no finish line; it was not counted")
        if self._leftover is not None:
            games.append(self._leftover)
        games.sort(key=lambda game: (game.started_at, game.id))
        return games

    def set_aside(self) -> list[AsideGame]:
        """Every game kept in ``aside/``, with what ``restore`` could bring back of it."""
        games: list[AsideGame] = []
        for path in self._logs(self.directory / ASIDE_NAME):
            name = path.stem
            try:
                data = read_regular(path) or b""
            except OSError as error:
                games.append(AsideGame(name, path, error=str(error)))
                continue
            kept, skipping = plan(data, self._check), plan_skipping_damage(data, self._check)
            first = decode_any(data.split(b"\n", 1)[0]) or {}
            header = first.get("record") if isinstance(first.get("record"), dict) else None
            at = first.get("at")
            game_id = first.get("id") if is_valid_id(first.get("id")) else None
            games.append(AsideGame(
                name, path, game_id, kept.total, len(kept.entries), len(skipping.entries),
                kept.problem or skipping.problem, skipping.dropped, header,
                float(at) if isinstance(at, int | float) else None,
                str(first["pegboard"]) if "pegboard" in first else None,
            ))
        return games

    def _logs(self, folder: Path) -> Iterator[Path]:
        """The ``*.log`` files of a folder whose names are valid ids, in name order.

        A name found on disk becomes a game id (``export --id``) or a restore handle, so
        one outside the id alphabet is reported and left alone.
        """
        if not folder.is_dir():
            return
        for path in sorted(folder.glob("*.log")):
            if is_valid_id(path.stem):
                yield path
            else:
                self.notices.append(f"{path!s:.200} has a name that is not a game id; "
                                    "Pegboard leaves it alone")


class Store(StoreReader):
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

    def _recover(self) -> None:
        self._move_legacy_asides()
        # Files being written when a crash came: each is only ever a copy of something that
        # is still in place, so they go.
        for stale in [self.directory / SALVAGE_NAME,
                      *(self.directory / ASIDE_NAME).glob("*" + PARTIAL)]:
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
            copy = self._keep_copy(data, kept.game_id)
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

    def _move_legacy_asides(self) -> None:
        """Files set aside by earlier releases (``current.log.unreadable-<time>``) go into
        ``aside/`` too, so that ``pegboard game repair`` lists them."""
        for path in sorted(self.directory.glob(LEGACY_ASIDE + "*")):
            stem = "unreadable-" + re.sub(r"[^0-9A-Za-z_-]", "-", path.name[len(LEGACY_ASIDE):])
            target = self._free_aside(stem)
            os.rename(path, target)
            fsync_directory(target.parent)
            fsync_directory(self.directory)
            log.info("moved %s to %s", path, target)

    def _aside_candidates(self, stem: str | None) -> Iterator[Path]:
        stem = (stem or f"unreadable-{_timestamp(self._clock())}")[:64]
        folder = self.directory / ASIDE_NAME
        yield folder / f"{stem}.log"
        number = 2
        while True:
            yield folder / f"{stem[:56]}-{number}.log"  # within the 64 characters of an id
            number += 1

    def _free_aside(self, stem: str | None) -> Path:
        return next(p for p in self._aside_candidates(stem) if not os.path.lexists(p))

    def _keep_copy(self, data: bytes, stem: str | None) -> Path:
        """A byte-for-byte copy of a file in ``aside/`` (an identical one already there, left
        by a restart in the middle of a recovery, is used again)."""
        for candidate in self._aside_candidates(stem):
            if not os.path.lexists(candidate):
                # Under a temporary name first: a copy cut short by a crash must never pass
                # for the kept file (the next start removes it and copies again).
                temporary = candidate.with_name(candidate.name + PARTIAL)
                write_new_file(temporary, data)
                os.rename(temporary, candidate)
                fsync_directory(candidate.parent)
                return candidate
            with contextlib.suppress(OSError):
                if read_regular(candidate) == data:
                    return candidate
        raise AssertionError("unreachable: the candidates never end")

    def _put_aside(self, path: Path, reason: str, game_id: str | None, total: int) -> Path:
        """Move a whole file into ``aside/`` (renamed, never opened for writing)."""
        target = self._free_aside(game_id)
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
        fsync_directory(self.directory)
        archived = FinishedGame(
            game.id, target, game.records, game.times, recovered=game.recovered,
            result=game.result, finished_at=game.finished_at, summaries=game.summaries,
        )
        # Imported here: the index (SQLite, the statistics) is needed when a game ends, not
        # at start-up.
        from pegboard.store.index import add_finished

        add_finished(self.directory, archived)
        return archived

    # -- writing ---------------------------------------------------------------------------

    def _require_open(self) -> StoreLock:
        if self._lock is None:
            raise StoreError(f"the store at {self.directory} is closed")
        self._lock.check()
        return self._lock

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
        game_id = f"{_timestamp(now)}-{os.urandom(3).hex()}"
        path = self.directory / CURRENT_NAME
        try:
            self._writer = LogWriter.create(
                path, {"at": now, "id": game_id, "pegboard": __version__, "record": record}
            )
        except OSError as error:
            if isinstance(error, StoreError):
                raise
            raise StoreError(f"cannot create {path}: {error.strerror or error}") from None
        self._current = CurrentGame(game_id, path, (record,), (now,))
        return self._current

    def append(self, line: str | Mapping[str, Any], *,
               scores: Sequence[int] | None = None) -> int:
        """Record one accepted event; returns only when it is on disk (its line number).

        ``scores``, the scores once the event is in force, are kept on its line so that the
        device can show them at start-up before it has loaded the engine (a hint only: the
        record is the truth, see :mod:`pegboard.store.peek`).
        """
        lock = self._require_open()
        record = parse_record_line(line)
        game, writer = self._current, self._writer
        if game is None or writer is None:
            raise StoreError('no game in progress: start one first with its {"type": "game"} line')
        now = self._clock()
        entry: dict[str, Any] = {"at": now, "record": record}
        if scores is not None:
            entry["scores"] = [int(score) for score in scores]
        seq = writer.append(entry, guard=lock.check)
        self._current = CurrentGame(
            game.id, game.path, (*game.records, record), (*game.times, now),
            recovered=game.recovered,
        )
        return seq

    def undo(self, *, scores: Sequence[int] | None = None) -> int:
        """Record that the last event was taken back (the event itself stays in the log)."""
        return self.append({"type": "undo"}, scores=scores)

    def finish(self, result: Mapping[str, Any]) -> FinishedGame:
        """End the current game with ``result`` and move it into the history."""
        lock = self._require_open()
        game, writer = self._current, self._writer
        if game is None or writer is None:
            raise StoreError("no game in progress to finish")
        payload = dict(result)
        try:
            record_text(payload)
        except (TypeError, ValueError) as error:
            raise StoreError(f"cannot save the result as JSON: {error}") from None
        # Imported here: the statistics (the engine) are needed when a game ends, not at
        # start-up. They are kept on the finish line, so that the index can be made again
        # from the history without replaying every record.
        from pegboard.store.index_rows import summaries_note

        note = summaries_note(game)
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

    def _let_go_of_current(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        self._current = None

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
            moved = self._free_aside(current.id)
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
