"""One line of a store log: ``CCCCCCCC {json}\\n`` (the format is described in
:mod:`pegboard.store.logfile`), written and read.

Kept apart, with nothing but the standard library's json and zlib, because the device reads
the game in progress with it for its very first frame (:mod:`pegboard.store.peek`).
"""

from __future__ import annotations

import json
import zlib
from typing import Any


def encode_line(entry: dict[str, Any]) -> bytes:
    """The bytes of one log line for ``entry`` (a JSON object), newline included."""
    text = json.dumps(entry, ensure_ascii=False, allow_nan=False).encode("utf-8")
    if b"\n" in text:  # json.dumps never emits a raw newline; keep it that way
        raise ValueError("a log entry must encode to a single line")
    return b"%08x %s\n" % (zlib.crc32(text), text)


def decode_any(raw: bytes) -> dict[str, Any] | None:
    """The entry on one line whatever its sequence number, or None if the line is damaged."""
    if len(raw) < 10 or raw[8:9] != b" ":
        return None
    try:
        crc = int(raw[:8], 16)
    except ValueError:
        return None
    text = raw[9:]
    if zlib.crc32(text) != crc:
        return None
    try:
        entry = json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(entry, dict) or not _is_whole(entry.get("seq")):
        return None
    if not isinstance(entry.get("at"), int | float) or isinstance(entry.get("at"), bool):
        return None
    if isinstance(entry.get("record"), dict) == isinstance(entry.get("finish"), dict):
        return None  # exactly one of the two
    return entry


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
