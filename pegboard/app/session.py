"""The game in play, as the app holds it: the engine's game value and the table options.

A :class:`Session` is immutable, as the app state must be (``step`` is pure, and tests and the
benchmark explore several futures from one state). It holds the engine's
:class:`~pegboard.rules.game.Game` itself: ``Game.after`` gives a new game one entry on and
leaves the old one as it was, sharing its history, so entering one costs the same however
long the match, and any number of futures can grow from one session.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar, cast

from pegboard.record.reader import RawLine, read_game
from pegboard.rules.events import Event, GameHeader, OptionsChanged, TableOptions, Undo
from pegboard.rules.facts import Report
from pegboard.rules.game import Game
from pegboard.rules.history import Entries
from pegboard.rules.state import GameState
from pegboard.rules.value import Value

T = TypeVar("T")


class Session(Value):
    """One game (or match) being recorded: the engine's ``game`` and the ``table`` options in
    force (the header's, changed by the option entries)."""

    __slots__ = ("_memo", "game", "table")
    __match_args__ = ("game", "table")

    game: Game
    table: TableOptions
    _memo: dict[object, object]
    """What screens derived from this session (:meth:`memo`): not a field, each session
    starts its own."""

    def __init__(self, game: Game, table: TableOptions) -> None:
        setter = object.__setattr__
        setter(self, "game", game)
        setter(self, "table", table)
        setter(self, "_memo", {})

    @classmethod
    def new(cls, header: GameHeader) -> Session:
        """A game with no entries yet."""
        return cls(Game.from_header(header), header.table)

    @classmethod
    def resume(cls, lines: Iterable[RawLine] | Game) -> Session:
        """Rebuild a game from its record lines (header first; ``undo`` lines honoured), read
        by the one record reader, or continue the game the store already replayed.

        A line the engine refuses raises RecordError naming the line: a record written by
        the device always replays, so this means the record was damaged or edited by hand.
        """
        game = lines if isinstance(lines, Game) else read_game(lines)
        return cls(game, _options(game))

    @property
    def header(self) -> GameHeader:
        """The record's header: players, rules and the table options it started with."""
        return self.game.header

    @property
    def events(self) -> Entries:
        """The entries in force, oldest first."""
        return self.game.events

    @property
    def state(self) -> GameState:
        """The engine's snapshot of the table."""
        return self.game.state

    @property
    def report(self) -> Report | None:
        """The engine's report of the last entry in force (``None`` before the first)."""
        return self.game.report

    def apply(self, event: Event) -> tuple[Session, Report]:
        """The session after one entry, and the engine's report of it (the engine's RuleError,
        if any, leaves this session unchanged)."""
        game, report = self.game.after(event)
        table = self.table.with_option(event) if isinstance(event, OptionsChanged) else self.table
        return Session(game, table), report

    def undo(self) -> Session:
        """The session without its last entry."""
        last = self.events[-1]
        game, _ = self.game.after(UNDO)
        table = _options(game) if isinstance(last, OptionsChanged) else self.table
        return Session(game, table)

    def memo(self, key: object, work: Callable[[], T]) -> T:
        """``work()`` done once for this session and ``key`` (what screens derive from the
        game, such as a card wheel, asked for by both a key and the frame after it)."""
        if key not in self._memo:
            self._memo[key] = work()
        return cast(T, self._memo[key])


def _options(game: Game) -> TableOptions:
    """The table options after ``game``'s entries: the header's, changed by each option."""
    options = game.header.table
    for event in game.events:
        if isinstance(event, OptionsChanged):
            options = options.with_option(event)
    return options


UNDO = Undo()
