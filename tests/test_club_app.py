"""A club game's result confirmed on the device: one OK press per player, in seat order,
each a ``confirm`` line; only then does OK leave the game."""

from __future__ import annotations

import json

from pegboard.app.session import Session
from pegboard.app.state import GameOverScreen
from pegboard.rules.events import ClubSeat, GameHeader
from pegboard.rules.game import Game
from pegboard.rules.value import replace
from tests.support.app_driver import OK, UNDO, App
from tests.support.games import random_game


def over(club: bool) -> App:
    played = random_game(7)
    seat = ClubSeat(1, 1, 4, ("101", "102")) if club else None
    game = Game.from_header(GameHeader(("Ann", "Ben"), played.header.rules, club=seat))
    for event in played.events:
        game.push(event)
    app = App.start()
    app.state = replace(app.state, session=Session.resume(game), screen=GameOverScreen())
    return app


def test_each_player_confirms_with_one_press_before_the_game_is_left() -> None:
    app = over(club=True)
    assert app.view.hint == "OK Ann confirms"
    app.feed(OK)
    assert [json.loads(line) for line in app.record] == [{"type": "confirm", "player": 0}]
    assert app.view.hint == "OK Ben confirms"
    app.feed(UNDO)  # a press taken back
    assert app.view.hint == "OK Ann confirms"
    app.feed(OK, OK)
    assert json.loads(app.record[-1]) == {"type": "confirm", "player": 1}
    assert not app.finished
    assert app.view.hint.startswith("OK next")
    app.feed(OK)
    assert len(app.finished) == 1


def test_a_game_that_is_not_a_clubs_is_left_with_one_press() -> None:
    app = over(club=False)
    assert app.view.hint.startswith("OK next")
    app.feed(OK)
    assert not app.record and len(app.finished) == 1


def test_the_tournament_lock_takes_help_off_the_menu() -> None:
    from pegboard.app.menus import menu_rows
    from pegboard.app.state import Home

    app = over(club=True)
    assert ("teaching", "Teaching: off") in menu_rows(app.state, Home())
    session = app.state.session
    assert session is not None and session.header.club is not None
    locked = Game.from_header(replace(session.header, club=replace(session.header.club,
                                                                    lock=True)))
    app.state = replace(app.state, session=Session.resume(locked))
    rows = menu_rows(app.state, Home())
    assert ("back", "Tournament: no help") in rows
    assert not {"teaching", "hint", "advice"} & {key for key, _ in rows}
