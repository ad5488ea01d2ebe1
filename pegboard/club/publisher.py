"""A board's club publisher: its confirmed results out over MQTT, never lost.

It follows the store (:class:`~pegboard.club.watch.BoardWatch`) and runs beside the device's
loop as a process of its own. Each scorecard goes into the :class:`~pegboard.club.outbox.Outbox`
and is published with QoS 1, retained, on ``pegboard/<club>/board/<board>/result/<game>``
until the broker's PUBACK, which is written down durably; after a broker outage or a lost
network paho sends every result not acknowledged again, and after a restart of the board
the publisher does (the standings service counts a result once, by its id). The table's
live state is a retained message on ``.../state``; the board's availability is ``online``
on ``.../online`` and, as its Last Will, ``offline``.

paho-mqtt runs the connection on its own thread (connecting again after a loss); the loop
here only polls the store and hands messages to it.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from pegboard.club.outbox import Outbox, describe, key
from pegboard.club.topics import ONLINE, STATE, result_topic, topic
from pegboard.club.watch import BoardWatch

log = logging.getLogger(__name__)

QOS = 1
RECONNECT_S = (1, 4)
"""paho's wait before connecting again: the first, then doubled up to the last (seconds)."""


def encode(message: dict[str, Any]) -> bytes:
    """A message's payload: compact UTF-8 JSON."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class Publisher:
    """One board's store published to the club's broker (see the module)."""

    def __init__(self, store: Path, broker: tuple[str, int], *, club: str, board: str,
                 acked: Path, username: str | None = None, password: str | None = None,
                 again: bool = False, ca_file: Path | None = None) -> None:
        """``again``: send every confirmed result again, acknowledged before or not;
        ``ca_file``: TLS, the broker verified against the club's certificate authority."""
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
        self._acks: queue.SimpleQueue[int] = queue.SimpleQueue()
        self._fresh = threading.Event()  # connected again: the live state is sent again
        self._connected = threading.Event()
        self._live: bytes | None = None
        self._live_sent: bytes | None = None
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2,
                                  client_id=f"pegboard-{club}-{board}")
        if ca_file is not None:
            self.client.tls_set(ca_certs=str(ca_file))
        if username is not None:
            self.client.username_pw_set(username, password)
        self.client.will_set(self._topic(ONLINE), b"offline", qos=QOS, retain=True)
        self.client.reconnect_delay_set(*RECONNECT_S)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish

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
        log.info("connected to %s:%d", *self.broker)
        client.publish(self._topic(ONLINE), b"online", qos=QOS, retain=True)
        self._fresh.set()
        self._connected.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: object,
                       flags: mqtt.DisconnectFlags, reason: ReasonCode,
                       properties: Properties | None) -> None:
        self._connected.clear()
        log.warning("disconnected from %s:%d (%s); results wait in the outbox",
                    *self.broker, reason)

    def _on_publish(self, client: mqtt.Client, userdata: object, mid: int,
                    reason: ReasonCode, properties: Properties | None) -> None:
        if not reason.is_failure:
            self._acks.put(mid)

    def _take_acks(self) -> None:
        while True:
            try:
                mid = self._acks.get_nowait()
            except queue.Empty:
                return
            result_id = self._in_flight.pop(mid, None)
            if result_id is not None:
                self.outbox.acknowledge(result_id)
                log.info("the broker has %s", result_id)

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
        waiting = self.outbox.waiting()
        if not self._connected.is_set():
            return len(waiting)
        if self._live is not None and self._live != self._live_sent:
            self.client.publish(self._topic(STATE), self._live, qos=QOS, retain=True)
            self._live_sent = self._live
        sending = set(self._in_flight.values())
        for result_id, game, payload in waiting:
            if result_id not in sending:
                info = self.client.publish(result_topic(self.club, self.board, game), payload,
                                           qos=QOS, retain=True)
                self._in_flight[info.mid] = result_id
        return len(waiting)

    def run(self, stop: threading.Event, period: float = 0.1) -> None:
        """Publish until ``stop`` is set, looking at the store every ``period`` seconds."""
        self.start()
        try:
            while not stop.is_set():
                self.step()
                stop.wait(period)
        finally:
            self._take_acks()
            self.stop()
