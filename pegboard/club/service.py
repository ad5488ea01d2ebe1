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

from pegboard.club.budget import Budget, Passed, Waiting
from pegboard.club.check import Read, follows, read_card
from pegboard.club.connection import Client, Failures
from pegboard.club.refusals import Refusals
from pegboard.club.results import Bye, connect, store_result
from pegboard.club.seating import Round, Tonight
from pegboard.club.topics import (
    MOST_ROUND,
    ONLINE,
    STATE,
    board_filter,
    night_topic,
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
                 points: GamePoints = GamePoints.ACC,
                 seating: Tonight | list[Round] | None = None,
                 budget: Budget | None = None, night: tuple[int, bool] | None = None,
                 bye: Bye = Bye.WIN) -> None:
        """``changed`` is told what changed in the standings or the director's queue (the
        result, its night, how it was stored: counted, corrected or held); ``tables_changed``
        a board's new live state and availability (its key and entry); ``written`` that
        something else was stored (a refusal, a duplicate, a card waiting for its board's
        budget), for which no page redraws. ``points``: the club's game points, by which
        every game is counted; ``seating``: tonight's, against which each new game is
        checked (docs/club.md); ``budget``: each board's engine reads
        (:mod:`pegboard.club.budget`); ``night``: tonight's number and lock, published to
        the club's boards with the next round (:meth:`publish_night`; one club only, not
        ``+``); ``bye``: how the club credits a bye."""
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
        self.tonight = seating if isinstance(seating, Tonight) else Tonight(seating)
        self.bye = bye
        self.failed = failed
        self.night = night
        self._night_sent: bytes | None = None
        self._db: sqlite3.Connection | None = None
        self._db_lock = threading.RLock()  # paho's thread and the turns' thread share it
        self.refusals: Refusals | None = None
        self._waiting: Waiting | None = None
        self._passed: Passed | None = None
        self.budget = budget or Budget()
        self._turns = threading.Thread(target=self._take_turns, name="pegboard-turns",
                                       daemon=True)
        self._wake = threading.Event()
        self._stopping = False
        self.rested = threading.Condition()
        self.rests = 0
        """How often the turns' thread found no waiting card it could read yet (and waited):
        a test waits on :attr:`rested` for it to move on."""
        self.connected = threading.Event()
        self.client = Client(CallbackAPIVersion.VERSION2,
                             client_id=f"pegboard-{name}", clean_session=False,
                             manual_ack=True)
        if ca_file is not None:  # TLS: the broker verified against the club's authority
            self.client.tls_set(ca_certs=str(ca_file))
        if username is not None:
            self.client.username_pw_set(username, password)
        self._failures = Failures(log, broker[0], broker[1], ca_file, "the standings service")
        self.client.connect_failed = self._failures.failed  # logged with its reason
        self.client.reconnect_delay_set(1, 4)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_disconnect = self._on_disconnect

    def start(self) -> None:
        """Connect in the background (and again after every loss)."""
        self.client.connect_async(self.broker[0], self.broker[1], keepalive=10)
        self.client.loop_start()
        self._turns.start()

    def stop(self) -> None:
        """Disconnect (the session stays on the broker) and let go of the database."""
        self.client.disconnect()
        self.client.loop_stop()
        self._stopping = True
        self._wake.set()
        if self._turns.is_alive():
            self._turns.join(30)
        with self._db_lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def nudge(self) -> None:
        """Look at the waiting cards now (the budget's clock moved)."""
        self._wake.set()

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
        self._failures.connected()
        client.subscribe([(self.filter, 1), (board_filter(self.club, STATE), 0),
                          (board_filter(self.club, ONLINE), 0)])
        try:
            with self._db_lock:
                self._night_sent = None  # the broker may have lost it (a crash): again
                self.publish_night(self._database())
        except (sqlite3.Error, ClubError) as error:
            log.error("the club's night not published: %s", error)
        self.connected.set()
        log.info("subscribed to %s on %s:%d", self.filter, *self.broker)

    def next_round(self, db: sqlite3.Connection) -> int:
        """Tonight's next round: one after the highest with a result counted tonight."""
        assert self.night is not None
        row = db.execute("SELECT MAX(round) FROM result WHERE club = ? AND night = ?",
                         (self.club, self.night[0])).fetchone()
        return min(MOST_ROUND, (row[0] or 0) + 1)

    def publish_night(self, db: sqlite3.Connection) -> None:
        """Publish the club's night (retained, QoS 1) when it changed: tonight's number and
        lock and the next round (:meth:`next_round`), which every board of the club starts
        its next game in (under ``_db_lock``)."""
        if self.night is None or self.club == "+":
            return
        payload = json.dumps({"night": self.night[0], "round": self.next_round(db),
                              "lock": self.night[1]}, separators=(",", ":")).encode()
        if payload == self._night_sent:
            return
        self.client.publish(night_topic(self.club), payload, qos=1, retain=True)
        self._night_sent = payload
        log.info("the club's night: %s", payload.decode())

    def republish(self) -> None:
        """Publish the club's night again if it changed (a director's act, stored: an
        accept or a void may move the next round). Logged, never raised: the act stands,
        and the night is published again on the next connection or result."""
        try:
            with self._db_lock:
                self.publish_night(self._database())
        except (sqlite3.Error, ClubError) as error:
            log.error("the club's night not published: %s", error)

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

    def _database(self) -> sqlite3.Connection:
        """The subscriber's connection (made on first use; under ``_db_lock``)."""
        if self._db is None:
            self._db = connect(self.db_path, any_thread=True)  # closed on another thread
            self.refusals = Refusals(self._db)
            self._waiting = Waiting(self._db)
            self._passed = Passed(self._db)
        return self._db

    def _take(self, message: mqtt.MQTTMessage) -> None:
        if self._live(message):
            return
        payload = bytes(message.payload)
        with self._db_lock:
            self._database()
            assert self.refusals is not None and self._waiting is not None
            if self.refusals.seen(message.topic, payload):
                return  # refused before (retained, delivered again): counted once
            try:
                read = read_card(message.topic, payload)
            except ClubError as error:
                self._refuse(message.topic, payload, error)
                return
            assert self._passed is not None
            known = self._passed.seen(message.topic, payload)  # read before: not again
            if self._waiting.has(read.board) or not (known or self.budget.take(read.board)):
                # Over its board's budget (or behind that board's cards waiting): kept
                # for the board's turn, and acknowledged; no other board waits for it.
                if self._waiting.put(read.board, message.topic, payload):
                    log.info("result %s waits for its board's budget", read.name)
                self.written()
                self._wake.set()
                return
        self._judge(read, message.topic, payload, known=known)

    def _judge(self, read: Read, topic: str, payload: bytes, *, known: bool) -> None:
        """The engine's read of a card (outside the database's lock; not for a message
        ``known`` as read and counted before), then the result stored or the card
        refused."""
        try:
            card = read.card if known else follows(read)
        except ClubError as error:
            with self._db_lock:
                self._refuse(topic, payload, error)
            return
        with self._db_lock:
            db = self._database()
            assert self._passed is not None
            stored = store_result(db, card, points=self.points, seating=self.tonight.rounds,
                                  bye=self.bye)
            self._passed.passed(topic, payload)
            if stored.changes:
                self.publish_night(db)  # the next round may have come
        log.info("result %s from %s:%s: %s", card["id"], card["board"], card["game"], stored)
        if stored.shown:  # the standings changed, or the director's queue did
            self.changed({"stored": stored.value, "id": card["id"], "club": card["club"],
                          "night": card["night"], "round": card["round"],
                          "table": card["table"]})
        else:
            self.written()

    def _refuse(self, topic: str, payload: bytes, error: ClubError) -> None:
        assert self.refusals is not None
        log.warning("refused: %s", error)
        self.refusals.refuse(topic, payload, str(error))
        self.written()

    def _take_turns(self) -> None:
        """The turns' thread: each board's waiting cards, oldest first, as its budget
        allows, boards in turn (the one waiting longest first)."""
        while not self._stopping:
            self._wake.clear()
            try:
                wait = self._one_turn()
            except (sqlite3.Error, ClubError) as error:
                log.error("a waiting result was not stored: %s", error)
                self.failed(error)
                return
            if wait is None:
                continue  # one was read: look again at once
            with self.rested:
                self.rests += 1
                self.rested.notify_all()
            self._wake.wait(wait)

    def _one_turn(self) -> float | None:
        """Read one waiting card whose board's budget allows it (None), else the seconds
        until one may be read (an hour when none waits)."""
        soonest = 3600.0
        with self._db_lock:
            self._database()
            assert self._waiting is not None
            for board in self._waiting.boards():
                wait = self.budget.wait(board)
                if wait > 0:
                    soonest = min(soonest, wait)
                    continue
                oldest = self._waiting.oldest(board)
                if oldest is None:
                    continue
                seq, topic, payload = oldest
                assert self._passed is not None
                known = self._passed.seen(topic, payload)
                if not known:
                    self.budget.take(board)
                break
            else:
                return soonest
        try:
            read = read_card(topic, payload)
        except ClubError as error:
            with self._db_lock:
                self._refuse(topic, payload, error)
        else:
            self._judge(read, topic, payload, known=known)
        with self._db_lock:  # after the result is stored: a stop before reads it again
            self._waiting.done(seq)
        return None
