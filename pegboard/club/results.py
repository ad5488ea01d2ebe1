"""The standings service's results: SQLite in WAL mode, each result stored once.

A result is keyed by its game (:func:`~pegboard.club.scorecard.key_of`: its place in the
night, from whichever board) and its revision (a digest of its record). The same revision
arriving again (a board sending again after a lost acknowledgement, the broker delivering
again after a restart, a board renamed or a store moved to a spare board sending it under
another board's id) is counted in ``duplicates`` and changes nothing else. A new revision
whose record extends the counted one (the game taken back on the board after it was
confirmed, entered right and confirmed again) replaces it in the standings
(``corrections``); one that the counted record extends is an older revision arriving late
(a duplicate). A revision that neither extends nor is extended by the counted one is another
record of the same place in the night: it is held for the director, not counted
(``held``). Every revision is kept in the audit (``revision``) with what became of it. A
refused message is kept in ``refused`` with why (for the director), never counted. A member
number not on the roster (``members``, loaded from a CSV of ``member,name[,guest]``) is kept
and flagged.

Club games are counted by the club's game points (``club serve --game-points``, ACC by
default: RULES.md's club section): a game a table played with other game points (a board
whose setup said "Game points: classic") is counted with the points the engine gives its
result under the club's (:func:`~pegboard.rules.result.game_result`), and flagged
(``rescored``) for the page and the exports.
"""

from __future__ import annotations

import csv
import json
import sqlite3
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from pegboard.club.scorecard import key_of
from pegboard.errors import ClubError
from pegboard.rules.result import game_result
from pegboard.rules.variants import GamePoints, Rules

SCHEMA = """
CREATE TABLE IF NOT EXISTS result (
    id TEXT PRIMARY KEY, club TEXT NOT NULL, board TEXT NOT NULL, game TEXT NOT NULL,
    night INTEGER NOT NULL, round INTEGER NOT NULL, tbl INTEGER NOT NULL,
    received REAL NOT NULL, payload TEXT NOT NULL, revision TEXT NOT NULL,
    rescored TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS revision (
    id TEXT NOT NULL, revision TEXT NOT NULL, club TEXT NOT NULL, night INTEGER NOT NULL,
    board TEXT NOT NULL, game TEXT NOT NULL, lines INTEGER NOT NULL, received REAL NOT NULL,
    status TEXT NOT NULL, why TEXT NOT NULL, payload TEXT NOT NULL,
    PRIMARY KEY (id, revision));
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


class Stored(StrEnum):
    """What a checked scorecard did to the results (and its revision's status in the
    audit)."""

    COUNTED = "counted"
    """A game not seen before: counted."""
    CORRECTED = "corrected"
    """A new revision of a counted game, its record extending the counted one's: counted
    instead (the one it replaced is ``replaced`` in the audit)."""
    DUPLICATE = "duplicate"
    """A revision already stored, or an older one than the counted: counted once."""
    HELD = "held"
    """Another record of a counted game's place in the night: not counted (the director's)."""

    @property
    def changes(self) -> bool:
        """Whether the standings changed."""
        return self in (Stored.COUNTED, Stored.CORRECTED)


REPLACED = "replaced"
"""The audit's status of a revision a correction replaced."""
OLDER = "older"
"""The audit's status of a revision older than the counted one, arriving after it."""


def connect(path: Path, *, any_thread: bool = False) -> sqlite3.Connection:
    """A connection to the results database (made, in WAL mode, when it is new; one written
    before results were keyed by their game is brought up to date);
    ``any_thread``: it may be closed by another thread than the one that used it."""
    try:
        db = sqlite3.connect(path, timeout=30, isolation_level=None,
                             check_same_thread=not any_thread)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")  # a result acknowledged is on disk
        db.row_factory = sqlite3.Row
        _upgrade(db)
        db.executescript(SCHEMA)
    except sqlite3.Error as error:
        raise ClubError(f"cannot use the results database {path}: {error}") from None
    return db


def _upgrade(db: sqlite3.Connection) -> None:
    """A database whose results were keyed ``<board>:<game>`` is stored again keyed by the
    game (the same game from two boards becomes one result; every card is kept in the
    audit); its counters of duplicates and refusals stay."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(result)")}
    if "revision" in columns and "rescored" not in columns:
        db.execute("ALTER TABLE result ADD COLUMN rescored TEXT NOT NULL DEFAULT ''")
    if not columns or "revision" in columns:
        return
    with transaction(db):  # all or nothing: a crash meanwhile leaves the old database
        cards = [(json.loads(row[0]), row[1]) for row in db.execute(
            "SELECT payload, received FROM result ORDER BY received, id")]
        for table in ("result", "line", "special"):
            db.execute(f"DROP TABLE IF EXISTS {table}")
        for statement in SCHEMA.split(";"):
            if statement.strip():
                db.execute(statement)
        db.execute("DELETE FROM counter WHERE name = 'results'")
        for card, received in cards:
            _store(db, card, received)


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


def club_points(card: Mapping[str, Any], club: GamePoints) -> tuple[list[int], str]:
    """Each side's game points as the club counts them, and why they differ from the card's
    ("" when the table played by the club's game points)."""
    played = str(card["rules"].get("game_points", GamePoints.ACC.value))
    if played == club.value:
        return list(card["game_points"]), ""
    rules = replace(Rules.from_json(card["rules"], len(card["players"])), game_points=club)
    again = game_result(rules, tuple(card["scores"]), card["winner"])
    return list(again.game_points), (f"played with {played} game points "
                                     f"({'-'.join(map(str, card['game_points']))}); counted "
                                     f"with the club's {club.value} "
                                     f"({'-'.join(map(str, again.game_points))})")


def store_result(db: sqlite3.Connection, card: dict[str, Any], *, now: float | None = None,
                 points: GamePoints = GamePoints.ACC) -> Stored:
    """Store a checked scorecard (see the module), counted by the club's game ``points``:
    what it did."""
    with transaction(db):
        return _store(db, card, time.time() if now is None else now, points)


def _store(db: sqlite3.Connection, card: Mapping[str, Any], received: float,
           points: GamePoints = GamePoints.ACC) -> Stored:
    key, revision = key_of(card)
    payload = json.dumps(card, ensure_ascii=False)

    def audit(status: str, why: str = "") -> None:
        db.execute("INSERT INTO revision VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (key, revision, card["club"], card["night"], card["board"], card["game"],
                    len(card["record"]), received, status, why, payload))

    if db.execute("SELECT 1 FROM revision WHERE id = ? AND revision = ?",
                  (key, revision)).fetchone() is not None:
        _bump(db, "duplicates")
        return Stored.DUPLICATE
    counted = db.execute("SELECT revision, board, game, payload FROM result WHERE id = ?",
                         (key,)).fetchone()
    if counted is None:
        audit(Stored.COUNTED)
        _count(db, key, revision, card, received, payload, points)
        _bump(db, "results")
        return Stored.COUNTED
    old: list[Any] = json.loads(counted["payload"])["record"]
    new: list[Any] = list(card["record"])
    if len(new) > len(old) and new[: len(old)] == old:
        db.execute("UPDATE revision SET status = ?, why = ? WHERE id = ? AND revision = ?",
                   (REPLACED, f"corrected by revision {revision} from board {card['board']}",
                    key, counted["revision"]))
        audit(Stored.CORRECTED, f"replaces revision {counted['revision']}")
        for table, column in (("result", "id"), ("line", "result"), ("special", "result")):
            db.execute(f"DELETE FROM {table} WHERE {column} = ?", (key,))
        _count(db, key, revision, card, received, payload, points)
        _bump(db, "corrections")
        return Stored.CORRECTED
    if len(old) > len(new) and old[: len(new)] == new:
        audit(OLDER, f"revision {counted['revision']}, a correction of it, is counted")
        _bump(db, "duplicates")
        return Stored.DUPLICATE
    audit(Stored.HELD, f"another record of this game (night {card['night']}, round "
                       f"{card['round']}, table {card['table']}) is counted: revision "
                       f"{counted['revision']} from board {counted['board']}, game "
                       f"{counted['game']}")
    _bump(db, "held")
    return Stored.HELD


def _count(db: sqlite3.Connection, key: str, revision: str, card: Mapping[str, Any],
           received: float, payload: str, points: GamePoints) -> None:
    """Count one revision of a game by the club's game ``points``: its result, each
    player's line and its pots' hands."""
    skunked = card["skunk"] != "none"
    counted, rescored = club_points(card, points)
    db.execute("INSERT INTO result VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
               (key, card["club"], card["board"], card["game"], card["night"], card["round"],
                card["table"], received, payload, revision, rescored))
    place = (card["club"], card["night"], card["round"], card["table"])
    for player in card["players"]:
        won = bool(player["won"])
        db.execute(
            "INSERT INTO line VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (key, player["seat"], *place, player["member"], player["name"],
             int(won), counted[player["side"]], player["spread"], player["score"],
             int(won and skunked), int(not won and skunked)))
    for hand in card["special"]:
        db.execute(
            "INSERT INTO special VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (key, card["club"], card["night"], hand["seat"], hand["member"],
             hand["name"], hand["hand"], hand["points"], hand["counted"],
             " ".join([*hand["cards"], hand["starter"]])))


def audit(db: sqlite3.Connection, night: int | None = None) -> list[dict[str, Any]]:
    """Every revision stored (one night's, or all), oldest first: the game's ``id``, its
    ``revision``, the ``board`` and ``game`` that sent it, its ``lines``, when it was
    ``received``, its ``status`` (counted, corrected, replaced, older or held) and why."""
    where, values = ("WHERE night = ?", [night]) if night is not None else ("", [])
    return [dict(row) for row in db.execute(
        "SELECT id, revision, club, night, board, game, lines, received, status, why "
        f"FROM revision {where} ORDER BY received, rowid", values)]


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
    """Results counted, duplicates, corrections, revisions held and refused messages so
    far."""
    found = {"results": 0, "duplicates": 0, "corrections": 0, "held": 0, "refused": 0}
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
