"""The club publisher's status file: how the board itself learns what the broker said.

The publisher (:mod:`pegboard.club.publisher`, a process beside the device's loop) writes
``club-status.json`` beside its file of acknowledgements, whole (written aside, then
renamed), whenever it changes::

    {"club", "board", "connected", "waiting", "refused": [{"result", "game", "why"}]}

The device's loop reads it (:func:`refusal`) and shows the broker's refusal on the board's
own screen until the result is taken. Only the standard library is used here, so the device
reads the file without loading the MQTT client.
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


def refusal(path: Path) -> str:
    """Why the broker refused the board's oldest refused result, as the publisher wrote it
    in its status file at ``path``; ``""`` when it refused nothing, or there is no file (no
    publisher yet) or no readable one (then the board cannot say more than nothing).

    >>> refusal(Path("/nonexistent/club-status.json"))
    ''
    """
    try:
        with path.open("rb") as file:
            data = file.read(MAX_STATUS + 1)
    except OSError:
        return ""
    if len(data) > MAX_STATUS:
        return ""
    try:
        status = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return ""
    refused = status.get("refused") if isinstance(status, dict) else None
    if not isinstance(refused, list) or not refused or not isinstance(refused[0], dict):
        return ""
    why = refused[0].get("why")
    return why if isinstance(why, str) else ""
