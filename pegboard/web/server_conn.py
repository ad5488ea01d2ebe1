"""Each connection to the scoreboard, held to a deadline and to a share of the server.

One connection policy for both HTTP servers, the LAN scoreboard (``pegboard web``) and the
club's standings (``pegboard club serve``); docs/security.md states it.

uvicorn's h11 protocol waits for a request for as long as the client keeps the connection
open (its keep-alive timer stops at the first byte received), and accepts every connection
it is given. :class:`GuardedH11` is that protocol with these rules added, all in the event
loop and none costing a thread:

* **deadline**: a request must be whole (head and body) within ``request_s`` seconds of the
  connection opening or of the previous answer ending; otherwise the connection is closed.
* **per address**: one client address holds at most ``per_client`` connections; a connection
  over that is closed at once.
* **in total**: at most ``connections`` are held. When full, the oldest connection still
  waiting for its request is dropped to make room (a real browser sends its request within
  milliseconds of connecting, so only a connection that has sent nothing useful loses its
  place); when every connection is busy answering (event streams, answers a client does not
  read, requests pipelined without end), the busiest address gives way: its oldest
  connection is dropped, as long as it holds at least two more than the newcomer's address.
  Only when every address holds about as many as the newcomer's is the new one closed;
* **requests per connection**: a keep-alive connection is closed after
  ``requests_per_connection`` answers (a browser opens another; a client pipelining
  requests without end holds one place for only so long);
* **event streams** (:class:`StreamCap`, around the application): at most ``streams`` in
  all and ``streams_per_client`` from one address; over either, the stream says when to come
  back (``retry``) and ends, which a browser's EventSource takes as "reconnect later".

A request larger than ``head_bytes`` before it is whole is answered 431 and closed (h11
limits only what it must buffer, not a head that arrives in one read). uvicorn's own 400 for
a request h11 cannot parse carries the board's security headers too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import STATUS_PHRASES, H11Protocol

from pegboard.rules.value import Value
from pegboard.web.app import SECURITY_HEADERS

log = logging.getLogger("pegboard.web")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class Limits(Value):
    """What one scoreboard process gives its clients."""

    __slots__ = (
        "connections",
        "head_bytes",
        "per_client",
        "request_s",
        "requests_per_connection",
        "reserve",
        "streams",
        "streams_per_client",
    )
    __match_args__ = ("request_s", "connections", "per_client", "reserve", "head_bytes", "streams",
                      "streams_per_client", "requests_per_connection")

    request_s: float
    """Seconds a client has to send a whole request."""
    connections: int
    """Connections held at once, in total."""
    per_client: int
    """Connections held at once from one address (a browser opens at most six)."""
    reserve: int
    """File descriptors kept for everything but connections: the store, the index, the
    event loop, Python's own files."""
    head_bytes: int
    """The longest request head (request line and headers) read."""
    streams: int
    """Event streams open at once, in total (half the connections at most)."""
    streams_per_client: int
    """Event streams open at once from one address (a phone or a screen needs one)."""
    requests_per_connection: int
    """Answers on one keep-alive connection before it is closed."""

    def __init__(
        self,
        request_s: float = 5.0,
        connections: int = 512,
        per_client: int = 32,
        reserve: int = 96,
        head_bytes: int = 8192,
        streams: int = 256,
        streams_per_client: int = 8,
        requests_per_connection: int = 100,
    ) -> None:
        setter = object.__setattr__
        setter(self, "request_s", request_s)
        setter(self, "connections", connections)
        setter(self, "per_client", per_client)
        setter(self, "reserve", reserve)
        setter(self, "head_bytes", head_bytes)
        setter(self, "streams", streams)
        setter(self, "streams_per_client", streams_per_client)
        setter(self, "requests_per_connection", requests_per_connection)

    def fitted(self, descriptors: int) -> Limits:
        """These limits within ``descriptors`` open files (the process's soft limit): the
        total cap leaves :attr:`reserve` descriptors free, no address gets more than a
        quarter of what is left, and streams take at most half of it."""
        total = max(8, min(self.connections, descriptors - self.reserve))
        per_client = max(1, min(self.per_client, total // 4))
        return Limits(self.request_s, total, per_client, self.reserve, self.head_bytes,
                      max(1, min(self.streams, total // 2)),
                      max(1, min(self.streams_per_client, per_client)),
                      self.requests_per_connection)


class Guard:
    """The connections one server holds: in total, per address, and those still waiting
    for their request (oldest first)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.held: set[GuardedH11] = set()
        self.waiting: OrderedDict[GuardedH11, None] = OrderedDict()
        self.per_client: Counter[str] = Counter()
        self.by_client: dict[str, OrderedDict[GuardedH11, None]] = {}
        self.streams: Counter[str] = Counter()
        self.refused = 0
        self.dropped = 0
        self.busy_streams = 0

    def admit(self, connection: GuardedH11) -> bool:
        """Take ``connection`` on (True), making room if needed; False to close it."""
        address = connection.address
        if self.per_client[address] >= self.limits.per_client:
            self.refused += 1
            log.warning("refusing connections from one address over its share of %d "
                        "(%d refused so far)", self.limits.per_client, self.refused)
            return False
        if len(self.held) >= self.limits.connections:
            victim = self._room_for(address)
            if victim is None:
                self.refused += 1
                log.warning("refusing connections: all %d are answering, none from an "
                            "address holding more than its share (%d refused so far)",
                            self.limits.connections, self.refused)
                return False
            self.dropped += 1
            self.left(victim)
            victim.drop()
        self.held.add(connection)
        self.per_client[address] += 1
        self.by_client.setdefault(address, OrderedDict())[connection] = None
        self.waiting[connection] = None
        return True

    def _room_for(self, address: str) -> GuardedH11 | None:
        """The connection that gives way to a newcomer from ``address``: the oldest one
        still waiting for its request, else the oldest of the address holding the most
        (if it holds at least two more than ``address``); None when none should."""
        if self.waiting:
            log.warning("dropping the oldest connection still waiting for its request to "
                        "make room (%d dropped so far)", self.dropped + 1)
            return next(iter(self.waiting))
        busiest, most = max(self.per_client.items(), key=lambda item: item[1])
        if most < self.per_client[address] + 2:
            return None
        log.warning("dropping the oldest connection of the address holding the most to "
                    "make room (%d dropped so far)", self.dropped + 1)
        return next(iter(self.by_client[busiest]))

    def open_stream(self, address: str) -> bool:
        """An event stream from ``address`` may start (True, counted until
        :meth:`close_stream`), or it is over a cap (False)."""
        if (self.streams.total() >= self.limits.streams
                or self.streams[address] >= self.limits.streams_per_client):
            self.busy_streams += 1
            log.warning("telling event streams to come back later: over %d in all or %d "
                        "from one address (%d told so far)", self.limits.streams,
                        self.limits.streams_per_client, self.busy_streams)
            return False
        self.streams[address] += 1
        return True

    def close_stream(self, address: str) -> None:
        """An event stream from ``address`` ended."""
        self.streams[address] -= 1
        if self.streams[address] <= 0:
            del self.streams[address]

    def answering(self, connection: GuardedH11) -> None:
        """``connection`` sent a whole request: it may not be dropped for room."""
        self.waiting.pop(connection, None)

    def idle(self, connection: GuardedH11) -> None:
        """``connection`` was answered and waits for another request."""
        if connection in self.held:
            self.waiting[connection] = None

    def left(self, connection: GuardedH11) -> None:
        """``connection`` closed."""
        self.waiting.pop(connection, None)
        if connection in self.held:
            self.held.discard(connection)
            address = connection.address
            self.per_client[address] -= 1
            own = self.by_client.get(address)
            if own is not None:
                own.pop(connection, None)
            if self.per_client[address] <= 0:
                del self.per_client[address]
                self.by_client.pop(address, None)


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol under the rules in the module doc (the class made by
    :func:`guarded_protocol` carries the guard)."""

    guard: Guard

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.address = ""
        self._deadline: asyncio.TimerHandle | None = None
        self._received = 0  # bytes of the request not yet whole
        self._answered = 0  # answers sent on this connection

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        no_delay(transport)
        super().connection_made(transport)
        self.address = self.client[0] if self.client else ""
        if not self.guard.admit(self):
            transport.abort()
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self.guard.left(self)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._deadline is not None:  # still waiting for a whole request
            self._received += len(data)
            if self._received > self.guard.limits.head_bytes:
                self._disarm()
                self.transport.write(_too_large(self.guard.limits.head_bytes))
                self.transport.close()
                return
        super().data_received(data)

    def handle_events(self) -> None:
        super().handle_events()
        cycle = self.cycle
        if cycle is not None and not cycle.more_body and not cycle.response_complete:
            self._disarm()  # a whole request: the answer may take as long as it needs
            self.guard.answering(self)

    def on_response_complete(self) -> None:
        self._answered += 1
        if self._answered >= self.guard.limits.requests_per_connection:
            self._disarm()
            self.transport.close()  # after what is written; uvicorn then starts nothing
        if not self.transport.is_closing():
            self._arm()
            self.guard.idle(self)
        super().on_response_complete()  # may start a request already sent (pipelined)

    def drop(self) -> None:
        """Close at once (made room for a newer connection, or out of time)."""
        self._disarm()
        self.transport.abort()

    def _arm(self) -> None:
        self._disarm()
        self._received = 0
        self._deadline = self.loop.call_later(self.guard.limits.request_s, self.drop)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to a request that is not HTTP, with the security headers."""
        headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close"),
                   *SECURITY_HEADERS]
        try:
            for event in (h11.Response(status_code=400, headers=headers,
                                       reason=STATUS_PHRASES[400]),
                          h11.Data(data=msg.encode("ascii")), h11.EndOfMessage()):
                self.transport.write(self.conn.send(event))
        except h11.LocalProtocolError:
            pass  # an answer was already under way: closing is all that is left
        self.transport.close()


def no_delay(transport: asyncio.BaseTransport) -> None:
    """Turn Nagle's algorithm off on ``transport``'s TCP socket: an answer is written in
    pieces (head, body), and with Nagle on, the last piece of each keep-alive answer waits
    for the client's delayed acknowledgement (about 40 ms on Linux). asyncio does this only
    for a socket made with ``IPPROTO_TCP`` as its protocol; this does it for any."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):  # closed already: nothing to answer on
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def _too_large(most: int) -> bytes:
    body = f"A request to the scoreboard is at most {most} bytes.".encode()
    head = [b"HTTP/1.1 431 Request Header Fields Too Large",
            b"content-type: text/plain; charset=utf-8",
            b"content-length: " + str(len(body)).encode(), b"connection: close",
            *(name + b": " + value for name, value in SECURITY_HEADERS)]
    return b"\r\n".join(head) + b"\r\n\r\n" + body


STREAM_PATHS = frozenset({"/events"})
"""The paths of both servers' event streams."""
BUSY_RETRY_MS = 5000
"""When a stream told to come back (over a cap) is opened again by the browser."""


class StreamCap:
    """The ASGI application ``app`` with its event streams (GET on :data:`STREAM_PATHS`)
    counted by ``guard``: over a cap, the stream is answered here with only when to come
    back (``retry``) and ends, without reaching ``app``."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope.get("type") != "http" or scope.get("path") not in STREAM_PATHS
                or scope.get("method") != "GET"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = str(client[0]) if client else ""
        if not self.guard.open_stream(address):
            body = f"retry: {BUSY_RETRY_MS}\n: busy\n\n".encode()
            await send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"text/event-stream; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"), *SECURITY_HEADERS]})
            await send({"type": "http.response.body", "body": body})
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.guard.close_stream(address)


def guarded_protocol(limits: Limits) -> tuple[type[GuardedH11], Guard]:
    """A protocol class for uvicorn's ``Config(http=...)`` sharing one new guard."""
    guard = Guard(limits)
    return type("ScoreboardH11", (GuardedH11,), {"guard": guard}), guard
