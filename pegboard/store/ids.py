"""Game ids and the names of files in a store: a fixed alphabet, checked wherever one enters.

A game id names a file (``history/<id>.log``, ``aside/<id>.log``), so an id from a log line, a
file name found on disk or a command-line argument is used only once it is 1 to 64 letters,
digits, ``-`` or ``_``: no separator, no dot, no NUL, nothing a path could be built from.

>>> is_valid_id("20261121T221503Z-3fa2c1")
True
>>> [is_valid_id(text) for text in ("../x", "a/b", "a\\0b", "", "x" * 65, "café", ".log")]
[False, False, False, False, False, False, False]
"""

from __future__ import annotations

import string

from pegboard.errors import StoreError

ID_CHARACTERS = string.ascii_letters + string.digits + "_-"
"""What a game id (or the name of a set-aside game) is made of: 1 to 64 of these."""


def is_valid_id(text: object) -> bool:
    """Whether ``text`` is a string a store may use as a game id or file name stem."""
    return isinstance(text, str) and 0 < len(text) <= 64 and not text.strip(ID_CHARACTERS)


def check_id(text: str, what: str = "game id") -> str:
    """``text`` if it is a valid id, else a StoreError saying what an id looks like."""
    if not is_valid_id(text):
        raise StoreError(
            f"{text!r} is not a {what}: ids are 1 to 64 letters, digits, '-' or '_' "
            "(`pegboard game list` and `pegboard game repair` show them)"
        )
    return text
