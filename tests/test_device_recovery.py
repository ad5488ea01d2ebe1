"""The device always starts: a game that cannot be read whole is restored in part or set
aside, and the first screen, the journal and ``pegboard game status`` say the same."""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from pegboard.app import machine
from pegboard.app.effects import Effect, Persist
from pegboard.app.inputs import Button, InputEvent, Press
from pegboard.app.state import Home, Reading
from pegboard.app.view import Screen, View
from pegboard.cli import main
from pegboard.config import Config
from pegboard.device.build import initial_state, open_store
from pegboard.device.loop import App, DeviceLoop
from pegboard.hw.inputs import EncoderKit
from pegboard.rules.events import Peg
from pegboard.sim.fakes import FakeClock, RecordingDisplay
from pegboard.store import Store
from tests.support.stores import enter_game
from tests.support.waiting import line_from

HEADER = {"type": "game", "players": ["Ann", "Ben"], "rules": {"target": 121}}


def record_game(path: Path, lines: int = 81) -> tuple[str, list[str]]:
    with Store(path) as store:
        return enter_game(store, lines, seed=3)


def flip_bit_in_line(path: Path, line: int) -> None:
    data = bytearray(path.read_bytes())
    start = 0
    for _ in range(line - 1):
        start = data.index(b"\n", start) + 1
    data[start + 30] ^= 0x04
    path.write_bytes(bytes(data))


def test_the_first_screen_says_where_a_damaged_game_was_restored_to(tmp_path: Path) -> None:
    game_id, _ = record_game(tmp_path)
    flip_bit_in_line(tmp_path / "current.log", 3)
    said: list[str] = []
    store = open_store(tmp_path, owner="pegboard test")
    try:
        state = initial_state(Config(), store, said.append)
    finally:
        store.close()
    assert isinstance(state.screen, Reading)
    first, second = state.screen.pages
    assert first.title == "Game restored in part"
    assert first.lines == ("Restored to line 2 of 81: line 3 is damaged or out of place.",
                           f"The whole game is kept as aside/{game_id}.log.")
    assert second.title == "Game restored"
    assert state.session is not None and len(state.session.events) == 1
    assert said == [f"Game {game_id}: restored to line 2 of 81: line 3 is damaged or out of "
                    f"place. The whole game is kept as aside/{game_id}.log (`pegboard game "
                    "repair` shows it)"]
    view = machine.view(state)
    assert view.title == "Game restored in part"


def test_a_game_that_cannot_be_read_at_all_leaves_a_notice_then_the_home_screen(
    tmp_path: Path,
) -> None:
    with Store(tmp_path) as raw:
        raw.new_game({**HEADER, "version": 99})  # a record from a release not yet written
        game_id = raw.current().id  # type: ignore[union-attr]
    store = open_store(tmp_path, owner="pegboard test")
    try:
        state = initial_state(Config(), store)
    finally:
        store.close()
    assert isinstance(state.screen, Reading) and state.session is None
    [page] = state.screen.pages
    assert page.title == "Game not restored"
    assert page.lines[-2:] == (f"Kept as aside/{game_id}.log.", "OK for a new game.")
    after, _ = machine.step(state, Press(Button.OK), 1.0)
    assert isinstance(after.screen, Home)


def test_a_game_the_app_cannot_resume_is_set_aside_rather_than_stopping_the_start(
    tmp_path: Path,
) -> None:
    with Store(tmp_path) as raw:
        raw.new_game(HEADER)
        raw.append({"type": "play", "player": 0, "card": "5C"})  # no deal yet
    # A store opened without the engine's check hands the app a game it cannot replay.
    with Store(tmp_path) as store:
        state = initial_state(Config(), store)
        assert store.current() is None
    assert isinstance(state.screen, Reading)
    assert state.screen.pages[0].title == "Game not restored"
    assert ("it could not be resumed: line 2: cannot play 5C now"
            in state.screen.pages[0].lines[0])
    assert len(list((tmp_path / "aside").iterdir())) == 1


def run_device(store: Path, *options: str, **environ: str) -> tuple[int, str]:
    """``pegboard run`` (with ``options``, and ``environ`` added to the environment) on mock
    pins and the dummy display until it is ready, then SIGTERM; its exit status and
    everything it logged."""
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "PEGBOARD_STORE": str(store),
           **environ}
    proc = subprocess.Popen([sys.executable, "-m", "pegboard", "run", "--display", "dummy",
                             *options],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    assert proc.stdout is not None
    logged: list[str] = []
    try:
        while line := line_from(proc.stdout, "pegboard run to log ready", process=proc):
            logged.append(line)  # each line waited for as the process writes it: no sleeping
            if line.rstrip().endswith("ready"):
                break
        proc.send_signal(signal.SIGTERM)
        logged += proc.stdout.readlines()
        return proc.wait(timeout=60), "".join(logged)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_pegboard_run_starts_on_a_damaged_game_and_status_says_the_same(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "store"
    game_id, _ = record_game(store)
    flip_bit_in_line(store / "current.log", 3)
    code, logged = run_device(store)
    message = (f"Game {game_id}: restored to line 2 of 81: line 3 is damaged or out of place. "
               f"The whole game is kept as aside/{game_id}.log")
    assert code == 0, logged
    assert message in logged
    assert main(["game", "status", "--store", str(store)]) == 0
    assert message in capsys.readouterr().out
    assert main(["game", "status", "--json", "--store", str(store)]) == 0
    assert message in json.loads(capsys.readouterr().out)["recovery"]


def test_pegboard_run_starts_when_the_game_cannot_be_read_at_all(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "store"
    with Store(store) as raw:
        raw.new_game({**HEADER, "version": 99})
        game_id = raw.current().id  # type: ignore[union-attr]
    code, logged = run_device(store)
    assert code == 0, logged
    assert f"Game {game_id} could not be read (line 1 cannot be replayed" in logged
    assert main(["game", "status", "--store", str(store)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("No game in progress.\n")
    assert f"Game {game_id} could not be read (line 1 cannot be replayed" in out
    assert f"kept as aside/{game_id}.log" in out


def test_pegboard_run_shows_why_it_cannot_start_and_exits_2(tmp_path: Path) -> None:
    store = tmp_path / "store"
    store.mkdir()
    (store / "lock").symlink_to(tmp_path / "elsewhere")
    done = subprocess.run(
        [sys.executable, "-m", "pegboard", "run", "--display", "dummy", "--store", str(store)],
        capture_output=True, text=True, check=False,
        env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"},
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1] == (
        f"pegboard run: the lock file {store / 'lock'} is a symbolic link: if no Pegboard is "
        f"running, remove it (`rm {store / 'lock'}`) and Pegboard makes a new one")
    assert not (tmp_path / "elsewhere").exists()


def test_the_device_says_so_when_its_store_is_deleted_under_it(tmp_path: Path) -> None:
    """The loop's store effects go to the real store; a deleted store is "Not saved" with the
    store's message, and the app's state stays as the store has it."""
    def step(points: int, event: InputEvent, now: float) -> tuple[int, Sequence[Effect]]:
        if isinstance(event, Press) and event.button is Button.OK:
            return points + 1, (Persist(Peg(0, 1)),)
        return points, ()

    def view(points: int) -> View:
        return View(Screen.SCORES, title=f"{points} points")

    store_path = tmp_path / "store"
    clock = FakeClock()
    factory = MockFactory()
    inbox: queue.Queue[Any] = queue.Queue()
    try:
        with open_store(store_path, owner="pegboard test") as store:
            store.new_game(HEADER)
            kit = EncoderKit(inbox.put, clock, pin_factory=factory)
            loop = DeviceLoop(App(step, view), 0, kit=kit, inbox=inbox,
                              display=RecordingDisplay(), store=store, clock=clock)
            loop.start()
            loop.feed([Press(Button.OK)])
            assert loop.state == 1 and loop.shown is not None
            assert loop.shown.title == "1 points"
            shutil.rmtree(store_path)
            loop.feed([Press(Button.OK)])
            assert loop.state == 1
            assert loop.shown is not None and loop.shown.title == "Not saved"
            assert "was deleted while Pegboard was using it" in loop.shown.lines[0]
    finally:
        factory.reset()


def test_pegboard_run_with_the_voice_on_and_no_espeak_says_why_and_plays_on(
    tmp_path: Path,
) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[voice]\nenabled = true\n", encoding="utf-8")
    status, text = run_device(tmp_path / "s", "--config", str(config),
                              PATH=str(tmp_path / "no-programs-here"))
    assert status == 0
    assert "espeak-ng" in text and "without a voice" in text, text
    assert "Traceback" not in text
