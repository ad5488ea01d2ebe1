"""``pegboard web``: the live scoreboard, served to browsers on the local network.

A process of its own (``systemd/pegboard-web.service``), so the device's process keeps no
network listener. It reads the store and never writes it; it binds to 127.0.0.1 unless
``--host`` says otherwise. Starlette and uvicorn are imported only when the server starts, so
no other command pays for them. ``--port 0`` takes any free port; the address is printed on
one line once the socket is bound. It answers only requests naming this machine (its host
name, ``<hostname>.local``, its addresses, localhost) or a name given with ``--allow-host``;
the limits it keeps under a hostile network are in :mod:`pegboard.web.server`.
"""

from __future__ import annotations

import argparse
import ipaddress
import socket
from pathlib import Path
from typing import TYPE_CHECKING

from pegboard import lazy
from pegboard.commands import paths
from pegboard.errors import PegboardError
from pegboard.rules.value import Value
from pegboard.store import find_store_path

if TYPE_CHECKING:
    from pegboard.web import server, server_hosts
else:
    server = lazy.module("pegboard.web.server")
    server_hosts = lazy.module("pegboard.web.server_hosts")

DEFAULT_PORT = 8121


class WebError(PegboardError, ValueError):
    """The scoreboard cannot start: a missing store, a bad address, a port in use."""


def register(parser: argparse.ArgumentParser) -> None:
    """The ``web`` command\'s arguments."""
    parser.add_argument(
        "--store", metavar="PATH", type=paths.path_name,
        help="the store directory (default: $PEGBOARD_STORE, the service's state directory, "
        "else ~/.local/share/pegboard)",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", type=host_address,
        help="the address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 or :: "
        "for the network)",
    )
    parser.add_argument("--port", default=DEFAULT_PORT, type=port_number,
                        help=f"the TCP port (default {DEFAULT_PORT}; 0 picks a free one)")
    parser.add_argument("--poll", default=0.05, type=paths.seconds(5), metavar="SECONDS",
                        help="how often the store is looked at (default 0.05)")
    parser.add_argument(
        "--allow-host", action="append", default=[], type=allowed_name, metavar="NAME",
        help="another name the page may be opened by (its host name, NAME.local, its "
        "addresses and localhost always are); repeat for more",
    )
    parser.set_defaults(func=run)


def host_address(text: str) -> str:
    """An IP address to bind to ("localhost" is 127.0.0.1)."""
    if text == "localhost":
        return "127.0.0.1"
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{paths.shown(text)} is not an IP address: give one such as 127.0.0.1, "
            "0.0.0.0 (every IPv4 address) or ::"
        ) from None


@paths.argument_type
def allowed_name(text: str) -> str:
    """A DNS name or IP address a browser may use to reach the board."""
    return server_hosts.host_name(text)


def port_number(text: str) -> int:
    """A TCP port, 0 to 65535."""
    if not (text.isascii() and text.isdigit()) or len(text) > 5 or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(
            f"{paths.shown(text)} is not a port: give a number from 1 to 65535 (0: any free "
            "port)"
        )
    return int(text)


def store_folder(explicit: str | None) -> Path:
    """The store to show; WebError when it is not a readable folder."""
    path = find_store_path(explicit)
    if not path.exists():
        raise WebError(
            f"no game store at {path}: start a game on the Pegboard first, or give the store "
            "folder with --store"
        )
    if not path.is_dir():
        raise WebError(f"the store {path} is not a folder; give the store folder with --store")
    try:
        next(path.iterdir(), None)
    except OSError as error:
        raise WebError(f"cannot read the store {path}: {error.strerror}; run as the user "
                       "that owns it (pegboard)") from None
    return path


class Listening(Value):
    """The phone seats' listening socket (:func:`bind`), and the extra names they answer to
    (``pegboard run`` and ``pegboard sim`` with phones: :mod:`pegboard.commands.phone_seats`)."""

    __slots__ = ("allow", "sock")
    __match_args__ = ("sock", "allow")

    sock: socket.socket
    allow: tuple[str, ...]

    def __init__(self, sock: socket.socket, allow: tuple[str, ...]) -> None:
        setter = object.__setattr__
        setter(self, "sock", sock)
        setter(self, "allow", allow)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket; WebError naming the address when it cannot be had. Made as a
    TCP socket by name (``IPPROTO_TCP``), so that asyncio turns Nagle's algorithm off on
    every connection it accepts (it looks at the protocol number; the server's protocol
    sets ``TCP_NODELAY`` too, :func:`pegboard.web.server_conn.no_delay`)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(64)
    except OSError as error:
        sock.close()
        raise WebError(f"cannot listen on {host} port {port}: {error.strerror}") from None
    return sock


def run(args: argparse.Namespace) -> int:
    """Serve until stopped (Ctrl-C or SIGTERM); 1 if the scoreboard stopped following the
    store (so systemd starts it again)."""
    store = store_folder(args.store)
    sock = bind(args.host, args.port)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    print(f"Pegboard scoreboard on http://{shown}:{port}/ (store {store})", flush=True)
    try:
        return server.serve(store, sock, period=args.poll,
                            hosts=server_hosts.board_names(args.allow_host))
    finally:
        sock.close()
