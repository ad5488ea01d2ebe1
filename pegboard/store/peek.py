"""A glance at the game in progress for the first frame, before the engine is loaded.

The device shows a splash with the players and their scores while it starts. Replaying the
record needs the rules engine, whose import alone takes longer than the whole splash on a
Pi Zero, so the store keeps the scores each entry left (``scores`` on its log line, written by
the device loop) and this module reads the first line (the players) and the last line that
has scores. It only reads; any damage, or an entry written without scores, gives what it can
(names without scores, or nothing). The real frame follows once the engine has replayed the
record, which stays the truth.
"""

from __future__ import annotations

import os
from pathlib import Path

from pegboard.store.lines import decode_any

CURRENT_NAME = "current.log"
TAIL_BYTES = 1 << 16
"""How much of the end of the log is searched for the last scores (an entry is ~100 bytes)."""


class Glance:
    """The players of the game in progress and, when the log says, their scores.

    A plain class, not a value (:mod:`pegboard.rules.value`): the splash is drawn before
    anything of the rules package is loaded, and a glance is only read, never compared."""

    __slots__ = ("players", "scores")

    def __init__(self, players: tuple[str, ...], scores: tuple[int, ...] | None) -> None:
        self.players = players
        self.scores = scores

    def __repr__(self) -> str:
        return f"Glance(players={self.players!r}, scores={self.scores!r})"


def glance(directory: str | os.PathLike[str]) -> Glance | None:
    """The game in progress in the store at ``directory``, as far as its log says cheaply
    (None when there is none or its first line cannot be read)."""
    path = Path(directory) / CURRENT_NAME
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        size = os.fstat(fd).st_size
        head = os.pread(fd, min(size, TAIL_BYTES), 0)
        tail = head if size <= TAIL_BYTES else os.pread(fd, TAIL_BYTES, size - TAIL_BYTES)
    except OSError:
        return None
    finally:
        os.close(fd)
    first = decode_any(head.split(b"\n", 1)[0])
    record = first.get("record") if first is not None else None
    if not isinstance(record, dict) or record.get("type") != "game":
        return None
    players = record.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        return None
    lines = tail.split(b"\n")
    for raw in reversed(lines[1:] if size > TAIL_BYTES else lines):  # the first may be cut
        entry = decode_any(raw)
        if entry is None or "finish" in entry:
            continue
        scores = entry.get("scores")
        if isinstance(scores, list) and scores and all(
                isinstance(s, int) and not isinstance(s, bool) and 0 <= s < 10_000
                for s in scores):
            return Glance(tuple(players), tuple(scores))
    return Glance(tuple(players), None)
