"""The standings service under a hostile board, on the broker as ``club setup`` makes it
(TLS on loopback, the passwords, the ACL):

- **a flood's delay**: board 1 sends its whole burst of well-formed forged cards (each read
  through the engine to be refused), then board 2 a genuine result; the time from board 2's
  result acknowledged by the broker to its being counted, against the same result sent with
  no flood before it;
- **junk taken**: 1,000 and then 10,000 cheap junk messages of board 1 (not text, nested
  brackets, an object that is not a card, a record over the line limit) retained on the
  broker before the service starts, then board 2's result: the time from sending it to its
  being counted, and how much of board 1's flood the service had taken by then (each
  board's results come on a connection of their own, :mod:`pegboard.club.links`, so the
  time should not grow with the flood).

- **a flood while running**: both boards' results already taken (the service running),
  board 1 publishes 1,000 and then 10,000 junk messages as fast as the broker takes them
  and, once the broker has them all, board 2 a genuine result: the time from board 2's
  result sent to its being counted, and how much of board 1's flood the service had taken
  by then.

Both boards say they are online as they connect (retained), as every board does. Each is
measured once (the machine is shared): ``python -m bench club_flood``.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from pegboard.club.budget import BURST
from pegboard.club.check import MAX_LINES
from pegboard.club.results import connect, counters
from pegboard.club.service import Subscriber
from pegboard.club.topics import ONLINE, result_topic, topic
from tests.support.mosquitto import Broker, club_setup
from tests.support.ports import free_port
from tests.test_club_broker import Client, card

JUNKS = (1_000, 10_000)
WAIT_S = 300.0


def junk(n: int) -> bytes:
    """The ``n``-th junk message: refused before the engine, by its first byte, its JSON or
    its shape."""
    kind = n % 4
    if kind == 0:
        return b"\xff\xfe not even text %d" % n
    if kind == 1:
        return b"[" * 5000 + b"%d" % n
    if kind == 2:
        return json.dumps({"format": "pegboard-club-result", "version": 1, "n": n}).encode()
    return json.dumps({"format": "pegboard-club-result", "version": 2, "club": "c1",
                       "board": "board-1", "game": f"junk{n}",
                       "record": [{}] * (MAX_LINES + 1)}).encode()


class Counted:
    """The ids the subscriber counted, each with when (``changed``'s calls)."""

    def __init__(self) -> None:
        self.at: dict[str, float] = {}
        self.news = threading.Condition()

    def __call__(self, what: dict[str, Any]) -> None:
        with self.news:
            self.at[str(what["id"])] = time.perf_counter()
            self.news.notify_all()

    def wait(self, key: str) -> float:
        with self.news:
            assert self.news.wait_for(lambda: key in self.at, WAIT_S), f"{key} never counted"
            return self.at[key]


def _setup(home: Path) -> tuple[int, Path, dict[str, str], Path]:
    port = free_port()
    out = home / "club"
    config = club_setup(out, port)
    secret = {user: (out / f"{user}.password").read_text(encoding="utf-8").strip()
              for user in ("board-1", "board-2", "standings")}
    return port, out / "ca.crt", secret, config


def _online(board: Client, name: str) -> None:
    """``name`` online (retained), as a board says when it connects."""
    board.send(topic("c1", name, ONLINE), b"online")


def _subscriber(db: Path, port: int, ca: Path, secret: dict[str, str],
                counted: Counted) -> Subscriber:
    return Subscriber(db, ("127.0.0.1", port), club="c1", username="standings",
                      password=secret["standings"], ca_file=ca, changed=counted)


def flood_delay(home: Path) -> tuple[float, float]:
    """(a result's time to be counted alone, the same behind a board's burst of forged
    cards), in seconds."""
    port, ca, secret, config = _setup(home)
    counted = Counted()
    with Broker(home / "broker", port=port, config=config):
        subscriber = _subscriber(home / "flood.db", port, ca, secret, counted)
        subscriber.start()
        assert subscriber.connected.wait(WAIT_S)
        bad = Client(port, "board-1", secret["board-1"], ca=ca)
        good = Client(port, "board-2", secret["board-2"], ca=ca)
        try:
            _online(bad, "board-1")
            _online(good, "board-2")
            alone = card(12, "board-2")
            good.send(result_topic("c1", "board-2", "g12"), json.dumps(alone).encode())
            sent = time.perf_counter()
            first = counted.wait(str(alone["id"])) - sent
            genuine = card(11, "board-1")
            infos = [bad.client.publish(result_topic("c1", "board-1", f"f{n}"), json.dumps(
                dict(genuine, game=f"f{n}", spread=int(str(genuine["spread"])) + 1 + n)
            ).encode(), qos=1, retain=True) for n in range(BURST)]
            for info in infos:
                info.wait_for_publish(WAIT_S)
            behind = card(13, "board-2")
            good.send(result_topic("c1", "board-2", "g13"), json.dumps(behind).encode())
            sent = time.perf_counter()
            second = counted.wait(str(behind["id"])) - sent
        finally:
            bad.close()
            good.close()
            subscriber.stop()
    return first, second


def junk_taken(home: Path, junks: int) -> tuple[float, int, int]:
    """``junks`` junk messages of board 1 retained on the broker before the service starts,
    then board 2's result sent as soon as the service has subscribed: the seconds from
    sending it to its being counted, and how many of the junk messages the service had
    taken by then (refused: read, up to board 1's rate; or dropped unread over it)."""
    port, ca, secret, config = _setup(home)
    db_path = home / "junk.db"
    counted = Counted()
    with Broker(home / "broker", port=port, config=config):
        bad = Client(port, "board-1", secret["board-1"], ca=ca)
        try:
            _online(bad, "board-1")
            infos = [bad.client.publish(result_topic("c1", "board-1", f"junk{n}"), junk(n),
                                        qos=1, retain=True) for n in range(junks)]
            for info in infos:
                info.wait_for_publish(WAIT_S)
        finally:
            bad.close()
        connect(db_path).close()
        subscriber = _subscriber(db_path, port, ca, secret, counted)
        subscriber.start()
        good = Client(port, "board-2", secret["board-2"], ca=ca)
        try:
            assert subscriber.connected.wait(WAIT_S)
            _online(good, "board-2")
            result = card(12, "board-2")
            good.send(result_topic("c1", "board-2", "g12"), json.dumps(result).encode())
            sent = time.perf_counter()
            took = counted.wait(str(result["id"])) - sent
            dropped = subscriber.rate.over
            db = connect(db_path)
            try:
                refused = counters(db)["refused"]
            finally:
                db.close()
        finally:
            good.close()
            subscriber.stop()
    return took, refused, dropped


def _fast_client(port: int, user: str, password: str, ca: Path) -> mqtt.Client:
    """A board's client with 1,000 messages in flight (paho's default is 20), connected:
    a flood as fast as the broker takes it."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.max_inflight_messages_set(1000)
    client.tls_set(ca_certs=str(ca))
    client.username_pw_set(user, password)
    ready = threading.Event()
    client.on_connect = lambda *args: ready.set()
    client.connect("127.0.0.1", port)
    client.loop_start()
    assert ready.wait(WAIT_S), "the flooding board never connected"
    return client


def live_flood(home: Path, junks: int) -> tuple[float, int]:
    """Both boards' first results counted, then ``junks`` junk messages of board 1 sent at
    once (QoS 1, retained) and board 2's next result sent once the broker has them: the
    seconds from sending it to its being counted, and how many of board 1's junk messages
    the service had taken (refused, or dropped unread over its rate) by then."""
    port, ca, secret, config = _setup(home)
    db_path = home / "live.db"
    counted = Counted()
    with Broker(home / "broker", port=port, config=config):
        subscriber = _subscriber(db_path, port, ca, secret, counted)
        subscriber.start()
        bad = Client(port, "board-1", secret["board-1"], ca=ca)
        good = Client(port, "board-2", secret["board-2"], ca=ca)
        fast = _fast_client(port, "board-1", secret["board-1"], ca)
        try:
            assert subscriber.connected.wait(WAIT_S)
            _online(bad, "board-1")
            _online(good, "board-2")
            for board, seed in (("board-1", 11), ("board-2", 12)):
                first = card(seed, board)
                sender = bad if board == "board-1" else good
                sender.send(result_topic("c1", board, f"g{seed}"), json.dumps(first).encode())
                counted.wait(str(first["id"]))
            infos = [fast.publish(result_topic("c1", "board-1", f"junk{n}"), junk(n),
                                        qos=1, retain=True) for n in range(junks)]
            for info in infos:  # all on the broker, before board 2's result
                info.wait_for_publish(WAIT_S)
            result = card(13, "board-2")
            good.client.publish(result_topic("c1", "board-2", "g13"),
                                json.dumps(result).encode(), qos=1, retain=True)
            sent = time.perf_counter()
            took = counted.wait(str(result["id"])) - sent
            taken = subscriber.rate.over
            db = connect(db_path)
            try:
                taken += counters(db)["refused"]
            finally:
                db.close()
        finally:
            bad.close()
            good.close()
            fast.disconnect()
            fast.loop_stop()
            subscriber.stop()
    return took, taken


def main() -> None:
    home = Path(tempfile.mkdtemp(prefix="pegboard-bench-flood-"))
    try:
        alone, behind = flood_delay(home / "flood")
        print(f"  {os.cpu_count()} cores: a result counted {alone:.2f} s after it is sent "
              f"alone, {behind:.2f} s behind another board's {BURST} forged cards")
        for junks in JUNKS:
            took, refused, dropped = junk_taken(home / f"junk{junks}", junks)
            print(f"  with {junks:,} retained junk messages of another board, a result "
                  f"counted {took:.2f} s after it is sent (by then, of the {junks:,}: "
                  f"{refused:,} refused, {dropped:,} dropped unread over that board's "
                  "rate)", flush=True)
        for junks in JUNKS:
            took, taken = live_flood(home / f"live{junks}", junks)
            print(f"  {junks:,} junk messages of another board on the broker, then a result: "
                  f"counted {took:.2f} s after it is sent (by then {taken:,} of the {junks:,} "
                  "taken)", flush=True)
        print(f"  load average {os.getloadavg()[0]:.1f} at the end")
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
