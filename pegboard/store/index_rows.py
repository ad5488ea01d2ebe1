"""The rows of the games index (:mod:`pegboard.store.index`): the table, what one history
file makes of a row, and a row read back, never trusted.

A row's values are checked twice. When the index is opened, SQLite checks every row's shape
(:data:`ROW_IS_SOUND`: the types, the times, the JSON of each column); a row that fails is
read again from its file, like a stale one. When a row is read, its JSON is decoded and each
value is checked again (:func:`indexed`, :func:`pegboard.stats.summary_from_json`); a row
that still fails raises :class:`BadRow`, and the index reads that file again. So no value
written into the file by hand can crash a reader or point it outside ``history/``.

The index is the project's own file, written by :func:`dumps` and never longer than
:data:`MAX_JSON` a column: its JSON is decoded by the standard library, not by the bounded
reader that record lines from anywhere go through (:mod:`pegboard.record.bounded`); what the
bounded reader guards against (a depth, a number of digits) SQLite's shape check and the
value checks refuse here, and a decoder error of any kind is a bad row.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pegboard.errors import RecordError
from pegboard.rules.value import Value
from pegboard.stats import GameSummary, replay_record, summary_from_json, summary_json
from pegboard.store.games import CurrentGame, FinishedGame, game_from_entries
from pegboard.store.ids import is_valid_id
from pegboard.store.lines import LATEST
from pegboard.store.logfile import read_regular, scan

LAYOUT = "5"
"""The index's layout; an index of another layout is rebuilt. Raise it when the columns or
the meaning of a summary change (a summary is what :mod:`pegboard.stats` makes of a record).
Layout 2 added what a game teaches to each tally (discards reviewed and the points given up
on them, points missed counting and given up pegging). Layout 3: summaries are the engine's
one fold of a record (:mod:`pegboard.rules.fold`): the race stops at the target, points are
tallied by the engine's reasons in its show order, a starter entered by rank alone is kept
without a suit, and the lessons are judged by the one look-ahead. Layout 4: the best hand keeps
each card as entered (a card entered by its rank alone without the suit the card wheel gave
it). Layout 5: the plays of an open-handed game are judged with the next player's open cards,
as its coach judged them. An older index, and an older
finish line's summaries, are made again from the records, so the games of an old store count
too, by today's rules of counting."""

SCHEMA = """
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

COLUMNS = ("file, size, mtime_ns, id, started_at, finished_at, players, rules, events, "
           "result, summaries, problem")
_INSERT = f"INSERT OR REPLACE INTO {{}}.games ({COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"

_TIME = f"BETWEEN 0 AND {LATEST:.0f}"


def _json_is(column: str, kind: str) -> str:
    # CASE, not AND: SQLite may evaluate both sides of an AND, and json_type() of text that
    # is not JSON is an error, not false.
    return f"(CASE WHEN json_valid({column}) THEN json_type({column}) = '{kind}' ELSE 0 END)"


ROW_IS_SOUND = f"""(
    typeof(file) = 'text' AND typeof(size) = 'integer' AND typeof(mtime_ns) = 'integer'
    AND CASE WHEN id IS NULL THEN typeof(problem) = 'text'
    ELSE typeof(id) = 'text' AND typeof(started_at) IN ('real', 'integer')
        AND started_at {_TIME} AND typeof(finished_at) IN ('real', 'integer')
        AND finished_at {_TIME} AND typeof(events) = 'integer' AND events >= 0
        AND {_json_is("players", "array")} AND {_json_is("rules", "object")}
        AND {_json_is("result", "object")} AND (problem IS NULL OR typeof(problem) = 'text')
        AND CASE WHEN summaries IS NULL THEN 1
            WHEN {_json_is("summaries", "array")} THEN NOT EXISTS (
                SELECT 1 FROM json_each(summaries) WHERE type != 'object'
                OR json_type(value, '$.names') IS NOT 'array'
                OR json_type(value, '$.race') IS NOT 'array'
                OR json_type(value, '$.tallies') IS NOT 'array')
            ELSE 0 END
    END)"""
"""SQL true for a row whose values have the shapes the index writes (see the module)."""

MAX_JSON = 1 << 20
"""The longest JSON text a row's column may hold (a long match's summaries are a few KiB)."""


class BadRow(ValueError):
    """A row whose values are not what the index writes (edited by hand, or damaged)."""


class IndexedGame(Value):
    """A finished (or abandoned) game as the index holds it."""

    __slots__ = (
        "events",
        "file",
        "finished_at",
        "id",
        "players",
        "problem",
        "result",
        "rules",
        "started_at",
        "summaries",
    )
    __match_args__ = ("id", "file", "started_at", "finished_at", "players", "rules", "events",
                      "result", "summaries", "problem")

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

    def __init__(
        self,
        id: str,
        file: str,
        started_at: float,
        finished_at: float,
        players: list[Any],
        rules: dict[str, Any],
        events: int,
        result: dict[str, Any],
        summaries: str | None,
        problem: str | None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "id", id)
        setter(self, "file", file)
        setter(self, "started_at", started_at)
        setter(self, "finished_at", finished_at)
        setter(self, "players", players)
        setter(self, "rules", rules)
        setter(self, "events", events)
        setter(self, "result", result)
        setter(self, "summaries", summaries)
        setter(self, "problem", problem)

    @property
    def abandoned(self) -> bool:
        """Whether the game was left unfinished (a new game was started instead)."""
        return self.result.get("abandoned") is True


class Row(Value):
    """One row as it is written."""

    __slots__ = (
        "events",
        "file",
        "finished_at",
        "id",
        "mtime_ns",
        "players",
        "problem",
        "result",
        "rules",
        "size",
        "started_at",
        "summaries",
    )
    __match_args__ = ("file", "size", "mtime_ns", "id", "started_at", "finished_at", "players",
                      "rules", "events", "result", "summaries", "problem")

    file: str
    size: int
    mtime_ns: int
    id: str | None
    started_at: float | None
    finished_at: float | None
    players: str | None
    rules: str | None
    events: int | None
    result: str | None
    summaries: str | None
    problem: str | None

    def __init__(
        self,
        file: str,
        size: int,
        mtime_ns: int,
        id: str | None = None,
        started_at: float | None = None,
        finished_at: float | None = None,
        players: str | None = None,
        rules: str | None = None,
        events: int | None = None,
        result: str | None = None,
        summaries: str | None = None,
        problem: str | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "file", file)
        setter(self, "size", size)
        setter(self, "mtime_ns", mtime_ns)
        setter(self, "id", id)
        setter(self, "started_at", started_at)
        setter(self, "finished_at", finished_at)
        setter(self, "players", players)
        setter(self, "rules", rules)
        setter(self, "events", events)
        setter(self, "result", result)
        setter(self, "summaries", summaries)
        setter(self, "problem", problem)

    def values(self) -> tuple[Any, ...]:
        return (self.file, self.size, self.mtime_ns, self.id, self.started_at, self.finished_at,
                self.players, self.rules, self.events, self.result, self.summaries,
                self.problem)


def summaries_from(text: str, first_number: int, source: str) -> list[GameSummary]:
    """The summaries kept as ``text``, numbered from ``first_number`` (ValueError, naming
    what is wrong, when they are not what :func:`summaries_of` writes)."""
    kept = _decoded(text)
    if not isinstance(kept, list):
        raise ValueError("not a list of summaries")
    return [summary_from_json(data, number=first_number + k, source=source)
            for k, data in enumerate(kept)]


def summaries_of(game: CurrentGame | FinishedGame) -> tuple[str | None, str | None]:
    """A game's summaries as index text, or why its record cannot be replayed."""
    try:
        made = replay_record(game.records, source=f"store game {game.id}")
    except RecordError as error:
        return None, str(error)
    return dumps([summary_json(summary) for summary in made]), None


def summaries_note(game: CurrentGame | FinishedGame) -> dict[str, Any] | None:
    """What the writer keeps of a game's summaries on its finish line (None when its record
    cannot be replayed: the index then says why, as for any such record)."""
    try:
        made = replay_record(game.records, source=f"store game {game.id}")
    except Exception:  # an engine bug must not keep a game from being finished
        return None
    return {"layout": LAYOUT, "games": [summary_json(summary) for summary in made]}


def kept_summaries(game: FinishedGame) -> str | None:
    """The summaries the finish line keeps, as index text, when they are of this layout."""
    note = game.summaries
    if type(note) is not dict or note.get("layout") != LAYOUT:
        return None
    games = note.get("games")
    return dumps(games) if type(games) is list else None


def dumps(value: Any) -> str:
    """A column's JSON text."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def game_row(game: FinishedGame, size: int, mtime_ns: int, *, summarise: bool) -> Row:
    """The row of a finished game (with its summaries made now when ``summarise``)."""
    summaries, problem = kept_summaries(game), None
    if summaries is None and summarise:
        summaries, problem = summaries_of(game)
    return Row(
        game.path.name, size, mtime_ns, game.id, game.started_at, game.finished_at,
        dumps(game.players), dumps(game.rules), game.events, dumps(game.result),
        summaries, problem,
    )


def read_finished(path: Path) -> FinishedGame | str:
    """The finished game in one history file, or why there is none to count."""
    try:
        data = read_regular(path) or b""
    except OSError as error:  # OddFileError included
        return f"{path} cannot be read: {error}; it was not counted"
    found = scan(data)
    if found.damaged:
        return f"{path} cannot be read: {found.damaged}; it was not counted"
    game = game_from_entries(found.entries, path)
    if not isinstance(game, FinishedGame):
        return f"{path} has no finish line; it was not counted"
    return game


def file_row(path: Path, size: int, mtime_ns: int) -> Row:
    """Read one history file into its row (a row with only a problem when it has no game)."""
    game = read_finished(path)
    if isinstance(game, str):
        return Row(path.name, size, mtime_ns, problem=game)
    return game_row(game, size, mtime_ns, summarise=False)


def connect_writable(path: Path) -> sqlite3.Connection:
    """The index file opened for writing (made, or emptied when of another layout)."""
    new = not path.exists()
    db = sqlite3.connect(path, timeout=10, isolation_level=None, check_same_thread=False)
    try:
        db.executescript(SCHEMA)
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


def write(db: sqlite3.Connection, schema: str, rows: Sequence[Row],
          gone: Sequence[str | None] = ()) -> None:
    """Replace ``rows`` and drop the rows of the files ``gone``, in one transaction (into
    ``temp``, for a reader that may not write, what it found gone is remembered there)."""
    if not rows and not gone:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        if gone:
            sql = ("DELETE FROM main.games WHERE file IS ?" if schema == "main"
                   else "INSERT OR IGNORE INTO temp.gone VALUES (?)")
            db.executemany(sql, [(name,) for name in gone])
            if schema != "main":
                db.executemany("DELETE FROM temp.games WHERE file = ?",
                               [(name,) for name in gone])
        db.executemany(_INSERT.format(schema), [row.values() for row in rows])
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def _decoded(text: str) -> Any:
    """The index's own JSON text decoded (ValueError naming what is wrong)."""
    if len(text) > MAX_JSON:
        raise ValueError(f"longer than {MAX_JSON} characters")
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deep") from None
    except ValueError as error:  # JSONDecodeError, or a number of too many digits
        raise ValueError(f"not JSON: {error}") from None


def _json(text: object, kind: type, what: str) -> Any:
    if not isinstance(text, str):
        raise BadRow(f"its {what} is not JSON text")
    try:
        value = _decoded(text)
    except ValueError as error:
        raise BadRow(f"its {what}: {error}") from None
    if not isinstance(value, kind):
        raise BadRow(f"its {what} is not a JSON {kind.__name__}")
    return value


def _time(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not (
            0 <= value <= LATEST):
        raise BadRow(f"its {what} is not a time")
    return float(value)


def indexed(row: Sequence[Any]) -> IndexedGame:
    """A row read back as a game (:class:`BadRow` when its values are not the index's)."""
    (file, _size, _mtime, game_id, started, finished, players, rules, events, result,
     summaries, problem) = row
    if not isinstance(game_id, str) or not is_valid_id(game_id):
        raise BadRow("its game id is not an id")
    if not isinstance(file, str) or not file.endswith(".log") or not is_valid_id(file[:-4]):
        raise BadRow("its file is not a history file's name")
    if isinstance(events, bool) or not isinstance(events, int) or events < 0:
        raise BadRow("its number of lines is not a number")
    if summaries is not None and not isinstance(summaries, str):
        raise BadRow("its summaries are not JSON text")
    return IndexedGame(
        game_id, file, _time(started, "start"), _time(finished, "finish"),
        _json(players, list, "players"), _json(rules, dict, "rules"), events,
        _json(result, dict, "result"), summaries,
        problem if isinstance(problem, str) else None,
    )
