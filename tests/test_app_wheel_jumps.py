"""GO and a held GO on the table's card wheel, from the players' side: on the starter (and
crib and hand) wheels GO jumps ahead a group of ranks (A, 6, 10) and a held GO back; in the
play, where GO says go, a held GO jumps back too."""

from __future__ import annotations

from pegboard.app.inputs import Button, KnobTurn, Press
from tests.support.app_driver import GO, App, new_game

HOLD_GO = Press(Button.GO, long=True)


def highlighted(app: App) -> str:
    pv = app.view.picker
    assert pv is not None
    return str(pv.options[pv.index])


def test_go_jumps_ahead_and_a_held_go_back_on_the_starter_wheel() -> None:
    app = new_game()
    assert highlighted(app) == "6"
    app.feed(HOLD_GO)
    assert highlighted(app) == "A"
    app.feed(HOLD_GO)
    assert highlighted(app) == "10"
    app.feed(GO)
    assert highlighted(app) == "A"


def test_a_held_go_jumps_back_in_the_play() -> None:
    app = new_game()
    app.pick("5")  # the starter
    start = highlighted(app)
    app.feed(HOLD_GO)
    jumped = highlighted(app)
    groups = {"A": 0, "2": 0, "3": 0, "4": 0, "5": 0, "6": 1, "7": 1, "8": 1, "9": 1}
    assert groups.get(jumped, 2) == (groups.get(start, 2) - 1) % 3
    assert jumped in ("A", "6", "10")
    assert app.game.said_go == frozenset()  # a hold never says go


def test_the_play_wheel_starts_where_the_fewest_moves_are_expected_held_go_counted() -> None:
    """After a king is led the reply is likeliest a king (a pair) or a 5 (fifteen): the wheel
    starts on the king, the 5 a held GO (to the 6) and a detent away. Counting detents
    alone (no jumps) it started on the 5, four moves from the king."""
    app = new_game()
    app.pick("5")  # the starter
    app.pick("K")  # P2 leads a king
    assert highlighted(app) == "K"
    app.feed(HOLD_GO, KnobTurn(-1))
    assert highlighted(app) == "5"


def test_on_a_lead_go_jumps_ahead_for_nobody_can_say_go_at_0() -> None:
    """At 0 every card fits (a go is refused), so GO jumps the play's wheel ahead a group, as
    on the starter's; once a card is down it says go again."""
    app = new_game()
    app.pick("5")  # the starter: P2 leads
    assert app.view.hint == "OK lead  GO jump"
    before = highlighted(app)
    app.feed(GO)
    groups = {"A": 0, "2": 0, "3": 0, "4": 0, "5": 0, "6": 1, "7": 1, "8": 1, "9": 1}
    assert highlighted(app) in ("A", "6", "10")
    assert groups.get(highlighted(app), 2) == (groups.get(before, 2) + 1) % 3
    assert app.game.said_go == frozenset() and app.game.pile == ()
    app.pick("7")
    assert app.view.hint == "OK play  GO go"
    app.feed(GO)
    assert app.game.said_go == frozenset({0})  # P1 says go at 7 (a renege, for the table)
