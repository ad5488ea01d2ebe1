"""The game record: the engine's event log as JSON Lines (one object per line).

The first line is the game header, ``{"type": "game", "players": [...], "rules": {...}}``;
every later line is one event (``docs/record.md`` describes every type and field). The parts:

- :mod:`~pegboard.record.bounded`: the bounded JSON reader every line goes through (standard
  library only: the store reads its log lines with it before the engine is loaded);
- :mod:`~pegboard.record.parse`: one line into the engine's value (a header or an event);
- :mod:`~pegboard.record.reader`: the one reader of whole records, header first, each line
  decoded once, and :func:`~pegboard.record.reader.replay` through the engine;
- :mod:`~pegboard.record.writer`: the engine's values as record lines, and a game's result.

The names are imported from their modules when first asked for, so that reading the store's
lines does not load the rules engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pegboard.lazy import exports

if TYPE_CHECKING:
    from pegboard.record.bounded import (
        MAX_DEPTH,
        MAX_DIGITS,
        MAX_LINE,
        decode_lines,
        decode_text,
        load_json,
    )
    from pegboard.record.parse import (
        MAX_NAME,
        Line,
        parse_line,
        parse_object,
        printable_error,
    )
    from pegboard.record.reader import (
        RawLine,
        Reader,
        Replay,
        Replayer,
        entries,
        read,
        read_game,
        replay,
    )
    from pegboard.record.writer import dump, dump_line, result_json, write

__getattr__ = exports(__name__, globals(), {
    "bounded": ("MAX_DEPTH", "MAX_DIGITS", "MAX_LINE", "decode_lines", "decode_text",
                "load_json"),
    "parse": ("MAX_NAME", "Line", "parse_line", "parse_object", "printable_error"),
    "reader": ("RawLine", "Reader", "Replay", "Replayer", "entries", "read", "read_game",
               "replay"),
    "writer": ("dump", "dump_line", "result_json", "write"),
})


__all__ = [
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_LINE",
    "MAX_NAME",
    "Line",
    "RawLine",
    "Reader",
    "Replay",
    "Replayer",
    "decode_lines",
    "decode_text",
    "dump",
    "dump_line",
    "entries",
    "load_json",
    "parse_line",
    "parse_object",
    "printable_error",
    "read",
    "read_game",
    "replay",
    "result_json",
    "write",
]
