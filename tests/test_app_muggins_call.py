"""Muggins is the opponents' skill, from the players' side, through the real ``step``.

In a muggins game the box keeps the true count to itself until the table has said whether
anyone calls muggins: after every claim (right or short) it asks, "No muggins" listed first and
where the list starts, nothing said about a miss; then it shows what was right. With teaching
on it keeps the open way as a lesson: "Ann missed 2", the opponent first."""

from __future__ import annotations

import json
import re

from pegboard.app.inputs import Turn
from pegboard.app.view import Screen
from pegboard.rules.state import Reason
from tests.support.app_driver import OK, App


def muggins_game(*, teaching: bool = False) -> App:
    """A 2-player muggins game (Ann and Ben), Ann dealing; teaching as asked."""
    app = App.start()
    app.feed(OK)
    rows = list(app.view.lines)
    app.feed(Turn(rows.index("Muggins: off")), OK)
    if teaching:
        rows = list(app.view.lines)
        row = next(i for i, line in enumerate(rows) if line.startswith("Teaching"))
        app.feed(Turn(row - (app.view.selected or 0)), OK)
        assert "Teaching: on" in app.view.lines
    app.feed(Turn(-(app.view.selected or 0)), OK, Turn(1), OK)
    return app


def to_the_fifteen(app: App) -> App:
    """Starter 5; Ben leads 10, Ann's 5 makes fifteen: her claim is asked for."""
    for label in ("5", "10", "5"):
        app.read()  # the coach's pages, with teaching on
        app.pick(label)
    assert app.view.screen is Screen.CLAIM
    return app


def everything_said(app: App) -> str:
    view = app.view
    return " | ".join([view.title, *view.lines, view.award, view.hint])


def test_a_short_claim_is_not_announced_and_no_side_is_chosen_for_the_table() -> None:
    app = to_the_fifteen(muggins_game())
    app.feed(Turn(1), OK)  # P1 claims 1 of her 2
    view = app.view
    assert view.screen is Screen.CONFIRM
    assert view.title == "P1 claims 1 (fifteen)"
    assert view.lines == ("No muggins", "P2: muggins")
    assert view.selected == 0  # on "No muggins": two idle presses give nothing away
    said = everything_said(app)
    assert "missed" not in said and not re.search(r"\b2\b", said)  # nor the true count
    app.feed(OK)  # nobody spotted it
    assert app.game.scores == (1, 0)
    assert [a.reason for a in app.game.awards].count(Reason.MUGGINS) == 0


def test_a_right_claim_is_asked_about_all_the_same() -> None:
    app = to_the_fifteen(muggins_game())
    app.feed(Turn(2), OK)  # the right claim: the question must look the same
    assert app.view.screen is Screen.CONFIRM
    assert app.view.title == "P1 claims 2 (fifteen)"
    assert app.view.lines == ("No muggins", "P2: muggins")
    app.feed(Turn(1), OK)  # P2 calls anyway: nothing was missed, nothing is taken
    assert app.view.title == "Muggins"
    assert "P1 missed nothing" in " ".join(app.view.lines)
    assert app.view.screen is Screen.MESSAGE
    app.feed(OK)
    assert app.game.scores == (2, 0)
    assert app.view.picker is not None  # on with the play


def test_the_call_takes_the_miss_and_then_the_hand_shows_what_was_right() -> None:
    app = muggins_game()
    for label in ("5", "4", "4", "7", "8"):
        app.pick(label)
        while app.view.screen in (Screen.CLAIM, Screen.CONFIRM):
            if app.view.screen is Screen.CLAIM:
                app.feed(Turn(app.game.pending_claims[0].points), OK)
            else:
                app.feed(OK)
            app.read()
    app.pick("8")  # 31 and a pair for P2: 4
    app.feed(Turn(2), OK)  # P2 claims 2 of 4
    assert app.view.title == "P2 claims 2 (thirty-one, pair)"
    assert "4" not in everything_said(app)
    app.feed(Turn(1), OK)  # P1 spots it
    muggins = [a for a in app.game.awards if a.reason == Reason.MUGGINS]
    assert [(a.player, a.points) for a in muggins] == [(0, 2)]
    assert json.loads(app.record[-1])["type"] == "muggins"


def test_teaching_keeps_the_open_way() -> None:
    app = to_the_fifteen(muggins_game(teaching=True))
    app.feed(Turn(1), OK)
    app.read()
    assert app.view.screen is Screen.CONFIRM
    assert app.view.title == "P1 missed 1"
    assert app.view.lines == ("P2: muggins 1", "No muggins")


def test_after_the_answer_the_hand_shows_what_was_right() -> None:
    app = muggins_game()
    claimed_short = False
    for label in ("5", "4", "4", "7", "8", "8", "K", "Q", "9"):
        app.pick(label)
        while app.view.screen in (Screen.CLAIM, Screen.CONFIRM) and not claimed_short:
            if app.view.screen is Screen.CLAIM:
                pending = app.game.pending_claims[0]
                if pending.reason is Reason.HAND:
                    break
                app.feed(Turn(pending.points), OK)
            else:
                app.feed(OK)
            app.read()
    pending = app.game.pending_claims[0]
    assert pending.reason is Reason.HAND and pending.points > 1
    who = app.game.names[pending.player]
    app.feed(Turn(pending.points - 1), OK)
    assert app.view.title == f"{who} claims {pending.points - 1} (hand)"
    assert not any(line.startswith(f"{who}'s hand") for line in app.view.lines)
    app.feed(OK)  # no muggins: now the count is shown, with what was said
    assert app.view.title == f"{who}'s hand: {pending.points} (said {pending.points - 1})"
