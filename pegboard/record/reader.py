"""The one record reader: header first, then entries, each line decoded once.

Every part of Pegboard that reads a record goes through :class:`Reader` (or
:class:`Replayer`, which applies each entry to the engine as it is read): the store's check
and the device's resume, the app's session, the history index and the statistics, the
scoreboard's follower, ``pegboard replay`` and ``pegboard game``. A line is given either as
text (decoded once by the bounded JSON reader) or as the object the store already decoded
from its log line (read as it is, never encoded and decoded again). The rules:

- the first line that is not blank is the ``game`` header; a second one is refused (a match
  continues with ``new_game``);
- a refused line raises :class:`~pegboard.errors.RecordError` ``[SOURCE: ]line N: why``,
  N counted from 1 over every line given (blank lines included);
- :func:`replay` stops at the first line the reader or the engine refuses and says why, so a
  caller can keep what came before it and set the rest aside (as the store does);
- a replay makes no entry's report until it is read (:meth:`Game.enter`): a game restored
  reads the last few, and every report read is the one the entry made when applied.

>>> reader = Reader()
>>> reader.take('{"type": "game", "players": ["Ann", "Ben"]}').players
('Ann', 'Ben')
>>> reader.take({"type": "deal", "dealer": 0})
Deal(dealer=0)
>>> reader.take('{"type": "game", "players": ["Cat", "Dan"]}')
Traceback (most recent call last):
...
pegboard.errors.RecordError: line 3: a second "game" line; a match continues with new_game
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TextIO, TypeVar

from pegboard.errors import PegboardError, RecordError
from pegboard.record.parse import Line, parse_line, parse_object
from pegboard.rules.events import Event, GameHeader
from pegboard.rules.facts import Report
from pegboard.rules.game import Game
from pegboard.rules.value import Value

R = TypeVar("R")

RawLine = str | Mapping[str, object]
"""A record line as text, or as the JSON object the store decoded from its log line."""


class Reader:
    """One record, read a line at a time (see the module's rules)."""

    def __init__(self, source: str | None = None) -> None:
        self.source = source
        """Named before the line in every error (a file, ``store game ID``), or None."""
        self.header: GameHeader | None = None
        self.number = 0
        """Lines given so far (blank lines included): the last line's number."""

    def fail(self, why: str) -> RecordError:
        """A RecordError about the last line given."""
        prefix = f"{self.source}: " if self.source else ""
        return RecordError(f"{prefix}line {self.number}: {why}")

    def take(self, raw: RawLine, number: int | None = None) -> Line | None:
        """The next line as the engine's value (None for a blank line); ``number`` is its
        line number when lines were left out before it (else the one after the last)."""
        self.number = self.number + 1 if number is None else number
        try:
            if isinstance(raw, str):
                if not raw.strip():
                    return None
                item = parse_line(raw, self.number)
            else:
                item = parse_object(raw, self.number)
        except RecordError as error:
            if not self.source:
                raise
            raise RecordError(f"{self.source}: {error}") from None
        if isinstance(item, GameHeader):
            if self.header is not None:
                raise self.fail('a second "game" line; a match continues with new_game')
            self.header = item
        elif self.header is None:
            raise self.fail('the first line must be the "game" line')
        return item

    def empty(self) -> RecordError:
        """The error for a record that ended before its header."""
        prefix = f"{self.source}: " if self.source else ""
        return RecordError(f'{prefix}line 1: the record is empty: it needs a "game" line first')


def entries(lines: Iterable[RawLine], source: str | None = None
            ) -> Iterator[tuple[int, Line]]:
    """Every line as (line number, header or event), the header first; blank lines skipped."""
    reader = Reader(source)
    for raw in lines:
        item = reader.take(raw)
        if item is not None:
            yield reader.number, item


def read(stream: TextIO | Iterable[RawLine], source: str | None = None
         ) -> tuple[GameHeader, list[Event]]:
    """A whole record: its header and events (RecordError on the first bad line)."""
    reader = Reader(source)
    events: list[Event] = []
    for raw in stream:
        item = reader.take(raw)
        if item is not None and not isinstance(item, GameHeader):
            events.append(item)
    if reader.header is None:
        raise reader.empty()
    return reader.header, events


class Replayer(Reader):
    """A reader that applies every entry to the engine as it is read.

    ``applied`` counts the engine's applies, so a test can see that a record is replayed
    once.
    """

    def __init__(self, source: str | None = None) -> None:
        super().__init__(source)
        self.game: Game | None = None
        self.applied = 0

    def apply(self, raw: RawLine, number: int | None = None
              ) -> tuple[Line, Report | None] | None:
        """Read the next line and apply it; its value and the engine's report of it (None
        for the header; None instead of both for a blank line). A line the engine refuses
        raises RecordError ``line N: why`` and leaves the game as it was."""
        item = self.take(raw, number)
        if item is None:
            return None
        return item, self._applied(item, Game.push)

    def enter(self, raw: RawLine, number: int | None = None) -> Line | None:
        """Read the next line and apply it as :meth:`apply` does, without making the entry's
        report now (:meth:`Game.enter`: it is made when first read, the same report)."""
        item = self.take(raw, number)
        if item is not None:
            self._applied(item, Game.enter)
        return item

    def _applied(self, item: Line, apply: Callable[[Game, Event], R]) -> R | None:
        try:
            if isinstance(item, GameHeader):
                self.game = Game.from_header(item)
                return None
            assert self.game is not None  # take() refuses an entry before the header
            done = apply(self.game, item)
            self.applied += 1
            return done
        except RecordError:
            raise
        except PegboardError as error:
            raise self.fail(str(error)) from None


def read_game(lines: Iterable[RawLine], source: str | None = None) -> Game:
    """A whole record replayed into the engine's game (undo lines honoured); RecordError
    ``[SOURCE: ]line N: why`` at the first line the reader or the engine refuses."""
    replayer = Replayer(source)
    for raw in lines:
        replayer.enter(raw)
    if replayer.game is None:
        raise replayer.empty()
    return replayer.game


class Replay(Value):
    """A record replayed as far as the engine goes: the game with every accepted line, how
    many lines (header included) it accepted, and why it stopped (None: it took them all)."""

    __slots__ = ("accepted", "applied", "game", "problem")
    __match_args__ = ("game", "accepted", "problem", "applied")

    game: Game | None
    accepted: int
    problem: str | None
    applied: int
    """Entries the engine applied (a count for the tests that a record is replayed once)."""

    def __init__(
        self,
        game: Game | None,
        accepted: int,
        problem: str | None,
        applied: int = 0,
    ) -> None:
        setter = object.__setattr__
        setter(self, "game", game)
        setter(self, "accepted", accepted)
        setter(self, "problem", problem)
        setter(self, "applied", applied)


def replay(lines: Iterable[RawLine], source: str | None = None) -> Replay:
    """Replay a record through the engine, stopping before the first line refused.

    Never raises for what a line holds: a line the reader or the engine refuses, or an
    engine error of any kind (a bug must not keep the device from starting), is the
    ``problem``: ``line N cannot be replayed (why)``.
    """
    replayer = Replayer(source)
    accepted = 0
    for raw in lines:
        try:
            replayer.enter(raw)
        except PegboardError as error:
            return _stopped(replayer, accepted, reason(error, replayer.number))
        except Exception as error:  # an engine bug: keep what came before, say what broke
            return _stopped(replayer, accepted, f"{type(error).__name__}: {error}")
        accepted = replayer.number
    if replayer.header is None:
        return Replay(None, 0, "the record is empty: it needs a \"game\" line first")
    return Replay(replayer.game, accepted, None, replayer.applied)


def _stopped(replayer: Replayer, accepted: int, why: str) -> Replay:
    return Replay(replayer.game, accepted,
                  f"line {replayer.number} cannot be replayed ({why})", replayer.applied)


def reason(error: PegboardError, number: int) -> str:
    """The error's text without its ``[SOURCE: ]line N:`` (for a caller naming the line)."""
    text = str(error)
    marker = f"line {number}: "
    at = text.find(marker)
    return text[at + len(marker):] if at >= 0 else text

