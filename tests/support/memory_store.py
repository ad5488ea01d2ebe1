"""The store's interface kept in memory, for the device-loop tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pegboard.record import dump_line, result_json
from pegboard.rules.events import Event, GameHeader
from pegboard.rules.state import GameState


class MemoryStore:
    """The store's interface kept in memory: every game's record lines.

    ``fail_next`` makes the next write raise, to test that nothing unsaved is shown."""

    def __init__(self) -> None:
        self.games: list[list[str]] = []
        self.results: list[dict[str, Any] | None] = []
        self.fail_next: Exception | None = None

    def _check(self) -> None:
        if self.fail_next is not None:
            error, self.fail_next = self.fail_next, None
            raise error

    def new_game(self, header: GameHeader) -> None:
        """Start a game with its header (kept as its record line)."""
        self._check()
        if self.games and self.results[-1] is None:
            self.results[-1] = {"abandoned": True}
        self.games.append([dump_line(header)])
        self.results.append(None)

    def append(self, line: Event, *, scores: Sequence[int] | None = None,
               seat: int | None = None) -> None:
        """Record one event of the current game as its line (the scores and the phone's
        seat are not kept)."""
        self._line(dump_line(line))

    def undo(self, *, scores: Sequence[int] | None = None) -> None:
        """Record an undo line."""
        self._line('{"type": "undo"}')

    def _line(self, line: str) -> None:
        self._check()
        if not self.games or self.results[-1] is not None:
            raise LookupError("no game in progress")
        self.games[-1].append(line)

    def finish(self, result: GameState) -> None:
        """End the current game with its result."""
        self._check()
        if not self.games or self.results[-1] is not None:
            raise LookupError("no game in progress")
        self.results[-1] = result_json(result)

    def record(self, index: int = -1) -> str:
        """A game's record as JSON Lines text."""
        return "".join(line + "\n" for line in self.games[index])
