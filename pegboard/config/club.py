"""``[club]``: the board's place in a club night and its club's broker (docs/club.md).

The device writes a club game's header from it (night, table, the tournament lock; the round,
the guest seat and the members chosen at setup: :mod:`pegboard.app.club_setup`), and
``pegboard club publish --config`` publishes the board's results with its broker, board id
and credentials (``user``, ``password_file``), over TLS verified by the club's certificate
authority (``ca_file``, club setup's ``ca.crt``; shared by the board and the service).
``pegboard club serve --config`` reads the broker from the same file but its own identity
from ``serve_user`` and ``serve_password_file``, never the board's: on a host that is also a
board the standings service does not connect as the board (the broker's ACL lets a board
publish and the service only read). A command's own options win over the file.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from pegboard.config.values import Invalid, absolute_path, boolean, int_in, matching, meta
from pegboard.rules.value import Value

_ID = r"[A-Za-z0-9_-]{1,32}"
_club_id = matching(_ID)
_HOST_PORT = r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]{1,253})(:[0-9]{1,5})?"


def _optional_id(value: Any) -> str:
    """``""`` (not set) or an id of 1 to 32 letters, digits, ``-`` or ``_``."""
    return "" if value == "" else _club_id(value)


def _broker(value: Any) -> str:
    """``""`` (not set), ``HOST`` or ``HOST:PORT`` (a port from 1 to 65535)."""
    if value == "":
        return ""
    if not isinstance(value, str) or not re.fullmatch(_HOST_PORT, value):
        raise Invalid
    port = value.rpartition(":")[2] if not value.endswith("]") else ""
    if port.isdigit() and not 0 < int(port) < 65536:
        raise Invalid
    return value


class ClubConfig(Value):
    """The board's club: off by default (``enabled``)."""

    __slots__ = (
        "board",
        "broker",
        "ca_file",
        "club",
        "enabled",
        "lock",
        "night",
        "password_file",
        "serve_password_file",
        "serve_user",
        "status_file",
        "table",
        "user",
    )
    __match_args__ = ("enabled", "club", "board", "broker", "user", "password_file", "serve_user",
                      "serve_password_file", "ca_file", "status_file", "night", "table", "lock")

    enabled: bool
    club: str
    board: str
    broker: str
    user: str
    password_file: str
    serve_user: str
    serve_password_file: str
    ca_file: str
    status_file: str
    night: int
    table: int
    lock: bool

    KEYS: ClassVar[dict[str, dict[str, Any]]] = {
        "enabled": meta(boolean, "true or false"),
        "club": meta(
            _club_id, "the club's id: 1 to 32 letters, digits, - or _"),
        "board": meta(
            _optional_id, '"" or this board\'s id: 1 to 32 letters, digits, - or _'),
        "broker": meta(
            _broker, '"" or the broker as HOST or HOST:PORT, e.g. "192.168.1.10:8883"'),
        "user": meta(
            _optional_id, '"" (no authentication) or the MQTT user: 1 to 32 letters, digits, '
            "- or _"),
        "password_file": meta(
            absolute_path, '"" or the absolute path of a file holding the MQTT password'),
        "serve_user": meta(
            _optional_id, '"" (no authentication) or the standings service\'s MQTT user: 1 to 32 '
            "letters, digits, - or _"),
        "serve_password_file": meta(
            absolute_path, '"" or the absolute path of a file holding the standings service\'s '
            "MQTT password"),
        "ca_file": meta(
            absolute_path, '"" (no TLS) or the absolute path of the club\'s certificate authority '
            "(club setup's ca.crt): the broker is reached with TLS and must be signed by it"),
        "status_file": meta(
            absolute_path, '"" (pegboard-club.service\'s: /var/lib/pegboard-club/club-status.json) '
            "or the absolute path of the club publisher's status file (club publish writes it "
            "beside its --acked file): the board shows what the broker refused"),
        "night": meta(int_in(1, 9999), "a whole number 1-9999"),
        "table": meta(int_in(1, 9999), "a whole number 1-9999"),
        "lock": meta(boolean, "true or false"),
    }
    """Each key's check and what it allows (:func:`pegboard.config.values.meta`), in
    the order of the fields."""

    def __init__(
        self,
        enabled: bool = False,
        club: str = "club",
        board: str = "",
        broker: str = "",
        user: str = "",
        password_file: str = "",
        serve_user: str = "",
        serve_password_file: str = "",
        ca_file: str = "",
        status_file: str = "",
        night: int = 1,
        table: int = 1,
        lock: bool = False,
    ) -> None:
        setter = object.__setattr__
        setter(self, "enabled", enabled)
        setter(self, "club", club)
        setter(self, "board", board)
        setter(self, "broker", broker)
        setter(self, "user", user)
        setter(self, "password_file", password_file)
        setter(self, "serve_user", serve_user)
        setter(self, "serve_password_file", serve_password_file)
        setter(self, "ca_file", ca_file)
        setter(self, "status_file", status_file)
        setter(self, "night", night)
        setter(self, "table", table)
        setter(self, "lock", lock)

    def problem(self) -> str | None:
        """A club board needs its id and its broker; a password needs a user, and a user the
        club's certificate authority (a password never crosses the network in clear); the lock
        is a club board's (on any other board it would be silently ignored: no game locked)."""
        if self.lock and not self.enabled:
            return ("club.lock = true but club.enabled = false; allowed: the tournament lock "
                    "on a club board (enabled = true, with its board and broker)")
        needs = (
            (self.enabled and not self.board, "club.enabled = true", "club.board",
             'this board\'s id, e.g. board = "board-7"'),
            (self.enabled and not self.broker, "club.enabled = true", "club.broker",
             'the club\'s broker, e.g. broker = "192.168.1.10:8883"'),
            (bool(self.password_file and not self.user), "club.password_file is set",
             "club.user", "the MQTT user the password belongs to"),
            (bool(self.serve_password_file and not self.serve_user),
             "club.serve_password_file is set", "club.serve_user",
             "the standings service's MQTT user the password belongs to"),
            (bool((self.user or self.serve_user) and not self.ca_file),
             "club.user is set" if self.user else "club.serve_user is set", "club.ca_file",
             "the club's certificate authority (club setup's ca.crt), e.g. "
             'ca_file = "/etc/pegboard/club-ca.crt": a password is sent only over TLS'),
        )
        return next((f'{given} but {key} = ""; allowed: {allowed}'
                     for missing, given, key, allowed in needs if missing), None)
