"""The index of finished games: what ``game list``, ``game export --id`` and ``stats`` need of
each game in ``history/``, kept in one SQLite file (``index.sqlite3``) beside it, so that none
of them reads every record and none holds the whole history in memory.

One row per history file: the file's name, size and modification time; the game's id, start
and finish times, players, rules, number of record lines and result; and its statistics
summaries (:func:`pegboard.stats.summary_json`, one per game of a match), or why the record
cannot be replayed.

The rules it keeps:

* The log files are the truth; the index is derived from them. Each time it is opened, every
  history file's name, size and modification time is compared with its row: a file with no
  row or a changed one is read and indexed, a row whose file has gone is dropped. So an index
  that is missing, stale (a crash between the move into history and its row), damaged, or of
  another layout is rebuilt from the records, never trusted over them.
* The writer adds a game's row in the step that moves it into history
  (:func:`add_finished`, called by :meth:`Store.finish <pegboard.store.Store.finish>`); a
  failure there is only logged, since the next reader puts it right.
* Summaries are made when a game is added by the writer, or the first time ``stats`` needs one
  (replaying a record costs milliseconds; a listing does not pay for it).
* A reader that may not write the index (a read-only store, another user's) keeps what it had
  to catch up in memory for that run and changes nothing on disk.

Typical use::

    with GameIndex(directory) as index:
        for game in index.games():        # oldest first, one row at a time
            print(game.id, game.result.get("scores"))
        found = index.find("20261121T221503Z-3fa2c1")
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import sqlite3
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from pegboard.errors import RecordError, StoreError
from pegboard.stats import GameSummary, replay_record, summary_from_json, summary_json
from pegboard.store.games import FinishedGame, game_from_entries
from pegboard.store.ids import is_valid_id
from pegboard.store.logfile import read_regular, scan

log = logging.getLogger(__name__)

INDEX_NAME = "index.sqlite3"
HISTORY_NAME = "history"
LAYOUT = "1"
"""The index's layout; an index of another layout is rebuilt. Raise it when the columns or
the meaning of a summary change (a summary is what :mod:`pegboard.stats` makes of a record)."""

BATCH = 64
"""Rows written per transaction while catching up, so a writer finishing a game never waits
long for the lock."""

PAGE = 200
"""Rows read from the index at a time."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    file TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    id TEXT,
    started_at REAL,
    finished_at REAL,
    players TEXT,
    rules TEXT,
    events INTEGER,
    result TEXT,
    summaries TEXT,
    problem TEXT
);
CREATE INDEX IF NOT EXISTS games_by_start ON games (started_at, id);
CREATE INDEX IF NOT EXISTS games_by_id ON games (id);
"""

_COLUMNS = ("file, size, mtime_ns, id, started_at, finished_at, players, rules, events, "
            "result, summaries, problem")
_ROW = f"INSERT OR REPLACE INTO {{}}.games ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"


@dataclass(frozen=True, slots=True)
class IndexedGame:
    """A finished (or abandoned) game as the index holds it."""

    id: str
    file: str
    """Its file's name in ``history/``."""
    started_at: float
    finished_at: float
    players: list[Any]
    rules: dict[str, Any]
    events: int
    """Record lines after the header (undo lines included)."""
    result: dict[str, Any]
    summaries: str | None
    """What :func:`pegboard.stats.summary_json` made of each of its games, as JSON text
    (decoded only by :meth:`GameIndex.summaries`: a listing has no use for it); None when
    not made yet or when the record cannot be replayed (then :attr:`problem` says why)."""
    problem: str | None

    @property
    def abandoned(self) -> bool:
        """Whether the game was left unfinished (a new game was started instead)."""
        return self.result.get("abandoned") is True


@dataclass(frozen=True, slots=True)
class _Row:
    file: str
    size: int
    mtime_ns: int
    id: str | None = None
    started_at: float | None = None
    finished_at: float | None = None
    players: str | None = None
    rules: str | None = None
    events: int | None = None
    result: str | None = None
    summaries: str | None = None
    problem: str | None = None

    def values(self) -> tuple[Any, ...]:
        return (self.file, self.size, self.mtime_ns, self.id, self.started_at, self.finished_at,
                self.players, self.rules, self.events, self.result, self.summaries,
                self.problem)


def summaries_of(game: FinishedGame) -> tuple[str | None, str | None]:
    """A game's summaries as index text, or why its record cannot be replayed."""
    try:
        made = replay_record(io.StringIO(game.record), source=f"store game {game.id}")
    except RecordError as error:
        return None, str(error)
    return _dumps([summary_json(summary) for summary in made]), None


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _game_row(game: FinishedGame, size: int, mtime_ns: int, *, summarise: bool) -> _Row:
    summaries, problem = summaries_of(game) if summarise else (None, None)
    return _Row(
        game.path.name, size, mtime_ns, game.id, game.started_at, game.finished_at,
        _dumps(game.players), _dumps(game.rules), game.events, _dumps(game.result),
        summaries, problem,
    )


def _file_row(path: Path, size: int, mtime_ns: int) -> _Row:
    """Read one history file into its row (a row with only a problem when it has no game)."""
    try:
        data = read_regular(path) or b""
    except OSError as error:  # OddFileError included
        return _Row(path.name, size, mtime_ns, problem=f"{path} cannot be read: {error}; it "
                    "was not counted")
    found = scan(data)
    if found.damaged:
        return _Row(path.name, size, mtime_ns, problem=f"{path} cannot be read: "
                    f"{found.damaged}; it was not counted")
    game = game_from_entries(found.entries, path)
    if not isinstance(game, FinishedGame):
        return _Row(path.name, size, mtime_ns,
                    problem=f"{path} has no finish line; it was not counted")
    return _game_row(game, size, mtime_ns, summarise=False)


def add_finished(directory: str | os.PathLike[str], game: FinishedGame) -> None:
    """Index a game just moved into ``history/`` (the writer's step; see the module rules)."""
    try:
        info = os.stat(game.path, follow_symlinks=False)
        row = _game_row(game, info.st_size, info.st_mtime_ns, summarise=True)
        with contextlib.closing(_connect_writable(Path(directory) / INDEX_NAME)) as db:
            _write(db, "main", [row])
    except (OSError, sqlite3.Error) as error:
        log.warning("the games index was not updated (%s); it is caught up on the next read",
                    error)


def _connect_writable(path: Path) -> sqlite3.Connection:
    new = not path.exists()
    db = sqlite3.connect(path, timeout=10, isolation_level=None)
    try:
        db.executescript(_SCHEMA)
        if new and os.geteuid() == 0:
            # Made by root (an admin's `pegboard game list`): it belongs to the store's
            # owner, or the service could no longer keep it up to date.
            owner = os.stat(path.parent)
            os.chown(path, owner.st_uid, owner.st_gid)
        layout = db.execute("SELECT value FROM meta WHERE key = 'layout'").fetchone()
        if layout is None or layout[0] != LAYOUT:
            db.execute("BEGIN IMMEDIATE")
            db.execute("DELETE FROM games")
            db.execute("INSERT OR REPLACE INTO meta VALUES ('layout', ?)", (LAYOUT,))
            db.execute("COMMIT")
    except BaseException:
        db.close()
        raise
    return db


def _write(db: sqlite3.Connection, schema: str, rows: Sequence[_Row],
           gone: Sequence[str] = ()) -> None:
    if not rows and not gone:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        if gone:
            table = "main.games" if schema == "main" else "temp.gone"
            sql = (f"DELETE FROM {table} WHERE file = ?" if schema == "main"
                   else "INSERT OR IGNORE INTO temp.gone VALUES (?)")
            db.executemany(sql, [(name,) for name in gone])
        db.executemany(_ROW.format(schema), [row.values() for row in rows])
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


class GameIndex:
    """The index of a store's history, caught up with the files on opening (see the module)."""

    def __init__(self, directory: str | os.PathLike[str], *, writable: bool | None = None
                 ) -> None:
        """Open (and catch up) the index of the store at ``directory``; ``writable`` False
        keeps the file as it is, None decides from the permissions."""
        self.directory = Path(directory)
        self.notices: list[str] = []
        """What was found on the way: files that are not games, an index rebuilt."""
        self.caught_up = 0
        """History files read on opening because the index did not have them as they are."""
        self._db, self._target = self._open(self.directory / INDEX_NAME, writable)
        try:
            self._catch_up()
        except sqlite3.DatabaseError as error:
            self._db.close()
            raise StoreError(f"cannot read the games index {self.directory / INDEX_NAME}: "
                             f"{error}") from None
        except BaseException:
            self._db.close()
            raise

    # -- opening ---------------------------------------------------------------------------

    def _open(self, path: Path, writable: bool | None) -> tuple[sqlite3.Connection, str]:
        """A connection and where caught-up rows go: ``main`` when the index may be written,
        ``temp`` (this run only) when not."""
        if self._may_write(path) if writable is None else writable:
            try:
                return _connect_writable(path), "main"
            except sqlite3.DatabaseError as error:
                self.notices.append(f"the games index {path} was damaged ({error}); it was "
                                    "rebuilt from the history")
                for name in (path.name, path.name + "-journal"):
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(path.with_name(name))
                return _connect_writable(path), "main"
        db = self._open_read_only(path)
        db.executescript("CREATE TEMP TABLE gone (file TEXT PRIMARY KEY);"
                         "CREATE TEMP TABLE games AS SELECT * FROM main.games WHERE 0;")
        return db, "temp"

    def _may_write(self, path: Path) -> bool:
        if not os.access(self.directory, os.W_OK | os.X_OK):
            return False
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            return True
        return stat.S_ISREG(info.st_mode) and os.access(path, os.R_OK | os.W_OK)

    def _open_read_only(self, path: Path) -> sqlite3.Connection:
        """The index file opened read-only, or an empty one in memory if it cannot be used."""
        if path.is_file():
            db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                                 isolation_level=None)
            try:
                layout = db.execute("SELECT value FROM meta WHERE key = 'layout'").fetchone()
                if layout is not None and layout[0] == LAYOUT:
                    return db
            except sqlite3.DatabaseError:
                pass
            db.close()
        db = sqlite3.connect(":memory:", isolation_level=None)
        db.executescript(_SCHEMA)
        return db

    def _catch_up(self) -> None:
        history = self.directory / HISTORY_NAME
        on_disk: dict[str, tuple[int, int]] = {}
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
                on_disk[name] = (info.st_size, info.st_mtime_ns)
        known = {name: (size, mtime) for name, size, mtime
                 in self._db.execute("SELECT file, size, mtime_ns FROM main.games")}
        gone = [name for name, seen in known.items() if on_disk.get(name) != seen]
        fresh = sorted(name for name, seen in on_disk.items() if known.get(name) != seen)
        self.caught_up = len(fresh)
        _write(self._db, self._target, [], gone)
        rows: list[_Row] = []
        for name in fresh:
            size, mtime = on_disk[name]
            rows.append(_file_row(history / name, size, mtime))
            if len(rows) >= BATCH:
                _write(self._db, self._target, rows)
                rows = []
        _write(self._db, self._target, rows)
        self.notices.extend(problem for (problem,) in self._db.execute(
            f"SELECT problem FROM ({self._all()}) WHERE id IS NULL ORDER BY file"))

    def _all(self) -> str:
        """Every row in force: the index's, less what this run found gone, plus its own."""
        if self._target == "main":
            return f"SELECT {_COLUMNS} FROM main.games"
        return (f"SELECT {_COLUMNS} FROM main.games WHERE file NOT IN "
                f"(SELECT file FROM temp.gone) UNION ALL SELECT {_COLUMNS} FROM temp.games")

    # -- reading ---------------------------------------------------------------------------

    def __len__(self) -> int:
        (count,) = self._db.execute(
            f"SELECT count(*) FROM ({self._all()}) WHERE id IS NOT NULL").fetchone()
        return int(count)

    def games(self) -> Iterator[IndexedGame]:
        """Every finished or abandoned game, oldest first (by start, then id), one at a time.

        Read a page at a time, with no statement left open between pages, so that summaries
        made while reading (:meth:`summaries`) can be kept as it goes.
        """
        query = (f"SELECT {_COLUMNS} FROM ({self._all()}) WHERE id IS NOT NULL "
                 "AND (started_at, id) > (?, ?) ORDER BY started_at, id LIMIT ?")
        after: tuple[float, str] = (float("-inf"), "")
        while page := self._db.execute(query, (*after, PAGE)).fetchall():
            for row in page:
                yield _indexed(row)
            after = (page[-1][4], page[-1][3])

    def find(self, game_id: str) -> IndexedGame | None:
        """The game with this id (the first started, should two files hold one id)."""
        row = self._db.execute(
            f"SELECT {_COLUMNS} FROM ({self._all()}) WHERE id = ? ORDER BY started_at, file "
            "LIMIT 1", (game_id,)).fetchone()
        return None if row is None else _indexed(row)

    def read(self, game: IndexedGame) -> FinishedGame:
        """The game's full record, read from its file in ``history/``."""
        path = self.directory / HISTORY_NAME / game.file
        try:
            data = read_regular(path) or b""
        except OSError as error:
            raise StoreError(f"cannot read {path}: {error}") from None
        found = scan(data)
        record = game_from_entries(found.entries, path) if not found.damaged else None
        if not isinstance(record, FinishedGame):
            raise StoreError(f"{path} changed since it was indexed; run the command again")
        return record

    def summaries(self, game: IndexedGame, first_number: int) -> list[GameSummary]:
        """The statistics summaries of a game's record, numbered from ``first_number`` (made
        now, and kept when the index may be written, if it had none yet).

        Raises :class:`~pegboard.errors.RecordError` when the record cannot be replayed.
        """
        text = game.summaries
        if text is None:
            if game.problem is not None:
                raise RecordError(game.problem)
            text, problem = summaries_of(self.read(game))
            self._keep_summaries(game, text, problem)
            if text is None:
                raise RecordError(problem or "cannot be replayed")
        kept = json.loads(text)
        source = f"store game {game.id}"
        return [summary_from_json(data, number=first_number + k, source=source)
                for k, data in enumerate(kept)]

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


def _indexed(row: tuple[Any, ...]) -> IndexedGame:
    (file, _size, _mtime, game_id, started, finished, players, rules, events, result,
     summaries, problem) = row
    return IndexedGame(
        str(game_id), str(file), float(started), float(finished), json.loads(players),
        json.loads(rules), int(events), json.loads(result),
        summaries, problem,
    )
