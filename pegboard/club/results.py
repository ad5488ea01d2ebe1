"""The standings service's results: SQLite in WAL mode, each result stored once.

A result is keyed by its id (``<board>:<game>``): the same result arriving again (a board
sending again after a lost acknowledgement, the broker delivering again after a restart) is
counted in ``duplicates`` and changes nothing else. A refused message is kept in
``refused`` with why (for the director), never counted. A member number not on the roster
(``members``, loaded from a CSV of ``member,name[,guest]``) is kept and flagged.
"""

from __future__ import annotations

import csv
import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pegboard.errors import ClubError

SCHEMA = """
CREATE TABLE IF NOT EXISTS result (
    id TEXT PRIMARY KEY, club TEXT NOT NULL, board TEXT NOT NULL, game TEXT NOT NULL,
    night INTEGER NOT NULL, round INTEGER NOT NULL, tbl INTEGER NOT NULL,
    received REAL NOT NULL, payload TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS line (
    result TEXT NOT NULL, seat INTEGER NOT NULL, club TEXT NOT NULL, night INTEGER NOT NULL,
    round INTEGER NOT NULL, tbl INTEGER NOT NULL, member TEXT NOT NULL, name TEXT NOT NULL,
    won INTEGER NOT NULL, game_points INTEGER NOT NULL, spread INTEGER NOT NULL,
    score INTEGER NOT NULL, skunks_given INTEGER NOT NULL, skunks_taken INTEGER NOT NULL,
    PRIMARY KEY (result, seat));
CREATE TABLE IF NOT EXISTS special (
    result TEXT NOT NULL, club TEXT NOT NULL, night INTEGER NOT NULL, seat INTEGER NOT NULL,
    member TEXT NOT NULL, name TEXT NOT NULL, hand TEXT NOT NULL, points INTEGER NOT NULL,
    counted TEXT NOT NULL, cards TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS member (member TEXT PRIMARY KEY, name TEXT NOT NULL,
    guest INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS refused (at REAL NOT NULL, topic TEXT NOT NULL, why TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS counter (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
"""


def connect(path: Path, *, any_thread: bool = False) -> sqlite3.Connection:
    """A connection to the results database (made, in WAL mode, when it is new);
    ``any_thread``: it may be closed by another thread than the one that used it."""
    try:
        db = sqlite3.connect(path, timeout=30, isolation_level=None,
                             check_same_thread=not any_thread)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")  # a result acknowledged is on disk
        db.executescript(SCHEMA)
    except sqlite3.Error as error:
        raise ClubError(f"cannot use the results database {path}: {error}") from None
    db.row_factory = sqlite3.Row
    return db


@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[None]:
    """One write transaction (taken at once, so two writers never deadlock)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _bump(db: sqlite3.Connection, name: str) -> None:
    db.execute("INSERT INTO counter VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET "
               "value = value + 1", (name,))


def store_result(db: sqlite3.Connection, card: dict[str, Any], *, now: float | None = None
                 ) -> bool:
    """Store a checked scorecard once; True when it is new (False: a duplicate, counted)."""
    received = time.time() if now is None else now
    skunked = card["skunk"] != "none"
    with transaction(db):
        cursor = db.execute(
            "INSERT OR IGNORE INTO result VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (card["id"], card["club"], card["board"], card["game"], card["night"],
             card["round"], card["table"], received, json.dumps(card, ensure_ascii=False)))
        if cursor.rowcount == 0:
            _bump(db, "duplicates")
            return False
        key = (card["club"], card["night"], card["round"], card["table"])
        for player in card["players"]:
            won = bool(player["won"])
            db.execute(
                "INSERT INTO line VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (card["id"], player["seat"], *key, player["member"], player["name"],
                 int(won), player["game_points"], player["spread"], player["score"],
                 int(won and skunked), int(not won and skunked)))
        for hand in card["special"]:
            db.execute(
                "INSERT INTO special VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (card["id"], card["club"], card["night"], hand["seat"], hand["member"],
                 hand["name"], hand["hand"], hand["points"], hand["counted"],
                 " ".join([*hand["cards"], hand["starter"]])))
        _bump(db, "results")
    return True


KEEP_REFUSED = 1000
"""The most refused messages kept (the newest): a board sending nothing but bad messages
cannot fill the disk; the counter still counts every one."""


def refuse(db: sqlite3.Connection, topic: str, why: str, *, now: float | None = None) -> None:
    """Keep a refused message's topic and why (the message itself is not kept), the newest
    :data:`KEEP_REFUSED` of them."""
    with transaction(db):
        added = db.execute("INSERT INTO refused VALUES (?, ?, ?)",
                           (time.time() if now is None else now, topic[:200], why[:500]))
        db.execute("DELETE FROM refused WHERE rowid <= ?",
                   ((added.lastrowid or 0) - KEEP_REFUSED,))
        _bump(db, "refused")


def counters(db: sqlite3.Connection) -> dict[str, int]:
    """Results stored, duplicates and refused messages so far."""
    found = {"results": 0, "duplicates": 0, "refused": 0}
    found.update({row["name"]: row["value"] for row in db.execute("SELECT * FROM counter")})
    return found


def load_members(db: sqlite3.Connection, path: Path) -> int:
    """Load the roster from a CSV of ``member,name[,guest]`` (a header line is allowed);
    ClubError naming the line that is not one."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ClubError(f"cannot read the members file {path}: {error}") from None
    rows: list[tuple[str, str, int]] = []
    for number, row in enumerate(csv.reader(text.splitlines()), start=1):
        if not row or (number == 1 and row[0].strip().lower() == "member"):
            continue
        if len(row) < 2 or not row[0].strip() or not row[1].strip():
            raise ClubError(f"{path} line {number}: expected member,name[,guest], got {row!r}")
        guest = len(row) > 2 and row[2].strip().lower() in ("1", "yes", "true", "guest")
        rows.append((row[0].strip(), row[1].strip(), int(guest)))
    with transaction(db):
        db.executemany("INSERT OR REPLACE INTO member VALUES (?, ?, ?)", rows)
    return len(rows)
