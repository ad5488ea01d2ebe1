"""Muggins games: a go's point or the last card's, alone, is claimed by the entry that wins it.

Players say "one for go" when the other side has said go and they cannot play either, and
"one for last" as they lay the last card: nothing in those points is counted, so the GO or the
card is the claim (docs/rules.md, "Muggins"). A go or last card that comes with anything to
count still waits for its owner's claim, and UNDO takes the entry back with its point.
"""

from __future__ import annotations

import json

from pegboard.app.view import Screen
from tests.support.app_driver import GO, OK, UNDO, App, muggins_game


def lines(app: App, count: int) -> list[dict[str, object]]:
    return [json.loads(line) for line in app.record[-count:]]


def to_the_go() -> App:
    """P1 deals; starter 6. P2 leads K, P1 9 (19), P2 7 (26), P1 says go: P2 to act."""
    app = muggins_game()
    for label in ("6", "K", "9", "7"):
        app.pick(label)
    assert app.view.screen is Screen.PLAY
    app.feed(GO)
    assert app.game.to_act == 1 and app.game.scores == (0, 0)
    return app


def test_the_go_that_wins_the_point_claims_it() -> None:
    app = to_the_go().feed(GO)  # P2 cannot play either: "one for go"
    assert app.view.screen is Screen.PLAY and app.view.picker is not None
    assert app.game.scores == (0, 1) and not app.game.pending_claims
    assert lines(app, 2) == [{"type": "go", "player": 1},
                             {"type": "claim", "player": 1, "points": 1}]
    assert app.view.award == "P2: Go for 1"
    assert app.replayed().scores == (0, 1)


def test_undo_takes_the_go_back_with_its_point() -> None:
    app = to_the_go().feed(GO, UNDO)
    assert app.game.scores == (0, 0) and not app.game.pending_claims
    assert app.game.to_act == 1 and app.game.count == 26  # P2 to act again, after P1's go
    assert app.view.screen is Screen.PLAY
    assert app.replayed().scores == (0, 0) and app.replayed().count == 26


def test_the_last_card_laid_claims_one_for_last() -> None:
    app = to_the_go().feed(GO)
    for label in ("8", "9", "Q"):  # P1 leads 8, P2 9 (17), P1 Q (27)
        app.pick(label)
    app.feed(GO)  # P2 holds a 6: go
    app.feed(GO)  # P1 holds a 10: one for go
    assert app.game.scores == (1, 1)
    app.pick("6")  # P2 leads 6
    app.pick("10")  # P1 lays the last card (16): one for last, nothing else
    assert app.game.scores == (2, 1)
    assert lines(app, 2)[1] == {"type": "claim", "player": 0, "points": 1}
    assert lines(app, 2)[0]["type"] == "play"
    # The show begins: P2's hand is the first claim asked for, at the dial's start.
    assert app.view.screen is Screen.CLAIM and app.view.lines[0] == "hand: 4"
    assert app.game.pending_claims[0].player == 1


def test_a_last_card_with_more_in_it_waits_for_its_claim() -> None:
    app = to_the_go().feed(GO)
    app.pick("Q")  # P1 leads Q
    app.pick("Q")  # P2 pairs it (20): a pair is P2's to claim
    assert app.view.screen is Screen.CLAIM
    app.feed(OK)
    app.pick("J")  # P1 J (30)
    app.feed(GO)  # P2 holds an 8: go
    app.feed(GO)  # P1 holds an 8 too: "one for go"
    assert app.view.screen is Screen.PLAY  # type: ignore[comparison-overlap]
    assert app.game.scores == (1, 3)
    app.pick("8")  # P2 leads 8
    app.pick("8")  # P1 pairs it with the last card: pair 2 and one for last, 3
    assert app.view.screen is Screen.CLAIM
    assert app.game.pending_claims[0].points == 3 and app.view.lines[0].endswith(": 3")
    assert app.game.scores == (1, 3)
