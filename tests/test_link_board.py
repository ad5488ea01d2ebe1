"""The board value the device loop builds from the game's scores."""

from __future__ import annotations

import pytest

from pegboard.config import LedsConfig
from pegboard.errors import PegboardError
from pegboard.link.board import BoardError, BoardState, parse_colour
from pegboard.link.layout import led_config_from


def test_the_side_that_scored_is_given_not_guessed() -> None:
    # Side 0 moved further, but the engine said side 1 scored last (a take-back moved 0).
    board = BoardState.from_scores([4, 6, 0], previous=[10, 0, 0], last=1)
    assert board.last == 1
    assert BoardState.from_scores([4, 6], previous=[0, 6]).last is None


def test_from_scores_puts_overshoots_in_the_game_hole() -> None:
    board = BoardState.from_scores([123, 90], previous=[117, 90], last=0, winner=0)
    assert board.front == (121, 90) and board.back == (117, 90)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"front": (1,), "back": (0,)}, "a board shows 2 or 3 sides, not 1"),
        ({"front": (1, 2), "back": (0,)}, "must give one score per side (2)"),
        ({"front": (1, 122), "back": (0, 0)}, "peg at 122 is off the board"),
        ({"front": (1, 2), "back": (0, 0), "winner": 2}, "winner=2 is not a side"),
        ({"front": (1, 2), "back": (0, 0), "target": 100}, "target 100 is not 61 or 121"),
        ({"front": (1, 2), "back": (0, 0), "colours": ((1, 2, 3),)}, "one colour per side"),
    ],
)
def test_bad_boards_are_named(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(BoardError) as caught:
        BoardState(**kwargs)  # type: ignore[arg-type]
    assert message in str(caught.value)
    assert isinstance(caught.value, PegboardError) and isinstance(caught.value, ValueError)


def test_colours() -> None:
    assert parse_colour("#e02020") == (224, 32, 32)
    with pytest.raises(BoardError, match="colour 'mauve' is not understood"):
        parse_colour("mauve")


def test_settings_from_the_config_file() -> None:
    leds = LedsConfig()
    cfg = led_config_from(leds)
    assert cfg.tracks == leds.sides and cfg.led_count == leds.count
    assert cfg.hole1_end == "left" and cfg.serpentine == leds.serpentine
    assert cfg.brightness == round(leds.brightness * 255) and cfg.budget_ma == leds.budget_ma
    assert [parse_colour(c) for c in leds.colours][:2] == [(224, 32, 32), (32, 80, 240)]
