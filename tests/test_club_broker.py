"""The club's broker as a club runs it: ``pegboard club setup``'s passwords and ACL on a real
mosquitto, and forged, malformed and repeated messages on the broker."""

from __future__ import annotations

import contextlib
import json
import socket
import ssl
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from pegboard.cli import main
from pegboard.club.scorecard import judge
from pegboard.club.topics import night_topic, result_topic
from tests.support.club import Standings
from tests.support.mosquitto import Broker, club_setup
from tests.support.ports import free_port
from tests.test_club_scorecard import club_records


def card(seed: int, board: str, club: str = "c1") -> dict[str, object]:
    records, _ = club_records(seed)
    found = judge(records, club=club, board=board, game_id=f"g{seed}").card
    assert found is not None
    return found


class Client:
    """A paho client, connected (or refused, or dropped) before the constructor returns;
    with ``ca``, over TLS trusting that certificate authority alone."""

    def __init__(self, port: int, user: str | None = None, password: str | None = None,
                 *, ca: Path | None = None) -> None:
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2)
        if ca is not None:
            self.client.tls_set(ca_certs=str(ca))
        if user is not None:
            self.client.username_pw_set(user, password)
        self.answered = threading.Event()
        self.refused = False
        self.dropped = threading.Event()

        def connected(client: mqtt.Client, userdata: object, flags: object,
                      reason: ReasonCode, properties: object) -> None:
            self.refused = reason.is_failure
            self.answered.set()

        def disconnected(client: mqtt.Client, userdata: object, flags: object,
                         reason: object, properties: object) -> None:
            self.refused = not self.answered.is_set() or self.refused
            self.dropped.set()
            self.answered.set()

        self.client.on_connect = connected
        self.client.on_disconnect = disconnected
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert self.answered.wait(60), "the broker neither let the client in nor refused it"

    def send(self, topic: str, payload: bytes) -> None:
        self.client.publish(topic, payload, qos=1, retain=True).wait_for_publish(60)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with Broker(tmp_path / "broker") as running:
        yield running


def test_forged_malformed_and_repeated_results_on_the_broker(tmp_path: Path, broker: Broker
                                                            ) -> None:
    service = Standings(tmp_path / "r.db", broker.address)
    board = Client(broker.port)
    try:
        genuine = card(11, "b1")
        forged = dict(genuine, spread=genuine["spread"] + 40)  # type: ignore[operator]
        board.send(result_topic("c1", "b1", "g11"), json.dumps(forged).encode())
        # Results are retained: a service still subscribing when the genuine card replaced
        # the forged one on g11 would be given the genuine one alone. Refused first, by name.
        service.wait_for(0, refused=1)
        board.send(result_topic("c1", "b1", "g12"), b"\xff not json")
        board.send(result_topic("c1", "b1", "g11"), json.dumps(genuine).encode())
        status = service.wait_for(1, refused=2)
        assert (status["results"], status["refused"]) == (1, 2)
        board.send(result_topic("c1", "b2", "g11"), json.dumps(genuine).encode())
        again = card(12, "b1")
        # The card counted, sent again (the same card: counted once, in no counter again),
        # and the same game from board b2 (a board renamed: a duplicate).
        board.send(result_topic("c1", "b1", "g11"), json.dumps(genuine).encode())
        board.send(result_topic("c1", "b2", "g11"), json.dumps(dict(genuine, board="b2")).encode())
        board.send(result_topic("c1", "b1", "g12"), json.dumps(again).encode())
        status = service.wait_for(2, refused=2, duplicates=1)
        assert (status["results"], status["duplicates"], status["refused"]) == (2, 1, 2)
        # b1's counted card on b2's topic is that card again (known, in no counter), not a
        # refusal; another board's card not yet counted waits for the director
        # (tests/test_club_director.py)
        assert status["held"] == 0
        assert [p["games"] for p in service.get("/api/standings")["players"]] == [2, 2]
        why = " ".join(row["why"] for row in service.get("/api/refused")["refused"])
        assert "'spread' differs" in why
        assert "is not JSON" in why
        assert "'spread' differs" in service.log.read_text(encoding="utf-8")
    finally:
        board.close()
        service.stop()


def test_setup_gives_each_board_its_own_topic_and_the_service_read_only(tmp_path: Path
                                                                       ) -> None:
    port = free_port()
    out = tmp_path / "club"
    config = club_setup(out, port)
    assert main(["club", "setup", "--out", str(out), "--boards", "2"]) == 2  # never over
    assert "autosave_interval 100\nautosave_on_changes true\n" in config.read_text(
        encoding="utf-8")  # a snapshot after 100 changes, not after each one
    secret = {user: (out / f"{user}.password").read_text(encoding="utf-8").strip()
              for user in ("board-1", "board-2", "standings", "viewer")}
    ca = out / "ca.crt"
    with Broker(tmp_path / "broker", port=port, config=config):
        assert Client(port, ca=ca).refused  # no anonymous clients
        assert Client(port, "board-1", "wrong", ca=ca).refused
        service = Standings(tmp_path / "r.db", f"127.0.0.1:{port}", club="c1", extra=(
            "--user", "standings", "--password-file", str(out / "standings.password"),
            "--cafile", str(ca)))
        board = Client(port, "board-1", secret["board-1"], ca=ca)
        try:
            # board-1 writing under board-2's topic, or below its own topics: the broker
            # drops it (the ACL)
            board.send(result_topic("c1", "board-2", "g11"),
                       json.dumps(card(11, "board-2")).encode())
            board.send(result_topic("c1", "board-1", "g11") + "/deeper",
                       json.dumps(card(11, "board-1")).encode())
            board.send(result_topic("c1", "board-1", "g12"),
                       json.dumps(card(12, "board-1")).encode())
            status = service.wait_for(1)
            assert (status["results"], status["refused"]) == (1, 0)
            for user in ("standings", "viewer"):  # neither may write a result
                other = Client(port, user, secret[user], ca=ca)
                other.send(result_topic("c1", "board-1", "g13"),
                           json.dumps(card(13, "board-1")).encode())
                other.close()
            board.send(result_topic("c1", "board-1", "g14"),
                       json.dumps(card(14, "board-1")).encode())
            status = service.wait_for(2)
            assert status["results"] == 2  # the service's own user cannot write results
            # The club's night: a board reads it and cannot write it; the service writes.
            nights: list[bytes] = []
            heard = threading.Condition()

            def took(client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage
                     ) -> None:
                with heard:
                    nights.append(bytes(message.payload))
                    heard.notify_all()

            reader = Client(port, "board-2", secret["board-2"], ca=ca)
            reader.client.on_message = took
            subscribed = threading.Event()
            reader.client.on_subscribe = lambda *args: subscribed.set()
            reader.client.subscribe(night_topic("c1"), 1)
            assert subscribed.wait(60), "the board's subscription to the night never made"
            writer = Client(port, "standings", secret["standings"], ca=ca)
            try:
                board.send(night_topic("c1"), b'{"night":99,"round":9,"lock":false}')
                writer.send(night_topic("c1"), b'{"night":1,"round":1,"lock":false}')
                with heard:
                    assert heard.wait_for(lambda: bool(nights), 60), "no night came"
                assert nights == [b'{"night":1,"round":1,"lock":false}']
            finally:
                reader.close()
                writer.close()
        finally:
            board.close()
            service.stop()


def test_the_broker_speaks_tls_only_and_only_with_the_clubs_own_certificate(
        tmp_path: Path) -> None:
    """Nothing crosses the network in clear: a client speaking plain MQTT to the club's
    broker is dropped before it can send a password, and a client trusting another club's
    authority (a broker in the middle with a certificate of its own, as the board sees it)
    refuses the handshake; with the club's ``ca.crt`` the board is let in."""
    port = free_port()
    config = club_setup(tmp_path / "club", port)
    club_setup(tmp_path / "other", free_port())
    secret = (tmp_path / "club" / "board-1.password").read_text(encoding="utf-8").strip()
    with Broker(tmp_path / "broker", port=port, config=config):
        plain = Client(port, "board-1", secret)
        assert plain.refused and plain.dropped.is_set()
        plain.close()
        with pytest.raises(ssl.SSLCertVerificationError, match="certificate verify failed"):
            Client(port, "board-1", secret, ca=tmp_path / "other" / "ca.crt")
        good = Client(port, "board-1", secret, ca=tmp_path / "club" / "ca.crt")
        assert not good.refused and not good.dropped.is_set()
        good.close()
        # TLS 1.2 at least: a client offering 1.1 at most gets no handshake.
        old = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        old.load_verify_locations(tmp_path / "club" / "ca.crt")
        assert "tls_version tlsv1.2\n" in config.read_text(encoding="utf-8")
        with warnings.catch_warnings():  # naming TLS 1.1 is deprecated: that is the point
            warnings.simplefilter("ignore", DeprecationWarning)
            old.minimum_version = ssl.TLSVersion.MINIMUM_SUPPORTED
            old.maximum_version = ssl.TLSVersion.TLSv1_1
        with contextlib.suppress(ssl.SSLError):
            old.set_ciphers("ALL:@SECLEVEL=0")  # let this end offer 1.1 if OpenSSL can
        with socket.create_connection(("127.0.0.1", port), timeout=60) as raw, \
                pytest.raises(ssl.SSLError):
            old.wrap_socket(raw, server_hostname="127.0.0.1")
        modern = ssl.create_default_context(cafile=str(tmp_path / "club" / "ca.crt"))
        modern.minimum_version = modern.maximum_version = ssl.TLSVersion.TLSv1_2
        with socket.create_connection(("127.0.0.1", port), timeout=60) as raw, \
                modern.wrap_socket(raw, server_hostname="127.0.0.1") as wrapped:
            assert wrapped.version() == "TLSv1.2"
