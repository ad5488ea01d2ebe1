"""A board's club publisher: its confirmed results out over MQTT, never lost.

It follows the store (:class:`~pegboard.club.watch.BoardWatch`) and runs beside the device's
loop as a process of its own. Each scorecard goes into the :class:`~pegboard.club.outbox.Outbox`
and is published with QoS 1, retained, on ``pegboard/<club>/board/<board>/result/<game>``
until the broker's PUBACK, which is written down durably; after a broker outage or a lost
network paho sends every result not acknowledged again, and after a restart of the board
the publisher does (the standings service counts a result once, by its id). The table's
live state is a retained message on ``.../state``; the board's availability is ``online``
on ``.../online`` and, as its Last Will, ``offline``. It reads the club's night (the night,
the next round and the lock) from the standings service's retained ``pegboard/<club>/night``
and writes it in its status file, from which the board's loop starts its next game there.

It speaks MQTT v5, whose PUBACK carries a reason code: a result the broker refuses (its ACL
does not let this board publish there: ``not authorised``, a packet too large, a quota) is
not acknowledged. It stays in the outbox, unsent, and the board says why in its status file
(:mod:`pegboard.club.status`, beside the acknowledgements: the board's own screen shows
it) and its log, once; it is offered again every :data:`RETRY_REFUSED_S` seconds, on each
new connection and at each start, so it goes out by itself once the broker or the board's
config is put right.

paho-mqtt runs the connection on its own thread (connecting again after a loss); the loop
here only polls the store and hands messages to it.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from pegboard.club import status as status_file
from pegboard.club.connection import Client, Failures, client_id
from pegboard.club.outbox import Outbox, describe, key
from pegboard.club.status import STATUS_NAME
from pegboard.club.topics import ONLINE, STATE, night_topic, parse_night, result_topic, topic
from pegboard.club.watch import BoardWatch

log = logging.getLogger(__name__)

QOS = 1
RECONNECT_S = (1, 4)
"""paho's wait before connecting again: the first, then doubled up to the last (seconds)."""
RETRY_REFUSED_S = 60.0
"""How long a result the broker refused waits before it is offered again (seconds)."""
NOT_AUTHORISED = 0x87
"""The PUBACK reason code of a publish the broker's ACL denied."""


def refusal(reason: ReasonCode, club: str, board: str) -> str:
    """Why the broker refused a result, in the board's words."""
    if reason.value == NOT_AUTHORISED:
        return (f"refused by the broker: not authorised for club {club} as board {board} "
                f"(the broker's ACL; is club.club right?)")
    return f"refused by the broker: {str(reason).lower()} (reason code {reason.value})"


def encode(message: dict[str, Any]) -> bytes:
    """A message's payload: compact UTF-8 JSON."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class Stop(Protocol):
    """What :meth:`Publisher.run` is stopped by: a :class:`threading.Event`, or a flag a
    signal handler sets (``pegboard club publish``)."""

    def is_set(self) -> bool: ...

    def wait(self, timeout: float) -> bool: ...


class Publisher:
    """One board's store published to the club's broker (see the module)."""

    def __init__(self, store: Path, broker: tuple[str, int], *, club: str, board: str,
                 acked: Path, username: str | None = None, password: str | None = None,
                 again: bool = False, ca_file: Path | None = None,
                 retry_refused: float = RETRY_REFUSED_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """``again``: send every confirmed result again, acknowledged before or not;
        ``ca_file``: TLS, the broker verified against the club's certificate authority;
        ``retry_refused``: seconds before a refused result is offered again."""
        self.watch = BoardWatch(store, club=club, board=board)
        self.outbox = Outbox(acked, again=again)
        self.broker = broker
        self.club, self.board = club, board
        # Only the loop's thread touches these: paho's thread hands PUBACKs over in a queue,
        # so a PUBACK is matched after publish() has named its message id, never before.
        # A result is handed to paho once per process: paho keeps every QoS 1 message until
        # its PUBACK and sends it again itself on each new connection (handing it over
        # again there would send every waiting result twice after each outage).
        self._in_flight: dict[int, str] = {}  # paho's message id -> result id
        # (message id, why the broker refused it, or None: acknowledged)
        self._acks: queue.SimpleQueue[tuple[int, str | None]] = queue.SimpleQueue()
        self._refused: dict[str, tuple[float, str]] = {}  # result -> (when, why)
        self.retry_refused = retry_refused
        self._clock = clock
        self.status_path = acked.parent / STATUS_NAME
        self._status: dict[str, Any] | None = None
        self._fresh = threading.Event()  # connected again: the live state is sent again
        self._connected = threading.Event()
        self.news = threading.Event()
        """Set on paho's thread when the broker answers (a connection, a PUBACK) or the
        connection is lost: a caller stepping the publisher waits on it."""
        self._live: bytes | None = None
        self._live_sent: bytes | None = None
        self.night: tuple[int, int, bool] | None = None
        """The club's night as the standings service last published it (night, round,
        lock), set on paho's thread; written in the status file for the board's loop."""
        self.connections = 0
        """Connections the broker has let the board make (set on paho's thread)."""
        self.client = Client(CallbackAPIVersion.VERSION2,
                             client_id=client_id(f"{club}-{board}", password),
                             protocol=mqtt.MQTTv5)
        if ca_file is not None:
            self.client.tls_set(ca_certs=str(ca_file))
        if username is not None:
            self.client.username_pw_set(username, password)
        self.client.will_set(self._topic(ONLINE), b"offline", qos=QOS, retain=True)
        self._failures = Failures(log, broker[0], broker[1], ca_file, f"board {board}")
        self.client.connect_failed = self._failures.failed  # logged with its reason
        self.client.reconnect_delay_set(*RECONNECT_S)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_message = self._on_message

    def _topic(self, leaf: str) -> str:
        return topic(self.club, self.board, leaf)

    def start(self) -> None:
        """Connect in the background (and again after every loss)."""
        self.client.connect_async(self.broker[0], self.broker[1], keepalive=10)
        self.client.loop_start()

    def stop(self) -> None:
        """Say ``offline`` and disconnect (the Last Will is for a board that just dies)."""
        if self._connected.is_set():
            self.client.publish(self._topic(ONLINE), b"offline", qos=QOS, retain=True)
        self.client.disconnect()
        self.client.loop_stop()
        self.outbox.close()

    def _on_connect(self, client: mqtt.Client, userdata: object, flags: mqtt.ConnectFlags,
                    reason: ReasonCode, properties: Properties | None) -> None:
        if reason.is_failure:
            log.warning("the broker %s:%d refused the board: %s", *self.broker, reason)
            return
        self._failures.connected()
        self.connections += 1
        log.info("connected to %s:%d (MQTT v5)", *self.broker)
        client.publish(self._topic(ONLINE), b"online", qos=QOS, retain=True)
        client.subscribe(night_topic(self.club), qos=QOS)  # retained: it comes at once
        self._fresh.set()
        self._connected.set()
        self.news.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: object,
                       flags: mqtt.DisconnectFlags, reason: ReasonCode,
                       properties: Properties | None) -> None:
        self._connected.clear()
        self.news.set()
        log.warning("disconnected from %s:%d (%s); results wait in the outbox",
                    *self.broker, reason)

    def _on_publish(self, client: mqtt.Client, userdata: object, mid: int,
                    reason: ReasonCode, properties: Properties | None) -> None:
        self._acks.put((mid, refusal(reason, self.club, self.board)
                          if reason.is_failure else None))
        self.news.set()

    def _on_message(self, client: mqtt.Client, userdata: object,
                    message: mqtt.MQTTMessage) -> None:
        if message.topic != night_topic(self.club):
            return
        night = parse_night(bytes(message.payload))
        if night is None:
            log.warning("the club's night on %s is not readable; ignored", message.topic)
            return
        if night != self.night:
            log.info("the club's night: night %d, round %d, lock %s", *night)
        self.night = night
        self.news.set()

    def _take_acks(self) -> None:
        while True:
            try:
                mid, why = self._acks.get_nowait()
            except queue.Empty:
                return
            result_id = self._in_flight.pop(mid, None)
            if result_id is None:
                continue
            if why is None:
                self.outbox.acknowledge(result_id)
                self._refused.pop(result_id, None)
                log.info("the broker has %s", result_id)
                continue
            if self._refused.get(result_id, (0.0, ""))[1] != why:
                log.warning("result %s %s; it waits and is offered again", result_id, why)
            self._refused[result_id] = (self._clock(), why)

    def step(self) -> int:
        """Poll the store once, note the broker's acknowledgements and send what waits;
        how many results wait unacknowledged."""
        seen = self.watch.poll()
        for card in seen.cards:
            if self.outbox.add(key(card), card["game"], encode(card)):
                log.info("result %s to publish", describe(card))
        if seen.live is not None:
            self._live = encode(seen.live)
        self._take_acks()
        if self._fresh.is_set():
            self._fresh.clear()
            self._live_sent = None  # the broker may have lost it (a crash): retain it again
            # a new connection (its credentials or the broker's ACL may have changed)
            self._refused = {key: (0.0, why) for key, (_, why) in self._refused.items()}
        waiting = self.outbox.waiting()
        self._write_status(len(waiting))
        if not self._connected.is_set():
            return len(waiting)
        if self._live is not None and self._live != self._live_sent:
            self.client.publish(self._topic(STATE), self._live, qos=QOS, retain=True)
            self._live_sent = self._live
        sending = set(self._in_flight.values())
        now = self._clock()
        for result_id, game, payload in waiting:
            refused = self._refused.get(result_id)
            if refused is not None and refused[0] and now - refused[0] < self.retry_refused:
                continue
            if result_id not in sending:
                info = self.client.publish(result_topic(self.club, self.board, game), payload,
                                           qos=QOS, retain=True)
                self._in_flight[info.mid] = result_id
        return len(waiting)

    def refused(self) -> dict[str, str]:
        """The results the broker refused and not since taken, with why."""
        return {key: why for key, (_, why) in self._refused.items()}

    def _write_status(self, waiting: int) -> None:
        """Write the status file when it changed (whole: written aside, then renamed)."""
        games = {key: game for key, game, _ in self.outbox.waiting()}
        night = self.night
        status = {"club": self.club, "board": self.board,
                  "connected": self._connected.is_set(), "waiting": waiting,
                  "refused": [{"result": key, "game": games.get(key), "why": why}
                              for key, (_, why) in sorted(self._refused.items())],
                  "night": None if night is None else dict(zip(("night", "round", "lock"),
                                                               night, strict=True))}
        if status == self._status:
            return
        try:
            status_file.write(self.status_path, status)
        except OSError as error:  # the status is a courtesy: the results go out anyway
            log.warning("cannot write %s: %s", self.status_path, error)
            return
        self._status = status

    def run(self, stop: Stop, period: float = 0.1) -> None:
        """Publish until ``stop`` is set, looking at the store every ``period`` seconds."""
        self.start()
        try:
            while not stop.is_set():
                self.step()
                stop.wait(period)
        finally:
            self._take_acks()
            self.stop()
