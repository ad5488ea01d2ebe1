"""The tournament lock, a setting of the night: every club game a locked board starts records
it, and no helper is offered on the screen or accepted in the record, but a guest's own hint
and advice."""

from __future__ import annotations

import json

import pytest

from pegboard.app.inputs import KnobTurn
from pegboard.app.menus import menu_rows
from pegboard.app.session import Session
from pegboard.app.state import Home, WheelScreen
from pegboard.app.teach import turn_coach
from pegboard.club.scorecard import judge
from pegboard.config import ClubConfig
from pegboard.errors import RecordError, RuleError
from pegboard.record import dump, parse_line
from pegboard.rules.cards import Rank
from pegboard.rules.events import ClubSeat, Confirm, Dealt, GameHeader, OptionsChanged, TableOptions
from pegboard.rules.game import Game
from pegboard.rules.state import Phase
from pegboard.rules.value import replace
from tests.support.app_driver import OK, UNDO, App
from tests.support.games import random_game

LOCKED = ClubConfig(enabled=True, club="c1", board="b7", broker="h:1883", night=12, table=7,
                    lock=True)
HELP = {"hint", "advice", "teaching", "own", "review"}


def setup_lines(app: App) -> list[str]:
    app.feed(OK)  # New game
    return list(app.view.lines)


def test_a_locked_nights_setup_offers_no_help_and_each_game_records_the_lock() -> None:
    app = App.start(club=LOCKED)
    app.feed(KnobTurn(1), OK)  # "Learn to play": teaching asked for
    lines = list(app.view.lines)
    assert "Club night 12 table 7" in lines and "Round: 1" in lines
    assert "Tournament: no help" in lines
    assert not any(line.startswith(("Teaching", "Count it yourself")) for line in lines)
    app.feed(OK)  # Start: asks for the member numbers first
    app.feed(KnobTurn(101), OK, OK, KnobTurn(102), OK, OK)  # seat 1's, Start, seat 2's, Start
    header = json.loads(app.record[0])
    assert header["club"] == {"night": 12, "round": 1, "table": 7, "members": ["101", "102"],
                              "lock": True}
    assert "table" not in header  # teaching is not on, whatever was asked
    assert not app.state.teaching
    assert app.state.setup.club_round == 2  # the board's next game is the next round
    assert ("back", "Tournament: no help") in menu_rows(app.state, Home())


def test_a_casual_night_keeps_every_helper_and_writes_no_lock() -> None:
    app = App.start(club=replace(LOCKED, lock=False))
    lines = setup_lines(app)
    assert "Teaching: off" in lines and "Tournament: no help" not in lines
    app.feed(OK, KnobTurn(101), OK, OK, KnobTurn(102), OK, OK)
    assert "lock" not in json.loads(app.record[0])["club"]


def test_each_seats_member_number_is_entered_at_setup() -> None:
    app = App.start("keypad", club=replace(LOCKED, lock=False))
    app.feed(OK)  # New game
    app.feed(OK)  # Start: no member numbers yet, so seat 1's is asked for
    assert app.view.lines[app.view.selected or 0].endswith("Member 1: _")
    assert app.view.hint == "number: turn  OK set"
    app.rank(Rank.ACE).rank(Rank.TEN).rank(Rank.SEVEN)  # typed: 1, 0, 7
    assert app.view.lines[app.view.selected or 0].endswith("Member 1: 107_")
    app.feed(OK)
    assert "Member 1: 107" in " ".join(app.view.lines) and not app.record
    app.feed(OK)  # Start again: seat 2's
    app.rank(Rank.FIVE).feed(UNDO)  # left as it was
    assert "Member 2: ?" in " ".join(app.view.lines) and not app.record
    # Start; seat 2's by turning
    app.feed(KnobTurn(-(app.view.selected or 0)), OK, KnobTurn(230), OK)
    app.feed(OK)  # Start
    club = json.loads(app.record[0])["club"]
    assert (club["members"], club["round"]) == (["107", "230"], 1)


def at(phase: Phase, to_act: int | None, club: ClubSeat, *, table: TableOptions | None = None
       ) -> App:
    """A club game stopped at ``phase`` with ``to_act`` to act (a seeded game's events)."""
    for seed in range(40):
        played = random_game(seed)
        game = Game.from_header(GameHeader(("Ann", "Ben"), played.header.rules,
                                           table=table or TableOptions(), club=club))
        for event in played.events:
            game.push(event)
            gs = game.state
            if gs.phase is phase and (to_act is None or gs.to_act == to_act):
                app = App.start(club=LOCKED)
                app.state = replace(app.state, session=Session.resume(game), screen=WheelScreen())
                return app
    raise AssertionError("no such moment")


MEMBERS = ClubSeat(12, 1, 7, ("101", "102"), lock=True)
WITH_GUEST = replace(MEMBERS, guests=(1,))


def keys(app: App) -> set[str]:
    return {key for key, _ in menu_rows(app.state, WheelScreen())}


def test_the_lock_takes_every_helper_off_the_menu() -> None:
    for phase, seat in ((Phase.PLAY, 0), (Phase.PLAY, 1), (Phase.STARTER, None)):
        rows = menu_rows(at(phase, seat, MEMBERS).state, WheelScreen())
        assert not HELP & {key for key, _ in rows}, (phase, rows)
        assert ("back", "Tournament: no help") in rows
    over = at(Phase.GAME_OVER, None, MEMBERS)
    assert "review" not in keys(over)  # the game's review teaches too
    unlocked = replace(MEMBERS, lock=False)
    assert "review" in keys(at(Phase.GAME_OVER, None, unlocked))
    assert "hint" in keys(at(Phase.PLAY, 0, unlocked))
    assert "advice" in keys(at(Phase.STARTER, None, unlocked))


def test_a_guest_may_have_a_hint_on_their_own_turn_and_advice_on_their_own_cards() -> None:
    assert "hint" in keys(at(Phase.PLAY, 1, WITH_GUEST))  # the guest's turn
    assert "hint" not in keys(at(Phase.PLAY, 0, WITH_GUEST))  # the member's
    app = at(Phase.STARTER, None, WITH_GUEST)
    rows = dict(menu_rows(app.state, WheelScreen()))
    assert rows["advice"] == "Advice for Ben (guest)"
    assert not {"teaching", "own"} & set(rows)  # the shared screen teaches nobody
    from pegboard.app.menus import _OPENS

    opened = _OPENS["advice"](app.state, WheelScreen())
    assert getattr(opened, "player", None) == 1  # never the member's cards


def test_no_coach_line_or_count_it_yourself_under_the_lock_even_from_a_header() -> None:
    """A header that slipped teaching past the reader (made in code) still teaches nothing:
    the app's one teaching switch is off under the lock."""
    taught = TableOptions(teaching=True, count_yourself=True)
    app = at(Phase.PLAY, 0, replace(MEMBERS, lock=False), table=taught)
    assert app.state.teaching
    locked = at(Phase.PLAY, 0, MEMBERS, table=taught)
    assert not locked.state.teaching
    assert turn_coach(locked.state) == ""


def test_the_record_refuses_every_help_option_under_the_lock() -> None:
    game = Game.from_header(GameHeader(("Ann", "Ben"), club=MEMBERS))
    for option in (OptionsChanged(teaching=True), OptionsChanged(count_yourself=True)):
        with pytest.raises(RuleError, match="tournament lock is on"):
            game.push(option)
    game.push(OptionsChanged(points_only=True))  # not help
    header = json.dumps(dump(GameHeader(("Ann", "Ben"), club=WITH_GUEST)))
    assert '"guests": [1]' in header and parse_line(header) == GameHeader(("Ann", "Ben"),
                                                                          club=WITH_GUEST)
    for helper in ("teaching", "count_yourself"):
        with pytest.raises(RecordError, match=f"cannot have {helper} on"):
            parse_line(header.replace('"club"', f'"table": {{"{helper}": true}}, "club"'))


@pytest.mark.parametrize("guests", ["[2]", "[0, 0]", "[true]", '"1"'])
def test_bad_guests_are_refused_naming_the_field(guests: str) -> None:
    text = ('{"type": "game", "players": ["Ann", "Ben"], "club": {"night": 1, "round": 1, '
            f'"table": 1, "members": ["1", "2"], "guests": {guests}}}}}')
    with pytest.raises(RecordError, match="'guests' must list the seats of guests"):
        parse_line(text)


def test_the_scorecard_carries_the_lock_and_flags_the_guest() -> None:
    played = random_game(3)
    header = GameHeader(("Ann", "Ben"), played.header.rules, club=WITH_GUEST)
    game = Game.from_header(header)
    records = [dump(header)]
    for event in [*played.events, Confirm(0), Confirm(1)]:
        if isinstance(event, Dealt):
            continue
        game.push(event)
        records.append(dump(event))
    card = judge(records, club="c1", board="b7", game_id="g3").card
    assert card is not None
    assert card["lock"] is True
    assert [p["guest"] for p in card["players"]] == [False, True]
