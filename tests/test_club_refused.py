"""A result the broker refuses (MQTT v5's PUBACK reason code) stays unsent, the board says
why, and it goes out by itself once the board's config is right: club setup's broker (TLS,
passwords, the ACL) and the standings service on a real mosquitto."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

from pegboard.club.publisher import STATUS_NAME, Publisher
from pegboard.store import Store
from tests.support.club import Standings, write_club_game
from tests.support.mosquitto import Broker, club_setup, free_port


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def settle(publisher: Publisher, done: Callable[[], bool], what: str,
           within: float = 30.0) -> None:
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


def test_a_refused_result_waits_says_why_and_goes_once_the_config_is_right(tmp_path: Path
                                                                          ) -> None:
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
            assert len(acked.read_text(encoding="utf-8").split()) == 1
            assert service.wait_for(1)["results"] == 1
        finally:
            right.stop()
            service.stop()
    assert (acked.parent / STATUS_NAME) == right.status_path
