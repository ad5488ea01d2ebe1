"""The interactive simulator never loses a typed key, however late its loop runs
(``pegboard.sim.hands``).

A busy machine is taken to its extreme here. The keypad's keys are found by the loop's scan:
its hands let no time at all pass between a key going down and coming up, so only holding the
key until the scan has seen it gets it in. The encoder's edges are reported as they happen:
its keys are all typed while the loop stands still, and must all be on its queue with their
times. Either way the game record is the headless run's of the same keys, and so is the
screen: every screen in order on the keypad, the last one on the encoder (a loop that took
all the keys at once draws once).
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from PIL import Image

from pegboard.app.view import View
from pegboard.config import Config
from pegboard.device.loop import STOP
from pegboard.hw.clock import MonotonicClock
from pegboard.rules.value import replace
from pegboard.sim.fakes import FakeClock, RecordingDisplay
from pegboard.sim.hands import KeyNotSeenError, ScanWatch
from pegboard.sim.keys import parse_script
from pegboard.sim.script import game_record, run_script
from pegboard.sim.session import Simulator
from pegboard.store import Store

SCRIPTS = {
    "keypad": "ok ok ok 4 6 J hold-J 2 undo hold-ok",
    "encoder": "ok ok ok right right ok hold-ok left ok undo menu",
}


def _config(kit: str) -> Config:
    config = Config()
    return replace(config, input=replace(config.input, kit=kit))


def _screens(frames: list[Image.Image]) -> list[bytes]:
    """The frames as bytes, one for each change of screen."""
    screens: list[bytes] = []
    for frame in frames:
        data = frame.tobytes()
        if not screens or screens[-1] != data:
            screens.append(data)
    return screens


def _headless(kit: str, directory: Path) -> tuple[list[bytes], str]:
    """The screens and the game record of the headless run of the kit's keys."""
    with Store(directory, owner="test") as store:
        result = run_script(parse_script(SCRIPTS[kit]), _config(kit), store)
    screens = _screens(result.frames)
    assert len(screens) > 5, "the keys change the screen"
    return screens, result.record


def test_a_keypad_key_counts_however_short_the_press(tmp_path: Path) -> None:
    expected, record = _headless("keypad", tmp_path / "headless")
    frames: list[Image.Image] = []

    def keep(view: View, image: Image.Image) -> None:
        frames.append(image)

    with Store(tmp_path / "store", owner="test") as store:
        sim = Simulator(_config("keypad"), store, RecordingDisplay(), clock=MonotonicClock(),
                        on_frame=keep)
        try:
            sim.start()
            sim.hands.wait = lambda seconds: None  # no time between down, up and the next key
            loop = threading.Thread(target=sim.loop.run, name="loop")
            loop.start()  # on its own thread, as in the terminal
            try:
                for step in parse_script(SCRIPTS["keypad"]):
                    sim.press(step)  # back once the scan has seen the key down and up
            finally:
                sim.inbox.put(STOP)
                loop.join()
            assert game_record(store) == record
        finally:
            sim.close()
    assert _screens(frames) == expected


def test_encoder_keys_typed_while_the_loop_stands_still_all_count(tmp_path: Path) -> None:
    expected, record = _headless("encoder", tmp_path / "headless")
    frames: list[Image.Image] = []

    def keep(view: View, image: Image.Image) -> None:
        frames.append(image)

    clock = FakeClock()
    with Store(tmp_path / "store", owner="test") as store:
        sim = Simulator(_config("encoder"), store, RecordingDisplay(), clock=clock,
                        on_frame=keep)
        try:
            sim.start()
            runs_the_loop = sim.hands.wait

            def stands_still(seconds: float) -> None:  # time passes, the loop does not run
                clock.advance(seconds)

            sim.hands.wait = stands_still
            for step in parse_script(SCRIPTS["encoder"]):
                sim.press(step)
            assert _screens(frames) == expected[:1]  # nothing seen yet
            runs_the_loop(1.0)
            assert game_record(store) == record
        finally:
            sim.close()
    assert _screens(frames)[-1] == expected[-1]


def test_a_key_the_scan_never_sees_is_an_error_naming_it() -> None:
    watch = ScanWatch(within_s=0.0)
    with pytest.raises(KeyNotSeenError, match="'J' pressed"):
        watch.down_for("J", 0.05)
    watch.saw({"J"}, 10.0)
    with pytest.raises(KeyNotSeenError, match="'J' let go"):
        watch.up("J")


def test_a_key_is_seen_once_held_for_its_press_by_the_loops_clock() -> None:
    watch = ScanWatch(within_s=0.0)
    watch.saw({"4"}, 10.0)
    with pytest.raises(KeyNotSeenError):
        watch.down_for("4", 0.05)  # seen, but not yet for as long as the press
    watch.saw({"4"}, 10.05)
    assert watch.down_for("4", 0.05)
    watch.saw(set(), 10.06)
    assert watch.up("4")


def test_a_stopped_loop_lets_the_hands_go() -> None:
    watch = ScanWatch(within_s=0.0)
    watch.end()
    assert not watch.down_for("ok", 0.85)
    assert not watch.up("ok")
