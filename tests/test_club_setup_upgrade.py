"""A club set up before the club's night topic: ``pegboard club setup --out DIR --upgrade``
adds the lines its ACL lacks (the boards reading the night, the service writing it) and
touches nothing else (no password, key, certificate or line of the club's own), says what it
did, and a second run changes nothing; then, on a real mosquitto with that folder's
configuration, the service's night reaches a board."""

from __future__ import annotations

import hashlib
import ssl
import threading
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from pegboard.cli import main
from pegboard.club.setup import acl
from pegboard.club.topics import night_topic
from tests.support.mosquitto import Broker, club_setup, free_port
from tests.support.waiting import LIVENESS_S

OLD_ACL = """# pegboard club tuesday: who may publish and read what (docs/club.md)

user board-1
topic write pegboard/tuesday/board/board-1/result/+
topic write pegboard/tuesday/board/board-1/state
topic write pegboard/tuesday/board/board-1/online

user board-2
topic write pegboard/tuesday/board/board-2/result/+
topic write pegboard/tuesday/board/board-2/state
topic write pegboard/tuesday/board/board-2/online

user standings
topic read pegboard/tuesday/board/+/result/+
topic read pegboard/tuesday/board/+/state
topic read pegboard/tuesday/board/+/online

user viewer
topic read pegboard/tuesday/board/+/state
topic read pegboard/tuesday/board/+/online
"""
"""The ACL ``club setup`` wrote for two boards of ``tuesday`` before the night topic."""
SCORER = """
# the club's own: the scorer's laptop reads the live tables
user scorer
topic read pegboard/tuesday/board/+/state
"""


def client(port: int, folder: Path, user: str) -> mqtt.Client:
    """A TLS client of the club's broker (MQTT v5) as ``user``, with its password."""
    found = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=MQTTProtocolVersion.MQTTv5)
    found.tls_set(ca_certs=str(folder / "ca.crt"), tls_version=ssl.PROTOCOL_TLS_CLIENT)
    password = (folder / f"{user}.password").read_text(encoding="utf-8").strip()
    found.username_pw_set(user, password)
    return found


def state(folder: Path) -> dict[str, tuple[str, int]]:
    """Each file of the folder but the ACL: its digest and its modification time."""
    return {path.name: (hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns)
            for path in sorted(folder.iterdir()) if path.is_file() and path.name != "acl"}


def test_setup_upgrade_brings_an_old_clubs_acl_up_to_date(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    port = free_port()
    out = tmp_path / "club"
    conf = club_setup(out, port, boards=2, club="tuesday")
    (out / "acl").write_text(OLD_ACL + SCORER, encoding="utf-8")  # as an old setup left it
    (out / "acl").chmod(0o644)
    before = state(out)
    capsys.readouterr()
    assert main(["club", "setup", "--out", str(out), "--upgrade"]) == 0
    said = capsys.readouterr().out
    night = night_topic("tuesday")
    assert f"added under board-1, board-2: topic read {night}\n" in said
    assert f"added under standings: topic readwrite {night}\n" in said
    assert "the passwords, keys and certificates are as they were" in said
    assert "scorer" not in said
    # today's ACL, with the club's own lines kept as they were
    assert (out / "acl").read_text(encoding="utf-8") == acl(
        "tuesday", ["board-1", "board-2"]) + SCORER
    assert (out / "acl").stat().st_mode & 0o777 == 0o644
    assert state(out) == before  # not a byte or a time changed
    assert main(["club", "setup", "--out", str(out), "--upgrade"]) == 0
    assert "is up to date (2 boards): nothing changed" in capsys.readouterr().out
    # the options of a new club are refused with --upgrade; a new setup over it too
    assert main(["club", "setup", "--out", str(out), "--upgrade", "--boards", "3"]) == 2
    assert "give --out alone, not --boards" in capsys.readouterr().err
    assert main(["club", "setup", "--out", str(out), "--boards", "2"]) == 2
    assert f"pegboard club setup --out {out} --upgrade" in capsys.readouterr().err
    assert main(["club", "setup", "--out", str(tmp_path / "none"), "--upgrade"]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert state(out) == before
    # The broker with the upgraded ACL: the service's night reaches a board.
    with Broker(tmp_path / "broker", port=port, config=conf):
        heard: list[bytes] = []
        came = threading.Event()
        board = client(port, out, "board-1")

        def message(found: mqtt.Client, userdata: object, what: mqtt.MQTTMessage) -> None:
            heard.append(bytes(what.payload))
            came.set()

        board.on_message = message
        board.on_connect = lambda found, *rest: found.subscribe(night, 1)
        service = client(port, out, "standings")
        try:
            service.connect("127.0.0.1", port)
            service.loop_start()
            sent = service.publish(night, b'{"night":12,"round":1,"lock":true}', qos=1,
                                   retain=True)
            sent.wait_for_publish(LIVENESS_S)
            assert sent.rc == mqtt.MQTT_ERR_SUCCESS
            board.connect("127.0.0.1", port)
            board.loop_start()
            assert came.wait(LIVENESS_S), "the board never heard the club's night"
            assert heard == [b'{"night":12,"round":1,"lock":true}']
        finally:
            for each in (board, service):
                each.disconnect()
                each.loop_stop()
