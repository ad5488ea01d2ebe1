"""A club set up before the club's night topic: ``pegboard club setup --out DIR --upgrade``
adds the lines its ACL lacks (the boards reading the night, the service writing it) and
touches nothing else (no password, key, certificate or line of the club's own), says what it
did, and a second run changes nothing; then, on a real mosquitto with that folder's
configuration, the service's night reaches a board."""

from __future__ import annotations

import hashlib
import os
import ssl
import subprocess
import threading
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from pegboard.cli import main
from pegboard.club.setup import acl
from pegboard.club.topics import MAX_MESSAGE, night_topic
from tests.support.mosquitto import Broker, club_setup
from tests.support.ports import free_port
from tests.support.waiting import LIVENESS_S
from tests.test_club_broker import Client

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
    assert "give --out alone (and --host for a club whose broker has no certificate yet), " \
        "not --boards" in capsys.readouterr().err
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


def old_club(out: Path, port: int) -> Path:
    """A club as ``club setup`` wrote it before TLS and the broker's bounds: a plain
    listener (on loopback, as the tests' brokers), the passwords, today's ACL, persistence
    saved after every change, and a line of the club's own; no certificate. Its
    configuration, mode 640."""
    out.mkdir()
    users = ["board-1", "board-2", "standings", "viewer"]
    (out / "passwords").write_text("".join(f"{u}:secret-{u}\n" for u in users),
                                   encoding="utf-8")
    subprocess.run(["mosquitto_passwd", "-U", str(out / "passwords")], check=True)
    for user in users:
        (out / f"{user}.password").write_text(f"secret-{user}\n", encoding="utf-8")
    (out / "acl").write_text(acl("tuesday", ["board-1", "board-2"]), encoding="utf-8")
    conf = out / "mosquitto.conf"
    conf.write_text(OLD_CONF.format(out=out, port=port) + (
        "user root\n" if os.geteuid() == 0 else ""), encoding="utf-8")
    conf.chmod(0o640)
    return conf


OLD_CONF = """# pegboard club tuesday: mosquitto -c {out}/mosquitto.conf
listener {port} 127.0.0.1
allow_anonymous false
password_file {out}/passwords
acl_file {out}/acl
persistence true
persistence_location {out}/
autosave_interval 1
autosave_on_changes true
# the club's own: every connection in the log
log_type all
"""


def test_setup_upgrade_brings_an_old_clubs_broker_to_tls_and_its_bounds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A club from before TLS: ``--upgrade`` makes the club's authority and the broker's
    certificate, puts the listener's TLS settings under it and the size limits and the rest
    of today's persistence after the club's lines, keeps every setting the club has (its
    autosave after every change, said) and every other file to the byte and the time, and
    the configuration's mode; a second run changes nothing. mosquitto with it speaks TLS
    only and drops a packet over the limit. A club that cannot be brought up to date with
    care (some certificates and not others) is refused, nothing changed."""
    port = free_port()
    out = tmp_path / "club"
    conf = old_club(out, port)
    before = {name: stamp for name, stamp in state(out).items() if name != "mosquitto.conf"}
    text = conf.read_text(encoding="utf-8")
    assert main(["club", "setup", "--out", str(out), "--upgrade", "--host", "127.0.0.1"]) == 0
    said = capsys.readouterr().out
    listener = f"listener {port} 127.0.0.1\n"
    tls = (f"cafile {out}/ca.crt\ncertfile {out}/broker.crt\nkeyfile {out}/broker.key\n"
           "tls_version tlsv1.2\n")
    added = (f"max_packet_size {MAX_MESSAGE}\nmemory_limit {256 * 1024 * 1024}\n"
             f"max_queued_bytes {64 * 1024 * 1024}\nmax_inflight_messages 20\n"
             "max_keepalive 120\nmax_connections 38\nmax_queued_messages 100000\n")
    assert conf.read_text(encoding="utf-8") == text.replace(listener, listener + tls) + added
    assert conf.stat().st_mode & 0o777 == 0o640
    assert "kept as the club has it: autosave_interval 1 (setup writes autosave_interval " \
        "100 today)" in said
    assert f"the broker now listens with TLS only on port {port}" in said
    assert {name: stamp for name, stamp in state(out).items() if name in before} == before
    assert all((out / key).stat().st_mode & 0o777 == 0o600 for key in (
        "ca.key", "broker.key", "standings.key"))
    upgraded = state(out) | {"acl": ((out / "acl").read_bytes().hex(),
                                     (out / "acl").stat().st_mtime_ns)}
    assert main(["club", "setup", "--out", str(out), "--upgrade"]) == 0
    again = capsys.readouterr().out
    assert "of club tuesday is up to date: nothing changed" in again
    assert "is up to date (2 boards): nothing changed" in again
    assert state(out) | {"acl": ((out / "acl").read_bytes().hex(),
                                 (out / "acl").stat().st_mtime_ns)} == upgraded
    with Broker(tmp_path / "broker", port=port, config=conf):
        plain = Client(port, "board-1", "secret-board-1")
        assert plain.refused and plain.dropped.is_set()  # no password in clear
        plain.close()
        board = Client(port, "board-1", "secret-board-1", ca=out / "ca.crt")
        try:
            assert not board.refused
            board.client.publish("pegboard/tuesday/board/board-1/state",
                                 b"x" * (MAX_MESSAGE + 1), qos=1)
            assert board.dropped.wait(LIVENESS_S), "a packet over the limit was taken"
        finally:
            board.close()
    # Half a club's keys: refused, and not a file changed.
    other = tmp_path / "other"
    old_club(other, free_port())
    (other / "ca.crt").write_text("not ours\n", encoding="utf-8")
    kept = state(other) | {"acl": ((other / "acl").read_bytes().hex(), 0)}
    assert main(["club", "setup", "--out", str(other), "--upgrade"]) == 2
    assert "holds ca.crt but not ca.key" in capsys.readouterr().err
    assert state(other) | {"acl": ((other / "acl").read_bytes().hex(), 0)} == kept
