"""The standings service remembers for good what it refused and what it stored, by digest,
in the results database: past the 100,000 it once kept (when the oldest were forgotten, and a
copy of one came back to be read and counted again), the first is still known after a
restart, and the digests are held on disk, none in the process's memory."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Sequence
from pathlib import Path

import pytest

from pegboard.club.budget import Passed
from pegboard.club.refusals import Refusals, digest
from pegboard.club.results import connect, transaction

MANY = 100_001
"""One more than the digests once kept."""
BATCH = 256
"""As many as the service's intake takes in one batch."""


def remember_many(db_path: Path, make: Callable[[object], object]) -> tuple[bytes, list[str]]:
    """Remember :data:`MANY` digests (one a message's) in batches as the service does,
    through the kind ``make`` builds on the database; the first remembered, and the names of
    the collections the kind holds in memory (none: each digest is on disk only)."""
    # In order, so the test spends its time remembering, not balancing the index.
    many = sorted([digest("pegboard/c1/board/board-1/result/junk0", b"junk"),
                   *(hashlib.sha256(b"%d" % n).digest() for n in range(MANY - 1))])
    first = many[0]
    db = connect(db_path)
    kind = make(db)
    remember: Callable[[Sequence[bytes]], None] = kind.remember  # type: ignore[attr-defined]
    db.execute("PRAGMA synchronous=OFF")  # the test's own file: no power cut to survive
    try:
        with transaction(db):
            for start in range(0, MANY, BATCH):
                remember(many[start:start + BATCH])
    finally:
        db.close()
    held = [name for name, value in vars(kind).items()
            if isinstance(value, Collection) and not isinstance(value, str | bytes)]
    return first, held


@pytest.mark.parametrize(("make", "table"), [(Refusals, "refused_digest"),
                                              (Passed, "passed_digest")])
def test_every_digest_is_remembered_for_good_on_disk_not_in_memory(
        tmp_path: Path, make: Callable[[object], object], table: str) -> None:
    first, held = remember_many(tmp_path / "r.db", make)
    assert held == [], f"digests held in memory: {held}"
    db = connect(tmp_path / "r.db")  # a restart of the service
    try:
        again = make(db)
        assert again.known([first]) == {first}  # type: ignore[attr-defined]
        assert db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] == MANY
    finally:
        db.close()
