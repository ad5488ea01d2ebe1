"""The built-in demos, the guide's pictures, and carrying on a game after the power went."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from pegboard.app.view import Screen, View
from pegboard.commands.sim import demo_script
from pegboard.config import Config
from pegboard.sim.autoplay import AutoPlayer
from pegboard.sim.fakes import FakeClock, RecordingDisplay
from pegboard.sim.keys import KeyStep, parse_script
from pegboard.sim.script import run_script
from pegboard.sim.session import Simulator
from pegboard.store import Store

ROOT = Path(__file__).resolve().parent.parent


def test_the_built_in_demos_are_what_the_generator_writes(tmp_path: Path) -> None:
    """A demo script is played key for key: one left behind by a change to the screens
    (a page more to read, a wheel that starts elsewhere) would play another game."""
    from pegboard.sim.pictures import make_demos

    for written in make_demos(tmp_path):
        shipped = ROOT / "pegboard" / "sim" / written.name
        assert written.read_text(encoding="utf-8") == shipped.read_text(encoding="utf-8"), (
            f"{written.name} is not what python -m pegboard.sim.pictures writes")


@pytest.mark.parametrize("kit", ["encoder", "keypad"])
def test_demo_plays_a_whole_deal(kit: str, tmp_path: Path) -> None:
    from pegboard.rules.value import replace

    config = Config()
    config = replace(config, input=replace(config.input, kit=kit))
    store = Store(tmp_path, owner="test")
    try:
        result = run_script(parse_script(demo_script(kit)), config, store)
    finally:
        store.close()
    screens = [view.screen for view in result.views]
    for screen in (Screen.STARTER, Screen.PLAY, Screen.SHOW, Screen.CRIB):
        assert screen in screens, f"the {kit} demo never reached {screen.value}"
    assert result.views[-1].screen is Screen.STARTER  # the next deal is ready
    assert sum(side.score for side in result.views[-1].sides) > 0


def test_make_run_without_a_terminal_prints_the_demo_frames() -> None:
    done = subprocess.run([sys.executable, "-m", "pegboard", "sim"], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120, check=True)
    frames = re.findall(r"^-- frame (\d+): (\w+)", done.stdout, re.MULTILINE)
    assert len(frames) > 20
    assert {"play", "show", "crib"} <= {screen for _, screen in frames}
    assert "\u2588" in done.stdout  # the frames, in half blocks
    assert "PEGBOARD simulator" in done.stdout


def test_guide_pictures_exist_and_are_frames() -> None:
    guide = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    pictures = re.findall(r"\(img/([\w-]+\.png)\)", guide)
    assert len(pictures) >= 8
    for name in pictures:
        image = Image.open(ROOT / "docs" / "img" / name)
        assert image.size == (128 * 3, 64 * 3), name
    keys = parse_script((ROOT / "docs" / "guide.keys").read_text(encoding="utf-8"))
    assert len(keys) > 100


def test_a_game_carries_on_after_the_power_goes(tmp_path: Path) -> None:
    """Play part of a deal, drop everything without a clean shutdown, start again on the
    same store: the game is where it was, scores and all."""
    player = AutoPlayer(seed=7)
    store = Store(tmp_path, owner="first")
    sim = Simulator(Config(), store, RecordingDisplay(), clock=FakeClock())
    sim.start()
    played_cards = 0
    while played_cards < 5:
        view = sim.loop.shown
        assert view is not None
        if view.screen is Screen.PLAY:
            played_cards += 1
        for step in player.decide(view):
            sim.press(step)
    before: View | None = sim.loop.shown
    assert before is not None and before.screen is Screen.PLAY
    # The power goes: no clean shutdown, the store is just let go.
    sim.power_cut()
    store.close()

    store = Store(tmp_path, owner="second")
    try:
        again = Simulator(Config(), store, RecordingDisplay(), clock=FakeClock())
        again.start()
        view = again.loop.shown
        assert view is not None
        if view.screen is not Screen.PLAY:  # a notice that the game was resumed
            again.press(KeyStep("ok"))
            view = again.loop.shown
        assert view is not None
        assert view.screen is Screen.PLAY
        assert view.count == before.count
        assert [s.score for s in view.sides] == [s.score for s in before.sides]
        again.close()
    finally:
        store.close()
