"""Checks for the file and folder names given on the command line, made before any work.

A name the system cannot take (a NUL, a component longer than 255 bytes) makes every file
call raise ``ValueError`` or ``OSError`` wherever it is first used, often after the work is
done; a name that is not UTF-8 text cannot be printed back. Each check here raises
:class:`ArgumentError` (a :class:`~pegboard.errors.PegboardError` and a ``ValueError``)
quoting the name and saying what is accepted; the commands call them before they start, so
``pegboard`` prints one line and exits 2.
"""

from __future__ import annotations

import functools
import math
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from pegboard import lazy
from pegboard.errors import PegboardError

if TYPE_CHECKING:
    import argparse
else:
    argparse = lazy.module("argparse")

MAX_PATH_BYTES = 4095
"""The longest path Linux accepts (PATH_MAX, 4096 bytes with the closing NUL)."""

MAX_NAME_BYTES = 255
"""The longest single file or folder name (NAME_MAX)."""


_CONTROL = re.compile(r"[\x01-\x1f\x7f-\x9f]")


class ArgumentError(PegboardError, ValueError):
    """A file name, folder or number on the command line that cannot be used."""


T = TypeVar("T")


def argument_type(check: Callable[[str], T]) -> Callable[[str], T]:
    """``check`` as an argparse ``type``: the words of the error it raises on bad text (a
    :class:`~pegboard.errors.PegboardError`, or a library's ``ValueError``) become argparse's
    usage error, which names the option (a bare ``ValueError`` would say only "invalid
    value")."""

    @functools.wraps(check)
    def convert(text: str) -> T:
        try:
            return check(text)
        except (PegboardError, ValueError) as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return convert


def shown(text: str, limit: int = 200) -> str:
    """``repr(text)`` cut to about ``limit`` characters, for messages (a path is shown whole
    unless it is unusually long)."""
    quoted = repr(text)
    return quoted if len(quoted) <= limit else quoted[: limit - 2] + "…" + quoted[-1]


def path_name(text: str) -> str:
    """A name the system can open and the terminal can show: not empty, no NUL or other
    control character, UTF-8 text (no byte that is not UTF-8, which Python reads as a lone
    surrogate), at most 4,095 bytes and 255 bytes per component.

    >>> path_name("games/ann.jsonl")
    'games/ann.jsonl'
    >>> path_name("a\\x00b")
    Traceback (most recent call last):
    ...
    pegboard.commands.paths.ArgumentError: 'a\\x00b' has a NUL byte; a file name is text
    """
    if not text:
        raise ArgumentError("an empty file name; give a file or folder")
    if "\0" in text:
        raise ArgumentError(f"{shown(text)} has a NUL byte; a file name is text")
    control = _CONTROL.search(text)
    if control:
        # Legal in a Linux name, but a line break would split the one-line messages.
        raise ArgumentError(
            f"{shown(text)} has the control character {control.group()!r}; a file name here "
            "is printable text"
        )
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ArgumentError(
            f"{shown(text)} is not UTF-8 text (at character {error.start + 1}); "
            "rename it, or give a name in UTF-8"
        ) from None
    if len(data) > MAX_PATH_BYTES:
        raise ArgumentError(
            f"{shown(text)} is {len(data):,} bytes long; a path is at most {MAX_PATH_BYTES:,}"
        )
    longest = max(len(part) for part in data.split(b"/"))
    if longest > MAX_NAME_BYTES:
        raise ArgumentError(
            f"{shown(text)} has a name of {longest:,} bytes; each name in a path is at most "
            f"{MAX_NAME_BYTES}"
        )
    return text


def input_name(text: str) -> str:
    """A file to read, or ``-`` for standard input."""
    return text if text == "-" else path_name(text)


def folder(text: str) -> str:
    """A folder to use or create: a valid name that is not an existing file."""
    path_name(text)
    if Path(text).exists() and not Path(text).is_dir():
        raise ArgumentError(f"{shown(text)} is a file; give a folder (made if missing)")
    return text


def output_file(text: str) -> str:
    """A file to write: a valid name, not a folder, in a folder that exists and is writable.

    Checked when the arguments are read, so a run that would fail at its end to write its
    output fails before it starts instead.
    """
    path = Path(path_name(text))
    if path.is_dir():
        raise ArgumentError(f"{shown(text)} is a folder; give a file name")
    parent = path.parent
    if not parent.is_dir():
        raise ArgumentError(
            f"cannot write {shown(text)}: the folder {shown(str(parent))} does not exist"
        )
    if not os.access(parent, os.W_OK | os.X_OK) or (
        path.exists() and not os.access(path, os.W_OK)
    ):
        raise ArgumentError(f"cannot write {shown(text)}: permission denied")
    return text


def seconds(most: float) -> Callable[[str], float]:
    """An argparse ``type``: a number of seconds from 0 to ``most`` (not NaN, not infinite)."""

    def check(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not 0 <= value <= most:  # NaN fails every comparison
            raise argparse.ArgumentTypeError(
                f"{shown(text)} is not a number of seconds from 0 to {most:g}"
            )
        return value

    return check
