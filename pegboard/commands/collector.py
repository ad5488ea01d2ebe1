"""The cyclic garbage collector over a start: paused while the command line is read and while
``pegboard run`` or ``pegboard sim`` starts.

A start makes tens of thousands of objects that live as long as the process (the modules,
their classes, the restored game) and next to no garbage, yet the collector scans the young
ones every few hundred allocations: about a twentieth of ``pegboard run``'s start. Once the
command is ready for its first key (:func:`ready`), what the start made is left out of every
later collection (:func:`gc.freeze`) and the collector runs again. The few hundred objects
the start left unreachable (under 100 KB, most of them from the libraries' imports) are kept
with the rest: a full collection to free them would cost more than the pause saves.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """The collector paused for the block, then as it was found."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
        else:
            gc.disable()


def ready() -> None:
    """The start is over: what it made is kept out of later collections, and the collector
    runs (until the :func:`paused` block around the start ends, which leaves it as found)."""
    gc.freeze()
    gc.enable()
