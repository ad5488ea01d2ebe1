"""What the LED link says about itself and how patient it is: where it is (:class:`LinkState`),
what it has counted (:class:`LinkStats`), and how long it waits and how often it tries
(:class:`LinkTiming`, see :mod:`pegboard.link.serial_link`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from pegboard.rules.value import Value


class LinkState(enum.Enum):
    """Where the link is."""

    DOWN = "down"  # no port open; waiting to retry
    CONNECTING = "connecting"  # port open, waiting for the board's HELLO
    UP = "up"  # handshake done
    MISMATCH = "mismatch"  # the board speaks another protocol version


@dataclass
class LinkStats:
    """Counters for diagnostics and the soak test."""

    opened: int = 0
    dropped: int = 0
    sent: int = 0
    resent: int = 0
    acked: int = 0
    naks: int = 0
    bad_lines: int = 0
    board_restarts: int = 0
    soft_resets: int = 0
    stale_boards: int = 0  # heartbeats showing a board other than the one acknowledged


class LinkTiming(Value):
    """Seconds to wait for an ACK and for a HELLO, how many times a message or a HELLO is
    sent, the least silence that means the board is gone, and the first and the longest wait
    before connecting again (the defaults are :class:`~pegboard.link.serial_link.SerialLink`'s)."""

    __slots__ = (
        "ack_timeout",
        "backoff_initial",
        "backoff_max",
        "hello_timeout",
        "max_tries",
        "min_silence",
    )
    __match_args__ = (
        "ack_timeout",
        "hello_timeout",
        "max_tries",
        "min_silence",
        "backoff_initial",
        "backoff_max",
    )

    ack_timeout: float
    hello_timeout: float
    max_tries: int
    min_silence: float
    backoff_initial: float
    backoff_max: float

    def __init__(
        self,
        ack_timeout: float,
        hello_timeout: float,
        max_tries: int,
        min_silence: float,
        backoff_initial: float,
        backoff_max: float,
    ) -> None:
        setter = object.__setattr__
        setter(self, "ack_timeout", ack_timeout)
        setter(self, "hello_timeout", hello_timeout)
        setter(self, "max_tries", max_tries)
        setter(self, "min_silence", min_silence)
        setter(self, "backoff_initial", backoff_initial)
        setter(self, "backoff_max", backoff_max)
