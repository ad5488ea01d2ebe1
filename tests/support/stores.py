"""Store set-up shared by the store, crash and recovery tests: a clock that moves on each
reading, a real game entered into a store as its game in progress, a count of the files the game
index reads, a failing fsync, and bit rot in an SQLite table."""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

import pytest

from pegboard.commands.game import GameSession
from pegboard.record import dump_line
from pegboard.store import Store, index_rows, logfile
from tests.support.games import random_game


class Clock:
    """A clock that moves one second per reading."""

    def __init__(self, start: float = 1_790_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def enter_game(store: Store, lines: int, seed: int) -> tuple[str, list[str]]:
    """The first ``lines`` record lines (header included) of random game ``seed``, entered into
    ``store`` as its game in progress: the game's id and the lines."""
    made = random_game(seed)
    players = len(made.header.players)
    texts = [dump_line(made.header, players)]
    texts += [dump_line(event, players) for event in made.events][: lines - 1]
    assert len(texts) == lines
    session = GameSession(store)
    session.new(texts[0])
    for text in texts[1:]:
        session.add(text)
    current = store.current()
    assert current is not None
    return current.id, texts


def reads_from_now(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the store files the game index reads (``index_rows.read_regular``) from
    now on, in order, filled in as they are read."""
    read: list[str] = []
    real = logfile.read_regular  # the function index_rows took from the log module

    def counting(path: str | os.PathLike[str]) -> bytes | None:
        read.append(Path(path).name)
        return real(path)

    monkeypatch.setattr(index_rows, "read_regular", counting)
    return read


def fail_next_sync(monkeypatch: pytest.MonkeyPatch) -> None:
    """The log's next fsync fails with an input/output error; those after it work."""
    failures = [OSError(errno.EIO, "Input/output error")]
    real = logfile._sync

    def sync_fails_once(fd: int) -> None:
        if failures:
            raise failures.pop()
        real(fd)

    monkeypatch.setattr(logfile, "_sync", sync_fails_once)


def rot_table(file: Path, table: str) -> None:
    """Bit rot in the SQLite database ``file`` (closed, its log checkpointed): the first page
    of ``table`` overwritten with random bytes."""
    with sqlite3.connect(file) as db:
        (size,) = db.execute("PRAGMA page_size").fetchone()
        (page,) = db.execute("SELECT rootpage FROM sqlite_schema WHERE name = ?",
                             (table,)).fetchone()
    data = bytearray(file.read_bytes())
    data[(page - 1) * size:page * size] = os.urandom(size)
    file.write_bytes(bytes(data))
