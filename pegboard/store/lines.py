"""One line of a store log: ``CCCCCCCC {json}\\n`` (the format is described in
:mod:`pegboard.store.logfile`), written and read.

Kept apart, with nothing but the standard library and the bounded JSON reader, because the
device reads the game in progress with it for its very first frame (:mod:`pegboard.store.peek`).

A line whose checksum is right can still be one no reader may use: one written by hand, or by
a program that is not Pegboard. It is read through the bounded JSON reader
(:func:`pegboard.record.bounded.load_json`) and checked for its shape, so that no depth, number
or text can crash a reader: such a line is damaged, with the reason :func:`read_line` gives.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from pegboard.errors import RecordError
from pegboard.record.bounded import load_json

MAX_LOG_LINE = 1 << 20
"""The longest log line read, in bytes: a record line is at most 16 KiB, and the longest
finish line (a long match's result) a few KiB."""

MAX_LOG_DEPTH = 12
"""The deepest nesting in a log line: a record line's 3 inside the entry's object, and a
match result's list of games (5)."""

LATEST = 1e11
"""Times (``at``, Unix seconds) are from 0 to this (the year 5138)."""


def encode_line(entry: dict[str, Any]) -> bytes:
    """The bytes of one log line for ``entry`` (a JSON object), newline included."""
    text = json.dumps(entry, ensure_ascii=False, allow_nan=False).encode("utf-8")
    if b"\n" in text:  # json.dumps never emits a raw newline; keep it that way
        raise ValueError("a log entry must encode to a single line")
    return b"%08x %s\n" % (zlib.crc32(text), text)


def checksum_ok(raw: bytes) -> bool:
    """Whether a line (without its newline) carries the checksum of its text."""
    return len(raw) >= 10 and raw[8] == 0x20 and _crc_ok(raw, raw[9:])  # 0x20: a space


def _crc_ok(raw: bytes, text: bytes) -> bool:
    """Whether ``raw`` starts with the checksum of ``text`` (the line after its space)."""
    try:
        crc = int(raw[:8], 16)
    except ValueError:
        return False
    return zlib.crc32(text) == crc


def read_line(raw: bytes) -> dict[str, Any] | str:
    """The entry on one line (without its newline), or why it cannot be used.

    >>> read_line(b'00000000 {}')
    'its checksum does not match'
    """
    if len(raw) > MAX_LOG_LINE:
        return f"it is {len(raw):,} bytes long; a log line is at most {MAX_LOG_LINE:,}"
    text = raw[9:]  # the JSON text the checksum is of (cut once, for both)
    if len(raw) < 10 or raw[8] != 0x20 or not _crc_ok(raw, text):
        return "its checksum does not match"
    try:
        entry = load_json(text.decode("utf-8"), longest=MAX_LOG_LINE,
                          deepest=MAX_LOG_DEPTH)
    except UnicodeDecodeError:
        return "it is not UTF-8 text"
    except RecordError as error:
        return str(error).removeprefix("line 1: ")
    problem = _shape_problem(entry)
    if problem is not None or not isinstance(entry, dict):
        return problem or "it is not a JSON object"
    return entry


def _shape_problem(entry: object) -> str | None:
    # type() rather than isinstance(): a bool is not a sequence number or a time, and this
    # runs for every line of every history file when the index is rebuilt.
    if type(entry) is not dict:
        return "it is not a JSON object"
    seq = entry.get("seq")
    if type(seq) is not int or seq < 0:
        return "it has no sequence number"
    at = entry.get("at")
    if (type(at) is not float and type(at) is not int) or not 0 <= at <= LATEST:
        return "its time is not a time"
    if (type(entry.get("record")) is dict) == (type(entry.get("finish")) is dict):
        return "it holds neither one record line nor one result"  # exactly one of the two
    return None


def decode_any(raw: bytes) -> dict[str, Any] | None:
    """The entry on one line whatever its sequence number, or None if the line is damaged."""
    entry = read_line(raw)
    return entry if isinstance(entry, dict) else None

