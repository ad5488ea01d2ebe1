"""Golden frames: real screens, each one the frame a key script leads the simulator to.

Every golden PNG in ``tests/golden/`` (but the ``race_*`` pictures, which
``tests/test_race.py`` draws from its own data, and the ``pair_*`` frames of the phones'
pairing, which ``tests/test_pairing.py`` takes from the app given fixed join codes, since a
board draws its codes at random) is marked in a key script with a line
``# golden: NAME``: the frame on the screen at that point of the script. The scripts are
``tests/golden/scripts/*.keys`` and ``docs/guide.keys``; each is played here exactly as
``pegboard sim --script FILE --frames DIR`` plays it (mock pins, the real app and store, a fake
clock) and the marked frames are compared pixel for pixel with the PNGs. So a golden fails when
the app's screen changes, and it cannot show anything the app does not. The guide's pictures
(``# picture: NAME`` marks, ``docs/img/NAME.png``) are checked the same way.

After an intended change, regenerate from the scripts as they are with

    PEGBOARD_REGEN_GOLDEN=1 make test

or with ``python -m pegboard.sim.pictures``, which also records the pretend table's games
(``docs/guide.keys``, ``tests/golden/scripts/match.keys``) again; then look at every changed
PNG before committing it.
"""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from pegboard.app.view import Brightness, Screen
from pegboard.cli import main as pegboard
from pegboard.rules.value import replace
from pegboard.sim import marked_scripts
from pegboard.sim.marked_scripts import KeyScript, Mark, Shot, play, read_script
from pegboard.ui.render import render

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / marked_scripts.GOLDEN_DIR
IMG = ROOT / marked_scripts.IMG_DIR
REGEN = os.environ.get("PEGBOARD_REGEN_GOLDEN") == "1"

SCREENS: dict[str, Screen] = {
    "home": Screen.HOME, "setup": Screen.SETUP, "dealer": Screen.DEALER, "cut": Screen.CUT,
    "starter": Screen.STARTER, "play": Screen.PLAY, "play_three": Screen.PLAY,
    "play_pairs_go": Screen.PLAY, "show": Screen.SHOW, "end_of_play": Screen.SHOW,
    "crib": Screen.CRIB,
    "hand": Screen.HAND, "claim": Screen.CLAIM, "muggins": Screen.MENU,
    "scores": Screen.SCORES, "penalties": Screen.PENALTIES, "peg": Screen.PEG,
    "confirm": Screen.CONFIRM, "menu": Screen.MENU, "help": Screen.HELP,
    "message": Screen.MESSAGE, "taken_back": Screen.MESSAGE, "game_over": Screen.GAME_OVER,
    "match": Screen.MATCH,
    "race": Screen.RACE, "saved": Screen.SAVED, "dim": Screen.CRIB, "blank": Screen.CRIB,
    "resume": Screen.MESSAGE,
    "large_setup": Screen.SETUP, "large_dealer": Screen.DEALER, "large_cut": Screen.CUT,
    "large_message": Screen.MESSAGE, "large_starter": Screen.STARTER, "large_play": Screen.PLAY,
    "large_show": Screen.SHOW, "large_crib": Screen.CRIB,
}
"""Each golden frame and the screen its script must have reached (a script that no longer
reaches it fails here, before any pixel is compared)."""

SCRIPTS = {path: read_script(path) for path in marked_scripts.scripts(ROOT)}
MARKS: dict[tuple[str, str], tuple[KeyScript, Mark]] = {
    (mark.kind, mark.name): (script, mark) for script in SCRIPTS.values() for mark in script.marks
}
_PLAYED: dict[Path, dict[Mark, Shot]] = {}


def shot(kind: str, name: str) -> tuple[KeyScript, Shot]:
    """The frame a mark names (each script is played once per session)."""
    script, mark = MARKS[(kind, name)]
    if script.path not in _PLAYED:
        _PLAYED[script.path] = play(script)
    return script, _PLAYED[script.path][mark]


def same(image: Image.Image, path: Path, tmp_path: Path, where: str) -> None:
    """``image`` equals the PNG at ``path`` pixel for pixel (or becomes it when regenerating)."""
    if REGEN:
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path)
    if not path.exists():
        pytest.fail(f"no {path}; create it with PEGBOARD_REGEN_GOLDEN=1 make test")
    with Image.open(path) as stored:
        expected = stored.convert(image.mode)
    assert expected.size == image.size, f"{path} is {expected.size}, the frame {image.size}"
    diff = ImageChops.difference(image.convert("RGB"), expected.convert("RGB"))
    if diff.getbbox() is not None:
        actual = tmp_path / f"{path.stem}.actual.png"
        image.save(actual)
        changed = sum(1 for v in diff.convert("L").tobytes() if v)
        pytest.fail(f"{path.name}: {changed} pixels differ from {where} (now drawn: {actual}); "
                    "if the change is intended, regenerate with PEGBOARD_REGEN_GOLDEN=1")


# -- the golden frames -------------------------------------------------------------------------


def test_every_golden_is_marked_in_a_script_and_every_screen_has_one() -> None:
    marked = {name for kind, name in MARKS if kind == "golden"}
    assert marked == set(SCREENS)
    stored = {p.stem for p in GOLDEN.glob("*.png") if not p.name.startswith(("race_", "pair_"))}
    assert stored == marked, "a golden PNG no script makes, or a mark without its PNG"
    assert set(Screen) == set(SCREENS.values()) | {Screen.PAIR}  # PAIR: tests/test_pairing.py


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_golden_frame(name: str, tmp_path: Path) -> None:
    script, frame = shot("golden", name)
    assert frame.view.screen is SCREENS[name], (
        f"{script.path} no longer reaches the {SCREENS[name].value} screen at its mark "
        f"'golden: {name}' (it shows {frame.view.screen.value} {frame.view.title!r})")
    assert frame.image.size == (128, 64)
    same(frame.image, GOLDEN / f"{name}.png", tmp_path,
         f"{frame.frame} of {script.command()}")


def test_idle_frames_dim_then_blank() -> None:
    _, dim = shot("golden", "dim")
    _, blank = shot("golden", "blank")
    assert dim.view.brightness is Brightness.DIM
    assert blank.view.brightness is Brightness.BLANK
    assert blank.image.getbbox() is None
    assert dim.image.getbbox() is not None


def test_the_sim_command_writes_the_same_frames(tmp_path: Path) -> None:
    """``pegboard sim --script --frames`` itself, on the same store as the scripts say: the
    golden frames are the files each mark names."""
    store = tmp_path / "store"
    for name in ("table.keys", "resume.keys", "muggins.keys", "large_print.keys"):
        script = SCRIPTS[ROOT / marked_scripts.SCRIPT_DIR / name]
        frames = tmp_path / name
        args = ["sim", "--kit", script.kit, "--script", str(script.path), "--frames",
                str(frames)]
        if name not in ("muggins.keys", "large_print.keys"):  # (each a store of its own)
            args += ["--store", str(store)]
        with contextlib.redirect_stdout(io.StringIO()):
            assert pegboard(args) == 0
        for mark in script.marks:
            if mark.kind != "golden":
                continue
            _, frame = shot("golden", mark.name)
            with Image.open(frames / frame.frame) as written:
                assert ImageChops.logical_xor(written.convert("1"), frame.image).getbbox() \
                    is None, f"{mark.name}: {frames / frame.frame}"


# -- what the frames say about the renderer ----------------------------------------------------


@pytest.mark.parametrize("name", sorted(set(SCREENS) - {"saved"}))
def test_render_is_pure(name: str) -> None:
    _, frame = shot("golden", name)
    first, second = render(frame.view), render(frame.view)
    assert first.mode == "1"
    assert first.tobytes() == second.tobytes() == frame.image.tobytes()


def test_link_mark_only_when_link_down() -> None:
    """The LED board's link is never down in a scripted run (there is no board), so the
    mark has no golden frame; drawn on the real play frame it lights the corner."""
    _, frame = shot("golden", "play")
    corner = (128 - 21, 54, 128, 64)
    down = render(replace(frame.view, link="LEDs off")).crop(corner)
    assert ImageChops.logical_xor(frame.image.crop(corner), down).getbbox() is not None
    assert sum(1 for v in down.convert("L").tobytes() if v) > 100  # the inverted LED box


def test_turn_and_dealer_marks_follow_the_view() -> None:
    _, frame = shot("golden", "play")
    sides = frame.view.sides
    swapped = tuple(replace(s, to_act=not s.to_act, dealer=not s.dealer) for s in sides)
    header = (0, 0, 128, 10)
    assert ImageChops.logical_xor(render(replace(frame.view, sides=swapped)).crop(header),
                                  frame.image.crop(header)).getbbox() is not None


# -- the guide's pictures ----------------------------------------------------------------------


PICTURES = sorted(name for kind, name in MARKS if kind == "picture")


@pytest.mark.parametrize("name", PICTURES)
def test_guide_picture(name: str, tmp_path: Path) -> None:
    script, frame = shot("picture", name)
    same(marked_scripts.scaled(frame.image), IMG / f"{name}.png", tmp_path,
         f"{frame.frame} of {script.command()}, scaled {marked_scripts.SCALE}x")


def test_the_docs_show_only_marked_frames() -> None:
    """The guide, docs/accessibility.md and the README show frames the scripts make, and the
    score-race chart that ``pegboard stats --plot`` draws of the guide's game."""
    import re

    from tools import web_shots

    docs = [(ROOT / "docs" / name).read_text(encoding="utf-8")
            for name in ("guide.md", "accessibility.md")]  # (large print's pictures)
    shown = set(re.findall(r"\]\(img/([\w-]+)\.png\)", "\n".join(docs)))
    assert shown and shown <= set(PICTURES)
    assert set(PICTURES) <= shown, "a picture is made that no page of the docs shows"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for path in re.findall(r"(?:src=\"|\]\()((?:tests/golden|docs/img)/[\w-]+\.png)", readme):
        name = Path(path).stem
        if path.startswith("docs/img/"):
            # the scoreboard's pictures are taken in a browser by python -m tools.web_shots
            assert name in PICTURES or name == "race_chart" or name in web_shots.PICTURES, path
        else:
            assert name in SCREENS, path


def test_race_chart_is_pegboard_stats_of_the_guide_game(tmp_path: Path) -> None:
    from pegboard.config import Config
    from pegboard.sim.script import run_script
    from pegboard.store import Store

    store = Store(tmp_path / "store", owner="test")
    try:
        result = run_script(SCRIPTS[ROOT / marked_scripts.GUIDE_KEYS].steps, Config(), store)
    finally:
        store.close()
    record = tmp_path / "game.jsonl"
    record.write_text(result.record, encoding="utf-8")
    chart = tmp_path / "race_chart.png"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert pegboard(["stats", "--record", str(record), "--plot", str(chart)]) == 0
    with Image.open(chart) as drawn:
        same(drawn.copy(), IMG / "race_chart.png", tmp_path, "pegboard stats --plot")
