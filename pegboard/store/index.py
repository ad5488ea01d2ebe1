"""The index of finished games: what ``game list``, ``game export --id``, ``stats`` and the
scoreboard need of each game in ``history/``, kept in one SQLite file (``index.sqlite3``)
beside it, so that none of them reads every record and none holds the whole history in memory.

One row per history file: the file's name, size and modification time; the game's id, start
and finish times, players, rules, number of record lines and result; and its statistics
summaries (:func:`pegboard.stats.summary_json`, one per game of a match), or why the record
cannot be replayed (:mod:`pegboard.store.index_rows`).

The rules it keeps:

* The log files are the truth; the index is derived from them, and heals itself. Each time
  it is opened, every history file's name, size and modification time is compared with its
  row, and every row's values are checked: a file with no row, a changed one, or a row whose
  values are not the index's is read and indexed again; a row whose file has gone is dropped.
  An index file SQLite cannot read (damaged, or not a database) is made again from the
  history. Each is said in one notice; none needs anyone to delete the file by hand.
* A file damaged without a change of size or time (bit rot) is found when its record is read
  (``export --id``, a summary): its row then says so, for good.
* The writer adds a game's row in the step that moves it into history
  (:func:`add_finished`, called by :meth:`Store.finish <pegboard.store.Store.finish>`); a
  failure there is only logged, since the next reader puts it right.
* Summaries are made when a game is added by the writer, or the first time ``stats`` needs one
  (replaying a record costs milliseconds; a listing does not pay for it).
* A reader that may not write the index (a read-only store, another user's, the scoreboard)
  keeps what it had to catch up in memory and changes nothing on disk; kept open, it catches
  up with only the files that changed (:meth:`GameIndex.refresh`).

Typical use::

    with GameIndex(directory) as index:
        for game in index.games():        # oldest first, one row at a time
            print(game.id, game.result.get("scores"))
        found = index.find("20261121T221503Z-3fa2c1")
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

from pegboard.errors import RecordError, StoreError
from pegboard.stats import GameSummary
from pegboard.store.games import FinishedGame
from pegboard.store.ids import is_valid_id
from pegboard.store.index_rows import (
    COLUMNS,
    LAYOUT,
    ROW_IS_SOUND,
    SCHEMA,
    BadRow,
    IndexedGame,
    Row,
    connect_writable,
    file_row,
    game_row,
    indexed,
    read_finished,
    summaries_from,
    summaries_of,
    write,
)

log = logging.getLogger(__name__)

__all__ = ["INDEX_NAME", "LAYOUT", "GameIndex", "IndexedGame", "add_finished"]

INDEX_NAME = "index.sqlite3"
HISTORY_NAME = "history"

DAMAGE = (sqlite3.DatabaseError, UnicodeDecodeError)
"""What a damaged index file raises, wherever it is read: SQLite's own errors, and a text
column or a schema whose bytes are no longer UTF-8 (Python's decoding error, which SQLite's
module lets through from ``executescript``)."""


def _why(error: BaseException) -> str:
    """What ``error`` says, fit for one line of a notice: the damaged bytes SQLite quotes are
    shown as ``?``, and it is cut to 100 characters."""
    text = "".join(c if c.isascii() and c.isprintable() else "?" for c in str(error))
    return text if len(text) <= 100 else text[:100] + "…"


BATCH = 64
"""Rows written per transaction while catching up, so a writer finishing a game never waits
long for the lock."""

PAGE = 200
"""Rows read from the index at a time."""


def add_finished(directory: str | os.PathLike[str], game: FinishedGame) -> None:
    """Index a game just moved into ``history/`` (the writer's step; see the module rules)."""
    try:
        info = os.stat(game.path, follow_symlinks=False)
        row = game_row(game, info.st_size, info.st_mtime_ns, summarise=True)
        with contextlib.closing(connect_writable(Path(directory) / INDEX_NAME)) as db:
            write(db, "main", [row])
    except (OSError, sqlite3.Error) as error:
        log.warning("the games index was not updated (%s); it is caught up on the next read",
                    error)


class GameIndex:
    """The index of a store's history, caught up with the files on opening (see the module)."""

    def __init__(self, directory: str | os.PathLike[str], *, writable: bool | None = None
                 ) -> None:
        """Open (and catch up) the index of the store at ``directory``; ``writable`` False
        keeps the file as it is, None decides from the permissions."""
        self.directory = Path(directory)
        self.path = self.directory / INDEX_NAME
        self.notices: list[str] = []
        """What was found on the way: files that are not games, an index rebuilt."""
        self.caught_up = 0
        """History files read on the last catch-up because the index did not have them as
        they are."""
        self._healed = False
        self._heal_notice: list[str] = []
        self._writable = self._may_write() if writable is None else writable
        self._db, self._target = self._open()
        try:
            self.refresh()
        except BaseException:
            self._db.close()
            raise

    # -- opening and healing -------------------------------------------------------------------

    def _open(self) -> tuple[sqlite3.Connection, str]:
        """A connection and where caught-up rows go: ``main`` when the index may be written,
        ``temp`` (this connection only) when not."""
        if self._writable:
            try:
                return connect_writable(self.path), "main"
            except DAMAGE as error:
                return self._made_again(error)
        db = self._open_read_only()
        db.executescript("CREATE TEMP TABLE gone (file TEXT PRIMARY KEY);"
                         "CREATE TEMP TABLE games AS SELECT * FROM main.games WHERE 0;")
        return db, "temp"

    def _made_again(self, error: BaseException) -> tuple[sqlite3.Connection, str]:
        """The index file could not be read: it is made again from the history."""
        self._heal(f"the games index {self.path} was damaged ({_why(error)}); it was rebuilt "
                   "from the history")
        if self._writable:
            for name in (self.path.name, self.path.name + "-journal"):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.path.with_name(name))
            return connect_writable(self.path), "main"
        db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        db.executescript(SCHEMA)
        db.executescript("CREATE TEMP TABLE gone (file TEXT PRIMARY KEY);"
                         "CREATE TEMP TABLE games AS SELECT * FROM main.games WHERE 0;")
        return db, "temp"

    def _heal(self, notice: str) -> None:
        """Say once that the index was put right (however many rows it took)."""
        if not self._healed:
            self._healed = True
            self._heal_notice.append(notice)
            self.notices.append(notice)
            log.warning("%s", notice)

    def _may_write(self) -> bool:
        if not os.access(self.directory, os.W_OK | os.X_OK):
            return False
        try:
            info = os.lstat(self.path)
        except FileNotFoundError:
            return True
        return stat.S_ISREG(info.st_mode) and os.access(self.path, os.R_OK | os.W_OK)

    def _open_read_only(self) -> sqlite3.Connection:
        """The index file opened read-only, or an empty one in memory if it cannot be used."""
        if self.path.is_file():
            db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True,
                                 isolation_level=None, check_same_thread=False)
            try:
                layout = db.execute("SELECT value FROM meta WHERE key = 'layout'").fetchone()
                if layout is not None and layout[0] == LAYOUT:
                    return db
            except DAMAGE:
                pass
            db.close()
        db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        db.executescript(SCHEMA)
        return db

    def refresh(self) -> int:
        """Catch up with the history folder as it is now; how many files were read.

        An index SQLite cannot read is made again from the history (see the module).
        """
        try:
            self._catch_up()
        except DAMAGE as error:
            self._rebuild(error)
        return self.caught_up

    def _rebuild(self, error: BaseException) -> None:
        """Make the index again from the history after ``error`` showed it damaged."""
        with contextlib.suppress(sqlite3.Error):
            self._db.close()
        self._db, self._target = self._made_again(error)
        self._catch_up()

    def _rows(self, query: Callable[[], str], parameters: tuple[Any, ...] = ()
              ) -> list[tuple[Any, ...]]:
        """The rows of ``query()`` (made again if the index must be: its text names where
        the rows are); an index found damaged on the way is rebuilt once and asked again."""
        try:
            return self._db.execute(query(), parameters).fetchall()
        except DAMAGE as error:
            self._rebuild(error)
            return self._db.execute(query(), parameters).fetchall()

    def _on_disk(self) -> dict[str, tuple[int, int]]:
        history = self.directory / HISTORY_NAME
        found: dict[str, tuple[int, int]] = {}
        with contextlib.suppress(FileNotFoundError, NotADirectoryError), \
                os.scandir(history) as entries:
            for entry in entries:
                name = entry.name
                if not name.endswith(".log"):
                    continue
                if not is_valid_id(name[:-4]):
                    self.notices.append(f"{history / name!s:.200} has a name that is not a "
                                        "game id; Pegboard leaves it alone")
                    continue
                info = entry.stat(follow_symlinks=False)
                found[name] = (info.st_size, info.st_mtime_ns)
        return found

    def _catch_up(self) -> None:
        self.notices = list(self._heal_notice)
        on_disk = self._on_disk()
        known: dict[str, tuple[Any, Any]] = {}
        gone: list[str | None] = []
        unsound = 0
        for name, size, mtime, sound in self._db.execute(
                f"SELECT file, size, mtime_ns, {ROW_IS_SOUND} FROM ({self._all()})"):
            if sound and on_disk.get(name) == (size, mtime):
                known[name] = (size, mtime)
                continue
            gone.append(name)
            unsound += not sound and name in on_disk
        if unsound:
            self._heal(f"the games index {self.path} had {unsound} row(s) that do not match "
                       "the history; they were rebuilt from it")
        fresh = sorted(name for name, seen in on_disk.items() if known.get(name) != seen)
        self.caught_up = len(fresh)
        write(self._db, self._target, [], gone)
        rows: list[Row] = []
        history = self.directory / HISTORY_NAME
        for name in fresh:
            size, mtime = on_disk[name]
            rows.append(file_row(history / name, size, mtime))
            if len(rows) >= BATCH:
                write(self._db, self._target, rows)
                rows = []
        write(self._db, self._target, rows)
        self.notices.extend(problem for (problem,) in self._db.execute(
            f"SELECT problem FROM ({self._all()}) WHERE id IS NULL ORDER BY file"))

    def _all(self) -> str:
        """Every row in force: the index's, less what this run found gone, plus its own."""
        if self._target == "main":
            return f"SELECT {COLUMNS} FROM main.games"
        return (f"SELECT {COLUMNS} FROM main.games WHERE file NOT IN "
                f"(SELECT file FROM temp.gone) UNION ALL SELECT {COLUMNS} FROM temp.games")

    def _reindex(self, file: str, why: str) -> IndexedGame | None:
        """Read one history file again in place of a row that cannot be used."""
        self._heal(f"the games index {self.path} had a row that does not match the history "
                   f"({why}); it was rebuilt from it")
        path = self.directory / HISTORY_NAME / file
        try:
            info = os.stat(path, follow_symlinks=False)
        except OSError:
            write(self._db, self._target, [], [file])
            return None
        write(self._db, self._target, [], [file])
        row = file_row(path, info.st_size, info.st_mtime_ns)
        write(self._db, self._target, [row])
        if row.id is None:
            return None
        return indexed(row.values())

    def _game(self, row: tuple[Any, ...]) -> IndexedGame | None:
        try:
            return indexed(row)
        except BadRow as error:
            file = row[0]
            if not isinstance(file, str) or not is_valid_id(file.removesuffix(".log")):
                write(self._db, self._target, [], [str(file)])
                return None
            return self._reindex(file, str(error))

    # -- reading ---------------------------------------------------------------------------

    def __len__(self) -> int:
        ((count,),) = self._rows(
            lambda: f"SELECT count(*) FROM ({self._all()}) WHERE id IS NOT NULL")
        return int(count)

    def games(self) -> Iterator[IndexedGame]:
        """Every finished or abandoned game, oldest first (by start, then id), one at a time.

        Read a page at a time, with no statement left open between pages, so that summaries
        made while reading (:meth:`summaries`) can be kept as it goes.
        """
        def query() -> str:
            return (f"SELECT {COLUMNS} FROM ({self._all()}) WHERE id IS NOT NULL "
                    "AND (started_at, id) > (?, ?) ORDER BY started_at, id LIMIT ?")
        after: tuple[Any, Any] = (float("-inf"), "")
        while page := self._rows(query, (*after, PAGE)):
            for row in page:
                game = self._game(row)
                if game is not None:
                    yield game
            after = (page[-1][4], page[-1][3])

    def newest(self, limit: int) -> list[IndexedGame]:
        """The ``limit`` games started last, newest first (read without the rest)."""
        rows = self._rows(
            lambda: f"SELECT {COLUMNS} FROM ({self._all()}) WHERE id IS NOT NULL "
            "ORDER BY started_at DESC, id DESC LIMIT ?", (max(0, limit),))
        return [game for game in map(self._game, rows) if game is not None]

    def find(self, game_id: str) -> IndexedGame | None:
        """The game with this id (the first started, should two files hold one id)."""
        rows = self._rows(
            lambda: f"SELECT {COLUMNS} FROM ({self._all()}) WHERE id = ? ORDER BY "
            "started_at, file LIMIT 1", (game_id,))
        return self._game(rows[0]) if rows else None

    def problem(self, game_id: str) -> str | None:
        """Why the history file of this id holds no game to list, or None."""
        rows = self._rows(lambda: f"SELECT problem FROM ({self._all()}) WHERE file = ? AND "
                          "id IS NULL", (f"{game_id}.log",))
        return str(rows[0][0]) if rows else None

    def read(self, game: IndexedGame) -> FinishedGame:
        """The game's full record, read from its file in ``history/``.

        A file that no longer holds the game indexed (damaged where size and time did not
        change: bit rot) raises StoreError saying so, and its row says so from then on.
        """
        path = self.directory / HISTORY_NAME / game.file
        found = read_finished(path)
        if isinstance(found, FinishedGame) and found.id == game.id:
            return found
        problem = found if isinstance(found, str) else f"{path} holds another game now"
        with contextlib.suppress(OSError, sqlite3.Error):
            info = os.stat(path, follow_symlinks=False)
            write(self._db, self._target, [], [game.file])
            write(self._db, self._target,
                  [Row(game.file, info.st_size, info.st_mtime_ns, problem=problem)])
        raise StoreError(f"game {game.id} cannot be read: {problem}")

    def summaries(self, game: IndexedGame, first_number: int) -> list[GameSummary]:
        """The statistics summaries of a game's record, numbered from ``first_number`` (made
        now, and kept when the index may be written, if it had none yet or the kept ones
        cannot be read).

        Raises :class:`~pegboard.errors.RecordError` when the record cannot be replayed.
        """
        source = f"store game {game.id}"
        if game.summaries is not None:
            try:
                return summaries_from(game.summaries, first_number, source)
            except ValueError as error:
                self._heal(f"the games index {self.path} had summaries that cannot be read "
                           f"({error}); they were made again")
        elif game.problem is not None:
            raise RecordError(game.problem)
        try:
            text, problem = summaries_of(self.read(game))
        except StoreError as error:
            raise RecordError(str(error)) from None
        self._keep_summaries(game, text, problem)
        if text is None:
            raise RecordError(problem or "cannot be replayed")
        return summaries_from(text, first_number, source)

    def _keep_summaries(self, game: IndexedGame, text: str | None, problem: str | None) -> None:
        if self._target != "main":
            return
        try:
            self._db.execute("UPDATE main.games SET summaries = ?, problem = ? WHERE file = ?",
                             (text, problem, game.file))
        except sqlite3.Error as error:  # busy or read-only after all: made again next time
            log.warning("a summary was not kept in the games index: %s", error)

    def close(self) -> None:
        """Close the index file."""
        self._db.close()

    def __enter__(self) -> GameIndex:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

