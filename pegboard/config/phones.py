"""The ``[phones]`` section: phones on the local network holding seats (docs/pairing.md)."""

from __future__ import annotations

from dataclasses import dataclass, field

from pegboard.config.values import boolean, int_in, matching, meta

_HOST = r"|[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?"
"""A DNS name or an IPv4 address (letters, digits, dots and dashes), or empty."""


@dataclass(frozen=True)
class PhonesConfig:
    """Pairing phones to seats: at a new game the board shows each seat's join code and a QR
    code of its join address, ``http://HOST:PORT/``, where the scoreboard (``pegboard web``)
    serves the phone's page. ``host`` empty: the board's own address on the local network,
    found when the codes are shown."""

    enabled: bool = field(default=False, metadata=meta(boolean, "true or false"))
    host: str = field(default="", metadata=meta(
        matching(_HOST), '"" (the board\'s address) or a DNS name or IPv4 address'))
    port: int = field(default=8121, metadata=meta(int_in(1, 65535), "a port 1-65535"))
