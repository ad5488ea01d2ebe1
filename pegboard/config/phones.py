"""The ``[phones]`` section: phones on the local network holding seats (docs/pairing.md)."""

from __future__ import annotations

from typing import Any, ClassVar

from pegboard.config.values import boolean, int_in, matching, meta
from pegboard.rules.value import Value

_HOST = r"|[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?"
"""A DNS name or an IPv4 address (letters, digits, dots and dashes), or empty."""


class PhonesConfig(Value):
    """Pairing phones to seats: at a new game the board shows each seat's join code and a QR
    code of its join address, ``http://HOST:PORT/``, where the scoreboard (``pegboard web``)
    serves the phone's page. ``host`` empty: the board's own address on the local network,
    found when the codes are shown."""

    __slots__ = ("enabled", "host", "port")
    __match_args__ = ("enabled", "host", "port")

    enabled: bool
    host: str
    port: int

    KEYS: ClassVar[dict[str, dict[str, Any]]] = {
        "enabled": meta(boolean, "true or false"),
        "host": meta(
            matching(_HOST), '"" (the board\'s address) or a DNS name or IPv4 address'),
        "port": meta(int_in(1, 65535), "a port 1-65535"),
    }
    """Each key's check and what it allows (:func:`pegboard.config.values.meta`), in
    the order of the fields."""

    def __init__(self, enabled: bool = False, host: str = "", port: int = 8121) -> None:
        setter = object.__setattr__
        setter(self, "enabled", enabled)
        setter(self, "host", host)
        setter(self, "port", port)
