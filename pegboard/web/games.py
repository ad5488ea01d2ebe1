"""The finished games the scoreboard lists, newest first, each with its score race.

They come from the store's index of finished games (:mod:`pegboard.store.index`), opened
read-only (``writable=False``) and kept open: the scoreboard never writes to the store, so
history files the index does not have yet are read once, into the connection's own memory,
and each later look reads only the files that changed. The race is the index's statistics
summary of the game (made once, by the writer, when the game was finished); its last row is
the board as the game left it, the winner at the target, and is the score the list shows
(``shown``: the record's ``result`` keeps the full totals). A finished game never changes, so
each one's summary is kept here by file name between looks.
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
from collections import OrderedDict
from pathlib import Path
from typing import Any

from pegboard.errors import PegboardError
from pegboard.store.index import INDEX_NAME, GameIndex, IndexedGame
from pegboard.ui.race import race_svg

MAX_LIMIT = 200
"""The most games one ``/api/games`` answer lists."""

log = logging.getLogger(__name__)


class QueryError(PegboardError, ValueError):
    """A query parameter the scoreboard cannot use (answered with 400)."""


def parse_limit(text: str) -> int:
    """``/api/games?limit=``: a whole number from 0 to :data:`MAX_LIMIT` written in at most
    four ASCII digits (so no number of digits, and no other script's digits, reaches
    ``int``); QueryError quoting the start of the value otherwise."""
    if re.fullmatch(r"[0-9]{1,4}", text, flags=re.ASCII) and int(text) <= MAX_LIMIT:
        return int(text)
    shown = repr(text) if len(text) <= 20 else f"{text[:20]!r}… ({len(text)} characters)"
    raise QueryError(f"limit must be a whole number from 0 to {MAX_LIMIT}, not {shown}")


def summary(index: GameIndex, game: IndexedGame) -> dict[str, Any]:
    """One finished game as ``/api/games`` lists it (docs/web.md)."""
    data: dict[str, Any] = {
        "id": game.id,
        "players": game.players,
        "rules": game.rules,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "abandoned": game.abandoned,
        "result": game.result,
        "shown": None,
        "race": None,
        "race_svg": None,
    }
    try:
        race = index.summaries(game, 1)[-1].race
    except PegboardError:
        return data  # a record this release cannot replay: listed without its race
    data["shown"] = list(race.final)
    data["race"] = race.to_json()
    data["race_svg"] = race_svg(race)
    return data


class Games:
    """Summaries of the finished games, kept for the files seen most recently."""

    def __init__(self, directory: Path, *, keep: int = 2 * MAX_LIMIT) -> None:
        self.directory = directory
        self._keep = keep
        self._cache: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._index: GameIndex | None = None
        self._index_key: tuple[int, int] | None = None

    def newest(self, limit: int) -> list[dict[str, Any]]:
        """The ``limit`` most recently started games, newest first."""
        if limit <= 0 or not (self.directory / "history").is_dir():
            return []
        try:
            index = self._caught_up()
            out = [self._summary(index, game) for game in index.newest(limit)]
        except (sqlite3.Error, PegboardError) as error:
            self.close()
            log.warning("the finished games cannot be listed: %s", error)
            raise
        while len(self._cache) > self._keep:
            self._cache.popitem(last=False)
        return out

    def _caught_up(self) -> GameIndex:
        """The index, kept open and caught up with only the history files that changed, so
        that a store whose index is missing or stale is read whole once, not on every look
        (opened again when the writer made the index file anew)."""
        try:
            key: tuple[int, int] | None = _identity(self.directory / INDEX_NAME)
        except FileNotFoundError:
            key = None
        if self._index is not None and key == self._index_key:
            self._index.refresh()
            return self._index
        self.close()
        self._index = GameIndex(self.directory, writable=False)
        self._index_key = key
        return self._index

    def close(self) -> None:
        """Let go of the index."""
        if self._index is not None:
            self._index.close()
            self._index = None

    def _summary(self, index: GameIndex, game: IndexedGame) -> dict[str, Any]:
        found = self._cache.get(game.file)
        if found is None or found["id"] != game.id:
            found = self._cache[game.file] = summary(index, game)
        self._cache.move_to_end(game.file)
        return found


def _identity(path: Path) -> tuple[int, int]:
    status = os.stat(path)
    return status.st_dev, status.st_ino
