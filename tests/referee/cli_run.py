"""Drives the ``pegboard game`` command (the durable store) in-process, as a table would."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pegboard.cli import main


def game_cli(store: Path, *argv: str) -> tuple[int, str, str]:
    """``pegboard game ARGV... --store STORE``: status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["game", argv[0], "--store", str(store), *argv[1:]])
    return status, out.getvalue(), err.getvalue()


def add(store: Path, event: Mapping[str, Any]) -> tuple[int, str, str]:
    return game_cli(store, "add", json.dumps(event))


def status(store: Path) -> dict[str, Any]:
    code, out, err = game_cli(store, "status", "--json")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def export(store: Path) -> list[dict[str, Any]]:
    code, out, err = game_cli(store, "export")
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines() if line.strip()]
