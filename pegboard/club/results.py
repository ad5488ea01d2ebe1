"""The standings service's results: SQLite in WAL mode, each result stored once.

A result is keyed by its game (:func:`~pegboard.club.scorecard.key_of`: its place in the
night, from whichever board) and its revision (a digest of its record). The same revision
arriving again (a board sending again after a lost acknowledgement, the broker delivering
again after a restart, a board renamed or a store moved to a spare board sending it under
another board's id) is counted in ``duplicates`` and changes nothing else. A new revision
whose record extends the counted one (the game taken back on the board after it was
confirmed, entered right and confirmed again) replaces it in the standings
(``corrections``), unless the director adjusted the one counted: then it is held for the
director, who has ruled on that game; one that the counted record extends is an older
revision arriving late (a duplicate). A revision that neither extends nor is extended by
the counted one is another record of the same place in the night: it is held for the
director, not counted (``held``); so is a card that arrived on another board's topic than
the one it names (held naming both; :attr:`pegboard.club.check.Read.misplaced`), unless the
very revision is stored already. Every revision is kept in the audit (``revision``) with
what became of it. A refused message is kept in ``refused`` with why (for the director),
never counted. A member number not on the roster (``members``, loaded from a CSV of
``member,name[,guest]``) is kept and flagged.

Club games are counted by the club's game points (``club serve --game-points``, ACC by
default: RULES.md's club section): a game a table played with other game points (a board
whose setup said "Game points: classic") is counted with the points the engine gives its
result under the club's (:func:`~pegboard.rules.result.game_result`), and flagged
(``rescored``) for the page and the exports.

Every write that decides the standings (a result stored, a director's act, a seating kept,
the roster loaded) is appended to the database's journal (:mod:`pegboard.club.journal`)
inside its transaction, synced before it commits, with the journal's place kept in the
database (``kept``); :func:`replay` makes the same write again from the journal's entry, so
a damaged database is rebuilt from the journal with the very standings of before
(:mod:`pegboard.club.heal`). A connection made by :func:`connect` without a journal
writes none (the tests' and the tools' databases).
"""

from __future__ import annotations

import contextlib
import csv
import json
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Any, NamedTuple

from pegboard.club.journal import Journal
from pegboard.club.scorecard import key_of
from pegboard.club.seating import Round, from_json, to_json
from pegboard.errors import ClubError
from pegboard.rules.result import game_result, spread, winner_of
from pegboard.rules.state import GameResult, Skunk
from pegboard.rules.value import replace
from pegboard.rules.variants import GamePoints, Rules

SCHEMA = """
CREATE TABLE IF NOT EXISTS result (
    id TEXT PRIMARY KEY, club TEXT NOT NULL, board TEXT NOT NULL, game TEXT NOT NULL,
    night INTEGER NOT NULL, round INTEGER NOT NULL, tbl INTEGER NOT NULL,
    received REAL NOT NULL, payload TEXT NOT NULL, revision TEXT NOT NULL,
    rescored TEXT NOT NULL DEFAULT '', adjusted TEXT NOT NULL DEFAULT '');
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
CREATE TABLE IF NOT EXISTS act (
    at REAL NOT NULL, director TEXT NOT NULL, act TEXT NOT NULL, id TEXT NOT NULL,
    revision TEXT NOT NULL, reason TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS refused (at REAL NOT NULL, topic TEXT NOT NULL, why TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS seating (at REAL NOT NULL, rounds TEXT NOT NULL,
    source TEXT NOT NULL, night INTEGER);
CREATE TABLE IF NOT EXISTS bye (
    club TEXT NOT NULL, night INTEGER NOT NULL, round INTEGER NOT NULL, member TEXT NOT NULL,
    game_points INTEGER NOT NULL, wins INTEGER NOT NULL, PRIMARY KEY (club, night, round));
CREATE TABLE IF NOT EXISTS counter (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS kept (one INTEGER PRIMARY KEY CHECK (one = 1),
    journal TEXT NOT NULL, seq INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS healed (at REAL NOT NULL, moved TEXT NOT NULL, why TEXT NOT NULL,
    said TEXT NOT NULL);
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

    @property
    def shown(self) -> bool:
        """Whether the page changed: the standings, or the director's queue (a result
        held), which the director watches on the page without reloading it."""
        return self is not Stored.DUPLICATE


REPLACED = "replaced"
"""The audit's status of a revision a correction replaced."""
OLDER = "older"
"""The audit's status of a revision older than the counted one, arriving after it."""


class Results(sqlite3.Connection):
    """A connection to the results database, with the journal its writes are appended to
    (None: none) and the journal's generation it was made in."""

    journal: Journal | None = None
    generation = 0
    pending: tuple[int, int] | None = None
    """The journal entry appended in the open transaction: its sequence number and the
    journal's size before it (taken back if the transaction does not commit)."""
    replaying: int | None = None
    """The sequence number of the journal entry being replayed (None: not replaying)."""


SQLITE_CORRUPT = 11
SQLITE_NOTADB = 26


def is_damage(error: BaseException) -> bool:
    """Whether ``error`` says the database file is damaged (SQLite's "malformed" or "not a
    database"), not busy, locked or full."""
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(error, Damaged) or (
        isinstance(error, sqlite3.DatabaseError) and isinstance(code, int)
        and code & 0xFF in (SQLITE_CORRUPT, SQLITE_NOTADB))


class Damaged(ClubError):
    """The results database's file is damaged (it cannot be opened as a database)."""


def connect(path: Path, *, any_thread: bool = False, journal: Journal | None = None
            ) -> Results:
    """A connection to the results database (made, in WAL mode, when it is new; one written
    before results were keyed by their game is brought up to date);
    ``any_thread``: it may be closed by another thread than the one that used it;
    ``journal``: where its writes are appended (:mod:`pegboard.club.journal`).
    :class:`Damaged` when the file is not a database or is malformed."""
    try:
        db = sqlite3.connect(path, timeout=30, isolation_level=None,
                             check_same_thread=not any_thread, factory=Results)
        assert isinstance(db, Results)
        db.journal = journal
        if journal is not None:
            db.generation = journal.generation
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")  # a result acknowledged is on disk
        db.row_factory = sqlite3.Row
        _upgrade(db)
        db.executescript(SCHEMA)
        if "night" not in {row[1] for row in db.execute("PRAGMA table_info(seating)")}:
            # kept before the seating knew its night: the night it was for is not known
            db.execute("ALTER TABLE seating ADD COLUMN night INTEGER")
    except sqlite3.Error as error:
        with contextlib.suppress(UnboundLocalError, sqlite3.Error):
            db.close()
        kind = Damaged if is_damage(error) else ClubError
        raise kind(f"cannot use the results database {path}: {error}") from None
    return db


def _upgrade(db: sqlite3.Connection) -> None:
    """A database whose results were keyed ``<board>:<game>`` is stored again keyed by the
    game (the same game from two boards becomes one result; every card is kept in the
    audit); its counters of duplicates and refusals stay."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(result)")}
    if "revision" in columns and "rescored" not in columns:
        db.execute("ALTER TABLE result ADD COLUMN rescored TEXT NOT NULL DEFAULT ''")
    if "revision" in columns and "adjusted" not in columns:
        db.execute("ALTER TABLE result ADD COLUMN adjusted TEXT NOT NULL DEFAULT ''")
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
    """One write transaction (taken at once, so two writers never deadlock); a journal
    entry appended in it is taken back if it does not commit."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
        if isinstance(db, Results) and db.pending is not None and db.journal is not None:
            db.journal.undo(*db.pending, db.generation)
        raise
    finally:
        if isinstance(db, Results):
            db.pending = None


def journal(db: sqlite3.Connection, kind: str, fields: dict[str, Any], now: float) -> None:
    """Append the write ``kind`` (its ``fields``, enough for :func:`replay` to make it
    again) to the connection's journal, in the caller's transaction, and keep the
    journal's place in the database; when replaying, keep the place of the entry replayed.
    ClubError when the journal cannot be written (the transaction does not commit)."""
    if not isinstance(db, Results):
        return
    if db.replaying is not None:
        seq, name = db.replaying, db.journal.id if db.journal is not None else ""
    elif db.journal is not None:
        try:
            seq, size = db.journal.append(kind, fields, generation=db.generation, now=now)
        except OSError as error:
            raise ClubError(f"cannot write the journal {db.journal.path}: "
                            f"{error.strerror or error}; nothing was changed") from None
        db.pending = (seq, size)
        name = db.journal.id
    else:
        return
    db.execute("INSERT INTO kept VALUES (1, ?, ?) ON CONFLICT(one) DO UPDATE SET "
               "journal = excluded.journal, seq = excluded.seq", (name, seq))


def kept(db: sqlite3.Connection) -> tuple[str, int] | None:
    """The journal the database was written with and its last entry written, or None."""
    row = db.execute("SELECT journal, seq FROM kept").fetchone()
    return None if row is None else (str(row[0]), int(row[1]))


def _bump(db: sqlite3.Connection, name: str, by: int = 1) -> None:
    db.execute("INSERT INTO counter VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET "
               "value = value + ?", (name, by, by))


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


class Bye(StrEnum):
    """How the club credits a bye (``club serve --bye``)."""

    WIN = "win"
    """As a game won: the club's game points for a win (ACC: 2), one win, no spread. The
    default, and this program's choice: RULES.md says only that there are byes when the
    count is odd, and no rule we have says how one is credited (the club's own rule
    decides)."""
    NONE = "none"
    """Nothing: the bye is listed, and counts for nothing."""


def seated(card: Mapping[str, Any], seating: list[Round] | None, night: int | None
           ) -> list[Round] | None:
    """The seating that applies to ``card``: tonight's ``seating``, unless it is known to
    be another night's (``night``, the night it is for: a board's late result of last
    week is neither checked against this week's tables nor credits this week's byes)."""
    return None if night is not None and card["night"] != night else seating


def store_result(db: sqlite3.Connection, card: dict[str, Any], *, now: float | None = None,
                 points: GamePoints = GamePoints.ACC, seating: list[Round] | None = None,
                 bye: Bye = Bye.WIN,
                 then: Callable[[sqlite3.Connection], None] | None = None,
                 seating_night: int | None = None,
                 bound: Callable[[int], None] | None = None, misplaced: str = "") -> Stored:
    """Store a checked scorecard (see the module), counted by the club's game ``points``
    when it fits the night (:func:`misfit`, with tonight's ``seating`` if one is loaded,
    for ``seating_night`` when known: :func:`seated`), else held for the director: what
    it did. A counted game credits its round's bye, as the club's ``bye`` says
    (:func:`credit_bye`). ``then`` writes in the same transaction (the service's own
    bookkeeping of the message: stored with it, or not at all).

    A seating whose night is not known (``seating_night`` None: a service started without
    ``--night``) is the night of the first game counted against it: that night is kept
    with the seating held (:func:`bind_seating`, in the same transaction) and ``bound`` is
    told it once stored.

    ``misplaced``: why the card is not on its own board's topic ("" when it is): then it is
    held for the director with that reason, whatever else it fits."""
    at = time.time() if now is None else now
    given = seating
    seating = seated(card, seating, seating_night)
    learns = seating_night is None and checked(db, card, seating)
    with transaction(db):
        stored = _store(db, card, at, points, seating, misplaced)
        if stored.changes:
            credit_bye(db, card, seating, points, bye)
        learnt = learns and stored is Stored.COUNTED and bind_seating(db, card["night"])
        journal(db, "result", {"card": card, "points": points.value,
                               "seating": None if given is None else to_json(given),
                               "bye": bye.value, "seating_night": seating_night,
                               "misplaced": misplaced}, at)
        if then is not None:
            then(db)
    if learnt and bound is not None:
        bound(int(card["night"]))
    return stored


def stored_before(db: sqlite3.Connection, card: Mapping[str, Any]) -> bool:
    """Whether this very card, field for field, was read and stored before: its game's
    revision is in the audit (:func:`store_result` keeps every revision it was given) as
    this card. The stored card is the one the engine made from its record, so a card equal
    to it needs no reading again. A card that does not name a game (junk) is not."""
    try:
        key, revision = key_of(card)
    except Exception:  # whatever a hostile card's fields are: not a game stored
        return False
    row = db.execute("SELECT payload FROM revision WHERE id = ? AND revision = ?",
                     (key, revision)).fetchone()
    return row is not None and json.loads(row[0]) == card


def credit_bye(db: sqlite3.Connection, card: Mapping[str, Any], seating: list[Round] | None,
               points: GamePoints, bye: Bye) -> None:
    """The bye of ``card``'s round in tonight's ``seating``, credited once the round has a
    game counted: by :attr:`Bye.WIN`, the club's game points for a win (a game won by the
    engine's rules under the club's game points) and one win, no spread."""
    if seating is None:
        return
    found = next((r for r in seating if r.number == card["round"]), None)
    if found is None or found.bye is None:
        return
    won = gained = 0
    if bye is Bye.WIN:  # the engine's points for a plain win (no skunk) under the club's
        rules = replace(Rules.from_json(card["rules"], len(card["players"])),
                        game_points=points)
        gained = game_result(rules, (rules.target, rules.target - 1), 0).game_points[0]
        won = 1
    db.execute("INSERT OR IGNORE INTO bye VALUES (?, ?, ?, ?, ?, ?)",
               (card["club"], card["night"], card["round"], found.bye, gained, won))


def checked(db: sqlite3.Connection, card: Mapping[str, Any], seating: list[Round] | None
            ) -> bool:
    """Whether ``card`` is checked against the ``seating`` loaded (:func:`misfit`): a game of
    tonight, the newest night with results of its club, or a later one (a board's late
    result of an older night is not)."""
    if seating is None:
        return False
    newest = db.execute("SELECT MAX(night) FROM result WHERE club = ?",
                        (card["club"],)).fetchone()[0]
    return newest is None or bool(card["night"] >= newest)


def misfit(db: sqlite3.Connection, card: Mapping[str, Any], key: str,
           seating: list[Round] | None) -> str:
    """Why a new game does not fit the night ("" when it does): with a seating loaded (for
    tonight: :func:`checked`), its round and table must seat its members; and none of its
    members may already have a game counted in that round."""
    members = sorted(player["member"] for player in card["players"])
    if seating is not None and checked(db, card, seating):
        found = next((r for r in seating if r.number == card["round"]), None)
        if found is None:
            return f"round {card['round']} is not in tonight's seating"
        table = next((t for t in found.tables if t.number == card["table"]), None)
        if table is None or sorted(table.players) != members:
            seated = "nobody" if table is None else " v ".join(table.players)
            return (f"round {card['round']}, table {card['table']} is seated {seated}, not "
                    f"{' v '.join(members)}")
    for member in members:
        row = db.execute(
            "SELECT r.board, r.game, l.tbl FROM line l JOIN result r ON r.id = l.result WHERE "
            "l.club = ? AND l.night = ? AND l.round = ? AND l.member = ? AND l.result != ?",
            (card["club"], card["night"], card["round"], member, key)).fetchone()
        if row is not None:
            return (f"member {member} already has a game counted in round {card['round']} "
                    f"(table {row['tbl']}, {row['board']}:{row['game']})")
    return ""


def _store(db: sqlite3.Connection, card: Mapping[str, Any], received: float,
           points: GamePoints = GamePoints.ACC, seating: list[Round] | None = None,
           misplaced: str = "") -> Stored:
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
    counted = db.execute("SELECT revision, board, game, payload, adjusted FROM result "
                         "WHERE id = ?", (key,)).fetchone()
    if misplaced:  # another board's topic: never counted but by the director
        audit(Stored.HELD, misplaced)
        _bump(db, "held")
        return Stored.HELD
    if counted is None:
        voided = db.execute("SELECT revision FROM revision WHERE id = ? AND status = ?",
                            (key, VOIDED)).fetchone()
        why = (f"the director voided this game (revision {voided[0]})" if voided is not None
               else misfit(db, card, key, seating))
        if why:
            audit(Stored.HELD, why)
            _bump(db, "held")
            return Stored.HELD
        audit(Stored.COUNTED)
        _count(db, key, revision, card, received, payload, points)
        _bump(db, "results")
        return Stored.COUNTED
    old: list[Any] = json.loads(counted["payload"])["record"]
    new: list[Any] = list(card["record"])
    if len(new) > len(old) and new[: len(old)] == old and counted["adjusted"]:
        # The director ruled on the game counted: a board does not overrule the director.
        audit(Stored.HELD, f"a correction of revision {counted['revision']}, which the "
                           "director adjusted: the director's to accept")
        _bump(db, "held")
        return Stored.HELD
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
    db.execute("INSERT INTO result VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '')",
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


VOIDED = "voided"
"""The audit's status of a revision the director voided."""
ACCEPTED = "accepted"
"""The audit's status of a held revision the director counted."""
ADJUSTED = "adjusted"
"""The audit's status of a counted revision the director adjusted (counted with the
director's board)."""
MAX_SCORE = 999
"""The highest score a director's adjustment may give a side."""


class Act(StrEnum):
    """What the director may do to a result."""

    ACCEPT = "accept"
    """Count a revision held in the queue (in place of any revision counted for its game)."""
    VOID = "void"
    """Take a counted game out of the standings, or a held revision out of the queue
    (never counted)."""
    ADJUST = "adjust"
    """Count a counted game with the board the director rules it ended on (each side's
    final score): its winner, skunk, game points and spread follow by the rules."""


def adjustment(card: Mapping[str, Any], scores: Sequence[int], points: GamePoints
               ) -> tuple[int, GameResult, int, str]:
    """The game ``card`` counted with the board at ``scores`` (each side's final score, as
    the director rules it) by the club's game ``points``: the winner, the engine's result
    (skunk, game points), the spread, and the adjustment in words; ClubError when no game
    can end on that board."""
    sides = len(card["scores"])
    if (len(scores) != sides or not all(type(score) is int and 0 <= score <= MAX_SCORE
                                        for score in scores)):
        raise ClubError(f"an adjustment gives {sides} final scores, one a side, each a whole "
                        f"number from 0 to {MAX_SCORE}; got {list(scores)!r:.80}")
    rules = replace(Rules.from_json(card["rules"], len(card["players"])), game_points=points)
    winner = winner_of(scores, rules.target)
    if winner is None:
        raise ClubError(f"the scores {'-'.join(map(str, scores))} must have exactly one side "
                        f"at {rules.target} or more: the winner")
    result = game_result(rules, tuple(scores), winner)
    margin = spread(scores, winner, rules.target)
    said = (f"{'-'.join(map(str, card['scores']))} adjusted to {'-'.join(map(str, scores))}: "
            f"game points {'-'.join(map(str, result.game_points))}, skunk "
            f"{result.skunk.value}, spread {margin}")
    return winner, result, margin, said


def _adjust(db: sqlite3.Connection, key: str, card: Mapping[str, Any], scores: Sequence[int],
            points: GamePoints, why: str) -> str:
    """Count the counted game ``key`` with the director's board ``scores``: each player's
    line as the rules make it, and the result marked ``adjusted`` (JSON: ``scores``,
    ``skunk``, ``said``, ``why``); the adjustment in words."""
    winner, result, margin, said = adjustment(card, scores, points)
    target = Rules.from_json(card["rules"], len(card["players"])).target
    skunked = result.skunk is not Skunk.NONE
    for player in card["players"]:
        side = player["side"]
        won = side == winner
        db.execute(
            "UPDATE line SET won = ?, game_points = ?, spread = ?, score = ?, "
            "skunks_given = ?, skunks_taken = ? WHERE result = ? AND seat = ?",
            (int(won), result.game_points[side], margin if won else -margin,
             min(scores[side], target), int(won and skunked), int(not won and skunked), key,
             player["seat"]))
    db.execute("UPDATE result SET adjusted = ? WHERE id = ?", (json.dumps(
        {"scores": list(scores), "skunk": result.skunk.value, "said": said, "why": why},
        ensure_ascii=False), key))
    return said


def act(db: sqlite3.Connection, what: Act, key: str, revision: str, *, director: str,
        reason: str, points: GamePoints = GamePoints.ACC, now: float | None = None,
        scores: Sequence[int] | None = None, seating: list[Round] | None = None,
        bye: Bye = Bye.WIN, seating_night: int | None = None) -> str:
    """The director's act on the game ``key``'s ``revision``, with a ``reason``, kept in the
    audit; what it did, in words. ``scores``: an adjustment's board; a game accepted credits
    its round's bye in tonight's ``seating`` as a counted one does (:func:`credit_bye`).
    ClubError naming what does not fit (nothing changed)."""
    at = time.time() if now is None else now
    if not reason.strip() or not director.strip():
        raise ClubError("a director's act needs the director's name and a reason")
    if (scores is None) != (what is not Act.ADJUST):
        raise ClubError("an adjustment, and only an adjustment, gives the final scores "
                        '("scores": one a side, e.g. [121, 92])')
    change = ""
    with transaction(db):
        row = db.execute("SELECT status, payload FROM revision WHERE id = ? AND revision = ?",
                         (key, revision)).fetchone()
        if row is None:
            raise ClubError(f"no revision {revision[:20]!r} of the game {key[:60]!r}")
        card = json.loads(row["payload"])
        counted = db.execute("SELECT revision FROM result WHERE id = ?", (key,)).fetchone()
        if what is Act.ACCEPT:
            if row["status"] != Stored.HELD:
                raise ClubError(f"revision {revision} is {row['status']}, not held: only a "
                                "revision in the director's queue is accepted")
            if counted is not None:
                db.execute("UPDATE revision SET status = ?, why = ? WHERE id = ? AND "
                           "revision = ?", (REPLACED, f"the director counted revision "
                                            f"{revision} instead", key, counted[0]))
                for table, column in (("result", "id"), ("line", "result"),
                                      ("special", "result")):
                    db.execute(f"DELETE FROM {table} WHERE {column} = ?", (key,))
            else:
                _bump(db, "results")
            _bump(db, "held", -1)
            _count(db, key, revision, card, at, row["payload"], points)
            credit_bye(db, card, seated(card, seating, seating_night), points, bye)
            status, said = ACCEPTED, f"counted revision {revision} of {key}"
        elif what is Act.ADJUST:
            assert scores is not None
            if counted is None or counted[0] != revision:
                raise ClubError(f"revision {revision} of {key} is not the one counted: only "
                                "a counted result is adjusted")
            change = _adjust(db, key, card, scores, points, f"{director}: {reason}")
            status, said = ADJUSTED, f"adjusted revision {revision} of {key}: {change}"
        elif row["status"] == Stored.HELD:  # out of the queue; the standings as they were
            _bump(db, "held", -1)
            _bump(db, "voided")
            status, said = VOIDED, f"voided revision {revision} of {key}, held"
        else:
            if counted is None or counted[0] != revision:
                raise ClubError(f"revision {revision} of {key} is neither the one counted nor "
                                "held: only a counted or held result is voided")
            for table, column in (("result", "id"), ("line", "result"), ("special", "result")):
                db.execute(f"DELETE FROM {table} WHERE {column} = ?", (key,))
            _bump(db, "results", -1)
            _bump(db, "voided")
            status, said = VOIDED, f"voided revision {revision} of {key}"
        ruled = f"{director}: {reason}" + (f" ({change})" if what is Act.ADJUST else "")
        db.execute("UPDATE revision SET status = ?, why = ? WHERE id = ? AND revision = ?",
                   (status, ruled, key, revision))
        db.execute("INSERT INTO act VALUES (?, ?, ?, ?, ?, ?)",
                   (at, director[:40], what.value, key, revision, reason[:500]))
        journal(db, "act", {"act": what.value, "id": key, "revision": revision,
                            "director": director, "reason": reason, "points": points.value,
                            "scores": None if scores is None else list(scores),
                            "seating": None if seating is None else to_json(seating),
                            "bye": bye.value, "seating_night": seating_night}, at)
    return said


SEATED = "seating"
"""The act of loading or changing tonight's seating (in ``acts``, its ``id`` ``night`` and
its ``revision`` the rounds it gave)."""


class Held(NamedTuple):
    """The seating the results database holds: the service's seating at its last change."""

    rounds: list[dict[str, Any]]
    """The rounds, as ``club seat --json`` prints them."""
    source: str
    """The digest of the ``--seating`` file it was first loaded from ("" when none)."""
    night: int | None
    """The night it is for (the service's ``--night``, or the night of the first game
    counted against it: :func:`bind_seating`), None when not known."""
    at: float = 0.0
    """When it was kept (seconds since the epoch)."""


EVENING_S = 12 * 3600.0
"""How long a seating held without a night number given (a service started without
``--night``) stays tonight's after its last use: a club night is one evening, so a seating
neither kept nor counted against for 12 hours is another night's, and a service that
cannot tell nights by number tells them by this."""


def bind_seating(db: sqlite3.Connection, night: int) -> bool:
    """Keep ``night`` with the seating held when its night is not known (the night of the
    first game counted against it); whether it was not known (in the caller's
    transaction)."""
    return db.execute("UPDATE seating SET night = ? WHERE rowid = (SELECT rowid FROM seating "
                      "ORDER BY at DESC, rowid DESC LIMIT 1) AND night IS NULL",
                      (night,)).rowcount > 0


def carried(db: sqlite3.Connection, held: Held, night: int | None, now: float) -> str:
    """Why the seating ``held`` is not tonight's at a start of the service ("" when it is,
    and the service takes it up as it stands, re-seats and all). ``night``: the service's
    ``--night``. With one, a seating is tonight's when kept for that very night. Without
    one (the boards' configs give the night), a seating is tonight's when it was last used
    within the evening (:data:`EVENING_S`): kept, or a game of its night counted; its
    night, if known, stays with it."""
    if night is not None:
        if held.night == night:
            return ""
        kept = ("kept without a night number (club serve without --night)"
                if held.night is None else f"night {held.night}'s")
        return (f"the seating held is {kept}, not known to be tonight's ({night}): a seating "
                "belongs to its night, so none is loaded")
    last = held.at
    if held.night is not None:
        row = db.execute("SELECT MAX(received) FROM result WHERE night = ?",
                         (held.night,)).fetchone()
        last = max(last, row[0] or 0.0)
    if now - last <= EVENING_S:
        return ""
    hours = (now - last) / 3600
    of = "" if held.night is None else f"night {held.night}'s, "
    return (f"the seating held ({of}last used {hours:.0f} hours ago) is not tonight's: "
            f"without --night, a seating carries over a restart within {EVENING_S / 3600:.0f} "
            "hours of its last use, so none is loaded")


def save_seating(db: sqlite3.Connection, rounds: list[dict[str, Any]], *, source: str,
                 director: str, reason: str, night: int | None = None,
                 now: float | None = None) -> None:
    """Keep the seating the service now holds (the rounds as ``club seat --json`` prints
    them) for ``night`` (None: not known), loaded from the file whose digest is ``source``
    or re-seated since; the act in the director's acts. Every seating kept stays: the last
    is the service's, the others its history."""
    at = time.time() if now is None else now
    if not reason.strip() or not director.strip():
        raise ClubError("a director's act needs the director's name and a reason")
    numbers = [int(r["round"]) for r in rounds]
    with transaction(db):
        db.execute("INSERT INTO seating (at, rounds, source, night) VALUES (?, ?, ?, ?)",
                   (at, json.dumps(rounds, separators=(",", ":")), source, night))
        db.execute("INSERT INTO act VALUES (?, ?, ?, ?, ?, ?)",
                   (at, director[:40], SEATED, "night",
                    f"rounds {min(numbers)}-{max(numbers)}" if numbers else "none",
                    reason[:500]))
        journal(db, "seating", {"rounds": rounds, "source": source, "director": director,
                                "reason": reason, "night": night}, at)


def saved_seating(db: sqlite3.Connection) -> Held | None:
    """The seating kept last, or None."""
    row = db.execute("SELECT rounds, source, night, at FROM seating ORDER BY at DESC, "
                     "rowid DESC LIMIT 1").fetchone()
    return None if row is None else Held(json.loads(row[0]), str(row[1]),
                                         None if row[2] is None else int(row[2]),
                                         float(row[3]))


def queue(db: sqlite3.Connection) -> list[dict[str, Any]]:
    """The director's queue: every revision held, oldest first, with its place and why."""
    return [dict(row) for row in db.execute(
        "SELECT id, revision, board, game, night, "
        "json_extract(payload, '$.round') AS round, json_extract(payload, '$.table') AS tbl, "
        "(SELECT group_concat(json_extract(p.value, '$.member'), ' v ') FROM "
        "json_each(payload, '$.players') p) AS members, received, why FROM revision "
        "WHERE status = ? ORDER BY received, rowid", (Stored.HELD.value,))]


def acts(db: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every act of the director, oldest first: ``at``, ``director``, ``act``, ``id``,
    ``revision`` and ``reason``."""
    return [dict(row) for row in db.execute("SELECT * FROM act ORDER BY at, rowid")]


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
        refuse_all(db, [(topic, why)], now=now)


def refuse_all(db: sqlite3.Connection, refused: Sequence[tuple[str, str]], *,
               now: float | None = None) -> None:
    """Keep many refused messages (each its topic and why) as :func:`refuse` keeps one, in
    the caller's transaction: a batch of junk costs one write, not one each."""
    if not refused:
        return
    at = time.time() if now is None else now
    db.executemany("INSERT INTO refused VALUES (?, ?, ?)",
                   [(at, topic[:200], why[:500]) for topic, why in refused])
    newest = db.execute("SELECT MAX(rowid) FROM refused").fetchone()[0] or 0
    db.execute("DELETE FROM refused WHERE rowid <= ?", (newest - KEEP_REFUSED,))
    _bump(db, "refused", len(refused))


def counters(db: sqlite3.Connection) -> dict[str, int]:
    """Results counted, duplicates, corrections, revisions held and refused messages so
    far."""
    found = {"results": 0, "duplicates": 0, "corrections": 0, "held": 0, "refused": 0,
             "voided": 0}
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
        journal(db, "members", {"rows": rows}, time.time())
    return len(rows)


def note_healed(db: sqlite3.Connection, moved: str, why: str, said: str,
                now: float | None = None) -> None:
    """Keep that the database was rebuilt (the damaged file ``moved`` aside, ``why``, and
    the notice ``said``), journaled like any write so every later rebuild keeps it too."""
    at = time.time() if now is None else now
    with transaction(db):
        db.execute("INSERT INTO healed VALUES (?, ?, ?, ?)", (at, moved, why, said))
        journal(db, "healed", {"moved": moved, "why": why, "said": said}, at)


def healed(db: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every rebuild of the database, oldest first: ``at``, the damaged file ``moved``
    aside, ``why`` and the notice ``said``."""
    return [dict(row) for row in db.execute("SELECT * FROM healed ORDER BY at, rowid")]


def notice(db: sqlite3.Connection, now: float | None = None) -> str:
    """The notice of the newest rebuild of the database, shown with the standings through
    the evening it happened (:data:`EVENING_S`); "" when there is none."""
    row = db.execute("SELECT at, said FROM healed ORDER BY at DESC, rowid DESC LIMIT 1"
                     ).fetchone()
    if row is None or (time.time() if now is None else now) - row[0] > EVENING_S:
        return ""
    return str(row[1])


def replay(db: Results, entry: Mapping[str, Any]) -> None:
    """Make the journal's ``entry`` again in ``db`` (a database being rebuilt), as it was
    made: the same arguments, the same time. ClubError if it does not fit (named by the
    rebuild's notice)."""
    kind, at = entry["kind"], float(entry["at"])
    db.replaying = int(entry["seq"])
    try:
        if kind == "result":
            store_result(db, dict(entry["card"]), now=at, points=GamePoints(entry["points"]),
                         seating=_rounds(entry["seating"]), bye=Bye(entry["bye"]),
                         seating_night=entry["seating_night"], misplaced=entry["misplaced"])
        elif kind == "act":
            act(db, Act(entry["act"]), entry["id"], entry["revision"],
                director=entry["director"], reason=entry["reason"],
                points=GamePoints(entry["points"]), now=at, scores=entry["scores"],
                seating=_rounds(entry["seating"]), bye=Bye(entry["bye"]),
                seating_night=entry["seating_night"])
        elif kind == "seating":
            save_seating(db, list(entry["rounds"]), source=entry["source"],
                         director=entry["director"], reason=entry["reason"],
                         night=entry["night"], now=at)
        elif kind == "members":
            with transaction(db):
                db.executemany("INSERT OR REPLACE INTO member VALUES (?, ?, ?)",
                               [tuple(row) for row in entry["rows"]])
                journal(db, kind, {}, at)
        elif kind == "healed":
            note_healed(db, entry["moved"], entry["why"], entry["said"], now=at)
        elif kind != "begin":
            raise ClubError(f"the journal's entry {entry['seq']} is of a kind not known "
                            f"({kind[:40]!r})")
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, ClubError):
            raise
        raise ClubError(f"the journal's entry {entry.get('seq')} cannot be replayed: "
                        f"{type(error).__name__} {error}") from None
    finally:
        db.replaying = None


def _rounds(data: object) -> list[Round] | None:
    return None if data is None else from_json(data)
