"""A free TCP port for a server a test starts that cannot take port 0 and say which it got
(mosquitto, a board given its phones' port in its configuration)."""

from __future__ import annotations

import random
import socket
from pathlib import Path


def _ephemeral() -> range:
    """The ports the kernel hands out to outgoing connections and to ``bind(0)``."""
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return range(int(low), int(high) + 1)
    except (OSError, ValueError):
        return range(32768, 61000)


_PICK = random.SystemRandom()
"""Ports picked from the system's randomness: no test's seed makes two workers pick alike."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 nothing listens on now, picked at random outside the kernel's
    ephemeral range: a port handed out by ``bind(0)`` is free only until it is used, and every
    connection any test makes meanwhile (on this worker, another or another run) may be given
    it as its own end, so a server started on it later would find it taken."""
    ephemeral = _ephemeral()
    while True:
        port = _PICK.randrange(10_000, 65_536)
        if port in ephemeral:
            continue
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
