"""The club publisher's status, read by the loop: the broker's refusal on the board's screen.

The publisher is a process of its own beside the loop (docs/club.md); what the broker said
of the board's results it writes, whole, in its status file (:mod:`pegboard.club.status`).
This observer reads that file every :data:`PERIOD_S` seconds (only when it changed on disk)
and hands the loop a :class:`~pegboard.app.inputs.ClubStatus` whenever the refusal it names
changes (a new one, or none once the result is taken), and a
:class:`~pegboard.app.inputs.ClubNight` whenever the night the standings service published
changes.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Generic, TypeVar

from pegboard.app.inputs import ClubNight, ClubStatus, InputEvent
from pegboard.club import status
from pegboard.device.observers import Seen

S = TypeVar("S")

__all__ = ["PERIOD_S", "ClubWatch"]

PERIOD_S = 2.0
"""How often the status file is looked at (seconds): a stat, and a read when it changed."""


class ClubWatch(Generic[S]):
    """The loop's reader of the publisher's status file at ``path``."""

    def __init__(self, path: Path, *, period: float = PERIOD_S) -> None:
        self.path = path
        self.period = period
        self._due: float | None = None  # the first poll reads at once
        self._stamp: tuple[int, int, int] | None = None
        self._said = status.Said()

    def saw(self, seen: Seen[S]) -> None:
        """Nothing the table does changes what the broker said."""

    def poll(self, now: float) -> Sequence[InputEvent]:
        """Look at the file when it is due; a :class:`ClubStatus` when the refusal changed."""
        if self._due is not None and now < self._due:
            return ()
        self._due = now + self.period
        try:
            found = os.stat(self.path)
            stamp: tuple[int, int, int] | None = (found.st_ino, found.st_mtime_ns, found.st_size)
        except OSError:
            stamp = None
        if stamp is not None and stamp == self._stamp:
            return ()
        self._stamp = stamp
        said = status.read(self.path) if stamp is not None else status.Said(
            night=self._said.night)  # no file: the night the service set still stands
        if stamp is not None and said.night is None:
            said = status.Said(said.refused, self._said.night)
        events: list[InputEvent] = []
        if said.refused != self._said.refused:
            events.append(ClubStatus(said.refused))
        if said.night is not None and said.night != self._said.night:
            events.append(ClubNight(*said.night))
        self._said = said
        return events

    def next_deadline(self) -> float | None:
        """When the file is next looked at."""
        return self._due
