"""The club publisher's status file: how the board itself learns what the broker said.

The publisher (:mod:`pegboard.club.publisher`, a process beside the device's loop) writes
``club-status.json`` beside its file of acknowledgements, whole (written aside, then
renamed), whenever it changes::

    {"club", "board", "connected", "waiting", "refused": [{"result", "game", "why"}],
     "night": {"night", "round", "lock"} or null}

The device's loop reads it (:func:`read`): it shows the broker's refusal on the board's own
screen until the result is taken, and starts the next game in the night, round and lock
the standings service published (``night``: null until the service has said). Only the
standard library is used here, so the device reads the file without loading the MQTT
client.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

STATUS_NAME = "club-status.json"
"""The status file's name, beside the file of acknowledgements."""
MAX_STATUS = 64 * 1024
"""The most of the file read: the first refusals are enough to say why."""


def write(path: Path, status: dict[str, Any]) -> None:
    """Write ``status`` to ``path`` whole: written aside, then renamed over it (a reader
    sees the old file or the new one, never half of one). OSError when it cannot."""
    aside = path.with_suffix(".tmp")
    aside.write_text(json.dumps(status, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(aside, path)


class Said:
    """What the status file says to the board: the broker's ``refused`` (``""``: nothing)
    and the service's ``night`` (night, round, lock), or None."""

    __slots__ = ("night", "refused")

    def __init__(self, refused: str = "", night: tuple[int, int, bool] | None = None) -> None:
        self.refused = refused
        self.night = night

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Said) and (self.refused, self.night) == (other.refused,
                                                                           other.night)

    def __hash__(self) -> int:
        return hash((self.refused, self.night))

    def __repr__(self) -> str:
        return f"Said({self.refused!r}, {self.night!r})"


def read(path: Path) -> Said:
    """What the publisher's status file at ``path`` says (nothing when there is no file or
    no readable one)."""
    status = _load(path)
    if status is None:
        return Said()
    night = status.get("night")
    known = None
    if isinstance(night, dict):
        values = (night.get("night"), night.get("round"), night.get("lock"))
        if (type(values[0]) is int and type(values[1]) is int
                and type(values[2]) is bool):
            known = (values[0], values[1], values[2])
    return Said(_refusal(status), known)


def _load(path: Path) -> dict[str, Any] | None:
    try:
        with path.open("rb") as file:
            data = file.read(MAX_STATUS + 1)
    except OSError:
        return None
    if len(data) > MAX_STATUS:
        return None
    try:
        status = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return status if isinstance(status, dict) else None


def _refusal(status: dict[str, Any]) -> str:
    refused = status.get("refused")
    if not isinstance(refused, list) or not refused or not isinstance(refused[0], dict):
        return ""
    why = refused[0].get("why")
    return why if isinstance(why, str) else ""


def refusal(path: Path) -> str:
    """Why the broker refused the board's oldest refused result, as the publisher wrote it
    in its status file at ``path``; ``""`` when it refused nothing, or there is no file (no
    publisher yet) or no readable one (then the board cannot say more than nothing).

    >>> refusal(Path("/nonexistent/club-status.json"))
    ''
    """
    return read(path).refused
