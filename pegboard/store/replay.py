"""The engine's judgement of a stored game: how much of its record it can replay.

The store keeps record lines without understanding them; this module asks the rules engine,
through the one record reader (:func:`pegboard.record.reader.replay`), which of them it still
accepts, for the store's ``check`` (:mod:`pegboard.store.recovery`): a game whose record an
engine refuses — written by an older release whose rulings differ, or edited by hand — is
restored up to the line before the refusal, and kept whole aside, instead of stopping the
device from starting.

The lines are the objects the store decoded from its log, read as they are. An
:class:`EngineCheck` keeps the game it replayed, so that whoever opened the store (the device
at start-up, ``pegboard game``) continues from it instead of replaying the record again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pegboard.record.reader import Replay, replay
from pegboard.rules.game import Game

__all__ = ["EngineCheck", "Replay", "engine_check", "replay"]


def engine_check(records: Sequence[Mapping[str, Any]]) -> tuple[int, str | None]:
    """The store's ``check``: how many lines the engine accepts, and why it stopped."""
    result = replay(records)
    return result.accepted, result.problem


class EngineCheck:
    """The store's ``check`` that keeps what it replayed, for :meth:`take`.

    One per store opened: the store asks it about the game in ``current.log`` while opening,
    and the opener then takes the game (once) instead of replaying the record again.
    """

    def __init__(self) -> None:
        self._records: Sequence[Mapping[str, Any]] = ()
        self._replay: Replay | None = None

    def __call__(self, records: Sequence[Mapping[str, Any]]) -> tuple[int, str | None]:
        self._records = records
        self._replay = replay(records)
        return self._replay.accepted, self._replay.problem

    def take(self, records: Sequence[Mapping[str, Any]]) -> Replay | None:
        """The replay of exactly these record lines (the very objects the store kept), or
        None when the check did not replay them; handed out once (the game then belongs to
        the caller, who may change it)."""
        done, self._replay = self._replay, None
        if done is None or done.game is None or len(records) != done.accepted:
            return None
        if any(mine is not theirs for mine, theirs in zip(self._records, records,
                                                          strict=False)):
            return None
        return done

    def game(self, records: Sequence[Mapping[str, Any]]) -> Game | None:
        """The game :meth:`take` hands out, or the record replayed now (None if the engine
        refuses a line of it)."""
        done = self.take(records)
        if done is not None:
            return done.game
        fresh = replay(records)
        return fresh.game if fresh.problem is None else None
