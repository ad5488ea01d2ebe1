"""The clock every timed rule reads: injected, so tests can move time by hand."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Protocol

# Protocols only the type checker reads (no isinstance on them): not made at run time.
if TYPE_CHECKING:
    class Clock(Protocol):
        """Seconds on a monotonic scale (only differences matter)."""

        def now(self) -> float:
            """The current time in seconds."""
            ...


class MonotonicClock:
    """The real clock: :func:`time.monotonic`."""

    def now(self) -> float:
        """The current time in seconds."""
        return time.monotonic()
