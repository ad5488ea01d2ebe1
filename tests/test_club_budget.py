"""Each board's budget of engine reads (docs/security.md, "The club"): a board that holds its
password and floods well-formed forged cards has at most its burst read at once and then its
share a minute, the rest waiting their turn in the results database, while another board's
result is counted as it comes. Against the broker as ``club setup`` makes it (TLS, the
passwords, the ACL) on loopback; the budget's clock is the test's own, and every wait is on
the subscriber's own signals, bounded."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from pegboard.club.budget import MOST_WAITING, Budget, Waiting, waiting_count
from pegboard.club.results import connect, counters
from pegboard.club.service import Subscriber
from pegboard.club.topics import result_topic
from tests.support.mosquitto import Broker, club_setup
from tests.support.ports import free_port
from tests.test_club_broker import Client, card

WAIT_S = 60.0
"""How long the subscriber may take to take what the test sent: far above what it takes."""
BURST, PER_MINUTE, FLOOD = 10, 6, 40


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def counts(db_path: Path) -> tuple[int, int, int]:
    """(results, refused, waiting) in the database now."""
    db = connect(db_path)
    try:
        found = counters(db)
        return found["results"], found["refused"], waiting_count(db)
    finally:
        db.close()


def wait_until(db_path: Path, news: threading.Event, wanted: tuple[int, int, int]) -> None:
    deadline = time.monotonic() + WAIT_S
    while counts(db_path) != wanted:
        assert time.monotonic() < deadline, f"waited for {wanted}, have {counts(db_path)}"
        news.wait(1.0)  # any write the subscriber makes, or look again
        news.clear()


def rested(subscriber: Subscriber) -> None:
    """Nudge the turns' thread and wait until it has looked at every waiting card since."""
    with subscriber.rested:
        before = subscriber.rests
        subscriber.nudge()
        assert subscriber.rested.wait_for(lambda: subscriber.rests > before, WAIT_S), (
            "the turns' thread never rested")


def test_a_flooding_board_is_read_at_its_budget_and_never_holds_another(tmp_path: Path
                                                                        ) -> None:
    port = free_port()
    out = tmp_path / "club"
    config = club_setup(out, port)
    ca = out / "ca.crt"
    secret = {user: (out / f"{user}.password").read_text(encoding="utf-8").strip()
              for user in ("board-1", "board-2", "standings")}
    clock = Clock()
    news = threading.Event()
    db_path = tmp_path / "r.db"
    with Broker(tmp_path / "broker", port=port, config=config):
        subscriber = Subscriber(db_path, ("127.0.0.1", port), club="c1", username="standings",
                                password=secret["standings"], ca_file=ca,
                                changed=lambda what: news.set(), written=news.set,
                                budget=Budget(per_minute=PER_MINUTE, burst=BURST, clock=clock))
        subscriber.start()
        bad = Client(port, "board-1", secret["board-1"], ca=ca)
        good = Client(port, "board-2", secret["board-2"], ca=ca)
        try:
            genuine = card(11, "board-1")
            for n in range(FLOOD):  # well-formed, each read by the engine to be refused
                forged = dict(genuine, game=f"f{n}", spread=int(str(genuine["spread"])) + 1 + n)
                bad.send(result_topic("c1", "board-1", f"f{n}"), json.dumps(forged).encode())
            good.send(result_topic("c1", "board-2", "g12"),
                      json.dumps(card(12, "board-2")).encode())
            # The burst read and refused, the rest waiting; the other board's result counted.
            wait_until(db_path, news, (1, BURST, FLOOD - BURST))
            rested(subscriber)
            assert counts(db_path) == (1, BURST, FLOOD - BURST)  # nothing more at this time
            # A minute on: the board's share of a minute is read, and no more.
            clock.now += 60
            wait_until(db_path, news, (1, BURST + PER_MINUTE, FLOOD - BURST - PER_MINUTE))
            rested(subscriber)
            assert counts(db_path) == (1, BURST + PER_MINUTE, FLOOD - BURST - PER_MINUTE)
            # While its cards wait, the flooding board's genuine result waits behind them
            # (in order), and another board's is still counted at once.
            bad.send(result_topic("c1", "board-1", "g11"), json.dumps(genuine).encode())
            good.send(result_topic("c1", "board-2", "g13"),
                      json.dumps(card(13, "board-2")).encode())
            wait_until(db_path, news, (2, BURST + PER_MINUTE, FLOOD - BURST - PER_MINUTE + 1))
            # A burst's worth of time at a time (the budget never holds more than its burst):
            # every forged card refused, then the genuine one counted.
            for wanted in ((2, 26, 15), (2, 36, 5), (3, FLOOD, 0)):
                clock.now += 60 * BURST / PER_MINUTE
                subscriber.nudge()
                wait_until(db_path, news, wanted)
            why = " ".join(r["why"] for r in connect(db_path).execute("SELECT why FROM refused"))
            assert why.count("'spread' differs") == FLOOD
        finally:
            bad.close()
            good.close()
            subscriber.stop()


def test_budget_refills_by_the_minute_up_to_its_burst() -> None:
    clock = Clock()
    budget = Budget(per_minute=PER_MINUTE, burst=BURST, clock=clock)
    assert [budget.take("b1") for _ in range(BURST + 1)] == [True] * BURST + [False]
    assert budget.take("b2")  # another board's budget is its own
    assert budget.wait("b1") == pytest.approx(60 / PER_MINUTE)
    clock.now += 60
    assert sum(budget.take("b1") for _ in range(BURST)) == PER_MINUTE
    clock.now += 3600
    assert sum(budget.take("b1") for _ in range(BURST + 5)) == BURST


def test_a_board_with_its_queue_full_has_the_next_refused_unread(tmp_path: Path) -> None:
    db = connect(tmp_path / "r.db")
    waiting = Waiting(db)
    for n in range(MOST_WAITING):
        assert waiting.put("b1", f"t{n}", b"{}")
    assert waiting.put("b1", "t0", b"{}")  # the same message again: kept once
    assert not waiting.put("b1", "late", b"{}")
    assert waiting.put("b2", "other", b"{}")
    assert waiting_count(db) == MOST_WAITING + 1 and counters(db)["refused"] == 1
    assert waiting.boards() == ["b1", "b2"]
    db.close()
