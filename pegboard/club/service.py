"""The standings service's subscriber: every board's results, stored once.

It subscribes to ``pegboard/<club>/board/+/result`` (``+`` for every club: a league) with QoS 1
and a persistent session (a fixed client id, ``clean_session`` off), so the broker keeps the
results that arrive while the service is down and delivers them when it is back. A message
is acknowledged (paho's ``manual_ack``) only once its result is stored in SQLite or refused:
a result the broker has handed over is on disk, and one that could not be stored is
delivered again. A malformed or
forged message is logged, kept in ``refused`` and never counted; a duplicate is counted once,
and a corrected game replaces the revision counted (:mod:`pegboard.club.results`).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from pegboard.club.check import check_result
from pegboard.club.refusals import Refusals
from pegboard.club.results import connect, store_result
from pegboard.club.seating import Round
from pegboard.club.topics import (
    ONLINE,
    STATE,
    board_filter,
    parse_board_topic,
    results_filter,
)
from pegboard.errors import ClubError
from pegboard.rules.variants import GamePoints

log = logging.getLogger(__name__)


class Subscriber:
    """Results from the broker into the database at ``db_path``; ``changed`` is called (on
    paho's thread) after each new result."""

    def __init__(self, db_path: Path, broker: tuple[str, int], *, club: str = "+",
                 name: str = "standings", username: str | None = None,
                 password: str | None = None, ca_file: Path | None = None,
                 changed: Callable[[dict[str, Any]], None] = lambda what: None,
                 tables_changed: Callable[[str, dict[str, Any]], None] = (
                     lambda key, entry: None),
                 written: Callable[[], None] = lambda: None,
                 failed: Callable[[BaseException], None] = lambda error: None,
                 points: GamePoints = GamePoints.ACC, seating: list[Round] | None = None
                 ) -> None:
        """``changed`` is told what changed in the standings or the director's queue (the
        result, its night, how it was stored: counted, corrected or held); ``tables_changed``
        a board's new live state and availability (its key and entry); ``written`` that
        something else was stored (a refusal, a duplicate), for which no page redraws.
        ``points``: the club's game points, by which every game is counted; ``seating``:
        tonight's, against which each new game is checked (docs/club.md)."""
        self.db_path = db_path
        self.broker = broker
        self.filter = results_filter(club)
        self.club = club
        self.tables: dict[str, dict[str, Any]] = {}
        """Each board's live state and availability (``club/board`` -> the newest), kept in
        memory only: the broker retains them."""
        self._tables_lock = threading.Lock()
        self.changed = changed
        self.tables_changed = tables_changed
        self.written = written
        self.points = points
        self.seating = seating
        self.failed = failed
        self._db: sqlite3.Connection | None = None
        self.refusals: Refusals | None = None
        self.connected = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2,
                                  client_id=f"pegboard-{name}", clean_session=False,
                                  manual_ack=True)
        if ca_file is not None:  # TLS: the broker verified against the club's authority
            self.client.tls_set(ca_certs=str(ca_file))
        if username is not None:
            self.client.username_pw_set(username, password)
        self.client.reconnect_delay_set(1, 4)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_disconnect = self._on_disconnect

    def start(self) -> None:
        """Connect in the background (and again after every loss)."""
        self.client.connect_async(self.broker[0], self.broker[1], keepalive=10)
        self.client.loop_start()

    def stop(self) -> None:
        """Disconnect (the session stays on the broker) and let go of the database."""
        self.client.disconnect()
        self.client.loop_stop()
        if self._db is not None:
            self._db.close()
            self._db = None

    def snapshot(self) -> list[dict[str, Any]]:
        """Every board's live state and availability now, by club and board."""
        with self._tables_lock:
            return [dict(self.tables[key]) for key in sorted(self.tables)]

    def _on_connect(self, client: mqtt.Client, userdata: object, flags: mqtt.ConnectFlags,
                    reason: ReasonCode, properties: Properties | None) -> None:
        if reason.is_failure:
            log.warning("the broker %s:%d refused the standings service: %s",
                        *self.broker, reason)
            return
        client.subscribe([(self.filter, 1), (board_filter(self.club, STATE), 0),
                          (board_filter(self.club, ONLINE), 0)])
        self.connected.set()
        log.info("subscribed to %s on %s:%d", self.filter, *self.broker)

    def _on_disconnect(self, client: mqtt.Client, userdata: object,
                       flags: mqtt.DisconnectFlags, reason: ReasonCode,
                       properties: Properties | None) -> None:
        self.connected.clear()
        log.warning("disconnected from %s:%d (%s)", *self.broker, reason)

    def _on_message(self, client: mqtt.Client, userdata: object,
                    message: mqtt.MQTTMessage) -> None:
        try:
            self._take(message)
        except (sqlite3.Error, ClubError) as error:
            # Not acknowledged: the service stops (systemd starts it again) and the broker
            # delivers it again to the session.
            log.error("result on %s not stored: %s", message.topic, error)
            self.failed(error)
            return
        client.ack(message.mid, message.qos)

    def _live(self, message: mqtt.MQTTMessage) -> bool:
        """A board's live state or availability (True), kept if it reads; else False."""
        parts = parse_board_topic(message.topic)
        if parts is None:
            return False
        club, board, leaf = parts
        try:
            text = bytes(message.payload[:65536]).decode("utf-8")
            value = json.loads(text) if leaf == STATE else text
        except (UnicodeDecodeError, ValueError, RecursionError):
            log.warning("the %s of board %s is not readable; ignored", leaf, board)
            return True
        key = f"{club}/{board}"
        with self._tables_lock:
            entry = self.tables.setdefault(key, {"club": club, "board": board})
            entry[leaf] = value
            now = dict(entry)
        self.tables_changed(key, now)  # not the standings: no phone fetches them for it
        return True

    def _take(self, message: mqtt.MQTTMessage) -> None:
        if self._live(message):
            return
        if self._db is None or self.refusals is None:  # made on paho's thread, which writes
            self._db = connect(self.db_path, any_thread=True)  # closed after paho's thread
            self.refusals = Refusals(self._db)
        payload = bytes(message.payload)
        if self.refusals.seen(message.topic, payload):
            return  # refused before (retained, delivered again): counted once
        try:
            card = check_result(message.topic, payload)
        except ClubError as error:
            log.warning("refused: %s", error)
            self.refusals.refuse(message.topic, payload, str(error))
            self.written()
            return
        stored = store_result(self._db, card, points=self.points, seating=self.seating)
        log.info("result %s from %s:%s: %s", card["id"], card["board"], card["game"], stored)
        if stored.shown:  # the standings changed, or the director's queue did
            self.changed({"stored": stored.value, "id": card["id"], "club": card["club"],
                          "night": card["night"], "round": card["round"],
                          "table": card["table"]})
        else:
            self.written()
