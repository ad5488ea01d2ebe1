"""The finished games the scoreboard lists, newest first, each with its score race.

:func:`history` is the one place the scoreboard reads the store's history; everything else
works from the :class:`~pegboard.store.FinishedGame` values it returns. A finished game never
changes, so its summary (and race, which costs a replay) is worked out once and kept by id.
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import Any

from pegboard.errors import PegboardError
from pegboard.stats import replay_record
from pegboard.store import FinishedGame, StoreReader
from pegboard.ui.race import race_svg

MAX_LIMIT = 200
"""The most games one ``/api/games`` answer lists."""


def history(directory: Path) -> list[FinishedGame]:
    """Every finished or abandoned game in the store, oldest first."""
    return StoreReader(directory).history()


def summary(game: FinishedGame) -> dict[str, Any]:
    """One finished game as ``/api/games`` lists it (docs/web.md)."""
    data: dict[str, Any] = {
        "id": game.id,
        "players": game.players,
        "rules": game.rules,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "abandoned": game.abandoned,
        "result": game.result,
        "race": None,
        "race_svg": None,
    }
    try:
        race = replay_record(game.lines, source=game.id)[-1].race
    except PegboardError:
        return data  # a record this release cannot replay: listed without its race
    data["race"] = race.to_json()
    data["race_svg"] = race_svg(race)
    return data


class Games:
    """Summaries of the finished games, kept for the ids seen most recently."""

    def __init__(self, directory: Path, *, keep: int = 2 * MAX_LIMIT) -> None:
        self.directory = directory
        self._keep = keep
        self._cache: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def newest(self, limit: int) -> list[dict[str, Any]]:
        """The ``limit`` most recently started games, newest first."""
        games = history(self.directory)[-limit:] if limit > 0 else []
        out = []
        for game in reversed(games):
            key = f"{game.id}:{game.path.name}"
            found = self._cache.get(key)
            if found is None:
                found = summary(game)
                self._cache[key] = found
            self._cache.move_to_end(key)
            out.append(found)
        while len(self._cache) > self._keep:
            self._cache.popitem(last=False)
        return out
