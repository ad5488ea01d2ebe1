"""A board (``club publish``) or the standings service that cannot connect to the club's
broker logs why, in words a club can act on, once per reason: the broker's certificate not
of the club's authority, a certificate not naming the address the board was given, nothing
listening. Against real mosquitto brokers with TLS on loopback; every wait is on the log
record itself, bounded."""

from __future__ import annotations

import itertools
import logging
import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from pegboard.club import setup
from pegboard.club.connection import why_not
from pegboard.club.publisher import Publisher
from pegboard.club.service import Subscriber
from pegboard.club.setup import make_certificates
from pegboard.store import Store
from tests.support.mosquitto import Broker, club_setup
from tests.support.ports import free_port

WAIT_S = 60.0
"""How long a failed attempt may take to be logged: far above what it takes."""


class Lines(logging.Handler):
    """The warnings of the club's loggers, with an event for each."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []
        self.news = threading.Condition()

    def emit(self, record: logging.LogRecord) -> None:
        with self.news:
            self.lines.append(record.getMessage())
            self.news.notify_all()

    def wait_for(self, words: str) -> str:
        with self.news:
            found = self.news.wait_for(
                lambda: next((line for line in self.lines if words in line), None), WAIT_S)
        assert found, f"no line saying {words!r}: {self.lines}"
        return found


@pytest.fixture
def lines() -> Iterator[Lines]:
    handler = Lines()
    logger = logging.getLogger("pegboard.club")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


def publisher(tmp_path: Path, port: int, ca: Path) -> Publisher:
    store = tmp_path / "board"
    Store(store, owner="board").close()
    return Publisher(store, ("127.0.0.1", port), club="c1", board="board-1",
                     acked=store / "club-acked.txt", username="board-1", password="x",
                     ca_file=ca)


def test_a_broker_of_another_authority_is_named_as_such(tmp_path: Path, lines: Lines) -> None:
    port = free_port()
    config = club_setup(tmp_path / "club", port)
    club_setup(tmp_path / "other", free_port())
    foreign = tmp_path / "other" / "ca.crt"
    with Broker(tmp_path / "broker", port=port, config=config):
        board = publisher(tmp_path, port, foreign)
        service = Subscriber(tmp_path / "r.db", ("127.0.0.1", port), username="standings",
                             password="x", ca_file=foreign)
        board.start()
        service.start()
        try:
            said = lines.wait_for("board board-1 cannot connect")
            assert "its certificate is not signed by the club's authority" in said
            assert str(foreign) in said and "copy the club's ca.crt" in said
            said = lines.wait_for("the standings service cannot connect")
            assert "not signed by the club's authority" in said
        finally:
            board.stop()
            service.stop()
    # a reason once, however often paho tries again meanwhile: never the same line twice
    # in a row
    said_by_board = [line for line in lines.lines if "board board-1 cannot connect" in line]
    assert all(a != b for a, b in itertools.pairwise(said_by_board)), said_by_board


def broker_with(tls: Path, where: Path, port: int) -> Broker:
    """A mosquitto on ``port`` serving the certificate made in ``tls``."""
    return Broker(where, port=port, extra=(
        f"cafile {tls / 'ca.crt'}\ncertfile {tls / 'broker.crt'}\n"
        f"keyfile {tls / 'broker.key'}\n" + ("user root\n" if os.geteuid() == 0 else "")))


def test_a_certificate_not_naming_the_brokers_address_is_named_as_such(
        tmp_path: Path, lines: Lines) -> None:
    tls = tmp_path / "tls"
    tls.mkdir()
    make_certificates(tls, "c1", ["elsewhere.example"])  # the club's, for another name
    port = free_port()
    with broker_with(tls, tmp_path / "broker", port):
        board = publisher(tmp_path, port, tls / "ca.crt")
        board.start()
        try:
            said = lines.wait_for("board board-1 cannot connect")
            assert "its certificate does not name '127.0.0.1'" in said
            assert "hostname mismatch" in said
        finally:
            board.stop()


def test_nothing_listening_is_named_as_such(tmp_path: Path, lines: Lines) -> None:
    port = free_port()
    make_certificates(tmp_path, "c1", ["127.0.0.1"])
    board = publisher(tmp_path, port, tmp_path / "ca.crt")
    board.start()
    try:
        said = lines.wait_for("board board-1 cannot connect")
        assert f"refused the connection: nothing listens on port {port}" in said
    finally:
        board.stop()


def test_an_expired_certificate_is_named_as_such(tmp_path: Path, lines: Lines,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    tls = tmp_path / "tls"
    tls.mkdir()
    monkeypatch.setattr(setup, "BROKER_DAYS", 0)  # good until the second it was made
    make_certificates(tls, "c1", ["127.0.0.1"])
    port = free_port()
    with broker_with(tls, tmp_path / "broker", port):
        board = publisher(tmp_path, port, tls / "ca.crt")
        board.start()
        try:
            said = lines.wait_for("board board-1 cannot connect")
            assert "its certificate has expired" in said and "club setup again" in said
        finally:
            board.stop()


def test_a_port_not_speaking_tls_is_named_as_such(tmp_path: Path, lines: Lines) -> None:
    """A plain MQTT listener (another broker, or an old club's port): the board says the
    port does not speak TLS and never falls back to plain MQTT (nothing is published)."""
    port = free_port()
    make_certificates(tmp_path, "c1", ["127.0.0.1"])
    with Broker(tmp_path / "broker", port=port):
        board = publisher(tmp_path, port, tmp_path / "ca.crt")
        board.start()
        try:
            said = lines.wait_for("board board-1 cannot connect")
            assert "does not speak TLS on that port" in said and "TLS handshake" in said
            assert not board._connected.is_set()
        finally:
            board.stop()


def test_a_name_that_does_not_resolve_is_named_as_such() -> None:
    error = socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    said = why_not(error, "broker.invalid", 8883, None)
    assert said == ("the broker broker.invalid:8883: the name 'broker.invalid' cannot be "
                    "resolved (Name or service not known)")
