"""What the standings service has refused, remembered so that it is refused once.

A result is retained on the broker, so a refused one (junk, a forged card) comes back every
time the service subscribes again: after each restart, 10,000 junk messages would be read,
judged and counted again, and every other board's results would wait behind them. Each
refused message is remembered by a digest of its topic and payload (SHA-256, in the results
database, for good): the same message arriving again is known by one look-up, acknowledged
and dropped, neither logged nor counted again, however many came between. The digests live
on disk, never in the process: its memory is SQLite's page cache whatever their number, and
the disk grows about 50 bytes a refusal (measured), no faster than each board's rate lets
messages be read (:mod:`pegboard.club.rate`). A card the engine refused (a forged result) is
also remembered by its identity
(:func:`pegboard.club.check.identity`: what it is, whatever its bytes): sent again spaced or
ordered otherwise, it is known by one more look-up, never read by the engine again nor
charged to its board's budget, and not counted again.

Refusals are written in batches, one transaction for the messages taken off the network
together (a flood of junk costs one write a batch, not one a message), and the batch's
messages are looked up among those remembered in one query. A refusal is written without
waiting for the disk (``synchronous=NORMAL`` for its transaction, the WAL's own order
kept): writing each one through to the disk took 6 ms, so a board's 10,000 junk messages
held every other board's result for a minute. A refusal lost
to a power cut costs nothing but being refused again; a result is still written through
before it is acknowledged (:mod:`pegboard.club.results`).
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Sequence

from pegboard.club.results import refuse_all, transaction

_LOOKUP = 500
"""The most digests looked up in one query (SQLite's bound on a statement's parameters is
far above it)."""

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
        return bool(self.known([digest(topic, payload)]))

    def known(self, digests: Sequence[bytes]) -> set[bytes]:
        """Which of these messages' digests were refused before, in one look-up (each
        counted in :attr:`again`)."""
        found: set[bytes] = set()
        for start in range(0, len(digests), _LOOKUP):
            part = digests[start:start + _LOOKUP]
            found.update(bytes(row[0]) for row in self.db.execute(
                "SELECT digest FROM refused_digest WHERE digest IN "
                f"({','.join('?' * len(part))})", part))
        self.again += sum(1 for one in digests if one in found)
        return found

    def remember(self, digests: Sequence[bytes]) -> None:
        """Remember messages (by digest) or cards (by identity) as refused without counting
        them (each is a refusal known already: the same card in other bytes), in the
        caller's transaction; none is ever forgotten (a refusal forgotten would be counted
        again when its retained message came back)."""
        if not digests:
            return
        rows = []
        for known in digests:
            self._seq += 1
            rows.append((known, self._seq))
        self.db.executemany("INSERT OR IGNORE INTO refused_digest VALUES (?, ?)", rows)

    def refuse(self, topic: str, payload: bytes, why: str) -> None:
        """Count and keep a refusal (:func:`pegboard.club.results.refuse`) and remember the
        message, without waiting for the disk."""
        self.db.execute("PRAGMA synchronous=NORMAL")
        try:
            with transaction(self.db):
                self.record([(topic, digest(topic, payload), why)])
        finally:
            self.db.execute("PRAGMA synchronous=FULL")

    def record(self, refused: Sequence[tuple[str, bytes | None, str]]) -> None:
        """Count and keep refusals (each a topic, the message's digest, and why) in the
        caller's transaction, remembering each message with a digest (one without is
        refused for now only: sent again, it is taken again)."""
        if not refused:
            return
        refuse_all(self.db, [(topic, why) for topic, _, why in refused])
        self.remember([known for _, known, _ in refused if known is not None])
