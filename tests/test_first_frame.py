"""The first frame: a splash with the game being restored, drawn before the device is loaded."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pegboard.app.session import Session
from pegboard.config import Config
from pegboard.sim.keys import parse_script
from pegboard.sim.screen import compose
from pegboard.sim.script import run_script
from pegboard.store import Store, StoreReader
from pegboard.store.peek import glance
from pegboard.ui.splash import side_names, splash
from tests.support.fresh import printed_json
from tests.support.terminal import Terminal

ROOT = Path(__file__).resolve().parent.parent
GUIDE = (ROOT / "docs" / "guide.keys").read_text(encoding="utf-8")


def _play_part_of_the_guide(store_path: Path, lines: int = 20) -> None:
    script = "\n".join(GUIDE.splitlines()[:lines])
    with Store(store_path, owner="test") as store:
        run_script(parse_script(script), Config(), store)


def _true_scores(store_path: Path) -> tuple[int, ...]:
    current = StoreReader(store_path).current()
    assert current is not None
    return tuple(Session.resume(current.lines).state.scores)


def test_each_saved_entry_keeps_the_scores_it_left(tmp_path: Path) -> None:
    _play_part_of_the_guide(tmp_path)
    seen = glance(tmp_path)
    assert seen is not None
    assert seen.players == ("Ann", "Ben")
    assert seen.scores == _true_scores(tmp_path) and sum(seen.scores) > 0


def test_a_damaged_last_line_falls_back_to_the_line_before(tmp_path: Path) -> None:
    _play_part_of_the_guide(tmp_path)
    log = tmp_path / "current.log"
    lines = log.read_bytes().splitlines(keepends=True)
    before = glance(tmp_path)
    log.write_bytes(b"".join(lines[:-1]) + lines[-1][:-9] + b"garbage\n")
    after = glance(tmp_path)
    assert after is not None and after.players == ("Ann", "Ben")
    assert before is not None and before.scores is not None
    assert after.scores is not None and sum(after.scores) <= sum(before.scores)


def test_no_game_or_a_game_without_scores(tmp_path: Path) -> None:
    assert glance(tmp_path) is None  # no store at all
    with Store(tmp_path, owner="test") as store:
        store.new_game({"type": "game", "players": ["Ann", "Ben", "Cat", "Dan"]})
        store.append({"type": "deal", "dealer": 0})  # written without scores
    seen = glance(tmp_path)
    assert seen is not None and seen.players == ("Ann", "Ben", "Cat", "Dan")
    assert seen.scores is None
    (tmp_path / "current.log").write_bytes(b"not a log\n")
    assert glance(tmp_path) is None


def test_partners_share_a_line_on_the_splash() -> None:
    assert side_names(["Ann", "Ben", "Cat", "Dan"], 2) == ["Ann & Cat", "Ben & Dan"]
    assert side_names(["Ann", "Ben", "Cat"], 3) == ["Ann", "Ben", "Cat"]
    assert splash(["Ann", "Ben"], (12, 7)) != splash(["Ann", "Ben"], (12, 8))


def test_the_splash_is_drawn_without_the_engine_the_app_or_the_pins(tmp_path: Path) -> None:
    _play_part_of_the_guide(tmp_path)
    code = (
        "import io, json, sys\n"
        "from pegboard.sim.splash import draw_splash\n"
        f"draw_splash(io.StringIO(), {str(tmp_path)!r})\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    modules, _ = printed_json(code)
    loaded = set(modules)
    for heavy in ("pegboard.rules", "pegboard.app", "pegboard.device.loop", "gpiozero",
                  "luma", "PIL.ImageFont", "pegboard.store.store", "dataclasses"):
        assert heavy not in loaded, heavy


def test_the_simulators_first_frame_is_the_splash_with_the_restored_scores(
    tmp_path: Path,
) -> None:
    _play_part_of_the_guide(tmp_path)
    expected = compose(splash(("Ann", "Ben"), _true_scores(tmp_path)),
                       ["PEGBOARD simulator", "", "Starting..."], ("", ""), 80, 24)
    with Terminal(["-m", "pegboard", "sim", "--store", str(tmp_path)]) as sim:
        # The splash, then the simulator's own frame with the key legend.
        seen = sim.read_until(b"Keys:", 30)
        os.write(sim.fd, b"x")  # quit: the game is saved
        seen = sim.read_to_end(30, seen)
    first = seen.split(b"\x1b[?1049h", 1)[1].split(b"Keys:", 1)[0].decode()
    for row, line in enumerate(expected, start=1):
        assert f"\x1b[{row};1H\x1b[2K{line}" in first, (row, line)
    assert sim.status == 0
    assert _true_scores(tmp_path) == glance(tmp_path).scores  # type: ignore[union-attr]


@pytest.mark.parametrize("argv", [["sim", "--demo"]])
def test_a_headless_run_draws_no_splash(argv: list[str]) -> None:
    done = subprocess.run([sys.executable, "-m", "pegboard", *argv], capture_output=True,
                          text=True, check=True, stdin=subprocess.DEVNULL)
    assert "\x1b[?1049h" not in done.stdout and "-- frame 1" in done.stdout


def test_the_glyph_file_is_pillows_font() -> None:
    """``pegboard/ui/glyphs.txt`` is what ``python -m pegboard.ui.glyphs`` makes of Pillow's
    built-in font, and each glyph drawn alone is the font's."""
    from PIL import Image, ImageDraw, ImageFont

    from pegboard.ui.glyphs import FILE, cell_mask, from_pillow, text_of

    assert (ROOT / "pegboard" / "ui" / FILE).read_text(encoding="ascii") == text_of(from_pillow())
    font = ImageFont.load_default_imagefont()
    for char in "A5jQ&g":
        drawn = Image.new("1", (6, 12), 0)
        ImageDraw.Draw(drawn).text((0, 0), char, font=font, fill=1)
        assert cell_mask(char).tobytes() == drawn.tobytes(), char
