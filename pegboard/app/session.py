"""The game in play, as the app holds it: the record header plus the entries in force.

The engine's :class:`~pegboard.rules.game.Game` is mutable, but the app state must behave as a
value (``step`` is pure, and tests and the benchmark explore several futures from one state).
A :class:`Session` is therefore immutable; it keeps a ``Game`` as a cache and checks before
every use that the cache holds exactly its entries, taking surplus entries back with the
engine's cheap ``undo`` or rebuilding from the header when another future diverged. Its
entries are an :class:`EventLog`, so entering one costs the same however long the match.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import TypeVar, overload

from pegboard.errors import RecordError
from pegboard.record import dump_line, parse_line
from pegboard.rules.events import Event, GameHeader, Option, TableOptions, Undo
from pegboard.rules.game import Game
from pegboard.rules.state import Award, GameState

T = TypeVar("T")


class EventLog(Sequence[Event]):
    """The entries in force, as an immutable sequence that grows in constant time.

    Logs made from one another share a list: a log is a length into it, and appending to a
    log that ends where the list ends extends the list in place (no other log's entries
    change, since each sees only its own length). Appending to a log that ends earlier (after
    an undo, or in another future) copies it first. So entering the thousandth entry of a
    long match costs what the first did.
    """

    __slots__ = ("_items", "_length")

    def __init__(self, items: list[Event] | None = None, length: int | None = None) -> None:
        self._items: list[Event] = items if items is not None else []
        self._length = len(self._items) if length is None else length

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Event, ...]: ...

    def __getitem__(self, index: int | slice) -> Event | tuple[Event, ...]:
        if isinstance(index, slice):
            return tuple(self._items[: self._length][index])
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("event index out of range")
        return self._items[index]

    def __iter__(self) -> Iterator[Event]:
        return islice(self._items, self._length)

    def __reversed__(self) -> Iterator[Event]:
        return (self._items[i] for i in range(self._length - 1, -1, -1))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, EventLog):
            return self._length == other._length and (
                self._items is other._items or self._items[: self._length]
                == other._items[: other._length])
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"EventLog({list(self)!r})"

    def appended(self, event: Event) -> EventLog:
        """This log with ``event`` after its last entry."""
        items = self._items
        if self._length == len(items):
            items.append(event)
        elif items[self._length] is not event:
            items = [*items[: self._length], event]
        return EventLog(items, self._length + 1)

    def without_last(self) -> EventLog:
        """This log without its last entry."""
        if not self._length:
            raise IndexError("no entry to take away")
        return EventLog(self._items, self._length - 1)

    def same_list(self, other: EventLog) -> bool:
        """Whether both logs are lengths into one list (so one is the start of the other)."""
        return self._items is other._items


@dataclass(slots=True)
class _Cache:
    """An engine game and the log whose entries it holds (shared by related sessions)."""

    game: Game
    log: EventLog


@dataclass(frozen=True, slots=True)
class Session:
    """One game (or match) being recorded: ``header`` and the ``events`` in force."""

    header: GameHeader
    events: EventLog = field(default_factory=EventLog)
    table: TableOptions = field(default=None, compare=False)  # type: ignore[assignment]
    """The table options in force: the header's, changed by the option entries."""
    _cache: _Cache | None = field(default=None, compare=False, repr=False)
    _memo: dict[object, object] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.table is None:
            options = self.header.table
            for event in self.events:
                if isinstance(event, Option):
                    options = options.with_option(event)
            object.__setattr__(self, "table", options)

    @classmethod
    def new(cls, header: GameHeader) -> Session:
        """A game with no entries yet."""
        log = EventLog()
        return cls(header, log, header.table, _Cache(Game.from_header(header), log))

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
        log = EventLog(list(game.events))
        return cls(header, log, None, _Cache(game, log))  # type: ignore[arg-type]

    def game(self) -> Game:
        """The engine game holding exactly this session's entries."""
        cache, log = self._cache, self.events
        if cache is not None and cache.log.same_list(log):
            game = cache.game
            held, wanted = len(cache.log), len(log)
            # The cache is this log, or runs past it (undo) or stops short of it (apply).
            for _ in range(held - wanted):
                game.undo()
            for event in islice(log, held, wanted):
                game.apply(event)
            cache.log = log
            return game
        game = Game.from_header(self.header)
        for event in log:
            game.apply(event)
        if cache is None:
            object.__setattr__(self, "_cache", _Cache(game, log))
        else:
            cache.game, cache.log = game, log
        return game

    @property
    def state(self) -> GameState:
        """The engine's snapshot of the table."""
        return self.game().state

    def apply(self, event: Event) -> tuple[Session, tuple[Award, ...]]:
        """Apply one entry (the engine's RuleError, if any, leaves this session unchanged)."""
        game = self.game()
        awards = game.apply(event)
        log = self.events.appended(event)
        assert self._cache is not None  # game() made it
        self._cache.log = log
        table = self.table.with_option(event) if isinstance(event, Option) else self.table
        return Session(self.header, log, table, self._cache), awards

    def undo(self) -> Session:
        """The session without its last entry."""
        game = self.game()
        game.undo()
        log = self.events.without_last()
        assert self._cache is not None
        self._cache.log = log
        last = self.events[-1]
        table = None if isinstance(last, Option) else self.table  # worked out again if so
        return Session(self.header, log, table, self._cache)  # type: ignore[arg-type]

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
