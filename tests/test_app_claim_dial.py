"""The claim dial in a muggins game, from the player's side: a fast turn moves it by fives,
so a big hand is a few detents; a slow turn still moves it by ones. Time is the event's own
``now``, handed to the real ``step``."""

from __future__ import annotations

from pegboard.app.inputs import Turn
from pegboard.app.machine import step
from pegboard.app.view import Screen
from tests.support.app_driver import App, muggins_game


def claiming_app() -> App:
    """A muggins game with P1's fifteen waiting for its claim."""
    app = muggins_game()
    app.pick("5")
    app.pick("10")
    app.pick("5")
    assert app.view.screen is Screen.CLAIM
    return app


def turn_at(app: App, steps: int, gap: float) -> int:
    """Turn ``steps`` detents ``gap`` seconds after the last input; the number on the dial."""
    app.now += gap
    app.state, _ = step(app.state, Turn(steps), app.now)
    line = app.view.lines[0]
    return int(line.rsplit(":", 1)[1])


def test_a_fast_turn_moves_the_claim_by_fives() -> None:
    app = claiming_app()
    assert turn_at(app, 1, 2.0) == 1  # the first detent is a slow one
    assert [turn_at(app, 1, 0.05) for _ in range(3)] == [6, 11, 16]
    assert turn_at(app, 1, 1.0) == 17  # a pause, then one more detent: by one again
    assert turn_at(app, -1, 0.05) == 12  # back fast, by five
    assert turn_at(app, -1, 0.8) == 11


def test_a_slow_turn_moves_the_claim_by_ones() -> None:
    app = claiming_app()
    assert [turn_at(app, 1, 0.5) for _ in range(4)] == [1, 2, 3, 4]
    assert turn_at(app, -20, 0.5) == 0  # never below nothing
