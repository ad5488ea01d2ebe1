"""The game in play, as the app holds it: the record header plus the entries in force.

The engine's :class:`~pegboard.rules.game.Game` is mutable, but the app state must behave as a
value (``step`` is pure, and tests and the benchmark explore several futures from one state).
A :class:`Session` is therefore immutable; it keeps a ``Game`` as a cache and checks before
every use that the cache holds exactly its entries, taking surplus entries back with the
engine's cheap ``undo`` or rebuilding from the header when another future diverged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from pegboard.errors import RecordError
from pegboard.record import dump_line, parse_line
from pegboard.rules.events import Event, GameHeader, Undo
from pegboard.rules.game import Game
from pegboard.rules.state import Award, GameState

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Session:
    """One game (or match) being recorded: ``header`` and the ``events`` in force."""

    header: GameHeader
    events: tuple[Event, ...] = ()
    _cache: Game = field(default=None, compare=False, repr=False)  # type: ignore[assignment]
    _memo: dict[object, object] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def new(cls, header: GameHeader) -> Session:
        """A game with no entries yet."""
        return cls(header, (), Game.from_header(header))

    @classmethod
    def resume(cls, lines: Iterable[str]) -> Session:
        """Rebuild a game from its record lines (header first; ``undo`` lines honoured).

        A line the engine refuses raises the engine's error: a record written by the device
        always replays, so this means the record was damaged or edited by hand.
        """
        header: GameHeader | None = None
        game: Game | None = None
        for number, text in enumerate(lines, start=1):
            if not text.strip():
                continue
            item = parse_line(text, number)
            if isinstance(item, GameHeader):
                if header is not None:
                    raise RecordError(f"line {number}: a second \"game\" line")
                header, game = item, Game.from_header(item)
            elif game is None:
                raise RecordError(f"line {number}: the first line must be the \"game\" line")
            else:
                game.apply(item)
        if header is None or game is None:
            raise RecordError("the record is empty: it needs a \"game\" line first")
        return cls(header, game.events, game)

    def game(self) -> Game:
        """The engine game holding exactly this session's entries."""
        game = self._cache
        if game is not None:
            held = game.events
            if held == self.events:
                return game
            if held[: len(self.events)] == self.events:
                for _ in range(len(held) - len(self.events)):
                    game.undo()
                return game
        game = Game.from_header(self.header)
        for event in self.events:
            game.apply(event)
        object.__setattr__(self, "_cache", game)
        return game

    @property
    def state(self) -> GameState:
        """The engine's snapshot of the table."""
        return self.game().state

    def apply(self, event: Event) -> tuple[Session, tuple[Award, ...]]:
        """Apply one entry (the engine's RuleError, if any, leaves this session unchanged)."""
        game = self.game()
        awards = game.apply(event)
        return Session(self.header, (*self.events, event), game), awards

    def undo(self) -> Session:
        """The session without its last entry."""
        game = self.game()
        game.undo()
        return Session(self.header, self.events[:-1], game)

    def memo(self, key: object, work: Callable[[], T]) -> T:
        """``work()`` done once for this session and ``key`` (what screens derive from the
        game, such as a card wheel, asked for by both a key and the frame after it)."""
        if key not in self._memo:
            self._memo[key] = work()
        return self._memo[key]  # type: ignore[return-value]

    def header_line(self) -> str:
        """The record's first line."""
        return dump_line(self.header, len(self.header.players))

    def line(self, event: Event) -> str:
        """One entry as a record line."""
        return dump_line(event, len(self.header.players))


UNDO = Undo()
