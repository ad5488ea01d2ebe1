"""The ``--phones`` options of ``pegboard run`` and ``pegboard sim``: phone seats served by
the board's own process (docs/phones.md), off unless asked for.

Asked for by ``--phones PORT`` (on ``--phones-host``, 127.0.0.1 unless told), or by
``[phones] enabled`` in the configuration: then on ``[phones] port`` on every address (the
join address the QR codes hold is the board's on the local network), answering to
``[phones] host`` too. Pairing (the join codes on the board) is on exactly when the server
listens: a port that cannot be had under ``--phones`` is the command's error; under
``[phones] enabled`` it is said (the journal, the simulator's notices) and the board plays
on without phones, showing no code no server would answer.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pegboard import lazy
from pegboard.commands.options import Option
from pegboard.errors import PegboardError

if TYPE_CHECKING:
    import argparse

    # The configuration's section and the socket are names for the type checker only: the
    # arguments are parsed before the configuration is read (the simulator draws its first
    # frame between), and the socket is made by the scoreboard's command, loaded with phones.
    from pegboard.commands import web as web_command
    from pegboard.commands.web import Listening
    from pegboard.config.phones import PhonesConfig
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


OPTIONS = (
    Option("--phones", "serve phone seats (and the scoreboard) on this TCP port (off by "
           "default; 0 picks a free one)", metavar="PORT", convert=port_number),
    Option("--phones-host", "the address the phone seats listen on (default 127.0.0.1; "
           "0.0.0.0 or :: for the network)", metavar="ADDRESS", convert=host_address),
    Option("--allow-host", "another name the phones may reach the board by; repeat for more",
           metavar="NAME", convert=allowed_name, repeated=True),
)
"""``--phones PORT``, ``--phones-host ADDRESS`` and ``--allow-host NAME``; their checks load
the scoreboard's command only when one of them is given."""


ANY_ADDRESS = "0.0.0.0"
"""Where ``[phones] enabled`` listens: every address (phones are on the local network)."""


def listen(args: argparse.Namespace, config: PhonesConfig,
           warn: Callable[[str], None]) -> Listening | None:
    """The socket the phone seats will be served on (see the module doc), or None: phones
    off, or ``[phones] enabled`` and its port cannot be had (``warn`` is told why)."""
    if args.phones is not None:
        sock = web_command.bind(args.phones_host or "127.0.0.1", args.phones)
        return web_command.Listening(sock, tuple(args.allow_host))
    if not config.enabled:
        return None
    host = args.phones_host or ANY_ADDRESS
    allow = (*args.allow_host, *((allowed_name(config.host),) if config.host else ()))
    try:
        sock = web_command.bind(host, config.port)
    except PegboardError as error:
        warn(f"phones: [phones] is enabled, but {error}: no join codes are shown and the "
             "board plays on without phones (free the port, or set [phones] port)")
        return None
    return web_command.Listening(sock, allow)


def start(listening: Listening | None, loop: Any, store: Any) -> PhoneServer | None:
    """The phone server for ``loop`` and ``store`` on the socket :func:`listen` opened."""
    if listening is None:
        return None
    server = phones.serve_phones(loop, store, listening.sock, allow=listening.allow)
    host, port = server.address
    log.info("phone seats on http://%s:%d/phone", host, port)
    return server
