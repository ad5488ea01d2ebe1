"""The checks of single config values: each returns the value as the config holds it, or raises
:class:`Invalid`; the key's ``allowed`` text then says what would be right."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

MAX_PATH = 4096
"""The longest path accepted (Linux's PATH_MAX)."""


class Invalid(Exception):
    """Raised by a check when a value is not accepted."""


Check = Callable[[Any], Any]


def meta(check: Check, allowed: str) -> dict[str, Any]:
    """A config key's declaration (in its section's ``KEYS``): its check and the text saying
    what is allowed."""
    return {"check": check, "allowed": allowed}


def int_in(low: int, high: int) -> Callable[[Any], int]:
    """A whole number from ``low`` to ``high``."""

    def check(value: Any) -> int:
        # bool is an int in Python; `true` is never a number in a config file.
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise Invalid
        return value

    return check


def int_of(*choices: int) -> Callable[[Any], int]:
    """One of the whole numbers ``choices``."""

    def check(value: Any) -> int:
        if isinstance(value, bool) or value not in choices:
            raise Invalid
        return int(value)

    return check


def number_in(low: float, high: float) -> Callable[[Any], float]:
    """A number (whole or not) from ``low`` to ``high``."""

    def check(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise Invalid
        if not low <= value <= high:
            raise Invalid
        return float(value)

    return check


def one_of(*choices: str) -> Callable[[Any], str]:
    """One of the words ``choices``."""

    def check(value: Any) -> str:
        if value not in choices or not isinstance(value, str):
            raise Invalid
        return value

    return check


def boolean(value: Any) -> bool:
    """true or false."""
    if not isinstance(value, bool):
        raise Invalid
    return value


def path_text(value: Any) -> str:
    """A path as text: at most MAX_PATH characters, all printable (no NUL, no line breaks).

    A NUL makes every open() raise ValueError (not OSError), far from the config file.
    """
    if not isinstance(value, str) or len(value) > MAX_PATH or not value.isprintable():
        raise Invalid
    return value


def absolute_path(value: Any) -> str:
    """``""`` (the usual place) or an absolute path: a relative one would be resolved from a
    service's working directory (``/run/pegboard`` under systemd, emptied when the service
    stops), not the admin's."""
    if value == "":
        return ""
    path = path_text(value)
    if not path.startswith("/"):
        raise Invalid
    return path


def matching(pattern: str) -> Callable[[Any], str]:
    """Text that matches ``pattern`` whole.

    The pattern is compiled (and kept by :mod:`re`) the first time a config file gives the
    key: the defaults never check one, so a start without a config file compiles none."""

    def check(value: Any) -> str:
        if not isinstance(value, str) or not re.fullmatch(pattern, value):
            raise Invalid
        return value

    return check


def colours(value: Any) -> tuple[str, ...]:
    """A list of 1-4 colours written ``"#rrggbb"`` (kept in lower case)."""
    if not isinstance(value, list) or not 1 <= len(value) <= 4:
        raise Invalid
    for item in value:
        if not isinstance(item, str) or not re.fullmatch(r"#[0-9a-fA-F]{6}", item):
            raise Invalid
    return tuple(item.lower() for item in value)
