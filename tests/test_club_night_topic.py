"""The night comes from the service: ``club serve --night N --lock`` publishes the club's
night (its number, the next round, the lock) retained on ``pegboard/<club>/night``; each
board's publisher reads it and writes it in its status file, and the board's loop starts its
next game there, whatever its config says. After a round's first result the service says
the next round. On club setup's broker (TLS, passwords, the ACL) with a real mosquitto."""

from __future__ import annotations

from pathlib import Path

from gpiozero.pins.mock import MockFactory

from pegboard.app.club_notice import night
from pegboard.app.inputs import ClubNight
from pegboard.app.machine import initial_state, view
from pegboard.app.start import setup_rows
from pegboard.club.publisher import Publisher
from pegboard.club.status import read
from pegboard.club.topics import night_topic, parse_night
from pegboard.config import Config
from pegboard.device.club_status import PERIOD_S
from pegboard.rules.value import replace
from pegboard.store import Store
from tests.support.club import Standings, write_club_game
from tests.support.mosquitto import Broker, club_setup
from tests.support.ports import free_port
from tests.test_club_refused import Clock, board_loop, settle


def club_config(night_: int = 1, lock: bool = False) -> Config:
    config = Config()
    return replace(config, club=replace(config.club, enabled=True, board="b", broker="h",
                                        night=night_, lock=lock))


def test_a_night_message_is_read_or_refused() -> None:
    assert parse_night(b'{"night":12,"round":3,"lock":false}') == (12, 3, False)
    for bad in (b"", b"[]", b'{"night":12,"round":3}', b'{"night":12,"round":0,"lock":true}',
                b'{"night":true,"round":3,"lock":true}', b'{"night":12,"round":3,"lock":1}',
                b'{"night":10000,"round":3,"lock":true}', b"{" * 2000):
        assert parse_night(bad) is None, bad


def test_the_board_takes_the_services_night_and_round() -> None:
    state = initial_state(club_config(night_=1))
    state = night(state, ClubNight(12, 3, True))
    assert (state.config.club.night, state.config.club.lock, state.setup.club_round) == (
        12, True, 3)
    rows = [label for _, label in setup_rows(state.setup, state.config.club)]
    assert "Club night 12 table 1" in rows and "Round: 3" in rows
    assert rows[-1] == "Tournament: no help"  # the lock's: no help offered
    # within the night a board already past the service's round keeps its own
    ahead = night(replace(state, setup=replace(state.setup, club_round=5)),
                  ClubNight(12, 4, True))
    assert ahead.setup.club_round == 5
    # a new night starts at the service's round, and the lock may be off
    later = night(ahead, ClubNight(13, 1, False))
    assert (later.config.club.night, later.config.club.lock, later.setup.club_round) == (
        13, False, 1)
    assert view(later).screen is view(state).screen
    # a board that is not a club board takes nothing
    plain = initial_state(Config())
    assert night(plain, ClubNight(12, 3, True)) == plain


def test_the_service_publishes_the_night_and_the_board_starts_there(
        tmp_path: Path, factory: MockFactory) -> None:
    port = free_port()
    out = tmp_path / "club"
    conf = club_setup(out, port, boards=1, club="tuesday")
    acl = (out / "acl").read_text(encoding="utf-8")
    assert f"topic read {night_topic('tuesday')}" in acl  # the boards read it
    assert f"topic readwrite {night_topic('tuesday')}" in acl  # the service writes it
    password = (out / "board-1.password").read_text(encoding="utf-8").strip()
    store = tmp_path / "store"
    Store(store, owner="board").close()
    acked = tmp_path / "acked" / "club-acked.txt"
    acked.parent.mkdir()
    with Broker(tmp_path / "broker", port=port, config=conf):
        service = Standings(tmp_path / "r.db", f"127.0.0.1:{port}", club="tuesday", extra=(
            "--user", "standings", "--password-file", str(out / "standings.password"),
            "--cafile", str(out / "ca.crt"), "--night", "12", "--lock"))
        board = Publisher(store, ("127.0.0.1", port), club="tuesday", board="board-1",
                          acked=acked, username="board-1", password=password,
                          ca_file=out / "ca.crt", clock=Clock())
        try:
            board.start()
            settle(board, lambda: board.night == (12, 1, True), "the club's night")
            assert read(board.status_path).night == (12, 1, True)
            loop, clock = board_loop(board.status_path, factory)
            club = loop.state.config.club
            assert (club.night, club.lock, loop.state.setup.club_round) == (12, True, 1)
            # round 1's first result counted: the service says round 2
            with Store(store, owner="board") as opened:
                write_club_game(opened, 5, night=12, round_=1, table=1,
                                members=("101", "102"))
            settle(board, lambda: board.night == (12, 2, True), "round 2")
            assert service.get("/api/status")["results"] == 1
            clock.advance(PERIOD_S)
            loop.pump()
            assert loop.state.setup.club_round == 2
        finally:
            board.stop()
            service.stop()
