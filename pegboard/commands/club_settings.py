"""Where ``pegboard club publish`` and ``club serve`` take their broker, board and
credentials from: each from its option when given, else from the config file's ``[club]``
(``--config FILE``, by default the device's ``/etc/pegboard/config.toml`` when it exists),
else the default (docs/club.md, "Settings").

``club publish`` run from the config alone (no ``--board`` or ``--broker``) needs
``club.enabled = true``: a board that is not a club board publishes nothing. ``club serve``
takes the broker from the file and its own credentials (``club.serve_user``,
``club.serve_password_file``), never the board's (``club.user``, ``club.password_file``: a
host that is also a board must not run its standings service as the board), nor the club
(its ``--club`` is ``+``, every club, unless given).
"""

from __future__ import annotations

import argparse
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING

from pegboard.club.topics import broker_address
from pegboard.config import load_config
from pegboard.errors import ClubError
from pegboard.rules.value import Value

if TYPE_CHECKING:
    from pegboard.config import ClubConfig

DEFAULT_CONFIG = "/etc/pegboard/config.toml"


class ClubSettings(Value):
    """What a club command connects with."""

    __slots__ = ("board", "broker", "ca_file", "club", "password", "username")
    __match_args__ = ("broker", "club", "board", "username", "password", "ca_file")

    broker: tuple[str, int]
    club: str
    board: str
    username: str | None
    password: str | None
    ca_file: Path | None
    """The club's certificate authority: connect with TLS and trust only a broker it signed
    (None: no TLS, allowed only without a user)."""

    def __init__(
        self,
        broker: tuple[str, int],
        club: str,
        board: str,
        username: str | None,
        password: str | None,
        ca_file: Path | None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "broker", broker)
        setter(self, "club", club)
        setter(self, "board", board)
        setter(self, "username", username)
        setter(self, "password", password)
        setter(self, "ca_file", ca_file)


def _source(args: argparse.Namespace) -> str:
    return str(args.config) if args.config else DEFAULT_CONFIG


def settings(args: argparse.Namespace, *, publish: bool) -> ClubSettings:
    """The settings of ``club publish`` (``publish``) or ``club serve``: options first,
    then ``[club]``; ClubError naming the option and the key when one is missing."""
    club = load_config(args.config).club
    where = _source(args)
    if publish and (args.board is None or args.broker is None) and not club.enabled:
        raise ClubError(f"{where}: club.enabled is false and no --board and --broker given; "
                        "set club.enabled = true with club.board and club.broker, or give "
                        "the options")
    broker = args.broker
    if broker is None:
        if not club.broker:
            raise ClubError(f"no broker: give --broker HOST:PORT or club.broker in {where}")
        broker = broker_address(club.broker)
    board = ""
    if publish:
        board = args.board or club.board
        if not board:
            raise ClubError(f"no board id: give --board ID or club.board in {where}")
    name = args.club if args.club is not None else club.club if publish else "+"
    user = club.user if publish else club.serve_user
    username = args.user if args.user is not None else user or None
    password = _password(args, club, where, publish=publish)
    ca_file = (Path(args.cafile) if args.cafile is not None
               else Path(club.ca_file) if club.ca_file else None)
    if username is not None and ca_file is None:
        raise ClubError(f"the user {username} would send its password in clear: give the "
                        f"club's certificate authority (club setup's ca.crt) with --cafile "
                        f"FILE or club.ca_file in {where}")
    if ca_file is not None:
        _check_ca(ca_file, "the certificate authority" if args.cafile is not None
                  else f"club.ca_file in {where}")
    return ClubSettings(broker, name, board, username, password, ca_file)


MAX_CA = 64 * 1024
"""The most bytes a certificate authority file is read for (one or a few PEM
certificates)."""


def _check_ca(path: Path, named: str) -> None:
    """``path`` is a readable regular file of at most :data:`MAX_CA` bytes holding a PEM
    certificate (paho reads it again to verify the broker; this names the problem first)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            regular = stat.S_ISREG(os.fstat(fd).st_mode)
            data = os.read(fd, MAX_CA + 1) if regular else b""
        finally:
            os.close(fd)
    except OSError as error:
        raise ClubError(f"cannot read {named} {path}: {error}") from None
    if not regular or len(data) > MAX_CA or b"-----BEGIN CERTIFICATE-----" not in data:
        raise ClubError(f"{named} {path} is not a PEM certificate of at "
                        f"most {MAX_CA // 1024} KiB: give club setup's ca.crt")


def _password(args: argparse.Namespace, club: ClubConfig, where: str, *,
              publish: bool) -> str | None:
    """The password from ``--password-file``, else ``club.password_file`` (publish) or
    ``club.serve_password_file`` (serve); None for none."""
    key, file = ("password_file", club.password_file) if publish else (
        "serve_password_file", club.serve_password_file)
    if args.password_file is not None:
        path, named = Path(args.password_file), "the password file"
    elif file:
        path, named = Path(file), f"club.{key} in {where}"
    else:
        return None
    return _read_password(path, named)


MAX_PASSWORD = 4096
"""The most bytes a password file is read for (it holds one password and a line end)."""


def _read_password(path: Path, named: str) -> str:
    """The one password in ``path``: a regular file (a FIFO would wait for a writer, a
    device never end), not empty, at most :data:`MAX_PASSWORD` bytes of UTF-8."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            regular = stat.S_ISREG(os.fstat(fd).st_mode)
            data = os.read(fd, MAX_PASSWORD + 1) if regular else b""
        finally:
            os.close(fd)
        text = data.decode("utf-8").strip()
    except (OSError, UnicodeDecodeError) as error:
        raise ClubError(f"cannot read {named} {path}: {error}") from None
    if not regular:
        raise ClubError(f"{named} {path} is not a file: it holds the password")
    if len(data) > MAX_PASSWORD:
        raise ClubError(f"{named} {path} is longer than {MAX_PASSWORD} bytes: it holds one "
                        "password")
    if not text:
        raise ClubError(f"{named} {path} is empty: it holds the password (club setup "
                        "writes one for each board and the standings service)")
    return text
