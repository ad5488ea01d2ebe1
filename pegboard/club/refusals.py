"""What the standings service has refused, remembered so that it is refused once.

A result is retained on the broker, so a refused one (junk, a forged card) comes back every
time the service subscribes again: after each restart, 10,000 junk messages would be read,
judged and counted again, and every other board's results would wait behind them. Each
refused message is remembered by a digest of its topic and payload (SHA-256, in the results
database, the newest :data:`KEEP_DIGESTS`): the same message arriving again is known by one
look-up, acknowledged and dropped, neither logged nor counted again.

A refusal is written without waiting for the disk (``synchronous=NORMAL`` for its
transaction, the WAL's own order kept): writing each one through to the disk took 6 ms, so a
board's 10,000 junk messages held every other board's result for a minute. A refusal lost
to a power cut costs nothing but being refused again; a result is still written through
before it is acknowledged (:mod:`pegboard.club.results`).
"""

from __future__ import annotations

import hashlib
import sqlite3

from pegboard.club.results import refuse

KEEP_DIGESTS = 100_000
"""The most refused messages remembered (about 5 MB): more than a night's worth of junk from
every board; past it the oldest are forgotten (and would be counted once more)."""

_SCHEMA = ("CREATE TABLE IF NOT EXISTS refused_digest (digest BLOB PRIMARY KEY, "
           "seq INTEGER NOT NULL) WITHOUT ROWID")


def digest(topic: str, payload: bytes) -> bytes:
    """The digest a message is known by: its topic and its payload."""
    hashed = hashlib.sha256(topic.encode("utf-8", "replace"))
    hashed.update(b"\0")
    hashed.update(payload)
    return hashed.digest()


class Refusals:
    """The refused messages of the database ``db`` (its own table beside the results)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        db.execute(_SCHEMA)
        row = db.execute("SELECT max(seq) FROM refused_digest").fetchone()
        self._seq = int(row[0] or 0)
        self.again = 0
        """Messages known as refused before (in this process): not counted again."""

    def seen(self, topic: str, payload: bytes) -> bool:
        """Whether this very message was refused before (then it is counted in
        :attr:`again` only)."""
        found = self.db.execute("SELECT 1 FROM refused_digest WHERE digest = ?",
                                (digest(topic, payload),)).fetchone()
        if found is not None:
            self.again += 1
        return found is not None

    def refuse(self, topic: str, payload: bytes, why: str) -> None:
        """Count and keep a refusal (:func:`pegboard.club.results.refuse`) and remember the
        message, without waiting for the disk."""
        self._seq += 1
        self.db.execute("PRAGMA synchronous=NORMAL")
        try:
            refuse(self.db, topic, why)
            self.db.execute("INSERT OR IGNORE INTO refused_digest VALUES (?, ?)",
                            (digest(topic, payload), self._seq))
            if self._seq % 1000 == 0:
                self.db.execute("DELETE FROM refused_digest WHERE seq <= ?",
                                (self._seq - KEEP_DIGESTS,))
        finally:
            self.db.execute("PRAGMA synchronous=FULL")
