"""Running as a systemd service: readiness and watchdog, journal logging, safe shutdown.

- :mod:`pegboard.service.notify`: ``ready()``, ``status(text)``, ``stopping()``,
  ``watchdog()`` and :class:`Watchdog` (paced pings from the main loop).
- :mod:`pegboard.service.logs`: ``setup_logging()`` (journal priorities on stderr).
- :mod:`pegboard.service.power`: ``request_poweroff()`` / ``request_reboot()`` via logind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pegboard.lazy import exports

if TYPE_CHECKING:
    from pegboard.service.logs import setup_logging
    from pegboard.service.notify import Watchdog, notify, ready, status, stopping, watchdog
    from pegboard.service.power import request_poweroff, request_reboot

__getattr__ = exports(__name__, globals(), {
    "logs": ("setup_logging",),
    "notify": ("Watchdog", "notify", "ready", "status", "stopping", "watchdog"),
    "power": ("request_poweroff", "request_reboot"),
})
"""The module each name comes from, imported when first asked for: ``pegboard run`` sets up
its logging before its first screen, and asks logind to power off only when told to."""

__all__ = [
    "Watchdog",
    "notify",
    "ready",
    "request_poweroff",
    "request_reboot",
    "setup_logging",
    "status",
    "stopping",
    "watchdog",
]
