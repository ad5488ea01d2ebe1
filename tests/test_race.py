"""The score race picture: OLED image, PNG chart and SVG chart.

Golden files: tests/golden/race_*.png and tests/golden_text/race_*.svg. After a deliberate
change to the drawing, regenerate them with ``PEGBOARD_REGEN_GOLDEN=1 pytest tests/test_race.py``
and look at the new pictures before committing them.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from pegboard.rules.state import Skunk
from pegboard.stats import Race, skunk_lines
from pegboard.ui.race import (
    CHART_SIZE,
    OLED_SIZE,
    PlotFormatError,
    race_image,
    race_png,
    race_svg,
    write_plot,
)

HERE = Path(__file__).parent
REGEN = os.environ.get("PEGBOARD_REGEN_GOLDEN") == "1"

# A two-player game to 121 won by Ann with Ben skunked on 89.
SKUNK = Race(
    ("Ann", "Ben"), 121,
    ((0, 0), (10, 14), (25, 22), (40, 35), (52, 60), (70, 66), (88, 75), (101, 80), (121, 89)),
    0, Skunk.SKUNK,
)
# A three-player game to 61 won by Cat.
THREE = Race(
    ("Ann", "Ben", "Cat"), 61,
    ((0, 0, 0), (5, 9, 3), (20, 14, 12), (33, 29, 30), (40, 46, 61)),
    2, Skunk.NONE,
)
# Partnerships to 121, a close finish; the winners peg out past the game hole (123).
PARTNERS = Race(
    ("Ann & Cat", "Ben & Dan"), 121,
    tuple((min(123, 9 * k), min(117, 9 * k - 2) if k else 0) for k in range(15)),
    0, Skunk.NONE,
)
CASES = {"skunk": SKUNK, "three": THREE, "partners": PARTNERS}


def check_png(name: str, image: Image.Image) -> None:
    path = HERE / "golden" / f"race_{name}.png"
    if REGEN:
        image.save(path)
    assert path.exists(), f"missing {path}; run with PEGBOARD_REGEN_GOLDEN=1"
    with Image.open(path) as golden:
        assert golden.mode == image.mode and golden.size == image.size
        diff = ImageChops.difference(golden.convert("RGB"), image.convert("RGB")).getbbox()
    assert diff is None, f"race_{name}.png differs from its golden image in {diff}"


def check_text(name: str, text: str) -> None:
    path = HERE / "golden_text" / name
    if REGEN:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing {path}; run with PEGBOARD_REGEN_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from its golden file"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_oled_image(name: str) -> None:
    image = race_image(CASES[name])
    assert image.mode == "1" and image.size == OLED_SIZE
    check_png(f"oled_{name}", image)


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_chart_png_and_svg(name: str) -> None:
    image = race_png(CASES[name])
    assert image.size == CHART_SIZE
    check_png(f"chart_{name}", image)
    check_text(f"race_{name}.svg", race_svg(CASES[name]))


def lit(image: Image.Image, x: int, y: int) -> bool:
    return bool(image.getpixel((x, y)))


def test_oled_marks_the_skunk_rows_and_the_final_points() -> None:
    image = race_image(SKUNK)
    # Score s is drawn at row round(63 - s * 63 / 121); the skunk line sits between 90 and 91.
    skunk_row = round(63 - 90.5 * 63 / 121)
    double_row = round(63 - 60.5 * 63 / 121)
    assert skunk_row == 16 and double_row == 32
    dots = [x for x in range(88) if lit(image, x, skunk_row)]
    assert {0, 4, 8, 80, 84} <= set(dots)
    assert lit(image, 0, double_row) and lit(image, 8, double_row) and lit(image, 80, double_row)
    # Both sides start at the bottom-left corner; Ann finishes top-right at 121.
    assert lit(image, 0, 63)
    assert lit(image, 87, 0)
    # Ben ends on 89: the last column at his row.
    assert lit(image, 87, round(63 - 89 * 63 / 121))


def test_oled_61_hole_game_has_one_skunk_line_at_30() -> None:
    assert skunk_lines(61) == (30, None)
    image = race_image(THREE)
    row = round(63 - 30.5 * 63 / 61)
    assert lit(image, 0, row) and lit(image, 4, row) and not lit(image, 2, row)
    # Only one dotted row: no double-skunk line in a 61-hole game (a 121 game has two).
    def dotted_rows(picture: Image.Image) -> list[int]:
        return [y for y in range(64) if all(lit(picture, x, y) for x in range(0, 88, 8))]

    assert dotted_rows(image) == [row]
    assert len(dotted_rows(race_image(SKUNK))) == 2


def test_svg_is_well_formed_and_marks_skunk_lines() -> None:
    root = ET.fromstring(race_svg(SKUNK))
    ns = "{http://www.w3.org/2000/svg}"
    skunks = [e for e in root.iter(f"{ns}line") if e.get("class") == "skunk"]
    assert len(skunks) == 2
    texts = [e.text for e in root.iter(f"{ns}text")]
    assert "skunk 90/91" in texts and "double skunk 60/61" in texts
    assert "Ann 121  won" in texts and "Ben 89" in texts
    polyline = next(e for e in root.iter(f"{ns}polyline") if e.get("class") == "side1")
    points = polyline.get("points", "").split()
    assert len(points) == len(SKUNK.scores)
    # Ben's last point: x at the right edge (470), y for 89 of 121 between 36 and 360.
    assert points[-1] == f"470,{round(360 - 89 * 324 / 121, 1)}"


def test_svg_61_game_has_one_skunk_line() -> None:
    root = ET.fromstring(race_svg(THREE))
    skunks = [e for e in root.iter("{http://www.w3.org/2000/svg}line")
              if e.get("class") == "skunk"]
    assert len(skunks) == 1
    assert "skunk 30/31" in (race_svg(THREE))


def test_write_plot_chooses_the_format_by_extension(tmp_path: Path) -> None:
    png = write_plot(SKUNK, tmp_path / "race.PNG")
    with Image.open(png) as image:
        assert image.format == "PNG" and image.size == CHART_SIZE
    svg = write_plot(SKUNK, tmp_path / "race.svg")
    assert svg.read_text(encoding="utf-8").startswith("<svg")
    with pytest.raises(PlotFormatError, match=r"'race\.jpg'.*\.png or \.svg"):
        write_plot(SKUNK, "race.jpg")
    assert not (tmp_path / "race.jpg").exists()


def test_a_game_with_no_deals_yet_still_draws() -> None:
    empty = Race(("Ann", "Ben"), 121, ((0, 0),))
    image = race_image(empty)
    assert lit(image, 0, 63)
    assert "<polyline" in race_svg(empty)
