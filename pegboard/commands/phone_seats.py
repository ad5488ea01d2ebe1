"""The ``--phones`` options of ``pegboard run`` and ``pegboard sim``: phone seats served by
the board's own process (docs/phones.md), off unless asked for."""

from __future__ import annotations

import argparse
import logging
from typing import TYPE_CHECKING, Any

from pegboard import lazy

if TYPE_CHECKING:
    from pegboard.commands import web as web_command
    from pegboard.device import phones
    from pegboard.web.phone_server import PhoneServer
else:
    phones = lazy.module("pegboard.device.phones")
    web_command = lazy.module("pegboard.commands.web")

log = logging.getLogger("pegboard.phones")


def port_number(text: str) -> int:
    """A TCP port (:func:`pegboard.commands.web.port_number`)."""
    return web_command.port_number(text)


def host_address(text: str) -> str:
    """An IP address to listen on (:func:`pegboard.commands.web.host_address`)."""
    return web_command.host_address(text)


def allowed_name(text: str) -> str:
    """A name the board may be reached by (:func:`pegboard.commands.web.allowed_name`)."""
    return web_command.allowed_name(text)


def register(parser: argparse.ArgumentParser) -> None:
    """Add ``--phones PORT``, ``--phones-host ADDRESS`` and ``--allow-host NAME``; the
    checks load the scoreboard's command only when one of them is given."""
    parser.add_argument(
        "--phones", metavar="PORT", type=port_number, default=None,
        help="serve phone seats (and the scoreboard) on this TCP port (off by default; 0 "
        "picks a free one)")
    parser.add_argument(
        "--phones-host", metavar="ADDRESS", default=None,
        type=host_address,
        help="the address the phone seats listen on (default 127.0.0.1; 0.0.0.0 or :: for "
        "the network)")
    parser.add_argument(
        "--allow-host", action="append", default=[], type=allowed_name,
        metavar="NAME", help="another name the phones may reach the board by; repeat for more")


def start(args: argparse.Namespace, loop: Any, store: Any) -> PhoneServer | None:
    """The phone server for ``loop`` and ``store`` when ``--phones`` asked for one."""
    if args.phones is None:
        return None
    sock = web_command.bind(args.phones_host or "127.0.0.1", args.phones)
    server = phones.serve_phones(loop, store, sock, allow=args.allow_host)
    host, port = server.address
    log.info("phone seats on http://%s:%d/phone", host, port)
    return server
