"""The error hierarchy of Pegboard.

Every error the project raises on purpose derives from :class:`PegboardError`. Errors about
text that cannot be understood (syntax) and errors about things the rules do not allow right
now (rule errors) are different classes, and each also inherits the builtin it refines so that
callers who only know Python's builtins still catch them.
"""

from __future__ import annotations


class PegboardError(Exception):
    """Root of every error Pegboard raises on purpose."""


class InvalidCardError(PegboardError, ValueError):
    """Text that does not name a card, or a set of cards that breaks a card rule (duplicates)."""


class RuleError(PegboardError, ValueError):
    """Something the rules of cribbage do not allow at this moment (an illegal event).

    ``words`` is the same reason for a reader who hears or reads cards in words (a phone):
    given where the message names a card entered by its rank alone by its rank's label
    ("P2 holds 2 4 6"), which no reader can tell from a number, it names that card by its
    rank in words ("P2 holds two, four and six"). A card named with its suit stays as the
    message names it (``8H``), for the reader to say in its own words. None: the message
    names no card by its rank alone.

    ``holder`` is the seat whose held cards the message names (None: it names none a seat
    holds): a seat's hand is told to that seat alone.
    """

    def __init__(self, message: str, *, words: str | None = None,
                 holder: int | None = None) -> None:
        super().__init__(message)
        self.words = words
        self.holder = holder


class RecordError(PegboardError, ValueError):
    """A game record line that cannot be read (bad JSON, unknown type, missing field)."""


class ConfigError(PegboardError, ValueError):
    """A configuration key or value that is not accepted."""


class StoreError(PegboardError, OSError):
    """The durable game store cannot be used (locked by another writer, unreadable)."""


class LinkError(PegboardError, OSError):
    """The serial link to the LED pegboard failed (used for reporting, never fatal to a game)."""


class ClubError(PegboardError, ValueError):
    """A club name, board id, broker address or club message that cannot be used."""


class PairingError(PegboardError, ValueError):
    """A phone's join code or seat that cannot be paired (unknown, used, the seat held)."""


class PairingBusyError(PairingError):
    """Too many wrong join codes lately: joins wait ``retry_after`` seconds."""

    def __init__(self, message: str, *, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def not_utf8(data: bytes, error: UnicodeDecodeError) -> str:
    """Where ``data`` stops being UTF-8, for a message that names the line and the byte.

    >>> try:
    ...     b"ok\\nab\\xff".decode("utf-8")
    ... except UnicodeDecodeError as error:
    ...     not_utf8(b"ok\\nab\\xff", error)
    'line 2, byte 3 is not UTF-8 (ff: invalid start byte)'
    """
    line = data.count(b"\n", 0, error.start) + 1
    column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
    return (f"line {line}, byte {column} is not UTF-8 "
            f"({data[error.start:error.end].hex(' ')}: {error.reason})")
