"""A new deal starts with no award line: the last deal's last award ("P1 +3: 15, last card")
is not shown at the next deal's starter, on the OLED, the 80x24 text panel or the LAN page.
The one exception is a muggins game's crib claim, whose window stays open across the deal
(ACC 10): it stays on the line, where the other side judges it, until that window shuts."""

from __future__ import annotations

from pathlib import Path

from pegboard.app import flow
from pegboard.app.inputs import KnobTurn
from pegboard.app.state import Claiming
from pegboard.app.view import Screen
from pegboard.rules.events import Muggins
from pegboard.rules.value import replace
from pegboard.ui.render import render
from pegboard.web.follow import Follower
from pegboard.web.snapshot import game_json
from tests.support.app_driver import GO, OK, App, muggins_game, new_game
from tests.support.web import ScriptedGame
from tests.test_panel_wrapped_lines import panel_text

LAST = "P1 +3: 15, last card"
"""The award that ends the first deal's play."""
PLAY = ("10", "10", "A", "2", "3", "4", "go", "go", "5", "K")
"""P2 leads; P1's king makes 15 with the last card: "P1 +3: 15, last card" ends the play."""


def first_deal_to_the_next_starter(app: App, crib_short: int = 0) -> App:
    """The starter 5 and :data:`PLAY`, then every page read, each hand and the crib (four
    queens) claimed in a muggins game, in full but the crib ``crib_short`` points short,
    until the next deal's starter is asked."""
    app.pick("5")
    for label in PLAY:
        while isinstance(app.state.screen, Claiming):  # muggins: each score claimed in full
            app.feed(KnobTurn(app.game.pending_claims[0].points - shown(app)), OK).read()
        if label == "go":
            app.feed(GO)
        else:
            app.pick(label)
    for _ in range(40):
        if app.view.screen is Screen.STARTER:
            return app
        if app.view.screen is Screen.CRIB:
            app.pick("Q")
        elif isinstance(app.state.screen, Claiming):
            short = crib_short if app.view.lines[0].startswith("crib") else 0
            app.feed(KnobTurn(app.game.pending_claims[0].points - short - shown(app)), OK)
        else:
            app.feed(OK)
    raise AssertionError(f"the next deal's starter never came: {app.view}")


def shown(app: App) -> int:
    """The points the claim dial shows ("hand: 4")."""
    return int(app.view.lines[0].rsplit(":", 1)[1])


def test_the_last_deals_award_is_not_shown_at_the_next_starter(tmp_path: Path) -> None:
    app = new_game()
    app.pick("5")
    for label in PLAY:
        if label == "go":
            app.feed(GO)
        else:
            app.pick(label)
    assert app.state.award == LAST  # the play's last award
    first_deal_to_the_next_starter_from_the_show(app)
    view = app.view
    assert view.title == "Deal 2: P2 deals" and view.award == ""
    assert "last card" not in panel_text(view) and "+3" not in panel_text(view)
    app.pick("7")  # the play's screen, which draws an award line when there is one: none
    view = app.view
    assert view.screen is Screen.PLAY and view.award == "" and view.count == 0
    assert render(view).tobytes() != render(replace(view, award=LAST)).tobytes()
    # The LAN page's last award is this deal's: none yet.
    game = ScriptedGame(tmp_path / "store", app.record)
    follower = Follower(tmp_path / "store")
    try:
        game.play_to(len(app.record))
        follower.poll()
        data = game_json(follower)
        assert data is not None and data["deal_no"] == 2 and data["last_award"] is None
        assert data["phase"] == "play"
    finally:
        follower.close()
        game.close()


def first_deal_to_the_next_starter_from_the_show(app: App) -> None:
    """The pages read and the crib (four queens) entered until the next starter."""
    for _ in range(40):
        if app.view.screen is Screen.STARTER:
            return
        if app.view.screen is Screen.CRIB:
            app.pick("Q")
        else:
            app.feed(OK)
    raise AssertionError(f"the next deal's starter never came: {app.view}")


def test_a_muggins_crib_claim_stays_in_view_until_its_window_shuts() -> None:
    app = first_deal_to_the_next_starter(muggins_game(), crib_short=2)
    claim = "P1's crib: claimed 18"
    assert app.view.award == claim  # open to a call across the deal: in view for it
    assert claim in panel_text(app.view)
    app.pick("7")  # the starter does not shut the window (no score pegged)
    assert app.game.open_call is not None and app.view.award == claim
    # "No muggins" on the 2 missed (a phone's seat says it; the entry goes through the one
    # flow) shuts it.
    state, _ = flow.enter(app.state, Muggins(1, 0))
    assert state.session is not None and state.session.state.open_call is None
    assert state.award == ""
    # Or the first card laid, on the box (the window still open there).
    app.pick("10")
    assert app.view.screen is Screen.PLAY and app.view.award == ""
    assert app.game.pending_muggins is not None
