"""A game written into a real store entry by entry, and ``pegboard web`` run as a process:
the pieces the browser tests, the screenshots and the benchmark share.

:class:`ScriptedGame` writes through :class:`~pegboard.store.Store` exactly as the device does
(the header, one synced line per entry, the result into the history at the end), checking each
line with the engine first. :class:`WebServer` starts ``python -m pegboard web --port 0`` on
127.0.0.1 and reads the address it prints.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from pegboard.record import dump_line, parse_line, result_json
from pegboard.rules.events import GameHeader
from pegboard.rules.game import Game
from pegboard.rules.state import GameState
from pegboard.store import Store
from tests.support.games import random_game
from tests.support.waiting import line_from

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def random_record(seed: int, players: int = 2) -> list[str]:
    """The record lines of a seeded random game (:mod:`tests.support.games`)."""
    played = random_game(seed, players)
    return [dump_line(played.header, players),
            *(dump_line(event, players) for event in played.events)]


class ScriptedGame:
    """Record ``lines`` (header first) into the store at ``directory``, one entry at a time."""

    def __init__(self, directory: Path, lines: Sequence[str], *, owner: str = "scripted game"
                 ) -> None:
        self.lines = [line for line in lines if line.strip()]
        self.store = Store(directory, owner=owner)
        header = parse_line(self.lines[0], 1)
        assert isinstance(header, GameHeader)
        self.game = Game.from_header(header)
        self.store.new_game(json.loads(self.lines[0]))
        self.written = 1

    @property
    def done(self) -> bool:
        """Every line written."""
        return self.written >= len(self.lines)

    @property
    def state(self) -> GameState:
        """The engine's state after the lines written so far."""
        return self.game.state

    def step(self) -> int:
        """Write the next line (checked by the engine first); its line number."""
        text = self.lines[self.written]
        self.game.apply(parse_line(text, self.written + 1))  # type: ignore[arg-type]
        self.store.append(json.loads(text))
        self.written += 1
        return self.written

    def play_to(self, line: int) -> None:
        """Write lines until ``line`` lines (header included) are in the store."""
        while self.written < min(line, len(self.lines)):
            self.step()

    def finish(self) -> None:
        """Move the game into the history with its result, as the device does at the end."""
        self.store.finish(result_json(self.game.state))

    def close(self) -> None:
        """Let go of the store's lock."""
        self.store.close()


def record_game(directory: Path, lines: Sequence[str]) -> None:
    """Write a whole game into the store's history at once."""
    game = ScriptedGame(directory, lines)
    game.play_to(len(game.lines))
    game.finish()
    game.close()


CHROMIUM_ARGS = ["--disable-dev-shm-usage"]
"""Chromium's shared memory in a temporary folder rather than ``/dev/shm``: a container's
default ``/dev/shm`` is 64 MB, where Chromium's renderer crashes or stalls on a full page."""


def chromium() -> str | None:
    """The system's Chromium (Debian's package), or None."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


@contextmanager
def system_chromium() -> Iterator[Browser]:
    """The system's Chromium, launched by Playwright for as long as the ``with`` lasts."""
    from playwright.sync_api import sync_playwright  # a development tool, not a dependency

    path = chromium()
    if path is None:
        raise SystemExit("chromium is not installed (apt-get install chromium)")
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


SHOWN_WITHIN_MS = 60_000
"""How long a page may take to show what the server has (a busy machine is slow, not wrong)."""


def shown_lines(page: Page, lines: int) -> None:
    """Wait until the page shows the game as of record line ``lines``."""
    page.wait_for_selector(f'body[data-lines="{lines}"]', state="attached",
                           timeout=SHOWN_WITHIN_MS)


class WebServer:
    """``pegboard web`` on 127.0.0.1 and a free port, for as long as the ``with`` lasts."""

    def __init__(self, store: Path, *, poll: float = 0.05, extra: Sequence[str] = ()) -> None:
        self.store = store
        command = [sys.executable, "-m", "pegboard", "web", "--store", str(store),
                   "--host", "127.0.0.1", "--port", "0", "--poll", str(poll), *extra]
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, env=env)
        assert self.process.stdout is not None
        line = line_from(self.process.stdout, "pegboard web's address", process=self.process)
        if "http://" not in line:
            self.process.kill()
            _, err = self.process.communicate(timeout=60)
            raise RuntimeError(f"pegboard web did not start: {line}{err}")
        self.url = line.split()[3]

    def rss_kib(self) -> int:
        """The server's resident memory now, in KiB (from /proc)."""
        status = Path(f"/proc/{self.process.pid}/status").read_text(encoding="ascii")
        for row in status.splitlines():
            if row.startswith("VmRSS:"):
                return int(row.split()[1])
        raise RuntimeError("no VmRSS in /proc status")

    def stop(self) -> tuple[int, str]:
        """Stop the server as systemd does (SIGTERM); its exit status and what it printed
        on standard error."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            _, err = self.process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            _, err = self.process.communicate()
        return self.process.returncode, err

    def __enter__(self) -> WebServer:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()

