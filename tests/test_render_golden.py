"""Golden frames: every screen kind drawn on luma's dummy device and compared with a PNG.

A changed frame fails until the golden PNGs are regenerated on purpose:

    PEGBOARD_REGEN_GOLDEN=1 make test

(then look at the new ``tests/golden/*.png`` before committing them).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from pegboard.app.view import Brightness, PickerView, Screen, SideView, View
from pegboard.hw.oled import OledDisplay, open_dummy
from pegboard.ui.render import render

GOLDEN = Path(__file__).parent / "golden"
REGEN = os.environ.get("PEGBOARD_REGEN_GOLDEN") == "1"

ANN_BEN = (SideView("Ann", 45, 38, dealer=True), SideView("Ben", 38, 30, to_act=True))
THREE = (SideView("Ann", 101, 95), SideView("Ben", 97, 88, dealer=True, to_act=True),
         SideView("Cy", 88, 80))
PAIRS = (SideView("Ann & Cy", 62, 58, dealer=True), SideView("Ben & Di", 71, 64, to_act=True))

SAMPLES: dict[str, View] = {
    "home": View(Screen.HOME, title="Pegboard", lines=("New game", "Resume", "Settings",
                                                       "Help"), selected=0,
                 hint="turn: choose  OK: go"),
    "menu": View(Screen.MENU, title="Menu", lines=("Undo", "Penalties", "Scores", "Help",
                                                   "End game", "Shut down"), selected=4,
                 hint="OK choose  UNDO back"),
    "setup": View(Screen.SETUP, title="New game", lines=("Players: 2", "Target: 121",
                                                         "Five-card: no", "Muggins: off",
                                                         "Start"), selected=1,
                  hint="turn: change  OK: next"),
    "dealer": View(Screen.DEALER, title="Who deals first?", lines=("Ann", "Ben"), selected=1),
    "penalties": View(Screen.PENALTIES, title="Penalties",
                      lines=("Renege (ACC 7.3) 2/card", "Wrong count 2", "Played out of turn",
                             "False claim of game"), selected=0, hint="OK choose  UNDO back"),
    "confirm": View(Screen.CONFIRM, title="End this game?", lines=("No, keep playing",
                                                                   "Yes, end it"), selected=0),
    "peg": View(Screen.PEG, title="Peg points", lines=("Ann +2", "Ben +2"), selected=0,
                hint="turn: points  OK: peg"),
    "resume": View(Screen.RESUME, title="Unfinished game", lines=("Continue Ann 45 Ben 38",
                                                                  "Start a new game"),
                   selected=0),
    "cut": View(Screen.CUT, title="Cut for deal", sides=(SideView("Ann", 0), SideView("Ben", 0)),
                picker=PickerView("Ann's cut", ("A", "2", "3", "4", "5", "6", "7"), 3)),
    "starter": View(Screen.STARTER, title="Turn the starter", sides=ANN_BEN,
                    picker=PickerView("Starter", ("9", "10", "J heels", "Q", "K"), 2)),
    "play": View(Screen.PLAY, sides=ANN_BEN, count=23, pile=("5", "10", "8"), turn="Ben",
                 award="Fifteen for 2",
                 picker=PickerView("Ben plays", ("A", "2", "3", "4", "5", "6", "7", "8"), 6),
                 hint="OK play  GO go"),
    "play_three": View(Screen.PLAY, sides=THREE, count=8, turn="Ben",
                       picker=PickerView("Ben plays", ("A", "2", "3", "J nobs", "7♥"), 3)),
    "play_pairs_go": View(Screen.PLAY, sides=PAIRS, count=28, pile=("10", "9", "9"),
                          turn="Ben & Di", award="Pair for 2",
                          picker=PickerView("Ben plays", (), 0), hint="GO: say go"),
    "show": View(Screen.SHOW, title="Ben's hand: 12", sides=ANN_BEN,
                 lines=("Fifteen 2 (7♥ 8♣), fifteen 4 (7♥ 8♦), a pair is 6, "
                        "a run of three is 9, and his nob is 10",)),
    "crib": View(Screen.CRIB, title="Ann's crib", sides=ANN_BEN,
                 picker=PickerView("Crib card 2 of 4", ("4♠", "4♥", "4♦", "4♣"), 1)),
    "hand": View(Screen.HAND, title="Ben's hand", sides=ANN_BEN,
                 picker=PickerView("Card 1 of 4", ("5", "6", "7 flush"), 2)),
    "scores": View(Screen.SCORES, title="Scores", sides=ANN_BEN,
                   lines=("Deal 6, Ann's crib", "Games: Ann 1  Ben 0")),
    "game_over": View(Screen.GAME_OVER, title="Ben wins!",
                      sides=(SideView("Ann", 87, 80), SideView("Ben", 121, 112, winner=True)),
                      lines=("Skunk: Ann 87", "Game points: Ben 3")),
    "race": View(Screen.RACE, title="Score race",
                 sides=(SideView("Ann", 87, 80), SideView("Ben", 121, 112, winner=True)),
                 race=((0, 0), (12, 9), (20, 31), (41, 48), (58, 77), (70, 96), (87, 121))),
    "message": View(Screen.MESSAGE, title="Renege", lines=(
        "Ben said go holding 5♣ (count 26). Ann may take 2 (ACC 7.3).",), hint="OK: take it"),
    "help": View(Screen.HELP, title="Go and 31", lines=(
        "When nobody can play, the last card pegs 1; at exactly 31 it pegs 2 instead, "
        "never 3.", "Combinations never reach across a reset."), first_line=0,
        hint="turn: scroll"),
    "match": View(Screen.MATCH, title="Match: best of 3", lines=("Ann 2 games, 4 points",
                                                                 "Ben 1 game, 2 points",
                                                                 "Ann wins the match")),
    "saved": View(Screen.SAVED, title="Game saved", sides=(SideView("Ann", 45),
                                                           SideView("Ben", 57)),
                  lines=("Turn on to continue",)),
    "link_down": View(Screen.PLAY, sides=ANN_BEN, count=15, turn="Ann", link="LEDs off",
                      award="Fifteen for 2", picker=PickerView("Ann plays", ("6", "7"), 0)),
    "dim": View(Screen.HOME, title="Pegboard", lines=("New game",), selected=0,
                brightness=Brightness.DIM),
    "blank": View(Screen.PLAY, sides=ANN_BEN, count=3, brightness=Brightness.BLANK),
}


def through_luma(view: View) -> Image.Image:
    """Render ``view`` and push it to luma's dummy device, as the OLED adapter does."""
    device = open_dummy()
    OledDisplay(device).show(render(view))
    assert device.image is not None
    return device.image.convert("1")


def test_every_screen_kind_has_a_golden_frame() -> None:
    assert {view.screen for view in SAMPLES.values()} == set(Screen)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_golden_frame(name: str, tmp_path: Path) -> None:
    image = through_luma(SAMPLES[name])
    assert image.size == (128, 64)
    path = GOLDEN / f"{name}.png"
    if REGEN:
        GOLDEN.mkdir(exist_ok=True)
        image.save(path)
    if not path.exists():
        pytest.fail(f"no golden frame {path}; create it with PEGBOARD_REGEN_GOLDEN=1 make test")
    expected = Image.open(path).convert("1")
    diff = ImageChops.logical_xor(image, expected)
    if diff.getbbox() is not None:
        actual = tmp_path / f"{name}.actual.png"
        image.save(actual)
        changed = sum(1 for v in diff.convert("L").tobytes() if v)
        pytest.fail(f"{name}: {changed} pixels differ from {path} (now drawn: {actual}); "
                    "if the change is intended, regenerate with PEGBOARD_REGEN_GOLDEN=1")


def test_render_is_pure() -> None:
    for view in SAMPLES.values():
        first, second = render(view), render(view)
        assert first.tobytes() == second.tobytes()
        assert first.mode == "1"


def test_blank_is_dark_and_play_is_not() -> None:
    assert render(SAMPLES["blank"]).getbbox() is None
    assert render(SAMPLES["play"]).getbbox() is not None


def test_link_mark_only_when_link_down() -> None:
    corner = (128 - 21, 54, 128, 64)
    up = render(SAMPLES["play"]).crop(corner)
    down = render(SAMPLES["link_down"]).crop(corner)
    assert ImageChops.logical_xor(up, down).getbbox() is not None
    lit = sum(1 for v in down.convert("L").tobytes() if v)
    assert lit > 100  # the inverted LED box


def test_turn_and_dealer_marks_follow_the_view() -> None:
    swapped = View(Screen.PLAY, count=23, sides=(
        SideView("Ann", 45, 38, to_act=True), SideView("Ben", 38, 30, dealer=True)))
    original = View(Screen.PLAY, count=23, sides=ANN_BEN)
    header = (0, 0, 128, 10)
    assert ImageChops.logical_xor(render(swapped).crop(header),
                                 render(original).crop(header)).getbbox() is not None
