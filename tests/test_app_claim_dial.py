"""The claim dial in a muggins game, from the player's side: a fast turn moves it by fives,
so a big hand is a few detents; a slow turn still moves it by ones. Time is the event's own
``now``, handed to the real ``step``."""

from __future__ import annotations

from pegboard.app.inputs import RankKey, Turn
from pegboard.app.machine import step
from pegboard.app.view import Screen
from pegboard.rules.cards import Rank
from tests.support.app_driver import OK, App, muggins_game


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


def test_the_dial_starts_at_the_least_the_kinds_named_are_worth() -> None:
    app = claiming_app()
    assert app.view.lines[0] == "fifteen: 2"  # the kind is named: its worth is no secret
    app.feed(OK)
    app.pick("5")  # P2's 5 pairs it: the pair waits for P2's claim
    assert app.view.lines[0] == "pair: 2"
    app.feed(OK)
    app.pick("5")  # P1's third 5: a pair royal (and 25)
    assert app.view.lines[0] == "pair royal: 6"


def test_a_digit_key_starts_a_new_number() -> None:
    app = App.start("keypad")
    app.feed(OK)  # New game
    app.feed(Turn(list(app.view.lines).index("7 Muggins: off")), OK)
    app.feed(Turn(-(app.view.selected or 0)), OK, RankKey(Rank.TWO))  # Start; P1 deals
    for rank in (Rank.FIVE, Rank.TEN, Rank.FIVE):
        app.feed(RankKey(rank))
    assert app.view.lines[0] == "fifteen: 2"
    app.feed(RankKey(Rank.ACE))  # 1, not 21
    assert app.view.lines[0] == "fifteen: 1"
    app.feed(RankKey(Rank.ACE))
    assert app.view.lines[0] == "fifteen: 11"


def test_a_fast_turn_moves_the_claim_by_fives() -> None:
    app = claiming_app()
    assert turn_at(app, 1, 2.0) == 3  # the first detent is a slow one
    assert [turn_at(app, 1, 0.05) for _ in range(3)] == [8, 13, 18]
    assert turn_at(app, 1, 1.0) == 19  # a pause, then one more detent: by one again
    assert turn_at(app, -1, 0.05) == 14  # back fast, by five
    assert turn_at(app, -1, 0.8) == 13


def test_a_slow_turn_moves_the_claim_by_ones() -> None:
    app = claiming_app()
    assert [turn_at(app, 1, 0.5) for _ in range(4)] == [3, 4, 5, 6]
    assert turn_at(app, -20, 0.5) == 0  # never below nothing
