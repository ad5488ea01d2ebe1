"""The ``Host`` names the scoreboard answers to: its own, and no one else's.

A page on another site can point its own name at the board's address (DNS rebinding) and then
read the game as if it were that site. The browser still sends that site's name in ``Host``,
so the board answers only requests naming it: its host name, ``<hostname>.local`` (mDNS),
``localhost``, the address the request came in on, the loopback addresses, and any extra name
given with ``pegboard web --allow-host``. A request naming anything else is refused with 421
(Misdirected Request); a missing, repeated or malformed ``Host`` with 400.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

from pegboard.web.page import error_page

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_NAME = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*")
_HOST = re.compile(r"(?P<name>\[[0-9a-f:.]{2,45}\]|[a-z0-9.-]{1,253})(:(?P<port>[0-9]{1,5}))?")
_LOOPBACK = frozenset({"127.0.0.1", "::1"})


class HostNameError(ValueError):
    """An extra host name that no ``Host`` header could carry."""


def host_name(text: str) -> str:
    """``text`` as a name to answer to (lower case, no trailing dot); HostNameError naming it
    when it is not a DNS name or an IP address."""
    name = text.strip().lower().rstrip(".")
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    try:
        return str(ipaddress.ip_address(name))
    except ValueError:
        pass
    if len(name) > 253 or not _NAME.fullmatch(name):
        raise HostNameError(f"{text[:80]!r} is not a host name: give a name such as "
                            "scoreboard.lan or an address such as 192.168.1.20")
    return name


def board_names(extra: Iterable[str] = ()) -> frozenset[str]:
    """The names this machine answers to: its host name (and the first label of it), each
    with ``.local``, ``localhost``, and ``extra`` (already checked by :func:`host_name`)."""
    names = {"localhost", *_LOOPBACK, *extra}
    try:
        full = host_name(socket.gethostname())
    except HostNameError:
        return frozenset(names)  # a host name no browser can send: the addresses still work
    short = full.split(".")[0]
    names.update((full, short, f"{short}.local"))
    if not full.endswith(".local"):
        names.add(f"{full}.local")
    return frozenset(names)


def parse_host(value: bytes) -> str | None:
    """The name in a ``Host`` header value (lower case, no port, no brackets, no trailing
    dot); None when the value is not ``name[:port]`` or ``[IPv6][:port]``."""
    try:
        text = value.decode("ascii").strip().lower()
    except UnicodeDecodeError:
        return None
    found = _HOST.fullmatch(text)
    if found is None:
        return None
    name = found.group("name")
    if name.startswith("["):
        try:
            return str(ipaddress.IPv6Address(name[1:-1]))
        except ValueError:
            return None
    return name.rstrip(".")


def _local_address(scope: Scope) -> str | None:
    server = scope.get("server")
    if not server:
        return None
    try:
        address = ipaddress.ip_address(str(server[0]).split("%")[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)  # an IPv4 visitor of a server listening on ::
    return str(address)


class HostCheck:
    """ASGI middleware answering only requests whose ``Host`` is one of ``names`` or the
    address the request came in on (see the module doc)."""

    def __init__(self, app: ASGIApp, names: Iterable[str]) -> None:
        self.app = app
        self.names = frozenset(names)
        self.shown = ", ".join(sorted(n for n in self.names if not n[0].isdigit()
                                      and ":" not in n))

    def allowed(self, scope: Scope) -> tuple[int, str] | None:
        """None when ``scope`` may be answered, else the status and the reason."""
        hosts = [value for key, value in scope.get("headers", ()) if key.lower() == b"host"]
        if len(hosts) != 1:
            return 400, "A request to the scoreboard needs exactly one Host header."
        name = parse_host(hosts[0])
        if name is None:
            return 400, "The request's Host header is not a host name or an address."
        if name in self.names or name in _LOOPBACK or name == _local_address(scope):
            return None
        return 421, (f"This scoreboard answers to its own names ({self.shown}) and "
                     "addresses only.")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = self.allowed(scope)
        if refused is None:
            await self.app(scope, receive, send)
            return
        status, reason = refused
        body = error_page("Wrong address", reason).encode()
        await send({"type": "http.response.start", "status": status, "headers": [
            (b"content-type", b"text/html; charset=utf-8"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]})
        await send({"type": "http.response.body", "body": body})
