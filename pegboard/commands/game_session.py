"""The engine over the store, for ``pegboard game``: the stored game replayed (once: the
store's :class:`~pegboard.store.replay.EngineCheck` keeps what it replayed while opening), and
every change checked by the engine before it is written."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from typing import Any, cast

from pegboard.errors import RecordError, StoreError
from pegboard.record import load_json, parse_object, result_json
from pegboard.rules.events import Event, GameHeader
from pegboard.rules.game import Game
from pegboard.rules.state import Award, GameState
from pegboard.store import (
    CurrentGame,
    FinishedGame,
    Store,
    StoreReader,
    find_store_path,
    parse_record_line,
)
from pegboard.store.replay import EngineCheck, replay


def restore(current: CurrentGame, check: object = None) -> Game:
    """The stored game in the engine (StoreError if the engine refuses a line): the game the
    store's :class:`EngineCheck` replayed when it was opened, else the record replayed now."""
    done = check.take(current.records) if isinstance(check, EngineCheck) else None
    replayed = done or replay(current.records)
    if replayed.problem is not None or replayed.game is None:
        raise StoreError(
            f"the game in {current.path} cannot be replayed ({replayed.problem}); the next "
            "`pegboard run` or `pegboard game` change restores what it can and keeps the "
            "whole game aside"
        )
    return replayed.game


def result_of(game: Game) -> dict[str, Any]:
    """What the history keeps as the result of a game or match (see
    :func:`pegboard.record.result_json`)."""
    return result_json(game.state)


def status_of(game: Game, current: CurrentGame) -> dict[str, Any]:
    """The ``status --json`` object."""
    state: GameState = game.state
    return {
        "id": current.id,
        "players": list(state.names),
        "scores": list(state.scores),
        "events": len(game.events),
        "recorded": current.events,
        "winner": state.winner,
        "to_act": state.to_act,
        "phase": state.phase.value,
        "game": state.game_no,
        "deal": state.deal_no,
        "dealer": state.dealer,
        "count": state.count,
        "result": state.result.to_json() if state.result is not None else None,
    }


class GameSession:
    """A writable store with its current game replayed by the engine, kept in step with it.

    Every change is checked by the engine first and then written durably; when the write
    fails the engine's game is rebuilt from the store, so the two never disagree.
    """

    def __init__(self, store: Store, *, lenient: bool = False) -> None:
        """Replay the store's current game; ``lenient`` tolerates one that cannot be replayed
        (for starting a new game over it: it is then kept in the history as unreadable)."""
        self.store = store
        self.game: Game | None = None
        self.problem: str | None = None
        current = store.current()
        if current is not None:
            try:
                self.game = restore(current, store.check)
            except StoreError as error:
                if not lenient:
                    raise
                self.problem = str(error)

    def new(self, header_text: str) -> FinishedGame | None:
        """Check a header with the engine and start its game; the old one goes to history."""
        data = load_json(header_text, 1)  # decoded once: read, then stored as it came
        header = parse_object(data, 1)
        if not isinstance(header, GameHeader):
            raise RecordError(
                'line 1: a new game starts with its header, {"type": "game", "players": [...]}'
            )
        game = Game.from_header(header)
        record = parse_record_line(cast(dict[str, Any], data))
        previous = self.store.current()
        kept: FinishedGame | None = None
        if previous is not None:
            if self.game is not None:
                result = result_of(self.game)
            else:
                result = {"abandoned": True, "unreadable": self.problem}
            kept = self.store.finish(result)
            self.game = None
        self.store.new_game(record)
        self.game = game
        return kept

    def add(self, line_text: str) -> tuple[Award, ...]:
        """Check one event with the engine, then record it durably; the awards it pegged.

        An illegal or unreadable event raises before anything is written.
        """
        current = self.store.current()
        if current is None:
            raise StoreError("no game in progress: start one with `pegboard game new`")
        if self.game is None:
            self.game = restore(current)  # raises if the stored game cannot be replayed
        number = len(current.records) + 1
        data = load_json(line_text, number)  # decoded once: read, then stored as it came
        item = parse_object(data, number)
        if isinstance(item, GameHeader):
            raise RecordError(
                f"line {number}: a game line starts a new game: use `pegboard game new`"
            )
        record = parse_record_line(cast(dict[str, Any], data))
        event: Event = item
        awards = self.game.apply(event)
        try:
            self.store.append(record)
        except BaseException:
            self.game = restore(current)
            raise
        return awards

    def status(self) -> dict[str, Any] | None:
        """The ``status --json`` object of the current game, or None."""
        current = self.store.current()
        if current is None or self.game is None:
            return None
        return status_of(self.game, current)


def say(notices: Iterable[str]) -> None:
    """What the store found on the way (damage, a file left alone), on standard error."""
    for notice in notices:
        print(f"pegboard game: {notice}", file=sys.stderr)


def open_store(args: argparse.Namespace, owner: str) -> Store:
    """The store of ``--store`` opened for writing (its notices said), with the engine's
    check keeping the game it replays."""
    store = Store(find_store_path(args.store), owner=owner, check=EngineCheck())
    say(store.notices)
    return store


def open_reader(args: argparse.Namespace) -> StoreReader:
    """The store of ``--store`` read without the lock, with the engine's check."""
    return StoreReader(find_store_path(args.store), check=EngineCheck())
