"""Following one board's store for the club: finished games and the game in progress.

Every finished game in ``history/`` is read once (a finished game never changes again); the
game in ``current.log`` is followed as the LAN page follows it (:class:`Follower`: only the
new lines are read and applied), so a result confirmed before the game is moved into the
history is seen at once. Both are read through the store's readers and the one record
reader, and nothing is ever written. A game carded while in progress is carded again from
the history (the outbox takes a revision once); a game taken back after its confirmation and
confirmed again is carded again, a new revision of the same result.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from pegboard.club.scorecard import Judged, confirmed, judge, live_state
from pegboard.errors import StoreError
from pegboard.rules.value import Value
from pegboard.store.games import FinishedGame, game_from_entries
from pegboard.store.logfile import read_regular, scan
from pegboard.store.store import HISTORY_NAME, StoreReader
from pegboard.web.follow import Follower

log = logging.getLogger(__name__)


class Seen(Value):
    """What one poll found: the scorecards, and the live table state when it changed."""

    __slots__ = ("cards", "live")
    __match_args__ = ("cards", "live")

    cards: list[dict[str, Any]]
    live: dict[str, Any] | None

    def __init__(self, cards: list[dict[str, Any]], live: dict[str, Any] | None) -> None:
        setter = object.__setattr__
        setter(self, "cards", cards)
        setter(self, "live", live)


class BoardWatch:
    """One board's store, looked at by :meth:`poll`."""

    def __init__(self, store: Path, *, club: str, board: str) -> None:
        self.store = store
        self.club = club
        self.board = board
        self._done: set[str] = set()  # history files read (finished games never change)
        self._follower = Follower(store)
        # Games in progress whose card was made, by game and record length: a game taken
        # back after its confirmation and confirmed again is carded again (a new revision).
        self._carded: set[tuple[str, int]] = set()

    def poll(self) -> Seen:
        """Read what changed since the last poll."""
        cards: list[dict[str, Any]] = []
        live = self._current(cards)
        finished = self._history(cards)
        if finished is not None and self._follower.game is None:
            # Between games the table shows the last one's end: a publisher that starts
            # with no game in progress (after a reboot) still has a state to retain.
            live = finished
        return Seen(cards, live)

    def _judge(self, records: tuple[dict[str, Any], ...], game_id: str) -> Judged:
        try:
            return judge(records, club=self.club, board=self.board, game_id=game_id)
        except Exception as error:  # an engine bug must not stop the board's results
            log.error("game %s cannot be read for the club: %s: %s", game_id,
                      type(error).__name__, error)
            return Judged(None, "unreadable")

    def _current(self, cards: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The game in progress, followed line by line (:class:`Follower`); its card is
        made from the stored lines once its result is confirmed."""
        if not self._follower.poll():
            return None
        game, game_id = self._follower.game, self._follower.game_id
        if game is None or game_id is None:
            return {"club": self.club, "board": self.board, "game": None}
        if confirmed(game):
            try:
                stored = StoreReader(self.store).current()
            except StoreError as error:
                log.warning("%s", error)
                stored = None
            if stored is not None and stored.id == game_id and (
                    game_id, len(stored.records)) not in self._carded:
                judged = self._judge(stored.records, game_id)
                if judged.card is not None:
                    self._carded.add((game_id, len(stored.records)))
                    cards.append(judged.card)
        return live_state(game, club=self.club, board=self.board, game_id=game_id)

    def _history(self, cards: list[dict[str, Any]]) -> dict[str, Any] | None:
        """Read the finished games not read before; the newest one's live state, if any."""
        newest: dict[str, Any] | None = None
        folder = self.store / HISTORY_NAME
        try:
            names = sorted(entry.name for entry in os.scandir(folder)
                           if entry.name.endswith(".log"))
        except FileNotFoundError:
            return None
        for name in names:
            if name in self._done:
                continue
            self._done.add(name)
            path = folder / name
            try:
                found = scan(read_regular(path) or b"")
            except OSError as error:
                log.warning("%s cannot be read: %s", path, error)
                continue
            game = game_from_entries(found.entries, path) if not found.damaged else None
            if not isinstance(game, FinishedGame):
                continue
            judged = self._judge(game.records, game.id)
            if judged.card is not None:
                cards.append(judged.card)
            if judged.live is not None:
                newest = judged.live  # names sort oldest first
        return newest
