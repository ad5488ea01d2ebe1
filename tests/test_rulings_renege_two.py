"""Two renege reports of one player put to the table at once (ACC 7.3; docs/rules.md,
"Renege").

P2 deals, P1 leads. At 29 P1 says go holding the 2♥, which fitted; in the next count, at 8,
P1 says go again holding the 3♥ and 2♥. Both hands are known when the last card is laid, so
the engine reports both reneges with that entry, and both offers come up, the earlier
first. Applying the earlier takes the play back to its go, so the later go never stood and
its offer is gone with it. Letting the earlier pass and applying the later takes the play back
to the later go, at the later's points, and leaves the earlier open (the Penalty menu may
still apply it); before ``let_pass`` was recorded, the penalty settled the earlier report
whichever page it came from, with the points of the page.
"""

from __future__ import annotations

import json
from pathlib import Path

from pegboard.app.inputs import Button, Press
from pegboard.app.pegging import penalty_key
from pegboard.app.state import PenaltyScreen
from pegboard.rules.penalties import CATALOGUE
from tests.support.app_driver import GO, OK, App, new_game
from tests.support.rulings_records import entry, event, go, play
from tests.test_app_offer_restart import enter, power_cut_and_start

LINES = [entry("starter", card="AC"), play(0, "KD"), play(1, "9C"), play(0, "QD"), go(1),
         go(0),  # at 29, holding 3♥ 2♥: the 2 fits
         play(1, "8C"), go(0),  # at 8, holding 3♥ 2♥: both fit
         play(1, "7C"), play(1, "4S"), play(0, "3H"), play(0, "2H")]


def both_offered() -> App:
    app = new_game(dealer=1)
    for line in LINES:
        if app.pages:
            app.read()
        enter(app, event(line))
    return app


def offers(app: App) -> list[tuple[str, ...]]:
    return [page.lines[:2] for page in app.pages if page.offer is not None]


def to_the_offer(app: App) -> App:
    while app.pages and app.pages[0].offer is None:
        app.feed(OK)
    return app


def test_both_reneges_are_reported_with_the_last_card_earliest_first() -> None:
    app = both_offered()
    reports = [(o.player, o.count, o.points) for o in app.game.reneges]
    assert reports == [(0, 29, 2), (0, 8, 4)]
    assert offers(app) == [("P1 said go at 29", "holding 2"), ("P1 said go at 8", "holding 3 2")]


def test_applying_the_earlier_takes_the_later_back_and_its_offer_goes() -> None:
    app = to_the_offer(both_offered())
    app.feed(OK)
    (back,) = app.game.take_backs
    assert back.count == 29
    assert [(o.resolved, o.withdrawn) for o in app.game.reneges] == [(True, False), (True, True)]
    assert not offers(app)  # the later go no longer stands: nothing to pay
    assert app.game.scores[1] == 2  # the earlier's 2 points, not the later's 4


def test_letting_the_earlier_pass_the_later_is_applied_at_its_own_go() -> None:
    app = to_the_offer(both_offered())
    app.feed(GO)
    assert offers(app) == [("P1 said go at 8", "holding 3 2")]
    app.feed(OK)
    assert json.loads(app.record[-1]) == {
        "type": "penalty", "player": 0, "infraction": "renege", "points": 4, "to": 1}
    (back,) = app.game.take_backs
    assert back.count == 8  # the play goes back to the go the page was about
    earlier, later = app.game.reneges
    assert (earlier.resolved, earlier.passed) == (False, True)  # still open to the menu
    assert later.resolved and not later.withdrawn


def test_the_penalty_menu_proposes_the_points_of_the_report_it_settles() -> None:
    renege = [item.id for item in CATALOGUE].index("renege")
    app = to_the_offer(both_offered())
    menu = PenaltyScreen(app.state.screen, penalty=renege)

    def proposed(app: App) -> int:
        state, _ = penalty_key(app.state, menu, Press(Button.OK))  # P1, the first row
        assert isinstance(state.screen, PenaltyScreen) and state.screen.offender == 0
        return state.screen.number

    assert proposed(app) == 2  # the earlier report, the one a penalty settles
    app.feed(GO)
    assert proposed(app) == 4  # the earlier let pass: the later is settled first


def test_after_a_power_cut_the_offer_not_let_pass_stands_alone(tmp_path: Path) -> None:
    app = to_the_offer(both_offered())
    app.feed(GO)
    resumed = power_cut_and_start(tmp_path, app.record)
    assert [page.title for page in resumed.pages] == ["Game restored", "Renege"]
    assert offers(resumed) == offers(app)
