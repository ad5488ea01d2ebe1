"""A damaged results database, rebuilt from its journal with one notice.

The standings service's database (:mod:`pegboard.club.results`) is rebuildable: everything
in it comes from the results the boards keep retained on the broker and from the journal
(:mod:`pegboard.club.journal`), where every decision is appended before it commits. When the
database is found damaged (SQLite's "malformed" or "not a database", or its quick check
failing when ``club serve`` starts), it is rebuilt:

1. a new database is made beside it from the journal (from the ``.base`` copy the journal
   starts from, if any), entry by entry, as each was made: the same results decided in the
   same order, the director's acts, seatings and roster, so the standings, the audit and
   the director's queue are those of before;
2. the damaged file (and its write-ahead log) is moved aside, kept for the director under a
   name the notice gives (``results.db.damaged-<time>``), and the new one takes its place;
3. the notice is said once (logged, kept in the database for the page and ``/api/status``),
   and the subscriber asks the broker again for the boards' retained results: a card that
   was waiting for its board's budget, or refused, comes again and is decided again
   (:mod:`pegboard.club.service`); one decided before is known as stored.

Every connection is made through :func:`open_results`, which checks the journal against the
database the first time in a process: a torn tail is cut off; entries the database lacks (a
crash between the journal's sync and the commit) are replayed into it; a database written
before the journal (or with another one) starts a journal afresh from a copy of itself (the
``.base`` file, made with SQLite's backup API); a journal damaged in its middle is started
afresh from the healthy database the same way, the damaged one kept aside.
"""

from __future__ import annotations

import logging
import os
import secrets
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pegboard.club.journal import (
    Journal,
    Read,
    Stale,
    base_path,
    file_digest,
    forget,
    journal_of,
)
from pegboard.club.results import (
    Damaged,
    Results,
    connect,
    is_damage,
    kept,
    note_healed,
    replay,
)
from pegboard.errors import ClubError
from pegboard.store.aside import timestamp
from pegboard.store.logfile import fsync_directory

log = logging.getLogger(__name__)

T = TypeVar("T")

SIDE_FILES = ("-wal", "-shm")
JOURNAL_MOST = 32 * 2**20
"""The journal's size past which ``club serve``'s start begins a new one from a copy of the
database (about 4,500 results at 7 KiB each, a rebuild of some 17 s at 3.7 ms a result): a
rebuild replays the journal, so its length is the rebuild's time."""
_KEEP = ("INSERT INTO kept VALUES (1, ?, 0) ON CONFLICT(one) DO UPDATE SET "
         "journal = excluded.journal, seq = 0")


def open_results(db_path: Path, *, any_thread: bool = False,
                 said: Callable[[str], None] | None = None) -> Results:
    """A connection to the results database ``db_path`` writing to its journal, the
    database checked against the journal first (once a process; the quick check of its
    pages too when ``said`` is given: ``club serve``'s start) and rebuilt if damaged.
    ``said`` is told each notice (else they are logged). ClubError when the database can
    be neither opened nor rebuilt."""
    found = journal_of(db_path)
    tell = said or (lambda text: log.warning("%s", text))
    with found.lock:
        try:
            if not found.ready:
                _prepare(found, tell, check=said is not None)
                found.ready = True
            try:
                return connect(db_path, any_thread=any_thread, journal=found)
            except Damaged as error:  # damaged since it was checked: rebuilt, then opened
                heal(found, str(error), tell)
                return connect(db_path, any_thread=any_thread, journal=found)
        except (OSError, sqlite3.Error) as error:
            raise ClubError(f"cannot use the results database {db_path} or its journal "
                            f"{found.path}: {error}") from None


def stale(db: Results) -> bool:
    """Whether ``db`` was made before the newest rebuild (its file was moved aside)."""
    return db.journal is not None and db.generation != db.journal.generation


def healing(db: Results, error: BaseException) -> bool:
    """After ``error`` on ``db``: whether the database was rebuilt (now, or by another
    thread since ``db`` was made), so the work may be done again on a new connection. A
    damaged database is rebuilt here; any other error is not this module's (False)."""
    found = db.journal
    if found is None or not (is_damage(error) or isinstance(error, Stale) or stale(db)):
        return False
    with found.lock:
        if db.generation != found.generation:
            return True  # rebuilt meanwhile
        try:
            heal(found, str(error), log_notice)
        except (OSError, sqlite3.Error, ClubError) as failed:
            raise ClubError(f"the results database {found.db_path.name} is damaged "
                            f"({error}) and could not be rebuilt: {failed}") from None
    return True


def log_notice(text: str) -> None:
    log.warning("%s", text)


def retried(db_of: Callable[[], Results], work: Callable[[Results], T],
            dropped: Callable[[], None]) -> T:
    """``work`` on the connection ``db_of`` gives; if the database turns out damaged, it is
    rebuilt (:func:`healing`), ``dropped`` lets go of the connection, and ``work`` is done
    once more on a new one."""
    db = db_of()
    try:
        return work(db)
    except (sqlite3.Error, ClubError) as error:
        if not healing(db, error):
            raise
    dropped()
    return work(db_of())


def _prepare(found: Journal, tell: Callable[[str], None], *, check: bool) -> None:
    """Check the journal against the database (see the module), under the journal's lock."""
    db_path = found.db_path
    read = found.load()
    if read.torn:
        tell(f"cut off an unfinished write at the end of {found.path} ({read.torn} bytes; "
             "its result was never acknowledged, and the broker sends it again)")
    problem = _problem(db_path, check=check)
    if problem is None and not db_path.exists() and read.entries and (
            len(read.entries) > 1 or read.entries[0].get("base")):
        problem = "the file is missing"
    if problem is not None:
        heal(found, problem, tell, read)
        return
    if not read.entries or read.damaged:
        if read.damaged:
            aside = _move_aside(found.path)
            tell(f"the journal {found.path} is damaged ({_lines(read)}): kept as {aside}; "
                 f"the results database {db_path} is whole, and a new journal starts "
                 "from a copy of it")
        _rebase(found)
        return
    db = connect(db_path, journal=found)
    try:
        at = kept(db)
        last = read.entries[-1]["seq"]
        if at is None and _empty(db) and read.entries[0].get("base") == "":
            at = (found.id, 0)
        if at is None or at[0] != found.id or at[1] > last:
            db.close()
            # Another journal's database (a copy put back), or one ahead of its journal:
            # the database is the one in use, so the journal starts again from it, the old
            # one kept.
            aside = _move_aside(found.path)
            tell(f"the results database {db_path} was not written with the journal "
                 f"{found.path} (or is ahead of it): the journal is kept as {aside.name}, "
                 "and a new one starts from a copy of the database")
            _rebase(found)
            return
        behind = [entry for entry in read.entries if entry["seq"] > at[1]]
        failed = []
        for entry in behind:  # synced, never committed: made now
            try:
                replay(db, entry)
            except (ClubError, sqlite3.Error) as error:
                failed.append(f"entry {entry['seq']} was not made again: {error}")
        if behind:
            entries = "entry" if len(behind) == 1 else "entries"
            tell(f"the results database {db_path} was {len(behind)} journal {entries} behind "
                 "(a stop between the journal's sync and the commit, or an older copy put "
                 "back): made again from "
                 f"{found.path}" + "".join(f"; {one}" for one in failed))
    finally:
        db.close()
    size = found.size
    if check and size > JOURNAL_MOST:
        # A long journal is a long rebuild: it starts afresh from a copy of the whole
        # database, the old one kept beside it.
        kept_as = _move_aside(found.path, label="old")
        _rebase(found)
        tell(f"the journal {found.path.name} reached {size / 2**20:.0f} MiB: "
             f"kept as {kept_as.name}, and a new one starts from a copy of the database "
             f"({base_path(db_path).name})")


def _problem(db_path: Path, *, check: bool) -> str | None:
    """Why the database cannot be used (None when it can, or is not made yet)."""
    if not db_path.exists():
        return None
    try:
        db = connect(db_path)
    except Damaged as error:
        return str(error)
    try:
        if check:
            rows = [row[0] for row in db.execute("PRAGMA quick_check(5)")]
            if rows != ["ok"]:
                return f"its quick check says {'; '.join(map(str, rows))[:300]}"
        db.execute("SELECT COUNT(*) FROM kept").fetchone()
    except sqlite3.DatabaseError as error:
        if not is_damage(error):
            raise  # busy, locked, full: not damage, and not to be rebuilt
        return str(error)
    finally:
        db.close()
    return None


def _empty(db: sqlite3.Connection) -> bool:
    return all(db.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone() is None
               for table in ("revision", "act", "seating", "member"))


def _rebase(found: Journal) -> None:
    """Start the journal afresh from the database as it is: an empty one from nothing, else
    from a copy of it (``.base``, taken with the database's writers held off)."""
    db = connect(found.db_path, journal=found)
    try:
        if not _empty(db):
            target = base_path(found.db_path)
            partial = target.with_name(target.name + ".partial")
            partial.unlink(missing_ok=True)
            # No one writes between the copy and the journal's begin (the writers are held
            # off meanwhile), and the copy and the database both record the journal.
            holder = connect(found.db_path)
            try:
                holder.execute("BEGIN IMMEDIATE")
                name = secrets.token_hex(8)
                copy = sqlite3.connect(partial, isolation_level=None)
                try:
                    db.backup(copy)
                    copy.execute(_KEEP, (name,))
                finally:
                    copy.close()
                os.replace(partial, target)
                fsync_directory(target.parent)
                found.begin(file_digest(target), name=name)
                holder.execute(_KEEP, (name,))
                holder.execute("COMMIT")
            except BaseException:
                if holder.in_transaction:
                    holder.execute("ROLLBACK")
                raise
            finally:
                holder.close()
        else:
            found.begin("")
            db.execute(_KEEP, (found.id,))
    finally:
        db.close()


def _lines(read: Read) -> str:
    named = ", ".join(f"line {number}: {why}" for number, why in read.damaged[:3])
    more = len(read.damaged) - 3
    return named + (f", and {more} more" if more > 0 else "")


def _move_aside(path: Path, now: float | None = None, *, label: str = "damaged") -> Path:
    """Rename ``path`` (and SQLite's files beside it, so the copy opens with its log) to
    ``<name>.<label>-<time>``; the new name."""
    stamp = timestamp(time.time() if now is None else now)
    aside = path.with_name(f"{path.name}.{label}-{stamp}")
    number = 1
    while aside.exists():
        number += 1
        aside = path.with_name(f"{path.name}.{label}-{stamp}-{number}")
    os.replace(path, aside)
    wal = path.with_name(path.name + "-wal")
    if wal.exists():
        os.replace(wal, aside.with_name(aside.name + "-wal"))
    path.with_name(path.name + "-shm").unlink(missing_ok=True)
    fsync_directory(path.parent)
    return aside


def heal(found: Journal, why: str, tell: Callable[[str], None],
         read: Read | None = None) -> str:
    """Rebuild the damaged database of ``found`` (under its lock): made anew from the
    journal beside it, the damaged file moved aside, the notice told and kept; the notice."""
    db_path = found.db_path
    began = time.monotonic()
    if read is None:
        read = found.load()
    building = db_path.with_name(db_path.name + ".rebuilding")
    for name in (building, *(building.with_name(building.name + side)
                             for side in SIDE_FILES)):
        name.unlink(missing_ok=True)
    notes: list[str] = []
    entries = read.entries
    if entries and entries[0]["kind"] == "begin" and entries[0].get("base"):
        base = base_path(db_path)
        try:
            if file_digest(base) != entries[0]["base"]:
                raise OSError("its digest is not the journal's")
            with sqlite3.connect(base) as source, sqlite3.connect(building) as copy:
                source.backup(copy)
            source.close()
            copy.close()
        except (OSError, sqlite3.Error) as error:
            building.unlink(missing_ok=True)
            notes.append(f"the copy the journal starts from ({base}) cannot be used "
                         f"({error}): what came before it is not rebuilt")
    if read.damaged:
        notes.append(f"the journal's damaged lines were left out ({_lines(read)})")
    rebuilt = connect(building, journal=found)
    rebuilt.execute("PRAGMA synchronous=OFF")  # a new file, synced whole before it is used
    results = acts = 0
    try:
        for entry in entries:
            try:
                replay(rebuilt, entry)
            except (ClubError, sqlite3.Error) as error:
                notes.append(f"entry {entry['seq']} was not made again: {error}")
                continue
            results += entry["kind"] == "result"
            acts += entry["kind"] in ("act", "seating", "members")
        rebuilt.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        rebuilt.close()
    with open(building, "rb") as file:
        os.fsync(file.fileno())
    aside = _move_aside(db_path) if db_path.exists() else None
    os.replace(building, db_path)
    for side in SIDE_FILES:
        building.with_name(building.name + side).unlink(missing_ok=True)
    fsync_directory(db_path.parent)
    found.generation += 1
    took = time.monotonic() - began
    why = " ".join(why.replace(str(db_path), db_path.name).split())[:300]  # one line
    made = (f"rebuilt from {found.path.name} in {took:.1f} s ({results} results, {acts} "
            "of the director's acts, seatings and rosters)" if entries else
            f"made anew, empty: there was no journal ({found.path.name}) to rebuild it "
            "from, so the results come again from the broker and the director's acts are "
            "in the damaged copy")
    said = (f"the results database {db_path.name} was damaged ({why})"
            + (f": kept as {aside.name}" if aside is not None else "")
            + f"; {made}; the boards' retained results are asked of the broker again"
            + "".join(f"; {note}" for note in notes))
    if read.damaged:  # the journal starts afresh from the rebuilt database, the old kept
        said += f"; the damaged journal is kept as {_move_aside(found.path).name}"
    if not entries or read.damaged:
        _rebase(found)
    db = connect(db_path, journal=found)
    try:
        note_healed(db, str(aside or ""), why, said)
    except ClubError as error:  # the journal cannot take it: said, not kept
        said += f" (not kept in the database: {error})"
    finally:
        db.close()
    found.notices.append(said)
    tell(f"{said} (in {db_path.parent})")
    return said


def at_start(db_path: Path, said: Callable[[str], None]) -> Results:
    """``club serve``'s start: the database checked afresh against its journal, its pages
    too (``PRAGMA quick_check``), rebuilt if damaged (each notice told to ``said``); a
    connection to it."""
    forget(db_path)
    return open_results(db_path, said=said)
