"""The game record: the engine's event log as JSON Lines (one object per line).

The first line is the game header, ``{"type": "game", "players": [...], "rules": {...}}``;
every later line is one event. ``docs/record.md`` describes every type and field. Reading is
strict about what it needs (a missing or wrong-typed field is a :class:`RecordError` naming the
line and the field) and tolerant of what it does not know (extra keys are ignored, so newer
writers stay readable). Blank lines are skipped.

Every line is read by one bounded JSON reader, :func:`load_json`, so that no input can make
the reader recurse, build a number Python cannot print, or carry text that cannot be written
back: a line is at most :data:`MAX_LINE` characters, nested at most :data:`MAX_DEPTH` deep
(a record line needs 3), its whole numbers have at most :data:`MAX_DIGITS` digits, and its
text is valid Unicode. Every number and name a line carries is range-checked here, so a
``RecordError`` names the line and what is accepted before the engine sees the entry.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, BinaryIO, TextIO

from pegboard.errors import InvalidCardError, RecordError, RuleError
from pegboard.rules.cards import Card
from pegboard.rules.events import (
    EVENT_TYPES,
    RECORD_VERSION,
    Claim,
    Crib,
    Cut,
    Deal,
    Dealt,
    Event,
    GameHeader,
    Go,
    Muggins,
    NewGame,
    Option,
    Peg,
    Penalty,
    Play,
    Show,
    Starter,
    TableOptions,
    Undo,
)
from pegboard.rules.state import GameState
from pegboard.rules.variants import Rules

Line = GameHeader | Event
"""Anything a record line can hold."""

_TYPES = ", ".join([GameHeader.TYPE, *(cls.TYPE for cls in EVENT_TYPES)])

MAX_LINE = 16_384
"""The longest record line read, in characters (and in bytes when reading a file). The
longest line Pegboard writes is a four-player header of under 300; the rest is room for the
extra keys of newer writers."""

MAX_DEPTH = 8
"""The deepest nesting of arrays and objects in a line; a record line needs 3 (the header's
``rules`` object is 2, a list of cards in an event is 2)."""

MAX_DIGITS = 12
"""The most digits of a whole number in a line (Python refuses to read 4,301 or more)."""

MAX_NAME = 20
"""The longest player name, in characters (the device offers names of up to 7)."""

MAX_INFRACTION = 40
"""The longest ``infraction`` id (the catalogue's longest has 21 characters)."""

MOST_ONE_SCORE = 29
"""The most one scoring act can be worth (a 29 hand): the top of a claim or a muggins."""

BOARD = 121
"""The longest game's target: the most a peg or a penalty can move."""

SEATS = 4
"""Seats are numbered 0 to 3 (cribbage is played by 2, 3 or 4)."""

_BOARD_WHY = "at most the whole board of a 121 game"
_SCORE_WHY = "a 29 hand is the most one score can be"

# A JSON string (closed or running to the end of the text) or one bracket. The string
# alternative is the unrolled-loop form, linear on any input; it consumes the brackets that
# are text, so only the structural ones are counted.
_STRUCTURE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|(?P<open>[\[{])|(?P<close>[\]}])', re.S)
_SURROGATE = re.compile(r"[\ud800-\udfff]")


class _Refused(Exception):
    """Raised inside json.loads hooks; carries the reason out of the C scanner."""


def _shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to about ``limit`` characters (bad input can be megabytes long).

    Whole numbers are bounded by :func:`load_json`; any other int is shown by its size only,
    because Python cannot turn one of 4,301 or more digits into text.
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**MAX_DIGITS:
        return f"a number of about {value.bit_length() * 3 // 10} digits"
    try:
        text = repr(value)
    except (RecursionError, ValueError):  # nested or huge values built by a caller, not us
        return f"a {type(value).__name__}"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _whole_number(literal: str) -> int:
    digits = len(literal.lstrip("-"))
    if digits > MAX_DIGITS:
        raise _Refused(
            f"a number of {digits:,} digits ({literal[:12]}…); whole numbers have at most "
            f"{MAX_DIGITS} digits"
        )
    return int(literal)


def _no_constant(literal: str) -> object:
    raise _Refused(f"{literal} is not a JSON number; numbers are written in digits")


def _depth_error(text: str) -> str | None:
    if text.count("[") + text.count("{") <= MAX_DEPTH:  # the usual line: nothing to scan
        return None
    depth = 0
    for match in _STRUCTURE.finditer(text):
        if match.group("open"):
            depth += 1
            if depth > MAX_DEPTH:
                return (
                    f"arrays and objects nested more than {MAX_DEPTH} deep (column "
                    f"{match.start() + 1}); a record line needs 3 at most"
                )
        elif match.group("close"):
            depth -= 1
    return None


def _bad_text(value: object) -> str | None:
    """The first string (key or value) that is not valid Unicode, or None.

    ``json.loads`` turns an escaped lone surrogate (``"\\ud800"``) into a string that cannot
    be encoded, so it would fail only later, when the line is written or printed.
    """
    if isinstance(value, str):
        return value if _SURROGATE.search(value) else None
    if isinstance(value, list):
        for item in value:
            found = _bad_text(item)
            if found is not None:
                return found
    elif isinstance(value, dict):
        for key, item in value.items():
            found = _bad_text(key)
            if found is None:
                found = _bad_text(item)
            if found is not None:
                return found
    return None


def load_json(text: str, line: int = 1) -> object:
    """One JSON value from a record line, within bounds; RecordError ``line N: ...`` if not.

    The bounds are checked before (length, nesting) or while (numbers) the text is parsed,
    so nothing can exhaust the stack or the int-to-text limit: at most :data:`MAX_LINE`
    characters, :data:`MAX_DEPTH` levels of nesting, :data:`MAX_DIGITS` digits in a whole
    number; no ``NaN`` or ``Infinity``; every string valid Unicode (no lone surrogates).

    >>> load_json('{"type": "go", "player": 1}')
    {'type': 'go', 'player': 1}
    >>> load_json("[" * 9 + "]" * 9, 4)
    Traceback (most recent call last):
    ...
    pegboard.errors.RecordError: line 4: arrays and objects nested more than 8 deep
    (column 9); a record line needs 3 at most
    """
    if len(text) > MAX_LINE:
        raise RecordError(
            f"line {line}: {len(text):,} characters long; a record line is at most "
            f"{MAX_LINE:,}"
        )
    problem = _depth_error(text)
    if problem is not None:
        raise RecordError(f"line {line}: {problem}")
    try:
        data = json.loads(text, parse_int=_whole_number, parse_constant=_no_constant)
    except _Refused as refused:
        raise RecordError(f"line {line}: {refused}") from None
    except json.JSONDecodeError as error:
        raise RecordError(
            f"line {line}: not valid JSON ({error.msg} at column {error.colno})"
        ) from None
    # Only an escape (\u...) or a surrogate smuggled into the text can make one; most lines
    # have neither, and are not walked.
    bad = _bad_text(data) if "\\u" in text or _SURROGATE.search(text) else None
    if bad is not None:
        raise RecordError(
            f"line {line}: the text {_shown(bad)} is not valid Unicode (a lone surrogate); "
            "a record is UTF-8 text"
        )
    return data


def _utf8_error(
    source: str, line: int, column: int, bad: bytes, reason: str
) -> RecordError:
    return RecordError(
        f"{source}: line {line}, byte {column} is not UTF-8 ({bad.hex(' ')}: {reason}); "
        "a record is UTF-8 text"
    )


def decode_lines(stream: BinaryIO, source: str) -> Iterator[str]:
    """The lines of a binary record stream as text, one at a time (UTF-8, strictly).

    A line that is not UTF-8 raises RecordError ``SOURCE: line N, byte M is not UTF-8 (...)``,
    with M counted from 1 within the line; a line longer than :data:`MAX_LINE` bytes is refused
    before the rest of it is read, so a file without newlines cannot fill the memory.
    """
    number = 0
    while True:
        data = stream.readline(MAX_LINE + 1)
        if not data:
            return
        number += 1
        if len(data) > MAX_LINE and not data.endswith(b"\n"):
            raise RecordError(
                f"{source}: line {number} is longer than {MAX_LINE:,} bytes; a record line "
                "is one JSON object of a few hundred"
            )
        try:
            yield data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise _utf8_error(
                source, number, error.start + 1, data[error.start:error.end], error.reason
            ) from None


def decode_text(data: bytes, source: str) -> str:
    """A whole record's bytes as text; RecordError naming the line and byte if not UTF-8.

    >>> decode_text(b'{"players": ["Ren\\xe9"]}', "old.jsonl")
    Traceback (most recent call last):
    ...
    pegboard.errors.RecordError: old.jsonl: line 1, byte 18 is not UTF-8
    (e9: invalid continuation byte); a record is UTF-8 text
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line_start = data.rfind(b"\n", 0, error.start) + 1
        raise _utf8_error(
            source, data.count(b"\n", 0, error.start) + 1, error.start - line_start + 1,
            data[error.start:error.end], error.reason,
        ) from None


class _Fields:
    """Typed access to one line's object, raising RecordError that names the line."""

    def __init__(self, data: Mapping[str, object], line: int) -> None:
        self.data = data
        self.line = line

    def fail(self, reason: str) -> RecordError:
        return RecordError(f"line {self.line}: {reason}")

    def _get(self, key: str) -> object:
        if key not in self.data:
            kind = self.data.get("type")
            raise self.fail(f"{_shown(kind)} needs the field {key!r}")
        return self.data[key]

    def whole(self, key: str, low: int, high: int, what: str) -> int:
        """A whole number from ``low`` to ``high``; ``what`` says why those bounds."""
        value = self._get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(
                f"{key!r} must be a whole number from {low} to {high} ({what}), "
                f"got {_shown(value)}"
            )
        return value

    def seat(self, key: str) -> int:
        return self.whole(key, 0, SEATS - 1, "a seat")

    def opt_seat(self, key: str) -> int | None:
        if self.data.get(key) is None:
            return None
        return self.seat(key)

    def opt_int(self, key: str) -> int | None:
        """Any whole number (load_json has bounded its digits), or None when absent."""
        value = self.data.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"{key!r} must be a whole number, got {_shown(value)}")
        return value

    def opt_whole(self, key: str, low: int, high: int, what: str) -> int | None:
        if self.data.get(key) is None:
            return None
        return self.whole(key, low, high, what)

    def opt_bool(self, key: str) -> bool | None:
        value = self.data.get(key)
        if value is not None and not isinstance(value, bool):
            raise self.fail(f"{key!r} must be true or false, got {_shown(value)}")
        return value

    def text(self, key: str, longest: int) -> str:
        """Printable text of 1 to ``longest`` characters (see :func:`printable_error`)."""
        value = self._get(key)
        if not isinstance(value, str):
            raise self.fail(f"{key!r} must be text, got {_shown(value)}")
        problem = printable_error(value, longest)
        if problem is not None:
            raise self.fail(f"{key!r} {problem}")
        return value

    def card(self, key: str) -> Card:
        return self._card(self._get(key), key)

    def _card(self, value: object, key: str) -> Card:
        if not isinstance(value, str):
            raise self.fail(f"{key!r} must be a card like \"5H\", got {_shown(value)}")
        try:
            return Card.parse(value)
        except InvalidCardError as error:
            raise self.fail(f"{key!r}: {error}") from None

    def cards(self, key: str) -> tuple[Card, ...]:
        value = self._get(key)
        if not isinstance(value, list):
            raise self.fail(
                f"{key!r} must be a list of cards like [\"5H\", \"KD\"], got {_shown(value)}"
            )
        if len(value) > 6:  # the most any entry lists: a dealt hand
            raise self.fail(f"{key!r} lists {len(value)} cards; an entry lists at most 6")
        return tuple(self._card(item, key) for item in value)


def printable_error(text: str, longest: int) -> str | None:
    """Why ``text`` cannot be a name (or id) in a record, or None if it can.

    A name is 1 to ``longest`` characters, not only spaces, every one printable (no control
    characters, NUL, line breaks, format or private-use characters, lone surrogates): it is
    shown on the OLED and in the terminal and written back to the store as UTF-8.

    >>> printable_error("Ann", 20) is None
    True
    >>> printable_error("A\\x00n", 20)
    "has the character '\\\\x00' at 2; accepted: letters, digits, punctuation and spaces"
    """
    if not text.strip():
        return f"must not be empty or blank, got {_shown(text)}"
    if len(text) > longest:
        return f"is {len(text):,} characters long ({_shown(text)}); accepted: 1 to {longest}"
    for position, char in enumerate(text, start=1):
        if not char.isprintable():
            return (
                f"has the character {char!r} at {position}; accepted: letters, digits, "
                "punctuation and spaces"
            )
    return None


def parse_line(text: str, line: int = 1) -> Line:
    """Read one record line (header or event); RecordError says which line and why.

    The line goes through :func:`load_json`; every seat must be 0-3, a claim or muggins 0-29
    (the most one scoring act is worth), a peg -121 to 121, penalty points 0-121 (the engine
    then checks them against the game at hand: its seats, its target, the score waiting).

    >>> parse_line('{"type": "play", "player": 1, "card": "5C"}')
    Play(player=1, card=Card.parse('5C'))
    """
    data = load_json(text, line)
    if not isinstance(data, dict):
        raise RecordError(f"line {line}: expected a JSON object {{...}}, got {_shown(data)}")
    f = _Fields(data, line)
    kind = data.get("type")
    if not isinstance(kind, str):
        raise f.fail(f"every line needs a \"type\" (one of {_TYPES})")
    if kind == GameHeader.TYPE:
        return _header(f)
    if kind == Cut.TYPE:
        return Cut(f.cards("cards"))
    if kind == Deal.TYPE:
        return Deal(f.opt_seat("dealer"))
    if kind == Dealt.TYPE:
        return Dealt(f.seat("player"), f.cards("cards"))
    if kind == Starter.TYPE:
        return Starter(f.card("card"))
    if kind == Play.TYPE:
        return Play(f.seat("player"), f.card("card"))
    if kind == Go.TYPE:
        return Go(f.seat("player"))
    if kind == Show.TYPE:
        return Show(f.seat("player"), f.cards("cards"))
    if kind == Crib.TYPE:
        return Crib(f.cards("cards"))
    if kind == Peg.TYPE:
        return Peg(f.seat("player"), f.whole("points", -BOARD, BOARD, _BOARD_WHY))
    if kind == Penalty.TYPE:
        return Penalty(
            f.seat("player"), f.text("infraction", MAX_INFRACTION),
            f.opt_whole("points", 0, BOARD, _BOARD_WHY), f.opt_seat("to"),
            f.opt_whole("back", 0, BOARD, _BOARD_WHY),
        )
    if kind == Claim.TYPE:
        return Claim(f.seat("player"), f.whole("points", 0, MOST_ONE_SCORE, _SCORE_WHY))
    if kind == Muggins.TYPE:
        return Muggins(f.seat("player"), f.whole("points", 0, MOST_ONE_SCORE, _SCORE_WHY))
    if kind == Undo.TYPE:
        return Undo()
    if kind == NewGame.TYPE:
        return NewGame(f.opt_seat("dealer"))
    if kind == Option.TYPE:
        option = Option(f.opt_bool("teaching"), f.opt_bool("points_only"))
        if option == Option():
            raise f.fail("an option line names teaching or points_only (true or false)")
        return option
    raise f.fail(f"unknown type {_shown(kind)}: expected one of {_TYPES}")


def _header(f: _Fields) -> GameHeader:
    version = f.opt_int("version")
    if version is None:
        version = 1
    if not 1 <= version <= RECORD_VERSION:
        raise f.fail(f"record version {version} is not supported (this reader knows 1 to "
                     f"{RECORD_VERSION})")
    players = f._get("players")
    if not isinstance(players, list) or not all(
        isinstance(p, str) and p.strip() for p in players
    ):
        raise f.fail(f"'players' must be a list of 2 to 4 names, got {_shown(players)}")
    for seat, name in enumerate(players):
        problem = printable_error(name, MAX_NAME)
        if problem is not None:
            raise f.fail(f"the name of seat {seat} {problem}")
    rules_data = f.data.get("rules", {})
    if not isinstance(rules_data, dict):
        raise f.fail(f"'rules' must be an object, got {_shown(rules_data)}")
    try:
        rules = Rules.from_json(rules_data, len(players))
    except RuleError as error:
        raise f.fail(str(error)) from None
    table_data = f.data.get("table", {})
    if not isinstance(table_data, dict):
        raise f.fail(f"'table' must be an object, got {_shown(table_data)}")
    unknown = sorted(set(table_data) - {"teaching", "points_only"})
    if unknown:
        raise f.fail(
            f"unknown table option {_shown(unknown[0])}: accepted are points_only, teaching"
        )
    table = _Fields(table_data, f.line)
    options = TableOptions(
        bool(table.opt_bool("teaching")), bool(table.opt_bool("points_only")),
    )
    return GameHeader(tuple(players), rules, version, options)


def dump(item: Line, players: int = 2) -> dict[str, object]:
    """The JSON object for a header or event (``players`` shortens the rules object)."""
    if isinstance(item, GameHeader):
        header: dict[str, object] = {
            "type": "game", "version": item.version, "players": list(item.players),
            "rules": item.rules.to_json(len(item.players)),
        }
        table = {
            key: True for key in ("teaching", "points_only") if getattr(item.table, key)
        }
        if table:
            header["table"] = table
        return header
    out: dict[str, object] = {"type": item.TYPE}
    if isinstance(item, Cut | Crib):
        out["cards"] = [str(card) for card in item.cards]
    elif isinstance(item, Deal | NewGame):
        if item.dealer is not None:
            out["dealer"] = item.dealer
    elif isinstance(item, Dealt | Show):
        out["player"] = item.player
        out["cards"] = [str(card) for card in item.cards]
    elif isinstance(item, Starter):
        out["card"] = str(item.card)
    elif isinstance(item, Play):
        out["player"] = item.player
        out["card"] = str(item.card)
    elif isinstance(item, Go):
        out["player"] = item.player
    elif isinstance(item, Option):
        for key in ("teaching", "points_only"):
            value = getattr(item, key)
            if value is not None:
                out[key] = value
    elif isinstance(item, Peg | Claim | Muggins):
        out["player"] = item.player
        out["points"] = item.points
    elif isinstance(item, Penalty):
        out["player"] = item.player
        out["infraction"] = item.infraction
        for key in ("points", "to", "back"):
            value = getattr(item, key)
            if value is not None:
                out[key] = value
    return out


def dump_line(item: Line, players: int = 2) -> str:
    """One record line (no newline)."""
    return json.dumps(dump(item, players), ensure_ascii=False)


def iter_lines(lines: Iterable[str]) -> Iterator[tuple[int, Line]]:
    """Parse record lines lazily as (line number, header or event); blank lines skipped."""
    for number, text in enumerate(lines, start=1):
        if text.strip():
            yield number, parse_line(text, number)


def read(stream: TextIO | Iterable[str]) -> tuple[GameHeader, list[Event]]:
    """Read a whole record: its header and events (RecordError on the first bad line)."""
    header: GameHeader | None = None
    events: list[Event] = []
    for number, item in iter_lines(stream):
        if isinstance(item, GameHeader):
            if header is not None:
                raise RecordError(
                    f"line {number}: a second \"game\" line; a match continues with new_game"
                )
            header = item
        elif header is None:
            raise RecordError(f"line {number}: the first line must be the \"game\" line")
        else:
            events.append(item)
    if header is None:
        raise RecordError("line 1: the record is empty: it needs a \"game\" line first")
    return header, events


def write(stream: TextIO, header: GameHeader, events: Iterable[Event]) -> None:
    """Write a whole record, one line per entry."""
    players = len(header.players)
    stream.write(dump_line(header, players) + "\n")
    for event in events:
        stream.write(dump_line(event, players) + "\n")


def result_json(state: GameState) -> dict[str, Any]:
    """What the history keeps as the result of a game or match: the ``pegboard replay
    --json`` result line (``type``, ``scores``, ``winner``, ``skunk``, ``game_points``) of the
    last game, plus ``abandoned`` (the game or match was not over) and the ``match`` totals."""
    match = state.match
    over = match.winner is not None or (state.result is not None and match.games <= 1)
    last = state.result
    return {
        "type": "result",
        "scores": list(state.scores),
        "winner": state.winner,
        "skunk": last.skunk if last is not None else "none",
        "game_points": list(last.game_points) if last is not None else [0] * len(state.scores),
        "abandoned": not over,
        "match": {
            "games": match.games,
            "played": [played.to_json() for played in match.played],
            "wins": list(match.wins),
            "game_points": list(match.game_points),
            "winner": match.winner,
        },
    }
