"""Each board's rate, kept by the standings service on the broker as ``club setup`` makes it
(TLS on loopback, the passwords, the ACL): a board's messages over its rate are dropped
before a byte of them is parsed, never refused, remembered or counted; results dropped so
are asked of the broker again once the board's bucket is whole, so none is lost; a board's
live states over its rate are held, the newest kept, and taken when the rate allows.

The rates run on a clock the test moves; every wait is on the subscriber's own signals or
the database's counters, bounded."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import pegboard.club.service as service_module
from pegboard.club import check
from pegboard.club.check import Read
from pegboard.club.rate import ASK_AGAIN_MOST, Rate
from pegboard.club.service import Subscriber
from pegboard.club.topics import result_topic, topic
from tests.test_club_broker import card
from tests.test_club_fair import WAIT_S, Clock, Club, running

BURST = 5
FLOOD = 50


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Club]:
    with running(Club(tmp_path)) as made:
        yield made


def until(subscriber: Subscriber, done: Callable[[], bool], what: str) -> None:
    """Wait (on the intake's batches, bounded) until ``done``."""
    with subscriber.took:
        assert subscriber.took.wait_for(done, WAIT_S), f"waited {WAIT_S:.0f} s for {what}"


def spy_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The topic of every message the service parses (:func:`read_card`), in order."""
    parsed: list[str] = []
    real = check.read_card

    def spied(name: str, payload: bytes) -> Read:
        parsed.append(name)
        return real(name, payload)

    monkeypatch.setattr(service_module, "read_card", spied)
    return parsed


def test_a_boards_junk_over_its_rate_is_dropped_unread_and_asked_for_again(
        club: Club, monkeypatch: pytest.MonkeyPatch) -> None:
    """Board 1 publishes 50 junk results (retained) with a rate of 5 at once, then board 2 a
    genuine result: board 2's is counted, board 1's first 5 are parsed and refused and the
    other 45 are dropped unparsed, neither refused nor counted. Once board 1's bucket is
    whole again the service asks the broker for its results again: the 5 refused are known
    by their digest (not parsed, not charged), the next 5 are parsed and refused, the rest
    dropped again; nothing is counted twice."""
    parsed = spy_reads(monkeypatch)
    clock = Clock()
    subscriber = club.subscriber(rate=Rate(per_minute=60, burst=BURST, what="results",
                                           clock=clock))
    subscriber.start()
    bad, good = club.board(1), club.board(2)
    flood = [result_topic("c1", "board-1", f"junk{n}") for n in range(FLOOD)]
    try:
        sent = [bad.client.publish(name, b"junk %d" % n, qos=1, retain=True)
                for n, name in enumerate(flood)]
        for info in sent:
            info.wait_for_publish(WAIT_S)
        result = card(12, "board-2")
        good.send(result_topic("c1", "board-2", "g12"), json.dumps(result).encode())
        club.wait_until("board 2's result counted", {"results": 1})
        until(subscriber, lambda: subscriber.rate.over == FLOOD - BURST,
              "board 1's flood over its rate")
        assert club.counters()["refused"] == BURST
        assert [name for name in parsed if "board-1" in name] == flood[:BURST]
        clock.now += 60.0  # board 1's bucket whole again
        subscriber.nudge()
        club.wait_until("the next of board 1's junk refused", {"refused": 2 * BURST})
        until(subscriber, lambda: subscriber.rate.over == 2 * FLOOD - 3 * BURST,
              "board 1's results asked for again")
        assert [name for name in parsed if "board-1" in name] == flood[:2 * BURST]
        now = club.counters()
        assert (now["results"], now["refused"], now["duplicates"]) == (1, 2 * BURST, 0)
    finally:
        bad.close()
        good.close()
        subscriber.stop()


def test_a_boards_results_over_its_rate_are_taken_late_never_lost(club: Club) -> None:
    """Board 1 sends eight genuine results at once with a rate of 5 at once: five are
    counted and three dropped; once its bucket is whole again the broker is asked for them
    and all eight are counted, none twice."""
    clock = Clock()
    subscriber = club.subscriber(rate=Rate(per_minute=60, burst=BURST, what="results",
                                           clock=clock))
    subscriber.start()
    board = club.board(1)
    cards = [card(seed, "board-1") for seed in range(11, 19)]
    try:
        sent = [board.client.publish(result_topic("c1", "board-1", str(one["game"])),
                                     json.dumps(one).encode(), qos=1, retain=True)
                for one in cards]
        for info in sent:
            info.wait_for_publish(WAIT_S)
        club.wait_until("five results counted", {"results": BURST, "waiting": 0})
        until(subscriber, lambda: subscriber.rate.over == 3, "three over board 1's rate")
        assert club.counters()["results"] == BURST
        clock.now += 60.0
        subscriber.nudge()
        now = club.wait_until("all eight counted", {"results": 8, "waiting": 0})
        assert (now["duplicates"], now["refused"]) == (0, 0)
        assert subscriber.known == BURST  # the five counted, delivered again: looked up
    finally:
        board.close()
        subscriber.stop()


def test_a_boards_live_states_over_its_rate_are_held_and_the_newest_taken(
        club: Club) -> None:
    """Twenty live states from a board with a rate of 3 at once: the first three reach the
    tables, the other seventeen are held unread (each replacing the one before), and once
    the rate allows the newest (the twentieth) is taken: the tables end on the board's last
    state and saw four, not twenty."""
    clock = Clock()
    seen: list[int] = []
    news = threading.Condition()

    def tables_changed(key: str, entry: dict[str, Any]) -> None:
        with news:
            seen.append(int(entry["state"]["n"]))
            news.notify_all()

    subscriber = club.subscriber(live_rate=Rate(per_minute=600, burst=3, what="live states",
                                                clock=clock), tables_changed=tables_changed)
    subscriber.start()
    board = club.board(1)
    try:
        assert subscriber.connected.wait(WAIT_S), "the service never connected"
        for n in range(20):
            board.send(topic("c1", "board-1", "state"), json.dumps({"n": n}).encode())
        deadline = time.monotonic() + WAIT_S  # held states tell nothing: looked at often
        with news:
            while subscriber.live_rate.over < 17:
                assert time.monotonic() < deadline, f"the states over the rate: {seen}"
                news.wait(0.02)
        assert seen == [0, 1, 2]
        clock.now += 1.0
        with news:
            assert news.wait_for(lambda: len(seen) == 4, WAIT_S), f"held state not taken: {seen}"
        assert seen == [0, 1, 2, 19]
        assert subscriber.snapshot()[0]["state"] == {"n": 19}
    finally:
        board.close()
        subscriber.stop()


def test_a_board_over_its_rate_is_asked_for_again_once_whole_unless_it_flooded() -> None:
    """The rate's own rules on a clock: a board over its rate is due to be asked again once
    its bucket is whole (not before), once; a board with more than
    :data:`ASK_AGAIN_MOST` over it is not (its results wait for the next subscription);
    a subscription owes nothing; a spent board's message is counted over, uncharged."""
    clock = Clock()
    rate = Rate(per_minute=60, burst=2, what="results", clock=clock)
    assert [rate.allow("c1/b1") for _ in range(3)] == [True, True, False]
    for _ in range(ASK_AGAIN_MOST + 3):
        rate.allow("c1/flood")
    assert rate.over == 1 + ASK_AGAIN_MOST + 1
    due, soonest = rate.due()
    assert due == [] and 0 < soonest <= 2.0  # two tokens at one a second
    clock.now += 2.0
    assert rate.due()[0] == ["c1/b1"]
    assert rate.due() == ([], 3600.0)  # asked once; the flood never
    assert rate.spent("c1/b1") is False  # whole again: looked at (charged by allow)
    assert [rate.allow("c1/b1") for _ in range(3)] == [True, True, False]
    assert rate.spent("c1/b1") is True and rate.over == ASK_AGAIN_MOST + 4
    rate.subscribed()
    clock.now += 60.0
    assert rate.due() == ([], 3600.0)
