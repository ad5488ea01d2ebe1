"""Large print, read from the pixels: the simulator with luma's ``dummy`` device as its OLED
and ``[display] large_print = true`` in its config, keys pressed on gpiozero's mock pins.

Each frame is read back as a person would: the lit shapes (and the dark shapes on a lit box)
are matched against Pillow's own font, glyph by glyph, at any whole-number scale, so a test
learns which number or card is drawn and how many pixels high its ink is. Nothing is read
from the layout code.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

from pegboard.app import machine
from pegboard.app.inputs import KnobTurn
from pegboard.app.view import Screen, View
from pegboard.config import Config, DisplayConfig, parse_config
from pegboard.hw.oled import OledDisplay, open_dummy
from pegboard.rules.value import replace
from pegboard.sim.fakes import FakeClock
from pegboard.sim.keys import expand, parse_script
from pegboard.sim.session import Simulator
from pegboard.store import Store
from pegboard.ui import large, text
from pegboard.ui.render import render
from tests.support.app_driver import OK, App

GLYPHS = "0123456789AJQK"
DIGIT_MIN_H = 24
"""The issue's figure: the scores and the count in digits at least this many pixels high."""
CARD_MIN_H = 56
"""The card being chosen fills the screen: its ink at least 7/8 of the 64 rows."""

TO_THE_CUT = """
ok
right*2 ok right ok
left*3 ok
ok
left*2 ok
go left ok
"""
"""New game (Ann and Ben), cut for deal: Ann cuts a 4, Ben a 9 (the cut's page is up)."""
TO_THE_PLAY = TO_THE_CUT + """
ok
left ok
right left*4 ok right ok
"""
"""Then the starter 5 and the play: Ben 7 (his wheel, on the 10, turned to the J and then
down past the 9 and 8), Ann 8 (fifteen for 2): Ben is to play at 15."""


# -- reading glyphs back from pixels --------------------------------------------------------------


@functools.cache
def words() -> dict[tuple[tuple[int, int], bytes], str]:
    """Every number a score or count can be and every card rank, drawn in Pillow's built-in
    bitmap font and cropped to the ink, by their pixels."""
    font = ImageFont.load_default_imagefont()
    known = {}
    for word in [str(n) for n in range(200)] + list(GLYPHS):
        image = Image.new("1", (6 * len(word) + 6, 14), 0)
        ImageDraw.Draw(image).text((0, 0), word, font=font, fill=1)
        box = image.getbbox()
        assert box is not None
        ink = image.crop(box)
        known[(ink.size, ink.tobytes())] = word
    return known


@dataclass(frozen=True)
class Read:
    """Text read off the screen: its glyphs, where its ink starts and how big it is."""

    text: str
    x: int
    y: int
    width: int
    height: int


def _components(image: Image.Image) -> list[tuple[int, int, Image.Image]]:
    """Each 8-connected shape of lit pixels: its corner and its ink, cropped."""
    pixels = image.load()
    assert pixels is not None
    width, height = image.size
    seen: set[tuple[int, int]] = set()
    shapes = []
    for x0 in range(width):
        for y0 in range(height):
            if not pixels[x0, y0] or (x0, y0) in seen:
                continue
            stack, points = [(x0, y0)], []
            seen.add((x0, y0))
            while stack:
                x, y = stack.pop()
                points.append((x, y))
                for dx in (-1, 0, 1):
                    for dy in (-1, 0, 1):
                        near = (x + dx, y + dy)
                        if (0 <= near[0] < width and 0 <= near[1] < height
                                and near not in seen and pixels[near]):
                            seen.add(near)
                            stack.append(near)
            left, top = min(p[0] for p in points), min(p[1] for p in points)
            right, bottom = max(p[0] for p in points), max(p[1] for p in points)
            shape = Image.new("1", (right - left + 1, bottom - top + 1), 0)
            for x, y in points:
                shape.putpixel((x - left, y - top), 1)
            shapes.append((left, top, shape))
    return shapes


def _word(shape: Image.Image) -> str | None:
    """The number or rank ``shape`` is, drawn at whole-number scales of width and height."""
    for sy in range(min(shape.height, 12), 0, -1):
        for sx in range(min(shape.width, 12), 0, -1):
            if shape.height % sy or shape.width % sx:
                continue
            small = shape.resize((shape.width // sx, shape.height // sy),
                                 Image.Resampling.NEAREST)
            back = small.resize(shape.size, Image.Resampling.NEAREST)
            word = words().get((small.size, small.tobytes()))
            # (a shape may also be even at a coarser scale than it was drawn: the 1 is)
            if word is not None and ImageChops.logical_xor(back, shape).getbbox() is None:
                return word
    return None


def read(image: Image.Image) -> list[Read]:
    """Every number or card on the screen, lit or dark on a lit box: glyphs of one height
    whose tops line up and that stand closer than a glyph's width make one reading."""
    found: list[Read] = []
    for source in (image, ImageChops.invert(image.convert("L")).convert("1")):
        for x, y, shape in _components(source):
            glyph = _word(shape)
            if glyph is not None:
                found.append(Read(glyph, x, y, shape.width, shape.height))
    found.sort(key=lambda r: (r.y, r.height, r.x))
    joined: list[Read] = []
    for piece in found:
        last = joined[-1] if joined else None
        if (last is not None and (last.y, last.height) == (piece.y, piece.height)
                and 0 <= piece.x - (last.x + last.width) <= piece.width):
            joined[-1] = Read(last.text + piece.text, last.x, last.y,
                              piece.x + piece.width - last.x, last.height)
        else:
            joined.append(piece)
    return joined


# -- the device -------------------------------------------------------------------------------


def play(script: str, store: Path, *, large: bool) -> list[tuple[View, Image.Image]]:
    """``script`` played on the mock pins (a new store in ``store``); every frame as luma's
    dummy device holds it."""
    device = open_dummy()
    frames: list[tuple[View, Image.Image]] = []
    config = Config(display=DisplayConfig(large_print=large))
    with Store(store, owner="test") as opened:
        sim = Simulator(config, opened, OledDisplay(device), clock=FakeClock(),
                        on_frame=lambda view, _: frames.append((view, device.image.convert("1"))))
        try:
            sim.start()
            for step in expand(parse_script(script)):
                sim.press(step)
        finally:
            sim.close()
    return frames


@pytest.fixture(scope="module")
def large_game(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[View, Image.Image]]:
    return play(TO_THE_PLAY, tmp_path_factory.mktemp("store"), large=True)


def test_the_count_and_the_scores_are_digits_at_least_24_pixels_high(
        large_game: list[tuple[View, Image.Image]]) -> None:
    plays = [(view, image) for view, image in large_game if view.screen is Screen.PLAY]
    assert plays and all(view.large_print for view, _ in plays)
    for view, image in plays:
        big = {r.text for r in read(image) if r.height >= DIGIT_MIN_H}
        numbers = {str(side.score) for side in view.sides} | {str(view.count)}
        assert numbers <= big, (numbers, read(image))
    view, image = plays[-1]
    assert (view.count, [s.score for s in view.sides]) == (15, [2, 0])


def test_the_card_being_chosen_fills_the_screen(
        large_game: list[tuple[View, Image.Image]]) -> None:
    """On the cut and the starter the wheel's card takes the screen's height (and in the play
    its full-height column): every rank the wheel passed, read back from the pixels."""
    seen: set[str] = set()
    for view, image in large_game:
        if view.picker is None:
            continue
        tallest = max(read(image), key=lambda r: r.height)
        assert tallest.text == view.picker.candidate
        assert tallest.height >= CARD_MIN_H, (view.screen, tallest)
        if view.screen is not Screen.PLAY:
            assert tallest.width >= 4 * tallest.height // 7 - 2  # not a thin sliver
        seen.add(view.picker.candidate)
    assert {"4", "5", "6", "7", "8", "9", "10", "J"} <= seen


def test_the_usual_screens_fail_the_same_reading(
        large_game: list[tuple[View, Image.Image]]) -> None:
    """The same views drawn without large print: the reading finds none of the count and
    the scores at 24 pixels (the count is 21 high, the scores 14), so the test above fails on
    the usual layout."""
    view = next(view for view, _ in reversed(large_game) if view.screen is Screen.PLAY)
    image = render(replace(view, large_print=False))
    assert not [r for r in read(image) if r.height >= DIGIT_MIN_H]
    assert max(read(image), key=lambda r: r.height).height < CARD_MIN_H


def test_the_link_down_mark_covers_no_digit(
        large_game: list[tuple[View, Image.Image]]) -> None:
    """With the LED board down, its mark takes the count's label in the play: the count and
    the scores read as before, as high and as wide."""
    view, image = next((v, i) for v, i in reversed(large_game) if v.screen is Screen.PLAY)
    down = render(replace(view, link="LEDs off"))
    assert ImageChops.logical_xor(down, image).getbbox() is not None
    big = {(r.text, r.height, r.width) for r in read(image) if r.height >= DIGIT_MIN_H}
    assert {(r.text, r.height, r.width) for r in read(down) if r.height >= DIGIT_MIN_H} == big


def test_large_print_is_a_config_key_and_a_setup_row() -> None:
    config = parse_config("[display]\nlarge_print = true\n")
    assert config.display.large_print and not Config().display.large_print
    app = App.start().feed(OK, KnobTurn(-2))  # New game; two turns back from Start
    assert app.view.lines[app.view.selected or 0] == "Large print: off"
    assert not app.view.large_print
    app.feed(OK)
    assert app.view.lines[-2] == "Large print: on" and app.view.large_print
    assert machine.view(machine.initial_state(config)).large_print


@pytest.mark.parametrize(("large", "last"), [(True, 3), (False, 2)])
def test_a_page_scrolls_to_its_last_line_in_large_print(tmp_path: Path, large: bool,
                                                        last: int) -> None:
    """A few lines fill a large-print page, so turning goes on until the last is at the top
    (the usual screen stops with its last two lines in view)."""
    frames = play(TO_THE_CUT + "right*5", tmp_path / "store", large=large)
    view, _ = frames[-1]
    assert view.screen is Screen.MESSAGE and view.title == "The cut" and len(view.lines) == 4
    assert view.first_line == last


@functools.cache
def game_over_app() -> App:
    """A whole game played (seed 1 on the keypad, by ear), on its game-over screen, in
    large print."""
    from pegboard.app.inputs import Button, Press
    from tests.support.listening import Listener, true_game

    game = true_game(1, 121, suits=True)
    assert game is not None
    _, plan, counts = game
    listener = Listener("keypad", list(plan), counts)
    listener.play()
    app = App.start("keypad")
    app.state = replace(listener.state, setup=replace(listener.state.setup, large_print=True))
    while app.view.screen is not Screen.GAME_OVER:
        app.feed(Press(Button.OK))
    return app


def test_large_print_shows_every_result_line_whole_turning_through_them() -> None:
    """Two rows of big words fit under the scores: the result's lines are shown whole, as
    many as fit, the title first, and turning scrolls a line at a time to the last (before,
    the screen showed the title and "No skunk:", cut)."""
    app = game_over_app()
    view = app.view
    assert view.title == "P1 wins" and view.lines == (
        "No skunk: 2 game pts", "Spread 19 (from 121)")
    shown: list[list[str]] = []
    for _ in range(4):
        image = render(app.view)
        words = image.crop((0, 31, large.WIDTH - text.CHAR_W, large.HEIGHT))  # (under the box)
        rows = [row for row in (["P1 wins"], ["No skunk:", "2 game pts"],
                                ["Spread 19", "(from 121)"])
                if words.tobytes() == _drawn(row).tobytes()]
        shown.append(rows[0] if rows else [])
        app.feed(KnobTurn(1))
    assert shown == [["P1 wins"], ["No skunk:", "2 game pts"], ["Spread 19", "(from 121)"],
                     ["Spread 19", "(from 121)"]]


def _drawn(rows: list[str]) -> Image.Image:
    """``rows`` of big words as large print draws them under the scores (cropped alike)."""
    image = Image.new("1", (large.WIDTH, large.HEIGHT), 0)
    for at, row in enumerate(rows):
        large._words(image, 0, 30 + at * large._WORD_H, row)
    return image.crop((0, 31, large.WIDTH - text.CHAR_W, large.HEIGHT))


def test_without_large_print_turning_leaves_the_result_as_it_is() -> None:
    app = game_over_app()
    plain = App.start("keypad")
    plain.state = replace(app.state, setup=replace(app.state.setup, large_print=False))
    before = plain.view
    plain.feed(KnobTurn(1))
    assert plain.view == before and before.first_line == 0
