"""The simulator's "hand" for tests that run its loop in the test's own thread."""

from __future__ import annotations

import time
from collections.abc import Callable

from pegboard.sim.session import Simulator


def pump_while_held(sim: Simulator) -> Callable[[float], None]:
    """Make ``sim``'s hand run the loop while it holds a key, as the device's own thread would:
    a held key is a real time on the loop's clock, so the loop must turn meanwhile for the
    hold to be seen (a plain sleep would freeze the device for the whole hold). Returns that
    wait, for a test that lets the loop run between its own checks."""

    def wait(seconds: float) -> None:
        end = time.monotonic() + seconds
        while True:
            sim.loop.pump()
            left = end - time.monotonic()
            if left <= 0:
                return
            time.sleep(min(left, 0.005))

    sim.hands.wait = wait
    return wait
