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

import gc
from types import TracebackType


class Paused:
    """The collector paused for a ``with`` block, then as it was found. A plain class rather
    than :func:`contextlib.contextmanager`: every command passes through it, and one that
    needs nothing else of contextlib's would load it for this."""

    __slots__ = ("_collecting",)

    def __init__(self) -> None:
        self._collecting = gc.isenabled()

    def __enter__(self) -> None:
        self._collecting = gc.isenabled()
        gc.disable()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self._collecting:
            gc.enable()
        else:
            gc.disable()


def ready() -> None:
    """The start is over: what it made is kept out of later collections, and the collector
    runs (until the :class:`Paused` block around the start ends, which leaves it as found)."""
    gc.freeze()
    gc.enable()
