"""The board shows the broker's refusal of a result over whatever the table is doing, and
drops it once the result is taken: the app's step with the publisher's
:class:`~pegboard.app.inputs.ClubStatus`, and the loop's reader of the status file."""

from __future__ import annotations

import json
from pathlib import Path

from pegboard.app.club_notice import HOME_HINT, TITLE
from pegboard.app.inputs import Button, ClubStatus, KnobTurn, Press
from pegboard.app.machine import AppState, initial_state, step, view
from pegboard.app.state import Home, Reading, SetupScreen
from pegboard.app.view import PageKind
from pegboard.club.status import write
from pegboard.config import Config
from pegboard.device.build import make_club_watch
from pegboard.device.club_status import ClubWatch
from pegboard.rules.value import replace

WHY = ("refused by the broker: not authorised for club Tuesday as board board-1 (the broker's "
       "ACL; is club.club right?)")
OK = Press(Button.OK)


def go(state: AppState, *events: object) -> AppState:
    for event in events:
        state, _ = step(state, event, 0.0)  # type: ignore[arg-type]
    return state


def test_a_refusal_is_a_page_over_the_screen_and_ok_goes_back_to_it() -> None:
    state = go(initial_state(Config()), OK, KnobTurn(2))  # setup, a row chosen
    assert isinstance(state.screen, SetupScreen) and state.screen.index == 2
    before = state.screen
    state = go(state, ClubStatus(WHY))
    assert isinstance(state.screen, Reading) and state.screen.then == before
    shown = view(state)
    assert (shown.title, shown.page) == (TITLE, PageKind.CLUB)
    assert shown.lines[0].startswith("Refused by the broker: not authorised for club Tuesday")
    assert go(state, ClubStatus(WHY)) == state  # said again: nothing new
    state = go(state, OK)
    assert state.screen == before and state.club == WHY
    state = go(state, Press(Button.UNDO))
    assert isinstance(state.screen, Home) and view(state).hint == HOME_HINT
    state = go(state, ClubStatus(""))
    assert state.club == "" and view(state).hint == "OK choose"


def test_a_refusal_taken_while_its_page_is_up_takes_the_page_away() -> None:
    state = go(initial_state(Config()), ClubStatus(WHY))
    assert isinstance(state.screen, Reading)
    state = go(state, ClubStatus(""))
    assert isinstance(state.screen, Home) and state.club == ""
    other = "refused by the broker: quota exceeded (reason code 151)"
    state = go(state, ClubStatus(WHY), ClubStatus(other))  # the newest replaces the page
    assert isinstance(state.screen, Reading) and len(state.screen.pages) == 1
    assert state.screen.pages[0].lines[0].startswith("Refused by the broker: quota")
    assert state.screen.then == Home()


def test_the_status_file_is_read_when_due_and_changed(tmp_path: Path) -> None:
    path = tmp_path / "club-status.json"
    watch: ClubWatch[AppState] = ClubWatch(path, period=2.0)
    assert list(watch.poll(0.0)) == []  # no publisher yet: nothing to say
    assert watch.next_deadline() == 2.0
    status = {"club": "Tuesday", "board": "board-1", "connected": True, "waiting": 1,
              "refused": [{"result": "x@1", "game": "g", "why": WHY}]}
    write(path, status)
    assert list(watch.poll(1.0)) == []  # not yet due
    assert list(watch.poll(2.0)) == [ClubStatus(WHY)]
    assert list(watch.poll(4.0)) == []  # unchanged
    write(path, {**status, "waiting": 0, "refused": []})
    assert list(watch.poll(6.0)) == [ClubStatus("")]
    path.write_text("{not json", encoding="utf-8")
    assert list(watch.poll(8.0)) == []  # unreadable: no refusal known, as before
    path.write_text(json.dumps({**status, "waiting": 2}), encoding="utf-8")
    assert list(watch.poll(10.0)) == [ClubStatus(WHY)]


def test_a_club_board_reads_the_units_status_file_unless_told_another() -> None:
    config = Config()
    assert make_club_watch(config) is None  # no club: nothing is read
    club = replace(config.club, enabled=True, board="board-1", broker="127.0.0.1:1883")
    watch = make_club_watch(replace(config, club=club))
    assert isinstance(watch, ClubWatch)
    assert watch.path == Path("/var/lib/pegboard-club/club-status.json")  # docs/club.md
    told = make_club_watch(replace(config, club=replace(club, status_file="/srv/s.json")))
    assert isinstance(told, ClubWatch) and told.path == Path("/srv/s.json")
