"""What one board can make the standings service do: a budget of engine reads per board.

Reading a card's record through the engine is the one dear step of taking a result (about
0.05 to 0.1 s here; everything before it is bounded by the message's size,
:func:`pegboard.club.check.read_card`). A board that holds its password could send
well-formed cards whose records disagree without end, and each would be read in turn while
every other board's results waited behind them. So each board has a budget
(:class:`Budget`): :data:`BURST` reads at once, then :data:`PER_MINUTE` a minute. Every card
is put in its board's queue (:class:`Waiting`, in the results database, so acknowledging it
to the broker loses nothing) off the network's thread, and the boards' queues are served in
turn, one card a board at a time, each board's in the order they came and as its budget
allows (:mod:`pegboard.club.service`): a board's backlog, within its budget or over it,
delays another board's card by one engine read at most. A board with more than
:data:`MOST_WAITING` cards waiting has the newest refused unread (counted in ``refused``,
not remembered: sent again, it is taken again).

A card read and stored before is known again by a digest of its topic and payload and by
its identity (:func:`pegboard.club.check.identity`: what the card is, whatever its bytes),
both kept in :class:`Passed`: the same card delivered again (retained, after a restart of
the service or a reconnection, or sent again spaced otherwise) is not read again, nor
charged to its board, nor counted again; nor is a card equal to one stored
(:func:`pegboard.club.results.stored_before`, whether or not a service remembered it). A
card waiting already is not queued twice, in any bytes.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pegboard.club.results import refuse_all

PER_MINUTE = 30
"""Engine reads a minute a board's budget gives once its burst is spent: a board plays a
game in 15 minutes or more, so its results, corrections and a ``--again`` of a night fit
easily; a flood of forged cards costs the service at most 3 s of a core a minute a board."""
BURST = 60
"""Engine reads a board may have at once: a whole night's results sent again together (a
board back after a night offline, ``club publish --again``) are read without waiting."""
MOST_WAITING = 1000
"""The most cards one board may have waiting for its budget (a season's results)."""
BOARDS = 1024
"""The most boards whose budgets are kept (a league's); the longest unused is forgotten."""


@dataclass(slots=True)
class _Bucket:
    tokens: float
    at: float


class Budget:
    """Each board's budget of engine reads (a token bucket): ``burst`` at once, refilled at
    ``per_minute`` a minute, by ``clock``."""

    def __init__(self, *, per_minute: float = PER_MINUTE, burst: int = BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_second = per_minute / 60.0
        self.burst = burst
        self.clock = clock
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def _bucket(self, board: str) -> _Bucket:
        now = self.clock()
        bucket = self._buckets.get(board)
        if bucket is None:
            bucket = self._buckets[board] = _Bucket(float(self.burst), now)
            while len(self._buckets) > BOARDS:
                self._buckets.popitem(last=False)
        else:
            bucket.tokens = min(float(self.burst),
                                bucket.tokens + (now - bucket.at) * self.per_second)
            bucket.at = now
        self._buckets.move_to_end(board)
        return bucket

    def take(self, board: str) -> bool:
        """Whether ``board`` may have a card read now (the read is then charged)."""
        bucket = self._bucket(board)
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return True
        return False

    def wait(self, board: str) -> float:
        """Seconds until ``board`` may have a card read (0 when it may now)."""
        bucket = self._bucket(board)
        return 0.0 if bucket.tokens >= 1.0 else (1.0 - bucket.tokens) / self.per_second

    def full_in(self, board: str) -> float:
        """Seconds until ``board``'s budget is whole again (0 when it is)."""
        bucket = self._bucket(board)
        return max(0.0, (self.burst - bucket.tokens) / self.per_second)


_WAITING = ("CREATE TABLE IF NOT EXISTS waiting (seq INTEGER PRIMARY KEY, board TEXT NOT "
            "NULL, topic TEXT NOT NULL, payload BLOB NOT NULL, digest BLOB NOT NULL UNIQUE)")
_BY_BOARD = "CREATE INDEX IF NOT EXISTS waiting_board ON waiting (board, seq)"
_BY_CARD = "CREATE INDEX IF NOT EXISTS waiting_card ON waiting (card)"
_PASSED = ("CREATE TABLE IF NOT EXISTS passed_digest (digest BLOB PRIMARY KEY, "
           "seq INTEGER NOT NULL) WITHOUT ROWID")


def digest(topic: str, payload: bytes) -> bytes:
    """The digest a message is known by: its topic and its payload."""
    hashed = hashlib.sha256(topic.encode("utf-8", "replace"))
    hashed.update(b"\0")
    hashed.update(payload)
    return hashed.digest()


def waiting_count(db: sqlite3.Connection) -> int:
    """Results received and not yet decided: cards taken from the broker (stored and
    acknowledged) that wait for the engine's read, each card once whatever its bytes (0 in
    a database no service has used). A card decided without the engine (refused unread,
    known as stored or refused before) never waits."""
    try:
        return int(db.execute("SELECT COUNT(*) FROM waiting").fetchone()[0])
    except sqlite3.OperationalError:  # no such table: nothing waits
        return 0


class Waiting:
    """Each board's queue of cards waiting to be read, in the results database ``db``."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        db.execute(_WAITING)
        if "card" not in {row[1] for row in db.execute("PRAGMA table_info(waiting)")}:
            # kept before cards were known by their identity: those waiting have none
            db.execute("ALTER TABLE waiting ADD COLUMN card BLOB")
        db.execute(_BY_BOARD)
        db.execute(_BY_CARD)

    def boards(self) -> list[str]:
        """The boards with cards waiting, by name (the order their turns go round in)."""
        return [row[0] for row in self.db.execute(
            "SELECT DISTINCT board FROM waiting ORDER BY board")]

    def has(self, board: str) -> bool:
        return self.db.execute("SELECT 1 FROM waiting WHERE board = ? LIMIT 1",
                               (board,)).fetchone() is not None

    def put(self, board: str, topic: str, payload: bytes, card: bytes | None = None) -> bool:
        """Keep a card for later (True), or refuse it unread when ``board`` has
        :data:`MOST_WAITING` waiting already (False; counted in ``refused``). The same
        message, or the same card (its identity ``card``) in other bytes, waiting already
        is kept once. In the caller's transaction, if any."""
        known = digest(topic, payload)
        if self.db.execute("SELECT 1 FROM waiting WHERE digest = ?", (known,)).fetchone() or (
                card is not None and self.db.execute(
                    "SELECT 1 FROM waiting WHERE card = ?", (card,)).fetchone()):
            return True
        count = self.db.execute("SELECT COUNT(*) FROM waiting WHERE board = ?",
                                (board,)).fetchone()[0]
        if count >= MOST_WAITING:
            refuse_all(self.db, [(topic, f"board {board} has {MOST_WAITING:,} results "
                                  "waiting already; refused unread (sent again, it is taken)")])
            return False
        self.db.execute("INSERT OR IGNORE INTO waiting (board, topic, payload, digest, card) "
                        "VALUES (?, ?, ?, ?, ?)", (board, topic, payload, known, card))
        return True

    def oldest(self, board: str) -> tuple[int, str, bytes, bytes | None] | None:
        """The card of ``board`` waiting longest: its number, topic, payload and identity
        (None: kept before cards were known by it)."""
        row = self.db.execute("SELECT seq, topic, payload, card FROM waiting WHERE board = ? "
                              "ORDER BY seq LIMIT 1", (board,)).fetchone()
        return None if row is None else (int(row[0]), str(row[1]), bytes(row[2]),
                                         None if row[3] is None else bytes(row[3]))

    def done(self, seq: int) -> None:
        self.db.execute("DELETE FROM waiting WHERE seq = ?", (seq,))


class Passed:
    """The messages and cards stored before, by digest and by identity, for good: on disk
    (about 50 bytes each, measured; two a card), never in the process's memory, so a copy of
    a card stored however long ago is known again and never counted twice."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        db.execute(_PASSED)
        row = db.execute("SELECT max(seq) FROM passed_digest").fetchone()
        self._seq = int(row[0] or 0)

    def known(self, digests: Sequence[bytes]) -> set[bytes]:
        """Which of these messages' digests were counted before, in one look-up."""
        found: set[bytes] = set()
        for start in range(0, len(digests), 500):
            part = digests[start:start + 500]
            found.update(bytes(row[0]) for row in self.db.execute(
                "SELECT digest FROM passed_digest WHERE digest IN "
                f"({','.join('?' * len(part))})", part))
        return found

    def passed(self, topic: str, payload: bytes, card: bytes | None = None) -> None:
        """Remember a message whose card was read and stored, and the card (its identity)."""
        self.remember([digest(topic, payload), *([] if card is None else [card])])

    def remember(self, digests: Sequence[bytes]) -> None:
        """Remember messages (by digest) and cards (by identity) that were stored (in the
        caller's transaction, if any)."""
        rows = []
        for known in digests:
            self._seq += 1
            rows.append((known, self._seq))
        self.db.executemany("INSERT OR IGNORE INTO passed_digest VALUES (?, ?)", rows)
