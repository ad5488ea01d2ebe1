"""The simulator's terminal screen: the frame in braille or half blocks, the layout chosen from
the terminal's size, the too-small message, redrawing on a resize, and the keyboard."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from pegboard.app.view import Brightness, Screen, SideView, View
from pegboard.rules.value import replace
from pegboard.sim.screen import LEGENDS, Layout, choose_layout, compose, minimum_size, too_small
from pegboard.sim.terminal import TerminalDisplay, screen_lines, split_keys
from pegboard.ui.render import render
from pegboard.ui.term import BRAILLE, HALF_BLOCKS, frame_to_braille, frame_to_halfblocks

VIEW = View(Screen.PLAY, sides=(SideView("Ann", 45, 38, dealer=True),
                                SideView("Ben", 38, 30, to_act=True)),
            count=23, turn="Ben", award="Fifteen for 2")

# Unicode's braille dot numbers by (x, y) in the 2x4 cell: 1 2 3 down the left, 4 5 6 down
# the right, 7 and 8 along the bottom; dot n is bit n - 1 above U+2800.
DOT_NUMBER = {(0, 0): 1, (0, 1): 2, (0, 2): 3, (1, 0): 4, (1, 1): 5, (1, 2): 6,
              (0, 3): 7, (1, 3): 8}
BLANK = "\u2800"


def single_pixel(x: int, y: int) -> Image.Image:
    image = Image.new("1", (128, 64))
    image.putpixel((x, y), 1)
    return image


def pixels_from_braille(rows: list[str]) -> set[tuple[int, int]]:
    """The lit pixels a braille drawing shows, read back with Unicode's dot numbers."""
    lit = set()
    for cy, row in enumerate(rows):
        for cx, char in enumerate(row):
            bits = ord(char) - 0x2800
            assert 0 <= bits <= 0xFF, f"{char!r} is not a braille pattern"
            for (dx, dy), dot in DOT_NUMBER.items():
                if bits & (1 << (dot - 1)):
                    lit.add((cx * 2 + dx, cy * 4 + dy))
    return lit


def lit_pixels(image: Image.Image) -> set[tuple[int, int]]:
    mono = image.convert("1")
    return {(x, y) for y in range(mono.height) for x in range(mono.width)
            if mono.getpixel((x, y))}


# -- the braille drawing -------------------------------------------------------------------


@pytest.mark.parametrize(("x", "y"), [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2), (0, 3),
                                      (1, 3), (13, 22), (70, 41), (127, 63)])
def test_one_lit_pixel_is_one_braille_dot_in_its_cell(x: int, y: int) -> None:
    rows = frame_to_braille(single_pixel(x, y))
    assert len(rows) == 16 and all(len(row) == 64 for row in rows)
    dot = chr(0x2800 + (1 << (DOT_NUMBER[x % 2, y % 4] - 1)))
    for cy, row in enumerate(rows):
        for cx, char in enumerate(row):
            assert char == (dot if (cx, cy) == (x // 2, y // 4) else BLANK), (cx, cy)


def test_braille_dots_by_name() -> None:
    # Spelled out, so a swapped pair of bits cannot hide behind a shared table.
    assert frame_to_braille(single_pixel(0, 0))[0][0] == "\u2801"  # dot 1
    assert frame_to_braille(single_pixel(1, 0))[0][0] == "\u2808"  # dot 4
    assert frame_to_braille(single_pixel(0, 3))[0][0] == "\u2840"  # dot 7
    assert frame_to_braille(single_pixel(1, 3))[0][0] == "\u2880"  # dot 8
    assert frame_to_braille(single_pixel(5, 6))[1][2] == "\u2820"  # dot 6 of cell (2, 1)
    full = Image.new("1", (4, 4), 1)
    assert frame_to_braille(full) == ["\u28ff\u28ff"]


def test_a_rendered_frame_reads_back_dot_for_dot() -> None:
    image = render(VIEW)
    rows = frame_to_braille(image)
    assert len(rows) == 16 and all(len(row) == 64 for row in rows)
    assert pixels_from_braille(rows) == lit_pixels(image)


def test_an_image_not_a_whole_number_of_cells_is_padded_dark() -> None:
    image = Image.new("1", (3, 5), 1)
    assert frame_to_braille(image) == ["\u28ff\u2847", "\u2809\u2801"]


def test_cell_sizes_of_the_oled_frame() -> None:
    assert BRAILLE.size(128, 64) == (64, 16)
    assert HALF_BLOCKS.size(128, 64) == (128, 32)


# -- choosing the layout -------------------------------------------------------------------


def test_80x24_draws_braille_with_the_board_below() -> None:
    assert choose_layout(80, 24) == Layout(BRAILLE, beside=False)


def test_200x60_draws_half_blocks_with_the_board_beside() -> None:
    assert choose_layout(200, 60) == Layout(HALF_BLOCKS, beside=True)


@pytest.mark.parametrize(("columns", "rows"), [(60, 20), (65, 20), (66, 19), (80, 12), (0, 0)])
def test_too_small_for_any_drawing(columns: int, rows: int) -> None:
    assert choose_layout(columns, rows) is None


@pytest.mark.parametrize(("columns", "rows", "expected"), [
    (66, 20, Layout(BRAILLE, beside=False)),      # the minimum
    (103, 40, Layout(BRAILLE, beside=False)),     # one column short of the board beside
    (104, 24, Layout(BRAILLE, beside=True)),
    (129, 60, Layout(BRAILLE, beside=True)),      # one column short of half blocks
    (130, 35, Layout(BRAILLE, beside=True)),      # one row short of half blocks
    (130, 36, Layout(HALF_BLOCKS, beside=False)),
    (168, 36, Layout(HALF_BLOCKS, beside=True)),
])
def test_the_largest_drawing_that_fits(columns: int, rows: int, expected: Layout) -> None:
    assert choose_layout(columns, rows) == expected


def test_the_legends_fit_the_smallest_layout() -> None:
    width, _ = minimum_size()
    for legend in LEGENDS.values():
        assert len(legend) == 2
        assert all(len(line) <= width for line in legend)


# -- the composed screen -------------------------------------------------------------------


def test_80x24_shows_the_whole_frame_the_scores_and_the_legend() -> None:
    image = render(VIEW)
    lines = screen_lines(image, VIEW, VIEW.sides, 121, "encoder", (80, 24))
    assert len(lines) <= 24 and max(len(line) for line in lines) <= 80
    rows = frame_to_braille(image)
    assert lines[0] == "\u250c" + "\u2500" * 64 + "\u2510"
    assert lines[1:17] == ["\u2502" + row + "\u2502" for row in rows]
    assert lines[17] == "\u2514" + "\u2500" * 64 + "\u2518"
    below = lines[18:-2]
    # Under the frame its words, which its dots are too small to read: the scores, then
    # what the screen says, packed side by side.
    assert below[0] == "Ann (D) 45   >Ben 38   to 121 \u2502 Count 23, Ben to play  Fifteen for 2"
    assert lines[-2:] == list(LEGENDS["encoder"])


def test_80x24_gives_the_highlighted_option_and_the_pages_words() -> None:
    menu = View(Screen.MENU, "Menu", ("Scores", "Penalty", "Rule help"), 1,
                sides=VIEW.sides, hint="OK choose")
    below = screen_lines(render(menu), menu, menu.sides, 121, "encoder", (80, 24))[18:-2]
    assert below[0] == ("Ann (D) 45   >Ben 38   to 121 \u2502 Menu \u2502 > Penalty \u2502 "
                        "Rule help \u2502 OK choose")
    page = View(Screen.MESSAGE, "The cut", ("Ann cut 4", "Ben cut 9", "Ann deals: low card"),
                sides=VIEW.sides, hint="OK next")
    below = screen_lines(render(page), page, page.sides, 121, "encoder", (80, 24))[18:-2]
    assert below[0].endswith("The cut \u2502 Ann cut 4 \u2502 Ben cut 9")
    assert below[1] == "Ann deals: low card \u2502 OK next"


def test_80x24_shows_the_pegging_coach_s_line_whole() -> None:
    """The play screen's bottom line holds 21 columns, so the frame shows a long coach line's
    start ("Lay 7"); the panel under it says the line whole, after the count."""
    line = "Lay 7: a 6 back, your 3 makes thirty-one for 2"
    play = replace(VIEW, award="", coach=line)
    below = screen_lines(render(play), play, play.sides, 121, "keypad", (80, 24))[18:-2]
    text = " \u2502 ".join(below)
    assert f"Count 23, Ben to play \u2502 {line}" in text


def test_80x24_shows_every_line_of_a_count_page_and_what_go_sets() -> None:
    # A count page as long as a big hand makes, with its suit facts in words and the keys.
    lines = ("fifteen 2 (7 8)", "fifteen 4 (7 8)", "fifteen 6 (6 9)", "fifteen 8 (6 9)",
             "double run is 16", "  (6 7 8 8 9)", "flush of 4 is 20", "cards: 6 7 8 8",
             "suits: flush of 4", "GO: flush 4, nobs")
    page = View(Screen.SHOW, "Ann's hand: 20", lines, sides=VIEW.sides,
                hint="OK next  GO +flush 4 nobs", suits=lines[-2:])
    below = screen_lines(render(page), page, page.sides, 121, "encoder", (80, 24))[18:-2]
    text = " \u2502 ".join(below)
    for line in (page.title, *lines, page.hint):
        assert line.strip() in text, line
    page = replace(page, lines=tuple(f"Line {n} of a long rule help" for n in range(20)),
                   first_line=6)
    below = screen_lines(render(page), page, page.sides, 121, "encoder", (80, 24))[18:-2]
    text = " ".join(below)
    assert "Line 6 of" in text and "Line 5 of" not in text
    assert "(turn for more)" in below[-1]
    assert below[-1].endswith(page.hint)  # what the keys do is never cut off


def test_keypad_legend_at_80x24() -> None:
    lines = screen_lines(render(VIEW), VIEW, VIEW.sides, 121, "keypad", (80, 24))
    assert "0/t ten" in lines[-2] and "x quit" in lines[-1]


def test_wide_terminal_puts_board_beside_the_half_block_frame() -> None:
    image = render(VIEW)
    lines = screen_lines(image, VIEW, VIEW.sides, 121, "encoder", (200, 60))
    rows = frame_to_halfblocks(image)
    assert len(rows) == 32 and all(len(row) == 128 for row in rows)
    assert lines[0].endswith("\u2510  PEGBOARD simulator   to 121")
    assert lines[1].startswith("\u2502" + rows[0] + "\u2502")
    assert any("Ann (D)" in line and " 45 [" in line for line in lines)
    assert any("> Ben" in line and " 38 [" in line for line in lines)
    assert any("Count 23 - Ben to play" in line for line in lines)
    assert lines[-3] == ""
    assert lines[-2].startswith("Keys:") and "x quit" in lines[-1]


def test_a_short_board_below_keeps_its_scores_first() -> None:
    board = ["PEGBOARD simulator", "> Ann  5", "  Ben  3", "  Cat  9", "", "Count 7", "Go"]
    lines = compose(Image.new("1", (128, 64)), board, LEGENDS["encoder"], 80, 24)
    assert lines[18:22] == board[:4]
    assert lines[22:] == list(LEGENDS["encoder"])


@pytest.mark.parametrize("columns", [0, 1, 20, 65, 66, 67, 80, 103, 104, 129, 130, 168, 250])
@pytest.mark.parametrize("rows", [0, 1, 5, 19, 20, 21, 24, 35, 36, 37, 60])
def test_every_size_gets_a_screen_that_fits(columns: int, rows: int) -> None:
    extra = ["link: up (a status line longer than the board is wide, to be cut)", "LEDs lit: 4"]
    lines = screen_lines(render(VIEW), VIEW, VIEW.sides, 121, "encoder", (columns, rows),
                         extra=extra)
    assert len(lines) <= rows
    assert all(len(line) <= columns for line in lines)
    if choose_layout(columns, rows) is not None:
        assert lines[-2:] == list(LEGENDS["encoder"])


def test_too_small_says_what_is_needed_and_what_it_is() -> None:
    lines = compose(render(VIEW), ["PEGBOARD simulator"], LEGENDS["encoder"], 60, 20)
    assert lines == too_small(60, 20)
    text = " ".join(lines)
    assert "Pegboard needs a terminal of at least 66x20; this one is 60x20." in text
    assert "Make the window larger." in text and "x quits" in text
    assert all(len(line) <= 60 for line in lines)
    assert not any(char in text for char in "\u2502\u2580\u2800")


def test_too_small_to_say_anything() -> None:
    assert too_small(0, 0) == [] and too_small(10, 0) == []
    assert too_small(5, 2) == ["Pegbo", "ard"]


# -- the display: drawing, blanking, resizing ----------------------------------------------

DRAWN_LINE = re.compile(r"\x1b\[(\d+);1H\x1b\[2K([^\x1b]*)")


def last_screen(text: str) -> dict[int, str]:
    """Row number to text, for the last drawing written (each starts with ESC [ H)."""
    drawing = text.rsplit("\x1b[H", 1)[1]
    return {int(row): line for row, line in DRAWN_LINE.findall(drawing)}


class Terminal:
    """A terminal of a size the test changes, written to a string."""

    def __init__(self, columns: int, rows: int) -> None:
        self.size = (columns, rows)
        self.out = io.StringIO()

    def display(self, kit: str = "encoder") -> TerminalDisplay:
        return TerminalDisplay(kit, out=self.out, size=lambda: self.size)


def test_blank_screen_is_dark_in_the_terminal() -> None:
    term = Terminal(200, 60)
    display = term.display()
    blank = View(Screen.PLAY, sides=VIEW.sides, brightness=Brightness.BLANK)
    display.frame(blank, render(VIEW))
    assert "\u2588" not in term.out.getvalue().split("PEGBOARD")[0]
    display.set_power(True)
    assert "\u2588" in term.out.getvalue().rsplit("\x1b[H", 1)[1]


def test_a_full_height_drawing_never_scrolls() -> None:
    term = Terminal(80, 24)
    display = term.display()
    display.frame(VIEW, render(VIEW))
    written = term.out.getvalue()
    assert "\n" not in written  # every line is placed by its row: nothing can scroll
    screen = last_screen(written)
    assert sorted(screen) == list(range(1, 25))
    assert screen[2] == "\u2502" + frame_to_braille(render(VIEW))[0] + "\u2502"
    assert screen[24] == LEGENDS["encoder"][1]


def test_resizing_redraws_to_fit() -> None:
    term = Terminal(80, 24)
    display = term.display()
    display.frame(VIEW, render(VIEW))
    assert not display.refit()  # same size: nothing to do
    term.size = (60, 20)
    assert display.refit()
    small = last_screen(term.out.getvalue())
    assert " ".join(small.values()).startswith(
        "Pegboard needs a terminal of at least 66x20; this one is 60x20.")
    assert "\x1b[J" in term.out.getvalue().rsplit("\x1b[H", 1)[1]  # the old frame is cleared
    term.size = (200, 60)
    assert display.refit()
    large = last_screen(term.out.getvalue())
    assert large[2].startswith("\u2502" + frame_to_halfblocks(render(VIEW))[0])
    assert large[1].endswith("PEGBOARD simulator   to 121")


def test_too_small_at_the_start_still_runs_and_grows() -> None:
    term = Terminal(40, 10)
    display = term.display("keypad")
    display.frame(VIEW, render(VIEW))
    assert "66x20" in " ".join(last_screen(term.out.getvalue()).values())
    term.size = (80, 24)
    display.refit()
    assert last_screen(term.out.getvalue())[23] == LEGENDS["keypad"][0]


def test_shutdown_frame_is_left_only_when_it_fits() -> None:
    term = Terminal(60, 20)
    display = term.display()
    display.frame(VIEW, render(VIEW))
    before = term.out.getvalue()
    display.close(render(View(Screen.SAVED, title="Game saved")))
    assert term.out.getvalue() == before  # no "the game carries on" after it has stopped
    term.size = (80, 24)
    display.close(render(View(Screen.SAVED, title="Game saved")))
    assert term.out.getvalue().endswith(LEGENDS["encoder"][1] + "\r\n")


# -- the keyboard --------------------------------------------------------------------------


def test_arrow_keys_split_across_reads_are_joined() -> None:
    keys, rest = split_keys("g\x1b")
    assert keys == ["g"] and rest == "\x1b"
    keys, rest = split_keys(rest + "[C\x1b[D")
    assert keys == ["\x1b[C", "\x1b[D"] and rest == ""


def test_every_keypad_rank_can_be_held_from_the_keyboard() -> None:
    """Suit facts on the keypad kit are held rank keys: each rank has a key that holds it."""
    from pegboard.sim.terminal import KEYPAD_KEYS

    held = {step.key for step in KEYPAD_KEYS.values() if step.hold}
    ranks = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}
    assert ranks <= held, ranks - held
