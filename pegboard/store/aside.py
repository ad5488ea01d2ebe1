"""The ``aside/`` folder: where a game that could not be read whole is kept, byte for byte,
under a name ``pegboard game repair`` shows and ``pegboard game restore`` takes."""

from __future__ import annotations

import contextlib
import logging
import os
import re
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from pegboard.rules.value import Value
from pegboard.store.logfile import fsync_directory, read_regular, write_new_file

log = logging.getLogger(__name__)

ASIDE_NAME = "aside"
LEGACY_ASIDE = "current.log.unreadable-"  # where releases before aside/ kept unreadable files
PARTIAL = ".partial"  # a copy into aside/ being written, renamed once whole


def timestamp(now: float) -> str:
    """A time as it is written in game ids and file names (UTC)."""
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(now))


class AsideGame(Value):
    """A set-aside game as ``pegboard game repair`` shows it.

    ``restorable`` is how many lines ``restore`` would bring back (0: none), ``skipping``
    how many with ``--skip-damaged``; ``dropped`` are the damaged lines that leaves out.
    """

    __slots__ = (
        "dropped",
        "error",
        "game_id",
        "header",
        "name",
        "path",
        "problem",
        "restorable",
        "skipping",
        "started_at",
        "total",
        "written_by",
    )
    __match_args__ = ("name", "path", "game_id", "total", "restorable", "skipping", "problem",
                      "dropped", "header", "started_at", "written_by", "error")

    name: str
    path: Path
    game_id: str | None
    total: int
    restorable: int
    skipping: int
    problem: str | None
    dropped: tuple[tuple[int, bytes], ...]
    header: Mapping[str, Any] | None
    started_at: float | None
    written_by: str | None
    error: str | None  # the file itself cannot be read

    def __init__(
        self,
        name: str,
        path: Path,
        game_id: str | None = None,
        total: int = 0,
        restorable: int = 0,
        skipping: int = 0,
        problem: str | None = None,
        dropped: tuple[tuple[int, bytes], ...] = (),
        header: Mapping[str, Any] | None = None,
        started_at: float | None = None,
        written_by: str | None = None,
        error: str | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "name", name)
        setter(self, "path", path)
        setter(self, "game_id", game_id)
        setter(self, "total", total)
        setter(self, "restorable", restorable)
        setter(self, "skipping", skipping)
        setter(self, "problem", problem)
        setter(self, "dropped", dropped)
        setter(self, "header", header)
        setter(self, "started_at", started_at)
        setter(self, "written_by", written_by)
        setter(self, "error", error)

    @property
    def players(self) -> list[Any]:
        """The players its header names, if it can be read."""
        players = (self.header or {}).get("players", [])
        return list(players) if isinstance(players, list) else []



Clock = Callable[[], float]


def _candidates(directory: Path, stem: str | None, clock: Clock) -> Iterator[Path]:
    stem = (stem or f"unreadable-{timestamp(clock())}")[:64]
    folder = directory / ASIDE_NAME
    yield folder / f"{stem}.log"
    number = 2
    while True:
        yield folder / f"{stem[:56]}-{number}.log"  # within the 64 characters of an id
        number += 1


def free_aside(directory: Path, stem: str | None, clock: Clock) -> Path:
    """A name in ``aside/`` for ``stem`` (a game id; a time when None) that is not taken."""
    return next(p for p in _candidates(directory, stem, clock) if not os.path.lexists(p))


def keep_copy(directory: Path, data: bytes, stem: str | None, clock: Clock) -> Path:
    """A byte-for-byte copy of a file in ``aside/`` (an identical one already there, left
    by a restart in the middle of a recovery, is used again)."""
    for candidate in _candidates(directory, stem, clock):
        if not os.path.lexists(candidate):
            # Under a temporary name first: a copy cut short by a crash must never pass
            # for the kept file (the next start removes it and copies again).
            temporary = candidate.with_name(candidate.name + PARTIAL)
            write_new_file(temporary, data)
            os.rename(temporary, candidate)
            fsync_directory(candidate.parent)
            return candidate
        with contextlib.suppress(OSError):
            if read_regular(candidate) == data:
                return candidate
    raise AssertionError("unreachable: the candidates never end")


def named(directory: Path, start: str = "", end: str = "") -> list[Path]:
    """The entries of ``directory`` whose names start with ``start`` and end with ``end``,
    sorted (none when there is no such directory). A plain scan: a glob pattern is compiled
    to a regular expression first, at every start of the device."""
    try:
        with os.scandir(directory) as entries:
            names = [entry.name for entry in entries]
    except (FileNotFoundError, NotADirectoryError):
        return []
    return [directory / name for name in sorted(names)
            if name.startswith(start) and name.endswith(end)
            and len(name) >= len(start) + len(end)]


def move_legacy_asides(directory: Path, clock: Clock) -> None:
    """Files set aside by earlier releases (``current.log.unreadable-<time>``) go into
    ``aside/`` too, so that ``pegboard game repair`` lists them."""
    for path in named(directory, start=LEGACY_ASIDE):
        stem = "unreadable-" + re.sub(r"[^0-9A-Za-z_-]", "-", path.name[len(LEGACY_ASIDE):])
        target = free_aside(directory, stem, clock)
        os.rename(path, target)
        fsync_directory(target.parent)
        fsync_directory(directory)
        log.info("moved %s to %s", path, target)
