"""How config messages show what was written: names, values and the closest valid name.

A config file can hold anything (a quoted key with control characters, a number of 4,000
digits), and every message must still fit on one line and be read safely.
"""

from __future__ import annotations

import json
import re
import reprlib
from typing import TYPE_CHECKING, Any

from pegboard import lazy
from pegboard.errors import ConfigError

if TYPE_CHECKING:
    import difflib
else:
    difflib = lazy.module("difflib")


def name(text: str) -> str:
    """A section or key name for a message: as written when it is a plain word, else quoted
    with escapes and shortened (a quoted TOML key can hold anything)."""
    if re.fullmatch(r"[A-Za-z0-9_-]{1,40}", text):
        return text
    return quote(text)


def unknown(kind: str, prefix: str, written: str, valid: list[str], source: str) -> ConfigError:
    """An unknown section or key, with the closest valid name (compared without the prefix)."""
    shape = "[{}]" if kind == "section" else prefix + "{}"
    # difflib is quadratic in the name's length; no valid name is longer than 16.
    close = difflib.get_close_matches(written[:40], valid, n=1, cutoff=0.6)
    shown = name(written)
    if close:
        hint = f" (did you mean {shape.format(close[0])}?)"
    else:
        hint = "; valid: " + ", ".join(shape.format(n) for n in sorted(valid))
    return ConfigError(f"{source}: unknown {kind} {shape.format(shown)}{hint}")


def quote(text: str, limit: int = 60) -> str:
    """A string as TOML writes it, control characters escaped, cut to ``limit`` characters."""
    shown = json.dumps(text[:limit], ensure_ascii=False)
    return shown if len(text) <= limit else shown[:-1] + '…"'


class _Short(reprlib.Repr):
    """repr() for values in messages: a few levels and items, long ints by their size."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel, self.maxlist, self.maxdict, self.maxstring, self.maxother = 3, 6, 4, 40, 40

    def repr_int(self, x: int, level: int) -> str:
        if abs(x) < 10**15:
            return repr(x)
        if x.bit_length() < 14_000:  # under 4,215 digits: str() can spell it out
            return f"<a number of {len(str(abs(x)))} digits>"
        # str() of an int of 4,301 digits or more raises ValueError (0x... reads any size).
        return f"<a number of about {int(x.bit_length() * 0.30103)} digits>"

    def repr_str(self, x: str, level: int) -> str:
        return quote(x, self.maxstring)

    def repr_datetime(self, x: Any, level: int) -> str:
        return str(x.isoformat())

    repr_date = repr_time = repr_datetime


_SHORT = _Short()


def show(value: Any) -> str:
    """A value as a message quotes it: as TOML writes it, shortened."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return quote(value)
    return _SHORT.repr(value)
