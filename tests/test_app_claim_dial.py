"""The claim dial in a muggins game, from the player's side: a fast turn moves it by fives,
so a big hand is a few detents; a slow turn still moves it by ones; a hand or crib starts at
4 whatever its cards. Time is the event's own ``now``, handed to the real ``step``."""

from __future__ import annotations

from bench.input_plan import claim_path
from pegboard.app.inputs import KnobTurn, RankKey
from pegboard.app.machine import step
from pegboard.app.state import Claiming
from pegboard.app.view import Screen
from pegboard.rules.cards import Rank
from tests.support.app_driver import OK, UNDO, App, muggins_game


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
    app.state, _ = step(app.state, KnobTurn(steps), app.now)
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
    app.feed(KnobTurn(list(app.view.lines).index("7 Muggins: off")), OK)
    app.feed(KnobTurn(-(app.view.selected or 0)), OK, RankKey(Rank.TWO))  # Start; P1 deals
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


def hand_claim() -> App:
    """A muggins game played out (every play score claimed in full) to P2's hand claim:
    A 4 7 Q with a 5 turned, worth 4."""
    app = muggins_game()
    for label in ("5", "4", "4", "7", "8", "8", "K", "Q", "9"):
        claim_plays(app)
        app.pick(label)
    claim_plays(app)
    assert app.view.title == "P2 claims"
    return app


def claim_plays(app: App) -> None:
    """Claim each waiting play score in full, stopping at a hand's claim."""
    while isinstance(app.state.screen, Claiming) and not app.view.lines[0].startswith("hand"):
        shown = int(app.view.lines[0].rsplit(":", 1)[1])
        app.feed(KnobTurn(app.game.pending_claims[0].points - shown), OK)
        app.read()


def test_a_hand_claim_starts_at_4_a_few_detents_from_any_count() -> None:
    """The dial starts at 4 for every hand (it tells nothing of the cards); the fewest
    detents through ``step`` to each claim: 0 (down slow, then fast to the end), 2, 8 (down
    one, then up five fast), 12, 17."""
    app = hand_claim()
    assert app.game.pending_claims[0].points == 4
    assert app.view.lines[0] == "hand: 4"
    fewest = {}
    for points in (0, 2, 8, 12, 17):
        path = claim_path(app.state, points)
        state, now = app.state, app.now
        for event, gap in path:
            now += gap
            state, _ = step(state, event, now)
        assert isinstance(state.screen, Claiming) and state.screen.number == points
        fewest[points] = len(path)
    assert fewest == {0: 2, 2: 2, 8: 2, 12: 4, 17: 5}


def test_undo_on_a_hand_claim_puts_the_dial_back_at_4() -> None:
    app = hand_claim()
    assert turn_at(app, 1, 1.0) == 5
    assert turn_at(app, 1, 0.05) == 10
    app.feed(UNDO)
    assert app.view.lines[0] == "hand: 4" and app.view.title == "P2 claims"
    app.feed(KnobTurn(-2), OK)  # P2 claims 2 of 4: the dealer's hand is next
    assert app.view.title == "P1 claims" and app.view.lines[0] == "hand: 4"
