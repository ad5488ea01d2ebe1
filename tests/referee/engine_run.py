"""Runs the real engine the public way, ``pegboard replay --json FILE``, in-process."""

from __future__ import annotations

import contextlib
import io
import json
import re
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pegboard.cli import main


@dataclass
class EngineRun:
    status: int
    lines: list[dict[str, Any]]  # the per-line objects
    result: dict[str, Any] | None
    stderr: str


def write_record(events: Sequence[Mapping[str, Any]], path: Path) -> None:
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")


def replay(events: Sequence[Mapping[str, Any]], workdir: Path | None = None) -> EngineRun:
    """Write the record to a file and replay it through the command line entry point."""
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        path = Path(tmp) / "game.jsonl"
        write_record(events, path)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["replay", "--json", str(path)])
    objects = [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]
    result = objects[-1] if objects and objects[-1].get("type") == "result" else None
    lines = [o for o in objects if "line" in o]
    return EngineRun(status, lines, result, err.getvalue())


def spoken(events: Sequence[Mapping[str, Any]]) -> tuple[int, str, str]:
    """``pegboard replay FILE`` (the spoken form): status, stdout, stderr."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.jsonl"
        write_record(events, path)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["replay", str(path)])
    return status, out.getvalue(), err.getvalue()


_PRETTY = re.compile(r"(?<!\S)(10|[2-9AJQKT])([♣♦♥♠CDHS]?)(?!\S)")
_SUIT = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def reported_reneges(text: str, players: Sequence[str]) -> list[tuple[int, tuple[str, ...]]]:
    """The renege reports (``!`` lines) of a spoken replay: (seat, cards that fitted), each
    card as written: ``4S``, or its rank alone (``4``) where the replay names it so because
    no player entered its suit."""
    found: list[tuple[int, tuple[str, ...]]] = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("!") or "renege" not in line:
            continue
        name = line[1:].split(":", 1)[0].strip()
        held = line.split("holding", 1)[1].split(";", 1)[0] if "holding" in line else ""
        cards = tuple(
            sorted(("T" if r == "10" else r) + _SUIT.get(s, s) for r, s in _PRETTY.findall(held))
        )
        found.append((list(players).index(name), cards))
    return found
