"""The finish as a board and the players say it, through the real ``step``: the winner is shown
pegged out at the target (121), the loser where they stand, with ACC's spread counted from the
target; the engine and the record keep the full total."""

from __future__ import annotations

import json

from pegboard.app.inputs import KnobTurn
from pegboard.app.view import Screen
from tests.support.app_driver import GO, OK, App


def test_a_win_past_the_target_is_shown_at_121_with_the_spread_from_there() -> None:
    app = App.start()
    app.feed(OK)
    rows = list(app.view.lines)
    app.feed(KnobTurn(rows.index("Enter: cards")), OK)
    app.feed(KnobTurn(-(app.view.selected or 0)), OK)
    assert app.view.screen is Screen.PEG
    app.feed(GO, KnobTurn(30), OK)  # Ben 30
    app.feed(GO, KnobTurn(100), OK)  # Ann 100
    app.feed(KnobTurn(26), OK)  # Ann 126: past the target
    app.read()
    assert app.game.scores == (126, 30)  # the full total is kept
    view = app.view
    assert view.screen is Screen.GAME_OVER
    assert [side.score for side in view.sides] == [121, 30]
    assert "Spread 91 (from 121)" in view.lines
    assert any(json.loads(line).get("points") == 26 for line in app.record[1:])
