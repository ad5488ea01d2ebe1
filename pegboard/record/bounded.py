"""The bounded JSON reader every record line and store line goes through (standard library
only, so the store can read the game in progress for the first frame without the engine).

No input can make it recurse, build a number Python cannot print or store, or carry text that
cannot be written back: a line is at most ``longest`` characters (:data:`MAX_LINE` for a
record line), nested at most ``deepest`` levels (:data:`MAX_DEPTH`), its whole numbers have at
most :data:`MAX_DIGITS` digits, its other numbers are finite (``1e400`` is refused, not read
as infinity), and its text is valid Unicode.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Iterator
from typing import BinaryIO

from pegboard.errors import RecordError

MAX_LINE = 16_384
"""The longest record line read, in characters (and in bytes when reading a file). The
longest line Pegboard writes is a four-player header of under 300; the rest is room for the
extra keys of newer writers."""

MAX_DEPTH = 8
"""The deepest nesting of arrays and objects in a record line; a record line needs 3 (the
header's ``rules`` object is 2, a list of cards in an event is 2)."""

MAX_DIGITS = 12
"""The most digits of a whole number in a line (Python refuses to read 4,301 or more)."""


@functools.cache
def _structure() -> re.Pattern[str]:
    """A JSON string (closed or running to the end of the text) or one bracket.

    The string alternative is the unrolled-loop form, linear on any input; it consumes the
    brackets that are text, so only the structural ones are counted. Compiled when a line
    first has more brackets than the depth allowed (every device start reads lines, and a
    usual line never needs it)."""
    return re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|(?P<open>[\[{])|(?P<close>[\]}])', re.S)


@functools.cache
def _surrogate() -> re.Pattern[str]:
    """A lone surrogate; compiled when a string that is not ASCII is first read."""
    return re.compile(r"[\ud800-\udfff]")


class _Refused(Exception):
    """Raised inside json.loads hooks; carries the reason out of the C scanner."""


def shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to about ``limit`` characters (bad input can be megabytes long).

    Whole numbers are bounded by :func:`load_json`; any other int is shown by its size only,
    because Python cannot turn one of 4,301 or more digits into text.

    >>> shown("x" * 100, 10)
    "'xxxxxxxx…"
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**MAX_DIGITS:
        return f"a number of about {value.bit_length() * 3 // 10} digits"
    try:
        text = repr(value)
    except (RecursionError, ValueError):  # nested or huge values built by a caller, not us
        return f"a {type(value).__name__}"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _whole_number(literal: str) -> int:
    if len(literal) <= MAX_DIGITS:  # the usual number: too short to have too many digits
        return int(literal)
    digits = len(literal.lstrip("-"))
    if digits > MAX_DIGITS:
        raise _Refused(
            f"a number of {digits:,} digits ({literal[:12]}…); whole numbers have at most "
            f"{MAX_DIGITS} digits"
        )
    return int(literal)


def _finite_number(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise _Refused(f"the number {shown(literal, 24)} is too large to be read")
    return value


def _no_constant(literal: str) -> object:
    raise _Refused(f"{literal} is not a JSON number; numbers are written in digits")


class _Wholes(dict[str, int]):
    """Whole numbers by their text, for the decoder: a short one read before is found by the
    dictionary's own lookup, without a call into Python (a log's seats, scores and points
    come back on every line); any other is read by :func:`_whole_number`, and kept when it
    has at most :data:`_KEPT` characters (so at most a couple of thousand are ever kept)."""

    __slots__ = ()

    def __missing__(self, literal: str) -> int:
        if len(literal) > _KEPT:
            return _whole_number(literal)
        value = self[literal] = int(literal)  # too short to have too many digits
        return value


_KEPT = 3
"""The longest text of a whole number :class:`_Wholes` keeps."""

_WHOLES = _Wholes()
"""The whole numbers the decoder found so far (its ``parse_int``)."""

_DECODER = json.JSONDecoder(parse_int=_WHOLES.__getitem__, parse_float=_finite_number,
                            parse_constant=_no_constant)
"""One decoder for every line (``json.loads`` with hooks would make one a call)."""


_JSON_SPACE = " \t\n\r"


def _decoded(text: str) -> object:
    """``_DECODER.decode(text)``: the same value, or the same error. A line that starts with
    its value and ends with it (every line a writer of JSON makes) is read by
    ``raw_decode`` alone, without the two searches for surrounding white space ``decode``
    makes; any other line, and any line ``raw_decode`` stops short on, goes through
    ``decode``, which reads it again and words the error."""
    if text[:1] not in _JSON_SPACE:  # "" is in every string: an empty line is decoded
        try:
            data, end = _DECODER.raw_decode(text)
        except json.JSONDecodeError:
            pass  # no value at all: decode says so
        else:
            if end == len(text):
                return data
    return _DECODER.decode(text)


def _depth_error(text: str, deepest: int) -> str | None:
    if text.count("[") + text.count("{") <= deepest:  # the usual line: nothing to scan
        return None
    depth = 0
    for match in _structure().finditer(text):
        if match.group("open"):
            depth += 1
            if depth > deepest:
                return (
                    f"arrays and objects nested more than {deepest} deep (column "
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
        return None if value.isascii() or not _surrogate().search(value) else value
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


def load_json(text: str, line: int = 1, *, longest: int = MAX_LINE,
              deepest: int = MAX_DEPTH) -> object:
    """One JSON value from a line, within bounds; RecordError ``line N: ...`` if not.

    The bounds are checked before (length, nesting) or while (numbers) the text is parsed,
    so nothing can exhaust the stack or the int-to-text limit: at most ``longest``
    characters, ``deepest`` levels of nesting, :data:`MAX_DIGITS` digits in a whole number;
    no ``NaN`` or ``Infinity`` and no number too large for a float; every string valid
    Unicode (no lone surrogates).

    >>> load_json('{"type": "go", "player": 1}')
    {'type': 'go', 'player': 1}
    >>> load_json("[" * 9 + "]" * 9, 4)
    Traceback (most recent call last):
    ...
    pegboard.errors.RecordError: line 4: arrays and objects nested more than 8 deep
    (column 9); a record line needs 3 at most
    >>> load_json('{"at": 1e400}', 2)
    Traceback (most recent call last):
    ...
    pegboard.errors.RecordError: line 2: the number '1e400' is too large to be read
    """
    if len(text) > longest:
        raise RecordError(
            f"line {line}: {len(text):,} characters long; a record line is at most "
            f"{longest:,}"
        )
    problem = _depth_error(text, deepest)
    if problem is not None:
        raise RecordError(f"line {line}: {problem}")
    try:
        data = _decoded(text)
    except _Refused as refused:
        raise RecordError(f"line {line}: {refused}") from None
    except json.JSONDecodeError as error:
        raise RecordError(
            f"line {line}: not valid JSON ({error.msg} at column {error.colno})"
        ) from None
    # Only an escape (\u...) or a surrogate smuggled into the text can make one; most lines
    # have neither, and are not walked.
    bad = _bad_text(data) if "\\u" in text or (
        not text.isascii() and _surrogate().search(text)) else None
    if bad is not None:
        raise RecordError(
            f"line {line}: the text {shown(bad)} is not valid Unicode (a lone surrogate); "
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
