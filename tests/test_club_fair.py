"""The standings service's intake on the broker as ``club setup`` makes it (TLS on loopback,
the passwords, the ACL): results are taken off the network into each board's queue and read
in turn, board by board, so one board's backlog never holds another board's result; and a
result read and stored before, even by a service from before results were remembered by
their digest, is known again without the engine reading it. A batch of junk is refused in
one write.

Every wait is on the subscriber's own signals or the database's counters, bounded."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import pegboard.club.service as service_module
from pegboard.club.budget import Budget, waiting_count
from pegboard.club.check import Read, follows
from pegboard.club.refusals import Refusals, digest
from pegboard.club.results import KEEP_REFUSED, connect, counters, transaction
from pegboard.club.service import Subscriber
from pegboard.club.topics import result_topic
from tests.support.mosquitto import Broker, club_setup
from tests.support.ports import free_port
from tests.test_club_broker import Client, card

WAIT_S = 60.0
"""The most any step may take: far above what it takes."""
BURST = 5


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Club:
    """The broker from ``club setup`` with boards 1 and 2 and the standings service's
    credentials; :meth:`subscriber` makes a service on it, telling :attr:`news` of every
    write it makes."""

    def __init__(self, tmp_path: Path) -> None:
        self.port = free_port()
        out = tmp_path / "club"
        self.config = club_setup(out, self.port)
        self.ca = out / "ca.crt"
        self.secret = {user: (out / f"{user}.password").read_text(encoding="utf-8").strip()
                       for user in ("board-1", "board-2", "standings")}
        self.db = tmp_path / "r.db"
        self.news = threading.Condition()
        self.counted: list[tuple[str, int]] = []
        """Each result counted, with how many messages were refused when it was."""
        self.broker: Broker | None = None

    def _changed(self, what: dict[str, Any]) -> None:
        refused = self.counters()["refused"]
        with self.news:
            self.counted.append((str(what["id"]), refused))
            self.news.notify_all()

    def _written(self) -> None:
        with self.news:
            self.news.notify_all()

    def subscriber(self, budget: Budget | None = None, **options: Any) -> Subscriber:
        return Subscriber(self.db, ("127.0.0.1", self.port), club="c1",
                          username="standings", password=self.secret["standings"],
                          ca_file=self.ca, changed=self._changed, written=self._written,
                          budget=budget, **options)

    def board(self, n: int) -> Client:
        return Client(self.port, f"board-{n}", self.secret[f"board-{n}"], ca=self.ca)

    def counters(self) -> dict[str, int]:
        db = connect(self.db)
        try:
            found = counters(db)
            found["waiting"] = waiting_count(db)
            return found
        finally:
            db.close()

    def known(self, subscriber: Subscriber, how_many: int, what: str) -> None:
        """Wait (on the intake's batches, bounded) until ``subscriber`` has known
        ``how_many`` messages as cards stored before."""
        with subscriber.took:
            assert subscriber.took.wait_for(lambda: subscriber.known >= how_many, WAIT_S), (
                f"waited {WAIT_S:.0f} s for {what}: {subscriber.known} known")
        assert subscriber.known == how_many, f"{what}: {subscriber.known} known"

    def wait_until(self, what: str, wanted: dict[str, int]) -> dict[str, int]:
        """Wait (on the subscriber's writes, bounded) until the counters hold ``wanted``."""
        deadline = time.monotonic() + WAIT_S
        with self.news:
            while True:
                now = self.counters()
                if all(now[key] == value for key, value in wanted.items()):
                    return now
                left = deadline - time.monotonic()
                assert left > 0, f"waited {WAIT_S:.0f} s for {what} ({wanted}); have {now}"
                self.news.wait(min(left, 1.0))


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Club]:
    with running(Club(tmp_path)) as made:
        yield made


@contextmanager
def running(made: Club) -> Iterator[Club]:
    """``made`` with its broker (as ``club setup`` wrote it) running for the ``with``."""
    with Broker(made.db.parent / "broker", port=made.port, config=made.config) as broker:
        made.broker = broker
        yield made


def test_a_boards_burst_of_forged_cards_never_holds_another_boards_result(
        club: Club, monkeypatch: pytest.MonkeyPatch) -> None:
    """Board 1 sends its whole burst of forged cards (well-formed: the engine reads each to
    refuse it), then board 2 a genuine result. The engine's read of board 1's first card
    waits until board 2's result has come off the network (a condition, not a time): then
    board 2's result is the next read, counted with one of board 1's cards refused, and
    board 1's backlog is worked through after it. Taken on the network's thread, board 2's
    result would wait behind the whole burst."""
    arrived = threading.Event()
    reads: list[str] = []

    def gated(read: Read) -> dict[str, Any]:
        if read.board == "board-1" and not reads:
            deadline = time.monotonic() + WAIT_S  # bounded: the assertions below say why
            with club.news:
                while time.monotonic() < deadline and not arrived.is_set():
                    db = connect(club.db)
                    try:
                        if db.execute("SELECT 1 FROM waiting WHERE board = 'board-2'"
                                      ).fetchone() is not None:
                            arrived.set()
                    finally:
                        db.close()
                    club.news.wait(1.0)
        reads.append(read.name)
        return follows(read)

    monkeypatch.setattr(service_module, "follows", gated)
    subscriber = club.subscriber(Budget(burst=BURST, per_minute=1, clock=Clock()))
    subscriber.start()
    bad, good = club.board(1), club.board(2)
    try:
        genuine = card(11, "board-1")
        sent = [bad.client.publish(result_topic("c1", "board-1", f"f{n}"), json.dumps(
            dict(genuine, game=f"f{n}", spread=int(str(genuine["spread"])) + 1 + n)).encode(),
            qos=1, retain=True) for n in range(BURST)]
        for info in sent:
            info.wait_for_publish(WAIT_S)
        result = card(12, "board-2")
        good.send(result_topic("c1", "board-2", "g12"), json.dumps(result).encode())
        club.wait_until("the burst refused and the result counted",
                        {"results": 1, "refused": BURST, "waiting": 0})
        assert arrived.is_set(), "board 2's result never came off the network while board " \
            "1's first card was being read"
        assert club.counted == [(str(result["id"]), 1)], (
            "board 2's result was not the next read after board 1's first card")
        assert reads[:2] == ["board-1:f0", "board-2:g12"]
        assert reads[2:] == [f"board-1:f{n}" for n in range(1, BURST)]  # in order
    finally:
        bad.close()
        good.close()
        subscriber.stop()


def test_a_result_stored_before_is_known_again_without_the_engine(
        club: Club, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three results counted, then the service stopped and its database made as one from
    before results were remembered by their digest (no ``passed_digest``). At the restart
    the broker delivers the three again (retained): each is known by its content as the
    card stored, so the engine reads none of them and no budget is charged; one of them sent
    again in other bytes (the same card, spaced otherwise) is known the same way; a card
    that differs in one field is read."""
    reads: list[str] = []

    def spied(read: Read) -> dict[str, Any]:
        reads.append(read.name)
        return follows(read)

    monkeypatch.setattr(service_module, "follows", spied)
    cards = {f"g{seed}": card(seed, "board-1") for seed in (11, 12, 13)}
    subscriber = club.subscriber()
    subscriber.start()
    board = club.board(1)
    try:
        for game, sent in cards.items():
            board.send(result_topic("c1", "board-1", game), json.dumps(sent).encode())
        club.wait_until("three results counted", {"results": 3, "waiting": 0})
        assert sorted(reads) == ["board-1:g11", "board-1:g12", "board-1:g13"]
        subscriber.stop()
        db = connect(club.db)
        db.execute("DROP TABLE passed_digest")  # as the service kept it before
        db.close()
        reads.clear()
        budget = Budget(burst=1, per_minute=1, clock=Clock())
        subscriber = club.subscriber(budget)
        subscriber.start()
        club.known(subscriber, 3, "the retained three known again")
        board.send(result_topic("c1", "board-1", "g12"),
                   json.dumps(cards["g12"], indent=1).encode())
        club.known(subscriber, 4, "the same card in other bytes known")
        assert reads == [] and budget.wait("board-1") == 0
        # The same cards: counted once, as results, and never again as duplicates.
        assert club.wait_until("nothing waiting", {"waiting": 0, "results": 3,
                                                   "duplicates": 0})
        forged = dict(cards["g13"], spread=int(str(cards["g13"]["spread"])) + 1)
        board.send(result_topic("c1", "board-1", "g13"), json.dumps(forged).encode())
        club.wait_until("a changed card read and refused", {"refused": 1, "waiting": 0})
        assert reads == ["board-1:g13"]
        # Now remembered by their digests (g11 as it came, g12 in its new bytes, the forged
        # g13 as refused): a restart reads none of them again.
        subscriber.stop()
        reads.clear()
        subscriber = club.subscriber()
        subscriber.start()
        club.known(subscriber, 2, "the two known by digest")
        with subscriber.took:  # and the forged one, refused before, is not refused again
            assert subscriber.took.wait_for(lambda: subscriber.refusals is not None
                                            and subscriber.refusals.again == 1, WAIT_S), (
                "the retained forged card was never known as refused before")
        assert reads == [] and club.counters()["refused"] == 1
        assert club.counters()["duplicates"] == 0
    finally:
        board.close()
        subscriber.stop()


def test_a_forged_card_sent_again_in_other_bytes_is_known_by_what_it_is(
        club: Club, monkeypatch: pytest.MonkeyPatch) -> None:
    """A forged card, read once and refused, sent again spaced and ordered otherwise: known
    by its identity, neither read by the engine again nor charged to its board (whose budget
    is spent: read, it would wait for ever) nor counted again. Two spellings of another
    forged card sent back to back wait as one card and are read once. At a restart the
    broker's retained copies (the new bytes) are known by their digest."""
    reads: list[str] = []

    def spied(read: Read) -> dict[str, Any]:
        reads.append(read.name)
        return follows(read)

    monkeypatch.setattr(service_module, "follows", spied)
    clock = Clock()
    budget = Budget(burst=1, per_minute=1, clock=clock)
    subscriber = club.subscriber(budget)
    subscriber.start()
    board = club.board(1)
    genuine = card(11, "board-1")
    forged = dict(genuine, spread=int(str(genuine["spread"])) + 1)
    topic = result_topic("c1", "board-1", "g11")
    try:
        board.send(topic, json.dumps(forged).encode())
        club.wait_until("the forged card read and refused", {"refused": 1, "waiting": 0})
        assert reads == ["board-1:g11"] and budget.wait("board-1") > 0  # the budget spent
        again = json.dumps(dict(reversed(list(forged.items()))), indent=2).encode()
        assert again != json.dumps(forged).encode()
        board.send(topic, again)
        with subscriber.took:
            assert subscriber.took.wait_for(
                lambda: subscriber.refusals is not None and subscriber.refusals.again == 1,
                WAIT_S), "the forged card in other bytes was not known as refused before"
        assert club.counters()["waiting"] == 0 and club.counters()["refused"] == 1
        assert reads == ["board-1:g11"]
        clock.now += 120.0  # two reads' worth
        other = dict(card(12, "board-1"), spread=99)
        other_topic = result_topic("c1", "board-1", "g12")
        board.send(other_topic, json.dumps(other).encode())
        board.send(other_topic, json.dumps(other, indent=1).encode())
        subscriber.nudge()
        club.wait_until("the second forged card refused", {"refused": 2, "waiting": 0})
        assert reads == ["board-1:g11", "board-1:g12"]  # one read for its two spellings
        subscriber.stop()
        reads.clear()
        subscriber = club.subscriber(Budget(burst=0, per_minute=1, clock=Clock()))
        subscriber.start()
        with subscriber.took:  # the two retained copies: refused before, by their digest
            assert subscriber.took.wait_for(
                lambda: subscriber.refusals is not None and subscriber.refusals.again >= 2,
                WAIT_S), "the retained forged cards were not known as refused before"
        assert reads == [] and club.counters()["refused"] == 2
        assert club.counters()["waiting"] == 0
    finally:
        board.close()
        subscriber.stop()


def test_a_broker_restart_in_the_middle_of_a_batch_counts_nothing_twice(club: Club) -> None:
    """Board 1's result is counted, then the same game from board 2 (a board renamed): one
    duplicate. Board 2 sends its card again while the intake is storing a batch, and the
    broker is restarted before the batch is acknowledged: the service reconnects, the
    broker delivers the unacknowledged card again (and the retained ones at the new
    subscription), and each is known as the card it is: still one result and one
    duplicate. Every wait is on the subscriber's signals, bounded."""
    genuine = card(11, "board-1")
    renamed = dict(genuine, board="board-2")
    subscriber = club.subscriber()
    gate = threading.Event()
    in_batch = threading.Event()
    store = subscriber._store_batch

    def gated(batch: list[Any]) -> bool:
        if gate.is_set():
            gate.clear()
            link = batch[0].link  # board 2's connection, the card's
            session = link.session
            in_batch.set()
            deadline = time.monotonic() + WAIT_S  # until the service is on a new connection
            while link.session == session and time.monotonic() < deadline:
                subscriber.connected.wait(0.2)
            assert link.session != session, "the service never connected again"
        return store(batch)

    subscriber._store_batch = gated  # type: ignore[method-assign]
    subscriber.start()
    one, two = club.board(1), club.board(2)
    try:
        one.send(result_topic("c1", "board-1", "g11"), json.dumps(genuine).encode())
        club.wait_until("the result counted", {"results": 1, "waiting": 0})
        two.send(result_topic("c1", "board-2", "g11"), json.dumps(renamed).encode())
        club.wait_until("the renamed board's copy", {"duplicates": 1, "waiting": 0})
        known = subscriber.known
        gate.set()
        two.client.publish(result_topic("c1", "board-2", "g11"), json.dumps(renamed).encode(),
                           qos=1, retain=True)
        assert in_batch.wait(WAIT_S), "the card sent again never reached the intake"
        broker = club.broker
        assert broker is not None
        broker.restart()
        with subscriber.took:  # the card in the batch, and delivered again after it
            assert subscriber.took.wait_for(lambda: subscriber.known >= known + 2, WAIT_S), (
                f"the card was not delivered again: {subscriber.known - known} known")
        subscriber.stop()  # everything taken in is stored: the counters are final
        final = club.counters()
        assert (final["results"], final["duplicates"], final["waiting"]) == (1, 1, 0)
    finally:
        one.close()
        two.close()
        subscriber.stop()


def test_waiting_is_the_cards_received_and_not_yet_decided(club: Club) -> None:
    """Board 1's budget spent on its genuine result, three forged cards wait: ``waiting`` is
    3 in the database the page's ``/api/status`` reads, and stays 3 when one of them comes
    again in other bytes, the genuine card comes again (stored: known at once) and a junk
    message is refused (decided at once). Each read as the budget allows takes one off."""
    clock = Clock()
    subscriber = club.subscriber(Budget(burst=1, per_minute=1, clock=clock))
    subscriber.start()
    board = club.board(1)
    genuine = card(11, "board-1")
    forged = [dict(card(seed, "board-1"), spread=99) for seed in (12, 13, 14)]
    try:
        board.send(result_topic("c1", "board-1", "g11"), json.dumps(genuine).encode())
        club.wait_until("the genuine result", {"results": 1, "waiting": 0})
        for one in forged:
            board.send(result_topic("c1", "board-1", str(one["game"])), json.dumps(one).encode())
        club.wait_until("three forged cards waiting", {"waiting": 3, "refused": 0})
        board.send(result_topic("c1", "board-1", "g12"), json.dumps(forged[0], indent=1).encode())
        board.send(result_topic("c1", "board-1", "g11"), json.dumps(genuine, indent=1).encode())
        board.send(result_topic("c1", "board-1", "g15"), b"junk")
        now = club.wait_until("the junk refused", {"refused": 1})
        with subscriber.took:
            assert subscriber.took.wait_for(lambda: subscriber.known == 1, WAIT_S)
        assert now["waiting"] == 3 and club.counters()["waiting"] == 3
        for read in (1, 2, 3):  # a read a minute, the budget's
            clock.now += 60.0
            subscriber.nudge()
            club.wait_until(f"forged card {read} read and refused",
                            {"waiting": 3 - read, "refused": 1 + read})
        assert club.counters()["results"] == 1 and club.counters()["duplicates"] == 0
    finally:
        board.close()
        subscriber.stop()


def test_a_batch_of_refusals_is_one_write_and_few_look_ups(tmp_path: Path) -> None:
    """The intake's bookkeeping of junk: 1,501 refusals in one transaction (one commit),
    every one counted, the newest 1,000 kept to say why; then each message known again by
    its digest, 500 to a query, and one refused without a digest (a full queue) not known."""
    db = connect(tmp_path / "r.db")
    refusals = Refusals(db)
    statements: list[str] = []
    db.set_trace_callback(statements.append)
    batch: list[tuple[str, bytes | None, str]] = [
        (f"t{n}", digest(f"t{n}", b"junk"), f"why {n}") for n in range(1500)]
    batch.append(("full", None, "its board's queue is full"))
    with transaction(db):
        refusals.record(batch)
    assert [s for s in statements if s.startswith(("COMMIT", "BEGIN"))] == [
        "BEGIN IMMEDIATE", "COMMIT"]
    assert counters(db)["refused"] == 1501
    kept = [row[0] for row in db.execute("SELECT why FROM refused ORDER BY rowid")]
    assert len(kept) == KEEP_REFUSED and kept[-1] == "its board's queue is full"
    statements.clear()
    asked = [known for _, known, _ in batch if known is not None] + [digest("full", b"x")]
    assert refusals.known(asked) == set(asked[:-1])
    assert len([s for s in statements if "refused_digest" in s]) == 4  # 1,501 by 500s
    assert refusals.again == 1500
    db.close()
