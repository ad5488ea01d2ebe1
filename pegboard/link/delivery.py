"""What the LED board has been told: the messages the game wants shown, the one in flight, and
what the board has acknowledged (sans-I/O: the link sends and reads, this keeps the account).

The board is sent one message at a time, in the order CFG, STATE, TEST, each until it is
acknowledged; a newer board replaces an unacknowledged one. A heartbeat that names another
STATE than the one acknowledged means the board is not showing ours: it is sent again.
"""

from __future__ import annotations

from dataclasses import dataclass

from pegboard.errors import LinkError
from pegboard.link.board import BoardState
from pegboard.link.layout import LedConfig
from pegboard.link.protocol import Ack, Goodbye, Heartbeat, Message, Nak, TestPattern

ORDER = ("CFG", "STATE", "TEST")
"""The order in which what the board should show is sent."""


@dataclass
class InFlight:
    """A message sent and not yet answered: its seq, when it was sent and how many times."""

    seq: int
    message: Message
    sent_at: float
    tries: int


class Deliveries:
    """What the board should show, what is in flight, and what it has acknowledged."""

    def __init__(self, config: LedConfig) -> None:
        self.want: dict[str, Message] = {"CFG": config}
        self.acked: dict[str, Message] = {}
        self.inflight: InFlight | None = None
        self.state_seq: int | None = None  # seq of the STATE the board last acknowledged

    def forget(self) -> None:
        """The board knows nothing (a new port, or the board restarted)."""
        self.acked.clear()
        self.state_seq = None
        self.inflight = None

    @property
    def settled(self) -> bool:
        """Nothing in flight and everything wanted acknowledged."""
        return self.inflight is None and all(
            self.acked.get(kind) == message for kind, message in self.want.items()
        )

    @property
    def shown(self) -> BoardState | None:
        """The board state the firmware last acknowledged."""
        board = self.acked.get("STATE")
        return board if isinstance(board, BoardState) else None

    def ack(self, ack: Ack) -> bool:
        """The board accepted a message; True when it was the one in flight."""
        flight = self.inflight
        if flight is None or ack.seq != flight.seq:
            return False
        self.acked[kind(flight.message)] = flight.message
        if isinstance(flight.message, BoardState):
            self.state_seq = flight.seq
        self.inflight = None
        return True

    def nak(self, nak: Nak) -> LinkError | None:
        """The board refused a message: a bad value is not sent again (the error says so);
        anything else was garbled on the way and is resent at once."""
        flight = self.inflight
        if flight is None:
            return None
        if nak.seq == flight.seq and nak.error == "value":
            self.acked[kind(flight.message)] = flight.message
            self.inflight = None
            return LinkError(f"LED board refused {kind(flight.message)}: bad value")
        flight.sent_at = float("-inf")
        return None

    def stale(self, beat: Heartbeat) -> bool:
        """True (and the board is sent again) when ``beat`` shows another board than ours."""
        # Heartbeats come in order with ACKs, so with nothing in flight the board's "st" must
        # be the STATE it last acknowledged; anything else (an old frame replayed to it, a
        # restart whose HELLO was lost) means the board is not showing our board.
        if self.inflight is not None or self.state_seq is None or "STATE" not in self.acked:
            return False
        if beat.shown is None or beat.shown == self.state_seq:
            return False
        del self.acked["STATE"]
        self.state_seq = None
        return True

    def superseded(self) -> bool:
        """True when nothing is in flight, or a board is that the game has since replaced."""
        flight = self.inflight
        return flight is None or (
            isinstance(flight.message, BoardState) and self.want.get("STATE") != flight.message
        )

    def next(self) -> Message | None:
        """The first wanted message the board has not acknowledged."""
        for name in ORDER:
            wanted = self.want.get(name)
            if wanted is not None and self.acked.get(name) != wanted:
                return wanted
        return None


_KINDS: dict[type, str] = {LedConfig: "CFG", BoardState: "STATE", Goodbye: "BYE",
                           TestPattern: "TEST"}


def kind(message: Message) -> str:
    """The wire type of a message the host sends until acknowledged."""
    return _KINDS.get(type(message), "TEST")
