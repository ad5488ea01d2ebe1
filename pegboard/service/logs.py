"""Logging to the journal through stderr, with levels, and never to a file on the SD card.

Under systemd, stderr is a stream into the journal and ``$JOURNAL_STREAM`` holds its
``device:inode``. A line that starts with ``<N>`` (a syslog priority: 3 error, 4 warning,
6 info, 7 debug) is stored at that priority, so ``journalctl -u pegboard -p warning`` works.
The journal adds the time and the program name itself, so those prefixes are left out there.
On a terminal the lines carry a time and the level name instead.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from typing import TextIO

# syslog priorities (sd-daemon's SD_ERR ... SD_DEBUG prefixes) for Python's levels.
_PRIORITIES = (
    (logging.CRITICAL, 2),
    (logging.ERROR, 3),
    (logging.WARNING, 4),
    (logging.INFO, 6),
    (logging.DEBUG, 7),
)


def priority(level: int) -> int:
    """The syslog priority for a logging level (anything below DEBUG is debug).

    >>> priority(logging.WARNING), priority(logging.INFO), priority(25)
    (4, 6, 6)
    """
    for threshold, value in _PRIORITIES:
        if level >= threshold:
            return value
    return 7


class JournalFormatter(logging.Formatter):
    """``<priority>logger: message``, with the prefix on every line of a multi-line message."""

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        prefix = f"<{priority(record.levelno)}>"
        return "\n".join(prefix + line for line in text.splitlines() or [""])


def connected_to_journal(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``stream`` is the journal stream systemd connected (``$JOURNAL_STREAM``)."""
    env = os.environ if environ is None else environ
    device, _, inode = env.get("JOURNAL_STREAM", "").partition(":")
    if not (device.isdigit() and inode.isdigit()):
        return False
    try:
        info = os.fstat(stream.fileno())
    except (OSError, ValueError):
        return False
    return (info.st_dev, info.st_ino) == (int(device), int(inode))


def setup_logging(
    level: int | str = logging.INFO,
    *,
    stream: TextIO | None = None,
    environ: Mapping[str, str] | None = None,
) -> logging.Handler:
    """Send the ``pegboard`` loggers' records to stderr, journal-style when under systemd.

    Replaces a handler installed by an earlier call, so it is safe to call more than once.
    """
    stream = sys.stderr if stream is None else stream
    handler = logging.StreamHandler(stream)
    handler.set_name("pegboard")
    if connected_to_journal(stream, environ):
        handler.setFormatter(JournalFormatter("%(name)s: %(message)s"))
    else:
        handler.setFormatter(
            logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s", "%H:%M:%S")
        )
    root = logging.getLogger("pegboard")
    for old in [h for h in root.handlers if h.get_name() == "pegboard"]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    return handler
