"""What every browser is sent: the current game as JSON text, and a version to wait on.

One :class:`Hub` per server polls the store (a ``stat`` of ``current.log`` and of
``history/`` each period; new bytes are read only when the file grew) and wakes every waiting
event stream when something changed, so twenty browsers cost one read, one replay and one
JSON encoding per entry.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pegboard.web.follow import Follower
from pegboard.web.games import MAX_LIMIT, Games
from pegboard.web.snapshot import game_json

HISTORY_NAME = "history"


class Hub:
    """The shared state of the scoreboard and the signal that it changed."""

    def __init__(self, directory: Path, *, period: float = 0.05,
                 phones: Callable[[], frozenset[int]] | None = None) -> None:
        self.directory = directory
        self.period = period
        self.phones = phones  # the seats phones hold, when the board serves the page
        self._phones: frozenset[int] = frozenset()
        self.follower = Follower(directory)
        self.games = Games(directory)
        self.version = 0  # of the game text
        self.games_version = 0  # of the finished games list
        self.error: str | None = None
        self.closing = False
        self._history_key: tuple[int, int] | None = None
        self._changed = asyncio.Event()
        self._game: dict[str, Any] | None = None
        self._finished: tuple[tuple[int, int], list[dict[str, Any]]] | None = None
        self._finished_lock = threading.Lock()
        self._refresh_lock = threading.Lock()  # one look at the store at a time: a look
        # asked from another thread (a test's) never lands its older snapshot last
        self.game_text = self._encode()
        self.refresh()

    def _encode(self) -> str:
        return json.dumps({"game": self._game, "error": self.error}, ensure_ascii=False,
                          separators=(",", ":"))

    def refresh(self) -> bool:
        """Look at the store once; True (and every waiter woken) when anything changed."""
        with self._refresh_lock:
            return self._refresh()

    def _refresh(self) -> bool:
        error: str | None = None
        changed = False
        try:
            if not self.directory.is_dir():
                error = (f"The game store {self.directory} is not there. Start a game on the "
                         "Pegboard, or check the store folder.")
            else:
                changed = self.follower.poll()
                history = self.directory / HISTORY_NAME
                try:
                    status = os.stat(history, follow_symlinks=False)
                    key: tuple[int, int] | None = (status.st_ino, status.st_mtime_ns)
                except FileNotFoundError:
                    key = None
                if key != self._history_key:
                    self._history_key = key
                    self.games_version += 1
                    changed = True
        except OSError as error_:
            error = f"The game store {self.directory} cannot be read: {error_.strerror}."
        if error != self.error:
            self.error = error
            changed = True
        phones = self.phones() if self.phones is not None else frozenset()
        if phones != self._phones:  # a phone joined or let go: whom the starter waits for
            self._phones = phones
            changed = True
        if changed:
            self._game = game_json(self.follower, phones) if error is None else None
            self.game_text = self._encode()
            self.version += 1
            self._wake()
        return changed

    def _wake(self) -> None:
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def wait(self, timeout: float) -> None:
        """Until the next change (or ``timeout`` seconds, or the server stopping)."""
        if self.closing:
            return
        event = self._changed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)

    def stop(self) -> None:
        """Let every event stream end (the server is shutting down)."""
        self.closing = True
        self._wake()

    async def run(self) -> None:
        """Poll the store every period until stopped."""
        while not self.closing:
            await asyncio.sleep(self.period)
            self.refresh()

    def finished(self, limit: int = 20) -> list[dict[str, Any]]:
        """The newest finished games (see :mod:`pegboard.web.games`); read again only when
        the history folder changed, whatever the number of browsers asking."""
        limit = max(0, min(limit, MAX_LIMIT))
        key = (self.games_version, limit)
        with self._finished_lock:  # asked from the server's worker threads
            if self._finished is None or self._finished[0] != key:
                self._finished = (key, self.games.newest(limit))
            return self._finished[1]
