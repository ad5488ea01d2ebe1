"""What a board has still to publish, and what the broker has acknowledged, kept durably.

The outbox is the store itself: every confirmed club game in it is a result to publish (the
publisher finds them again after a restart). What the broker acknowledged (its PUBACK) is
one line per result revision (:func:`key`: the game's id and its revision), appended and
``fsync``-ed before it counts, in a file beside the store; a result is published again until
its revision is there (a game corrected after it was sent is a new revision, sent too). A
torn last line (power lost while it was written) is not an acknowledgement: that result is
sent once more, and the standings service counts it once.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

ACKED_NAME = "club-acked.txt"
"""The file of acknowledged result ids, in the store's folder by default."""


class Outbox:
    """The results waiting for the broker's acknowledgement, oldest first."""

    def __init__(self, path: Path, *, again: bool = False) -> None:
        """``again``: what was acknowledged before is sent again (a broker that lost its
        database); new acknowledgements are written as ever."""
        self.path = path
        self._lock = threading.Lock()
        self.acked: set[str] = set()
        self.pending: dict[str, tuple[str, bytes]] = {}
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            data = b""
        whole = data[: data.rfind(b"\n") + 1]
        self.acked = {line.decode("utf-8", "replace") for line in whole.split(b"\n") if line}
        if again:
            self.acked = set()
        self._fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        if len(whole) != len(data):  # a torn line: cut so the next id starts a line
            os.ftruncate(self._fd, len(whole))

    def add(self, result_id: str, game: str, payload: bytes) -> bool:
        """Queue a game's result unless it was acknowledged or is queued; True when queued
        now."""
        with self._lock:
            if result_id in self.acked or result_id in self.pending:
                return False
            self.pending[result_id] = (game, payload)
            return True

    def waiting(self) -> list[tuple[str, str, bytes]]:
        """The results not yet acknowledged (id, game, payload), oldest first."""
        with self._lock:
            return [(key, game, payload) for key, (game, payload) in self.pending.items()]

    def acknowledge(self, result_id: str) -> None:
        """The broker has the result: write its id durably, then stop sending it."""
        with self._lock:
            if result_id in self.acked:
                return
            os.write(self._fd, result_id.encode("utf-8") + b"\n")
            os.fsync(self._fd)
            self.acked.add(result_id)
            self.pending.pop(result_id, None)

    def close(self) -> None:
        """Let go of the file."""
        os.close(self._fd)


def key(card: dict[str, Any]) -> str:
    """What the outbox and the acknowledgements file know a card by: its game and revision
    (a corrected game is sent again; the same revision once)."""
    return f"{card['id']}@{card['revision']}"


def describe(card: dict[str, Any]) -> str:
    """One line naming a result for the log."""
    names = " v ".join(player["name"] for player in card["players"])
    return (f"{card['id']} revision {card['revision']} (game {card['game']}, night "
            f"{card['night']}, round {card['round']}, {names})")
