"""A result the broker refuses (MQTT v5's PUBACK reason code) stays unsent, the board says
why (in the publisher's status file, and on the board's own screen, which the device's loop
reads from that file), and it goes out by itself once the board's config is right: club
setup's broker (TLS, passwords, the ACL) and the standings service on a real mosquitto."""

from __future__ import annotations

import json
import queue
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory

from pegboard.app.inputs import Button, Press
from pegboard.app.machine import AppState, initial_state
from pegboard.app.view import PageKind, Screen
from pegboard.club.publisher import Publisher
from pegboard.club.status import STATUS_NAME
from pegboard.config import Config
from pegboard.device.build import APP, make_club_watch, outputs
from pegboard.device.club_status import PERIOD_S, ClubWatch
from pegboard.device.loop import DeviceLoop
from pegboard.hw.inputs import EncoderKit
from pegboard.rules.value import replace
from pegboard.sim.fakes import FakeClock, RecordingDisplay
from pegboard.store import Store
from tests.support.club import Standings, write_club_game
from tests.support.memory_store import MemoryStore
from tests.support.mosquitto import Broker, club_setup
from tests.support.ports import free_port


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def settle(publisher: Publisher, done: Callable[[], bool], what: str,
           within: float = 60.0) -> None:
    """Step ``publisher`` each time the broker answers it until ``done``; AssertionError
    naming ``what`` when it is not so within ``within`` seconds."""
    deadline = time.monotonic() + within
    while True:
        publisher.news.clear()
        publisher.step()
        if done():
            return
        left = deadline - time.monotonic()
        assert left > 0, f"{what}: not within {within} s ({publisher.status_path.read_text()})"
        publisher.news.wait(min(left, 1.0))


def status(publisher: Publisher) -> dict[str, object]:
    loaded: dict[str, object] = json.loads(publisher.status_path.read_text(encoding="utf-8"))
    return loaded


def board_loop(status_file: Path, factory: MockFactory) -> tuple[DeviceLoop[AppState], FakeClock]:
    """The board's own loop as ``pegboard run`` builds it on a club board whose publisher
    writes its status to ``status_file``."""
    config = Config()
    config = replace(config, club=replace(config.club, enabled=True, board="board-1",
                                          broker="127.0.0.1:1883",
                                          status_file=str(status_file)))
    watch = make_club_watch(config)
    assert isinstance(watch, ClubWatch) and watch.path == status_file
    clock = FakeClock()
    inbox: queue.Queue[Any] = queue.Queue()
    loop = DeviceLoop(APP, initial_state(config),
                      kit=EncoderKit(inbox.put, clock, pin_factory=factory), inbox=inbox,
                      display=RecordingDisplay(), store=MemoryStore(), clock=clock,
                      observers=outputs(None, None, None, watch))
    loop.start()
    loop.pump()  # its first turn reads the status file
    return loop, clock


def test_a_refused_result_waits_says_why_and_goes_once_the_config_is_right(
        tmp_path: Path, factory: MockFactory) -> None:
    port = free_port()
    out = tmp_path / "club"
    conf = club_setup(out, port, boards=1, club="tuesday")
    password = (out / "board-1.password").read_text(encoding="utf-8").strip()
    store = tmp_path / "store"
    with Store(store, owner="board") as opened:
        write_club_game(opened, 5, night=1, round_=1, table=1, members=("101", "102"))
    acked = tmp_path / "acked" / "club-acked.txt"
    acked.parent.mkdir()
    clock = Clock()

    def board(club: str) -> Publisher:
        return Publisher(store, ("127.0.0.1", port), club=club, board="board-1", acked=acked,
                         username="board-1", password=password, ca_file=out / "ca.crt",
                         retry_refused=60.0, clock=clock)

    with Broker(tmp_path / "broker", port=port, config=conf):
        service = Standings(tmp_path / "r.db", f"127.0.0.1:{port}", club="tuesday", extra=(
            "--user", "standings", "--password-file", str(out / "standings.password"),
            "--cafile", str(out / "ca.crt")))
        wrong = board("Tuesday")  # the config's typo: the ACL is for "tuesday"
        try:
            wrong.start()
            settle(wrong, lambda: bool(wrong.refused()), "the broker's refusal")
            why = next(iter(wrong.refused().values()))
            assert why.startswith("refused by the broker: not authorised for club Tuesday")
            assert status(wrong)["refused"] == [
                {"result": next(iter(wrong.refused())), "game": wrong.outbox.waiting()[0][1],
                 "why": why}]
            assert status(wrong)["waiting"] == 1
            assert acked.read_text(encoding="utf-8") == ""  # not acknowledged: unsent
            # The board's own screen says so, from the publisher's status file: a page over
            # the screen, then the home screen's bottom line while it stands.
            loop, board_clock = board_loop(wrong.status_path, factory)
            assert loop.shown is not None and loop.shown.title == "Result not sent"
            assert loop.shown.page is PageKind.CLUB
            assert loop.shown.lines[0] == "R" + why[1:]
            assert "not authorised for club Tuesday" in loop.shown.lines[0]
            loop.feed([Press(Button.OK)])
            assert loop.shown.screen is Screen.HOME and loop.shown.hint == "Club result not sent"
            assert loop.state.club == why
            board_clock.advance(PERIOD_S)
            loop.pump()  # the same refusal read again: nothing new on the screen
            assert loop.shown.screen is Screen.HOME and loop.shown.hint == "Club result not sent"
            # offered again once its time has come (or on a new connection), refused again
            clock.now += 60
            wrong.step()
            assert len(wrong._in_flight) == 1
            settle(wrong, lambda: not wrong._in_flight, "the second refusal")
            assert wrong.refused() and acked.read_text(encoding="utf-8") == ""
        finally:
            wrong.stop()
        # The config put right and the publisher started again (as its unit is): the result
        # goes out by itself, no --again.
        right = board("tuesday")
        try:
            right.start()
            settle(right, lambda: not right.outbox.waiting(), "the result acknowledged")
            assert status(right)["refused"] == [] and status(right)["waiting"] == 0
            board_clock.advance(PERIOD_S)
            loop.pump()  # sent: the board's screen says nothing more of it
            assert loop.state.club == "" and loop.shown.hint == "OK choose"
            assert len(acked.read_text(encoding="utf-8").split()) == 1
            assert service.wait_for(1)["results"] == 1
        finally:
            right.stop()
            service.stop()
    assert (acked.parent / STATUS_NAME) == right.status_path
