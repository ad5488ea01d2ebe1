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
from tests.support.mosquitto import Broker, club_setup, free_port
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

    def _changed(self, what: dict[str, Any]) -> None:
        refused = self.counters()["refused"]
        with self.news:
            self.counted.append((str(what["id"]), refused))
            self.news.notify_all()

    def _written(self) -> None:
        with self.news:
            self.news.notify_all()

    def subscriber(self, budget: Budget | None = None) -> Subscriber:
        return Subscriber(self.db, ("127.0.0.1", self.port), club="c1",
                          username="standings", password=self.secret["standings"],
                          ca_file=self.ca, changed=self._changed, written=self._written,
                          budget=budget)

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
    made = Club(tmp_path)
    with Broker(tmp_path / "broker", port=made.port, config=made.config):
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
        club.wait_until("the retained three known again", {"duplicates": 3, "waiting": 0})
        board.send(result_topic("c1", "board-1", "g12"),
                   json.dumps(cards["g12"], indent=1).encode())
        club.wait_until("the same card in other bytes known", {"duplicates": 4})
        assert reads == [] and budget.wait("board-1") == 0
        assert club.counters()["results"] == 3
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
        club.wait_until("the two known by digest", {"duplicates": 6})
        with club.news:  # and the forged one, refused before, is not refused again
            assert club.news.wait_for(lambda: subscriber.refusals is not None
                                      and subscriber.refusals.again == 1, WAIT_S), (
                "the retained forged card was never known as refused before")
        assert reads == [] and club.counters()["refused"] == 1
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
