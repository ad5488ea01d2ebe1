"""Talking to systemd: readiness, status, stopping and the watchdog (the sd_notify protocol).

systemd passes a Unix datagram socket in ``$NOTIFY_SOCKET`` to a ``Type=notify`` service; each
datagram is newline-separated ``KEY=VALUE`` text. A path starting with ``@`` names a socket in
the abstract namespace. Outside systemd the variable is unset and every call here does nothing
(and says so by returning False), so the same loop runs on a desktop.

The watchdog (``WatchdogSec=`` in the unit) must be pinged from the main loop itself — a
helper thread would keep pinging while the loop is stuck, which defeats it::

    watchdog = Watchdog.from_environ()
    ready()                                   # after the hardware is set up
    while running:
        ...one turn of the loop...
        watchdog.tick(clock.now())           # pings at half the interval
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping


def notify(message: str, *, environ: Mapping[str, str] | None = None) -> bool:
    """Send ``message`` to the service manager; False when not running under systemd."""
    env = os.environ if environ is None else environ
    address = env.get("NOTIFY_SOCKET", "")
    if not address or not (address.startswith("/") or address.startswith("@")):
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
        try:
            sock.connect(address)
            sock.sendall(message.encode("utf-8"))
        except OSError:
            # systemd gone or the socket not reachable: nothing useful to do about it here,
            # and the game must carry on regardless.
            return False
    return True


def ready(*, environ: Mapping[str, str] | None = None) -> bool:
    """Tell systemd the service is up (send after the hardware is initialised)."""
    return notify("READY=1", environ=environ)


def stopping(*, environ: Mapping[str, str] | None = None) -> bool:
    """Tell systemd a clean shutdown has begun."""
    return notify("STOPPING=1", environ=environ)


def status(text: str, *, environ: Mapping[str, str] | None = None) -> bool:
    """Set the one-line status ``systemctl status pegboard`` shows."""
    return notify("STATUS=" + " ".join(text.split()), environ=environ)


def watchdog(*, environ: Mapping[str, str] | None = None) -> bool:
    """Ping the watchdog once (prefer :class:`Watchdog`, which paces the pings)."""
    return notify("WATCHDOG=1", environ=environ)


class Watchdog:
    """Paces watchdog pings from the main loop: one every half interval.

    ``interval_s`` is ``WatchdogSec=`` in seconds, or None when the watchdog is off.

    >>> dog = Watchdog(10.0, environ={})
    >>> dog.due(0.0), dog.due(4.9)
    (True, True)
    >>> dog.tick(0.0)
    False
    >>> dog.due(4.9), dog.due(5.0)
    (False, True)
    """

    def __init__(
        self, interval_s: float | None, *, environ: Mapping[str, str] | None = None
    ) -> None:
        self.interval_s = interval_s
        self._environ = environ
        self._last: float | None = None

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> Watchdog:
        """The watchdog systemd asked for (``WATCHDOG_USEC``, meant for this process only)."""
        env = os.environ if environ is None else environ
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        if not usec.isdigit() or int(usec) == 0 or (pid and pid != str(os.getpid())):
            return cls(None, environ=env)
        return cls(int(usec) / 1_000_000, environ=env)

    @property
    def enabled(self) -> bool:
        """Whether systemd expects pings."""
        return self.interval_s is not None

    def due(self, now: float) -> bool:
        """Whether a ping is due at ``now`` (monotonic seconds)."""
        if self.interval_s is None:
            return False
        return self._last is None or now - self._last >= self.interval_s / 2

    def tick(self, now: float) -> bool:
        """Ping if due; returns whether a ping was sent."""
        if not self.due(now):
            return False
        self._last = now
        return watchdog(environ=self._environ)
