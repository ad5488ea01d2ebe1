"""The host end of the LED board link: pyserial, driven by ``poll(now)`` from the main loop.

Nothing here blocks or raises into the game. The loop calls :meth:`SerialLink.show` whenever
the board should change and :meth:`SerialLink.poll` on every pass with the current monotonic
time; the link opens the port, shakes hands, sends the layout and the board, waits for each
acknowledgement, sends heartbeats, and on any trouble (unplugged, reset, garbage, a silent
board) closes the port and tries again later with exponential back-off. When the board comes
back it gets the whole board again. :attr:`SerialLink.is_up` and :attr:`SerialLink.status`
tell the screen what is going on.

Timing (all injected through ``now``): a message unanswered for ``ack_timeout`` is sent again,
up to ``max_tries`` times; a board silent for three of its heartbeats (at least
``min_silence``) is treated as gone; reconnects wait ``backoff_initial`` doubling up to
``backoff_max``.

A board that never answers HELLO may be sitting at the MicroPython REPL (its program stopped):
after ``max_tries`` HELLOs the link sends :data:`SOFT_RESET` (Ctrl-B leaves the raw REPL,
Ctrl-D soft-reboots from the normal one, which runs ``main.py`` again) before it drops the port
and tries again. It never sends Ctrl-C, which would interrupt a program at the REPL's mercy.

The board's heartbeat says which STATE it shows (``st``); when that is not the one it last
acknowledged, the link sends the board again, so the board always ends on the newest state.
:meth:`SerialLink.goodbye` tells the board the host is shutting down on purpose.
"""

from __future__ import annotations

import select
import time
from collections.abc import Callable

from pegboard import __version__
from pegboard.errors import LinkError
from pegboard.link.board import BoardState
from pegboard.link.delivery import Deliveries, InFlight, kind
from pegboard.link.health import LinkState, LinkStats, LinkTiming
from pegboard.link.layout import LedConfig
from pegboard.link.protocol import (
    PROTOCOL_VERSION,
    Ack,
    Goodbye,
    Heartbeat,
    Hello,
    Message,
    Nak,
    TestPattern,
)
from pegboard.link.usb_port import PICO_VID, Opener, Port, find_board, open_serial
from pegboard.link.wire import MAX_BACKLOG, Wire

__all__ = [
    "MAX_BACKLOG",
    "PICO_VID",
    "SOFT_RESET",
    "LinkState",
    "LinkStats",
    "LinkTiming",
    "Opener",
    "Port",
    "SerialLink",
    "find_board",
    "open_serial",
]

#: Sent after HELLOs go unanswered: Ctrl-B (raw REPL -> normal REPL), Ctrl-D (soft reboot).
#: A running firmware reads both as one bad line and answers NAK.
SOFT_RESET = b"\r\x02\x04"


class SerialLink:
    """A self-healing link to the LED board. Call :meth:`poll` often; it never blocks.

    ``device`` is a path (``/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_...-if00``),
    ``"auto"`` (the first Pico found, or the one with ``serial_number``), or ``""`` (no board:
    the link stays down and says so).
    """

    def __init__(
        self,
        device: str,
        *,
        config: LedConfig | None = None,
        serial_number: str | None = None,
        opener: Opener = open_serial,
        ack_timeout: float = 0.5,
        hello_timeout: float = 0.5,
        max_tries: int = 4,
        min_silence: float = 1.5,
        backoff_initial: float = 0.05,
        backoff_max: float = 0.5,
    ) -> None:
        self.device = device
        self.serial_number = serial_number
        self.config = config or LedConfig()
        self._opener = opener
        self.timing = LinkTiming(ack_timeout, hello_timeout, max_tries, min_silence,
                                 backoff_initial, backoff_max)
        self.stats = LinkStats()
        self.state = LinkState.DOWN
        self.firmware_version: str | None = None
        self.board_protocol: int | None = None
        self.error: LinkError | None = None
        self.heartbeat: Heartbeat | None = None  # the board's latest (uptime, counters)
        self.status = "LED board: starting"
        self.summary = "LEDs: starting"  # at most 16 characters, for the OLED status line
        self._wire: Wire | None = None
        self._backoff = backoff_initial
        self._next_attempt = float("-inf")
        self._seq = 0
        self._board = Deliveries(self.config)
        self._hello_seq: int | None = None
        self._hello_at = 0.0
        self._hello_tries = 0
        self._last_rx = 0.0
        self._last_tx = 0.0
        self.up_since: float | None = None
        if not device and not serial_number:
            self.status = "LED board: none configured"
            self.summary = "LEDs: none"

    # -- what the game wants shown -------------------------------------------------------------

    def show(self, board: BoardState) -> None:
        """Show ``board`` (sent on the next poll unless the board already shows it)."""
        self._board.want["STATE"] = board

    def test_pattern(self, on: bool = True) -> None:
        """Switch the firmware's test pattern on or off."""
        self._board.want["TEST"] = TestPattern(on)

    @property
    def is_up(self) -> bool:
        """True while the board answers and speaks our protocol version."""
        return self.state is LinkState.UP

    @property
    def in_sync(self) -> bool:
        """True when the board has acknowledged everything we want shown."""
        return self.is_up and self._board.settled

    @property
    def shown_seq(self) -> int | None:
        """The sequence number of the STATE the firmware last acknowledged."""
        return self._board.state_seq

    @property
    def shown(self) -> BoardState | None:
        """The board state the firmware last acknowledged."""
        return self._board.shown

    def next_deadline(self, now: float) -> float:
        """When :meth:`poll` should run next: soon while a message awaits its answer, at the
        reconnect time while down, otherwise often enough to read heartbeats."""
        if self._wire is None:
            return max(now, self._next_attempt) if self._next_attempt != float("inf") else now + 60
        if self._wire.outbox or self.state is LinkState.CONNECTING or not self.in_sync:
            return now + 0.01
        return now + min(0.1, self.config.heartbeat_ms / 2000)

    @property
    def port(self) -> Port | None:
        """The open port, if any (diagnostics and tests)."""
        return self._wire.port if self._wire is not None else None

    def fileno(self) -> int | None:
        """The port's file descriptor, for a loop that waits on I/O with select()."""
        fileno = getattr(self.port, "fileno", None)
        return int(fileno()) if fileno is not None else None

    # -- the loop's entry point ----------------------------------------------------------------

    def poll(self, now: float) -> None:
        """Do whatever is due at ``now`` (seconds, monotonic): connect, read, answer, resend."""
        if self._wire is None:
            if now >= self._next_attempt:
                self._connect(now)
            return
        try:
            self._read(now)
            self._timers(now)
            self._flush()
        except LinkError as error:
            self._drop(now, error)
        except (OSError, ValueError) as error:  # pyserial raises SerialException(OSError)
            self._drop(now, LinkError(f"LED board disconnected ({error})"))
        except Exception as error:  # the game must go on whatever the port library does
            self._drop(now, LinkError(f"LED link failed unexpectedly ({error!r})"))

    def goodbye(self, timeout: float = 0.3, clock: Callable[[], float] = time.monotonic) -> bool:
        """Tell an up board the host is shutting down on purpose (it goes dark and shows no
        link-lost); waits at most ``timeout`` seconds for its ACK, on the port's descriptor.
        True if the board acknowledged. Never raises."""
        if self._wire is None or self.state is not LinkState.UP:
            return False
        now = clock()
        seq = self._send(now, Goodbye())
        self._board.inflight = InFlight(seq, Goodbye(), now, self.timing.max_tries)
        deadline = now + timeout
        try:
            while True:
                self._flush()
                self._read(clock())
                if self._board.inflight is None:
                    return True
                if clock() >= deadline or self._wire is None:
                    return False
                fileno = self.fileno()
                if fileno is not None:
                    select.select([fileno], [], [], min(0.02, max(0.0, deadline - clock())))
        except (LinkError, OSError, ValueError):
            return False

    def close(self) -> None:
        """Close the port (the link stays down until the next poll after this)."""
        if self._wire is not None:
            self._wire.close()
        self._wire = None
        self.state = LinkState.DOWN

    # -- connection ----------------------------------------------------------------------------

    def _resolve(self) -> str:
        if self.device and self.device != "auto":
            return self.device
        found = find_board(self.serial_number)
        if found is None:
            wanted = f"serial number {self.serial_number}" if self.serial_number else "a Pico"
            raise LinkError(f"LED board not found: no USB serial device with {wanted}")
        return found

    def _connect(self, now: float) -> None:
        if not self.device and not self.serial_number:
            self._next_attempt = float("inf")
            return
        try:
            path = self._resolve()
            self._wire = Wire(self._opener(path))
        except (LinkError, OSError) as error:
            self._fail(now, error if isinstance(error, LinkError) else LinkError(str(error)))
            return
        self.stats.opened += 1
        self._board.forget()
        self._last_rx = now
        self.state = LinkState.CONNECTING
        self.status = "LED board: connecting"
        self.summary = "LEDs: connecting"
        self._hello_tries = 0
        self._send_hello(now)
        try:
            self._flush()
        except (OSError, ValueError) as error:
            self._drop(now, LinkError(f"LED board disconnected ({error})"))

    def _fail(self, now: float, error: LinkError, summary: str = "LEDs: not found") -> None:
        self.error = error
        self.state = LinkState.DOWN
        self.status = str(error)
        self.summary = summary
        self._next_attempt = now + self._backoff
        self._backoff = min(self._backoff * 2, self.timing.backoff_max)

    def _drop(self, now: float, error: LinkError) -> None:
        self.stats.dropped += 1
        self.up_since = None
        self.close()
        self._fail(now, error, "LEDs: lost")

    # -- sending -------------------------------------------------------------------------------

    def _send(self, now: float, message: Message) -> int:
        seq = self._seq
        self._seq = (self._seq + 1) & 0xFFFF
        assert self._wire is not None
        self._wire.send(seq, message)
        self._last_tx = now
        self.stats.sent += 1
        return seq

    def _send_hello(self, now: float) -> None:
        self._hello_seq = self._send(now, Hello(PROTOCOL_VERSION, app=f"pegboard-{__version__}"))
        self._hello_at = now
        self._hello_tries += 1

    def _flush(self) -> None:
        if self._wire is not None:
            self._wire.flush()

    # -- receiving -----------------------------------------------------------------------------

    def _read(self, now: float) -> None:
        assert self._wire is not None
        messages, bad = self._wire.read()
        self.stats.bad_lines += bad
        for message in messages:
            self._last_rx = now
            self._receive(now, message)

    def _receive(self, now: float, message: Message) -> None:
        if isinstance(message, Hello):
            self._hello(now, message)
        elif isinstance(message, Heartbeat):
            self.heartbeat = message
            if self._board.stale(message):
                self.stats.stale_boards += 1
        elif isinstance(message, Ack):
            if self._board.ack(message):
                self.stats.acked += 1
        elif isinstance(message, Nak):
            self.stats.naks += 1
            refused = self._board.nak(message)
            if refused is not None:
                self.error = refused

    def _hello(self, now: float, hello: Hello) -> None:
        self.firmware_version = hello.firmware
        self.board_protocol = hello.version
        if hello.version != PROTOCOL_VERSION:
            self.state = LinkState.MISMATCH
            self.error = LinkError(
                f"LED board firmware speaks protocol v{hello.version}, this Pegboard speaks "
                f"v{PROTOCOL_VERSION} — reflash it with `pegboard leds flash`"
            )
            self.status = str(self.error)
            self.summary = "LEDs: reflash"
            return
        if self.state is LinkState.UP and hello.ack is not None:
            # The board's answer to a HELLO sent before the link came up (a retry, or one that
            # crossed the board's boot HELLO): the board took it before anything sent since.
            return
        if self.state is LinkState.UP:
            # The board restarted under us (its boot HELLO): it has forgotten everything.
            self.stats.board_restarts += 1
        self._board.forget()
        self.state = LinkState.UP
        self.up_since = now
        self.error = None
        self._backoff = self.timing.backoff_initial
        self.status = f"LED board: connected (firmware {hello.firmware or '?'})"
        self.summary = "LEDs: on"

    # -- time ----------------------------------------------------------------------------------

    def _timers(self, now: float) -> None:
        if self.state is LinkState.CONNECTING or self.state is LinkState.MISMATCH:
            wait = self.timing.hello_timeout if self.state is LinkState.CONNECTING else 5.0
            if now - self._hello_at >= wait:
                tries = self._hello_tries
                if self.state is LinkState.CONNECTING and tries >= self.timing.max_tries:
                    self._soft_reset()
                    raise LinkError("LED board does not answer (no HELLO)")
                self._send_hello(now)
            return
        silence = max(3 * self.config.heartbeat_ms / 1000, self.timing.min_silence)
        if now - self._last_rx > silence:
            raise LinkError(f"LED board went quiet (nothing for {silence:g} s)")
        flight = self._board.inflight
        if flight is not None and now - flight.sent_at >= self.timing.ack_timeout:
            if flight.tries >= self.timing.max_tries:
                raise LinkError(f"LED board does not acknowledge {kind(flight.message)}")
            flight.seq = self._send(now, flight.message)
            flight.sent_at = now
            flight.tries += 1
            self.stats.resent += 1
        elif self._board.superseded():
            wanted = self._board.next()
            if wanted is not None:
                self._board.inflight = InFlight(self._send(now, wanted), wanted, now, 1)
        if now - self._last_tx >= self.config.heartbeat_ms / 1000:
            self._send(now, Heartbeat())

    def _soft_reset(self) -> None:
        # Best effort, straight to the port: the link is about to be dropped anyway.
        if self._wire is not None and self._wire.write_now(SOFT_RESET):
            self.stats.soft_resets += 1
