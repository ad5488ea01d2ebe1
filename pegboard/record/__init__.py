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

import importlib
from typing import TYPE_CHECKING, Any

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

_HOME = {
    "MAX_DEPTH": "bounded", "MAX_DIGITS": "bounded", "MAX_LINE": "bounded",
    "decode_lines": "bounded", "decode_text": "bounded", "load_json": "bounded",
    "dump": "writer", "dump_line": "writer", "result_json": "writer", "write": "writer",
    "MAX_NAME": "parse", "Line": "parse", "parse_line": "parse", "parse_object": "parse",
    "printable_error": "parse",
    "RawLine": "reader", "Reader": "reader", "Replay": "reader", "Replayer": "reader",
    "entries": "reader", "read": "reader",
    "read_game": "reader", "replay": "reader",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'pegboard.record' has no attribute {name!r}")
    module = importlib.import_module(f"pegboard.record.{home}")
    # Every name of that part at once (one import of the part, however many names it has;
    # no part is named after one of its names, so none is shadowed by a submodule).
    globals().update({key: getattr(module, key) for key, part in _HOME.items() if part == home})
    return globals()[name]


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
