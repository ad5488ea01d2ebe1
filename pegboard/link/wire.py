"""The bytes of the LED link on an open port: frames out through an outbox that never blocks,
frames in through the decoder, and the messages they carry.

A board that leaves more than :data:`MAX_BACKLOG` bytes unread is treated as stalled
(:class:`~pegboard.errors.LinkError`): the link drops the port and connects again.
"""

from __future__ import annotations

import contextlib
import select

from pegboard.errors import LinkError
from pegboard.link.protocol import Decoder, FrameError, Message, decode_message, encode_message
from pegboard.link.usb_port import Port

#: Outgoing bytes a board may leave unread before it is treated as stalled.
MAX_BACKLOG = 4096


class Wire:
    """One open port: what is waiting to be written, and the decoder of what was read."""

    def __init__(self, port: Port) -> None:
        self.port = port
        self.outbox = b""
        self._decoder = Decoder()

    def send(self, seq: int, message: Message) -> None:
        """Queue ``message`` as frame ``seq`` (written by :meth:`flush`)."""
        self.outbox += encode_message(seq, message)

    def flush(self) -> None:
        """Write what the port takes now, without waiting; LinkError when it backs up."""
        if not self.outbox:
            return
        fileno = getattr(self.port, "fileno", None)
        if fileno is not None:
            _, writable, _ = select.select([], [fileno()], [], 0)
            if not writable:
                self._check_backlog()
                return
        written = self.port.write(self.outbox)
        self.outbox = self.outbox[len(self.outbox) if written is None else written :]
        self._check_backlog()

    def _check_backlog(self) -> None:
        if len(self.outbox) > MAX_BACKLOG:
            raise LinkError("LED board is not reading (output backed up)")

    def read(self) -> tuple[list[Message], int]:
        """The messages in what the port has now, and how many lines could not be read."""
        waiting = self.port.in_waiting
        data = self.port.read(waiting if waiting > 0 else 1)
        messages: list[Message] = []
        bad = 0
        for item in self._decoder.feed(data) if data else ():
            try:
                if isinstance(item, FrameError):
                    raise item
                messages.append(decode_message(item))
            except FrameError:
                bad += 1
        return messages, bad

    def write_now(self, data: bytes) -> bool:
        """Best effort, straight to the port, past the outbox (the link is being dropped);
        True when the port took it."""
        try:
            self.port.write(data)
        except (OSError, ValueError):
            return False
        return True

    def close(self) -> None:
        """Close the port (errors closing a port already gone are ignored)."""
        with contextlib.suppress(OSError):
            self.port.close()
