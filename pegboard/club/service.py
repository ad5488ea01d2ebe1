"""The standings service's subscriber: every board's results, stored once.

Each board's results come on a connection of their own (:mod:`pegboard.club.links`): a
subscription to ``pegboard/<club>/board/<board>/result/+`` with QoS 1 and a persistent
session (a fixed client id a board, ``clean_session`` off), so the broker keeps the results
that arrive while the service is down and delivers them when it is back, and one board's
backlog on the broker never stands in front of another board's results. The boards are
learnt from their availability and live states (``+`` for every club: a league), which come
on the service's own connection, and from a census of the results' topics. A message
is acknowledged (paho's ``manual_ack``) only once it is stored in SQLite (counted, or in its
board's queue) or refused: a result the broker has handed over is on disk, and one that
could not be stored is delivered again. A database found damaged is rebuilt from its journal
(:mod:`pegboard.club.heal`), the work done again on the new one, and the boards' retained
results asked of the broker again.

Each board has a rate (:mod:`pegboard.club.rate`), checked before a byte of its message is
parsed: a result of a board whose rate is spent is acknowledged and dropped on paho's thread
(it stays retained, and the board's results are asked of the broker again once its rate
allows); a live state over it is held, the newest taken later.

Nothing dear runs on paho's network threads: each hands each result to the intake (bounded,
:data:`INTAKE`), whose thread takes whatever has arrived as one batch (a message refused or
stored before known by its digest, the rest read as far as they can be without the engine,
junk refused, and a card refused or stored before known by its identity whatever its bytes,
:func:`~pegboard.club.check.identity`) and stores it in one transaction (each card still
to be read in its board's queue), then acknowledges it. The turns' thread reads the queued
cards through the engine, the boards in turn (round robin), each board's in order and
within its budget (:mod:`pegboard.club.budget`): one board's backlog delays another board's
result by one engine read at most. A malformed or forged message is logged, kept in
``refused`` and never counted; a genuine card on another board's topic than the one it
names is held for the director (:attr:`~pegboard.club.check.Read.misplaced`); a corrected
game replaces the revision counted (:mod:`pegboard.club.results`).

The counters count cards, not deliveries: each card is decided once (counted, a correction,
held, a duplicate of another card's game, or refused) and known by its identity ever after,
so the broker delivering it again (a retained copy at a restart, an unacknowledged one after
a reconnection in the middle of a batch) or its board sending it again in any bytes changes
no counter (:attr:`Subscriber.known`, :attr:`pegboard.club.refusals.Refusals.again`).
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
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
from pegboard.club.check import Read, follows, identity, read_card
from pegboard.club.connection import Client, Failures, client_id
from pegboard.club.heal import healing, open_results, stale
from pegboard.club.links import Link, Links
from pegboard.club.rate import (
    LIVE_BURST,
    LIVE_PER_MINUTE,
    RESULTS_BURST,
    RESULTS_PER_MINUTE,
    Rate,
)
from pegboard.club.refusals import Refusals, digest
from pegboard.club.results import (
    Bye,
    Results,
    store_result,
    stored_before,
    transaction,
)
from pegboard.club.seating import Round, Tonight
from pegboard.club.topics import (
    MOST_ROUND,
    ONLINE,
    STATE,
    board_filter,
    board_key,
    night_topic,
    parse_board_topic,
    parse_result_topic,
    results_filter,
)
from pegboard.errors import ClubError
from pegboard.rules.value import Value
from pegboard.rules.variants import GamePoints

log = logging.getLogger(__name__)

INTAKE = 256
"""The most results taken off the network and not yet stored (the broker sends the service
at most 20 unacknowledged, ``max_inflight_messages``; this bounds the intake whatever the
broker)."""
BATCH = 256
"""The most results stored, or refused, in one transaction."""


class _Message(Value):
    """A result as it came off the network, not yet acknowledged: the link and the
    connection of it it came on (its ``mid`` names it on that connection only), its topic,
    payload and QoS."""

    __slots__ = ("link", "mid", "payload", "qos", "session", "topic")
    __match_args__ = ("link", "session", "topic", "payload", "mid", "qos")

    link: Link
    session: int
    topic: str
    payload: bytes
    mid: int
    qos: int

    def __init__(self, link: Link, session: int, topic: str, payload: bytes, mid: int,
                 qos: int) -> None:
        setter = object.__setattr__
        setter(self, "link", link)
        setter(self, "session", session)
        setter(self, "topic", topic)
        setter(self, "payload", payload)
        setter(self, "mid", mid)
        setter(self, "qos", qos)


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
                 bye: Bye = Bye.WIN, rate: Rate | None = None,
                 live_rate: Rate | None = None) -> None:
        """``changed`` is told what changed in the standings or the director's queue (the
        result, its night, how it was stored: counted, corrected or held; ``healed`` when
        the database was rebuilt); ``tables_changed``
        a board's new live state and availability (its key and entry); ``written`` that
        something else was stored (a refusal, a duplicate, a card waiting for its board's
        budget), for which no page redraws. ``points``: the club's game points, by which
        every game is counted; ``seating``: tonight's, against which each new game is
        checked (docs/club.md); ``budget``: each board's engine reads
        (:mod:`pegboard.club.budget`); ``night``: tonight's number and lock, published to
        the club's boards with the next round (:meth:`publish_night`; one club only, not
        ``+``); ``bye``: how the club credits a bye; ``rate`` and ``live_rate``: how fast
        each board may send results and live states (:mod:`pegboard.club.rate`)."""
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
        self._db: Results | None = None
        self._db_lock = threading.RLock()  # paho's thread and the turns' thread share it
        self.refusals: Refusals | None = None
        self._waiting: Waiting | None = None
        self._passed: Passed | None = None
        self.budget = budget or Budget()
        self.rate = rate or Rate(per_minute=RESULTS_PER_MINUTE, burst=RESULTS_BURST,
                                 what="results")
        self.live_rate = live_rate or Rate(per_minute=LIVE_PER_MINUTE, burst=LIVE_BURST,
                                           what="live states")
        self._live_lock = threading.Lock()
        self._held: dict[str, dict[str, bytes]] = {}
        """Each board's newest live state and availability over its rate, unread, until
        its bucket allows (a timer of :attr:`_timers` takes it then)."""
        self._timers: dict[str, threading.Timer] = {}
        self._turns = threading.Thread(target=self._take_turns, name="pegboard-turns",
                                       daemon=True)
        self._intake: queue.Queue[_Message | None] = queue.Queue(INTAKE)
        self._intake_thread = threading.Thread(target=self._take_in, name="pegboard-intake",
                                               daemon=True)
        self._last_board = ""
        self._wake = threading.Event()
        self._stopping = False
        self.rested = threading.Condition()
        self.rests = 0
        """How often the turns' thread found no waiting card it could read yet (and waited):
        a test waits on :attr:`rested` for it to move on."""
        self.known = 0
        """Messages known as a card stored before (by digest or identity) and so neither
        read nor counted again, in this process; :attr:`took` is told of each batch."""
        self.took = threading.Condition()
        self.batches = 0
        """Batches the intake has stored (and acknowledged): a test waits on :attr:`took`."""
        self.connected = threading.Event()
        """Set while the service's own connection (live states, the night) is up and
        subscribed: once the broker has acknowledged the subscription, as a live state sent
        before that is not delivered (only the newest, retained, is)."""
        self._live_subscription: int | None = None
        """The message id of the live states' subscription waiting for its acknowledgement."""
        self._credentials = (username, password, ca_file)
        self._failures = Failures(log, broker[0], broker[1], ca_file, "the standings service")
        # Its own connection: the boards' live states and availability, and the club's night
        # published, a clean session on an id no board can guess (client_id's token).
        prefix = client_id(name, password)
        self.client = self._client(prefix, clean=True)
        # A service from before the boards' own connections kept a persistent session on
        # the id without a token, subscribed to every result, which must not go on filling
        # a queue on the broker: one clean connection there, let go at once, clears it.
        self._sweep = self._client(f"pegboard-{name}", clean=True) \
            if prefix != f"pegboard-{name}" else None
        self.swept = threading.Event()
        """Set once no older service's session is left on ``pegboard-<name>``."""
        if self._sweep is None:
            self.swept.set()
        else:
            self._sweep.on_connect = self._on_sweep_connect
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = self._on_subscribe
        self.client.on_message = self._on_live_message
        self.client.on_disconnect = self._on_disconnect
        # The census: the results' topics at QoS 0, to learn the boards, never a result.
        self.census = self._client(f"{prefix}.census", clean=True)
        self.census.on_connect = self._on_census_connect
        self.census.on_message = self._on_census_message
        self.links = Links(prefix, self._client, self._wire)
        """Each board's connection for its results (:mod:`pegboard.club.links`)."""

    def _client(self, client_id: str, clean: bool) -> Client:
        """A client of the broker with the service's credentials (TLS when given), telling
        :attr:`_failures` why a connection failed; ``clean``: no persistent session."""
        username, password, ca_file = self._credentials
        client = Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                        clean_session=clean, manual_ack=not clean)
        if ca_file is not None:  # TLS: the broker verified against the club's authority
            client.tls_set(ca_certs=str(ca_file))
        if username is not None:
            client.username_pw_set(username, password)
        client.connect_failed = self._failures.failed  # logged with its reason, once
        client.reconnect_delay_set(1, 4)
        return client

    def _on_sweep_connect(self, client: mqtt.Client, userdata: object,
                          flags: mqtt.ConnectFlags, reason: ReasonCode,
                          properties: Properties | None) -> None:
        """The id without a token taken with a clean session: any older session there is
        gone; let go of it (its network thread ends with the disconnection)."""
        if reason.is_failure:
            return
        self.swept.set()
        client.disconnect()

    def _wire(self, link: Link) -> None:
        """A new link's callbacks: its boards subscribed at each connection, its results
        taken as :meth:`_on_message` takes them."""

        def connected(client: mqtt.Client, userdata: object, flags: mqtt.ConnectFlags,
                      reason: ReasonCode, properties: Properties | None) -> None:
            self._on_link_connect(link, reason)

        def message(client: mqtt.Client, userdata: object,
                    message: mqtt.MQTTMessage) -> None:
            self._on_message(link, message)

        def disconnected(client: mqtt.Client, userdata: object, flags: mqtt.DisconnectFlags,
                         reason: ReasonCode, properties: Properties | None) -> None:
            log.info("the results of %s: disconnected (%s)", ", ".join(link.boards), reason)

        link.client.on_connect = connected
        link.client.on_message = message
        link.client.on_disconnect = disconnected

    def _start_link(self, link: Link) -> None:
        """Connect a link in the background (and again after every loss), unless the
        service is stopping."""
        if self._stopping:
            return
        link.client.connect_async(self.broker[0], self.broker[1], keepalive=10)
        link.client.loop_start()

    def start(self) -> None:
        """Connect in the background (and again after every loss)."""
        self._intake_thread.start()
        self._turns.start()
        self.links.start(self._start_link)
        starting = [self.client, self.census] if self._sweep is None else \
            [self.client, self.census, self._sweep]
        for client in starting:
            client.connect_async(self.broker[0], self.broker[1], keepalive=10)
            client.loop_start()

    def stop(self) -> None:
        """Disconnect (the session stays on the broker) and let go of the database."""
        self._stopping = True
        clients = [self.client, self.census, *(link.client for link in self.links.stop())]
        if self._sweep is not None:
            clients.append(self._sweep)
        for client in clients:
            client.disconnect()
        for client in clients:
            client.loop_stop()
        with self._live_lock:
            for timer in self._timers.values():
                timer.cancel()
            self._timers.clear()
        self._wake.set()
        if self._intake_thread.is_alive():
            # What came before is stored first; if the intake's thread is stuck, what is
            # left in the intake is not acknowledged, and the broker sends it again.
            with contextlib.suppress(queue.Full):
                self._intake.put(None, timeout=30)
            self._intake_thread.join(30)
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
        _, self._live_subscription = client.subscribe([(board_filter(self.club, STATE), 0),
                                                       (board_filter(self.club, ONLINE), 0)])
        try:
            with self._db_lock:
                self._night_sent = None  # the broker may have lost it (a crash): again
                self.publish_night(self._database())
        except (sqlite3.Error, ClubError) as error:
            log.error("the club's night not published: %s", error)

    def _on_subscribe(self, client: mqtt.Client, userdata: object, mid: int,
                      reasons: list[ReasonCode], properties: Properties | None) -> None:
        """The broker acknowledged a subscription: the live states' makes the service
        connected (a refused one is logged, and the connection is not called up)."""
        if mid != self._live_subscription:
            return
        refused = [str(reason) for reason in reasons if reason.is_failure]
        if refused:
            log.error("the broker %s:%d refused the live states' subscription: %s",
                      *self.broker, ", ".join(refused))
            return
        self.connected.set()
        log.info("subscribed to the boards' live states on %s:%d", *self.broker)

    def _on_census_connect(self, client: mqtt.Client, userdata: object,
                           flags: mqtt.ConnectFlags, reason: ReasonCode,
                           properties: Properties | None) -> None:
        """The census: every board's results' topics, at QoS 0 (retained and new), only to
        learn the boards."""
        if reason.is_failure:
            return  # said once by the service's own connection
        self._failures.connected()
        client.subscribe(self.filter, 0)

    def _on_census_message(self, client: mqtt.Client, userdata: object,
                           message: mqtt.MQTTMessage) -> None:
        """A result's topic seen by the census: its board known (its result is taken on
        the board's own connection, never here)."""
        parts = parse_result_topic(message.topic)
        if parts is not None:
            self.links.know(f"{parts[0]}/{parts[1]}")

    def _on_link_connect(self, link: Link, reason: ReasonCode) -> None:
        """A board's connection made: its results subscribed (every retained one comes
        again, so nothing is owed to its boards' rates)."""
        if reason.is_failure:
            log.warning("the broker %s:%d refused the standings service's connection for "
                        "%s: %s", *self.broker, ", ".join(link.boards), reason)
            return
        self._failures.connected()
        with link.lock:
            link.session += 1
            boards = list(link.boards)
        for key in boards:
            self.rate.subscribed(key)
        filters = link.filters()
        if filters:
            link.client.subscribe([(one, 1) for one in filters])
        log.debug("subscribed to the results of %s", ", ".join(boards))

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

    def _on_live_message(self, client: mqtt.Client, userdata: object,
                         message: mqtt.MQTTMessage) -> None:
        """On the service's own connection: a board's live state or availability, kept
        (:meth:`_live`), and its board known (its results subscribed on its own link)."""
        parts = parse_board_topic(message.topic)
        if parts is not None:
            self.links.know(f"{parts[0]}/{parts[1]}")
        self._live(message)

    def _on_message(self, link: Link, message: mqtt.MQTTMessage) -> None:
        """On a link's network thread: a result of a board whose rate is spent is
        acknowledged and dropped unread (:meth:`pegboard.club.rate.Rate.spent`); any other
        goes to the intake, unacknowledged (:meth:`_take_in` stores it, then acknowledges
        it on its link). The intake is bounded: when it is full, this waits for room,
        holding back this link's messages alone."""
        if self.rate.spent(board_key(message.topic)):
            # Its board's rate spent: dropped unread at once (retained, it is asked for
            # again when the rate allows), without the intake's round trip.
            link.client.ack(message.mid, message.qos)
            self.rate.report()
            self._wake.set()
            with self.took:  # a test waits on it for what its rate dropped
                self.took.notify_all()
            return
        taken = _Message(link, link.session, message.topic, bytes(message.payload),
                         message.mid, message.qos)
        while True:
            try:
                self._intake.put(taken, timeout=1.0)
                return
            except queue.Full:
                if self._stopping or not self._intake_thread.is_alive():
                    return  # not acknowledged: the broker delivers it again

    def _live(self, message: mqtt.MQTTMessage) -> bool:
        """A board's live state or availability (True), kept if it reads; else False. One
        over its board's rate (:attr:`live_rate`) is held unread as the board's newest,
        and kept once the rate allows (:meth:`_let_go`)."""
        parts = parse_board_topic(message.topic)
        if parts is None:
            return False
        club, board, leaf = parts
        key = f"{club}/{board}"
        payload = bytes(message.payload[:65537])
        with self._live_lock:
            held = self._held.get(key)
            if held is not None:  # the rate allows none yet: this is the newest held
                held[leaf] = payload
                self.live_rate.dropped(key)
                return True
            if not self.live_rate.allow(key):
                self._held[key] = {leaf: payload}
                if not self._stopping:
                    timer = threading.Timer(self.live_rate.wait(key), self._let_go, (key,))
                    timer.daemon = True
                    self._timers[key] = timer
                    timer.start()
                self.live_rate.report()
                return True
            self._keep_live(club, board, leaf, payload)  # in order with a timer's
        return True

    def _let_go(self, key: str) -> None:
        """On a timer's thread: the board's held live state and availability, kept now
        that its rate allows (each charged), or held on until it does."""
        club, _, board = key.partition("/")
        with self._live_lock:
            self._timers.pop(key, None)
            held = self._held.get(key, {})
            for leaf in list(held):
                if not self.live_rate.take(key):
                    break
                self._keep_live(club, board, leaf, held.pop(leaf))
            if held and not self._stopping:
                timer = threading.Timer(self.live_rate.wait(key), self._let_go, (key,))
                timer.daemon = True
                self._timers[key] = timer
                timer.start()
            elif not held:
                self._held.pop(key, None)

    def _keep_live(self, club: str, board: str, leaf: str, payload: bytes) -> None:
        """Keep a board's live state or availability if it reads (at most 64 KiB)."""
        try:
            if len(payload) > 65536:
                raise ValueError("over 64 KiB")
            text = payload.decode("utf-8")
            value = json.loads(text) if leaf == STATE else text
        except (UnicodeDecodeError, ValueError, RecursionError):
            log.warning("the %s of board %s is not readable; ignored", leaf, board)
            return
        key = f"{club}/{board}"
        with self._tables_lock:
            entry = self.tables.setdefault(key, {"club": club, "board": board})
            entry[leaf] = value
            now = dict(entry)
        self.tables_changed(key, now)  # not the standings: no phone fetches them for it

    def _database(self) -> sqlite3.Connection:
        """The subscriber's connection (made on first use, and again after the database
        was rebuilt; under ``_db_lock``)."""
        if self._db is not None and stale(self._db):  # rebuilt by the page: made again
            self._rebuilt()
        if self._db is None:
            self._db = open_results(self.db_path, any_thread=True)  # closed on another thread
            self.refusals = Refusals(self._db)
            self._waiting = Waiting(self._db)
            self._passed = Passed(self._db)
        return self._db

    def _healed(self, error: BaseException) -> bool:
        """Whether ``error`` was a damaged database, now rebuilt (:mod:`pegboard.club.heal`:
        the work is done again on the new one)."""
        with self._db_lock:
            if self._db is None or not healing(self._db, error):
                return False
            self._rebuilt()
        return True

    def _rebuilt(self) -> None:
        """The database was rebuilt: the connection made again, the retained results asked
        of the broker again (what waited for its board's budget in the damaged file comes
        again), and every page told (under ``_db_lock``)."""
        if self._db is not None:
            self._db.close()
            self._db = None
        for key in self.links.boards():  # on each board's own link
            if self.links.ask_again(key):
                self.rate.subscribed(key)  # its every retained result comes again
        self.changed({"healed": True})

    def _take_in(self) -> None:
        """The intake's thread: the results taken off the network, in batches (whatever
        has arrived), each batch stored in one transaction and then acknowledged."""
        while True:
            batch: list[_Message] = []
            item = self._intake.get()
            while item is not None:
                batch.append(item)
                if len(batch) >= BATCH:
                    break
                try:
                    item = self._intake.get_nowait()
                except queue.Empty:
                    break
            if batch:
                try:
                    try:
                        wrote = self._store_batch(batch)
                    except (sqlite3.Error, ClubError) as error:
                        if not self._healed(error):
                            raise
                        wrote = self._store_batch(batch)  # on the rebuilt database
                except (sqlite3.Error, ClubError) as error:
                    # Not acknowledged: the service stops (systemd starts it again) and the
                    # broker delivers them again to the session.
                    log.error("%d results not stored: %s", len(batch), error)
                    self.failed(error)
                    return
                for message in batch:  # on the connection they came on (else: sent again)
                    if message.session == message.link.session:
                        message.link.client.ack(message.mid, message.qos)
                if wrote:
                    self.written()
                    self._wake.set()
                with self.took:
                    self.batches += 1
                    self.took.notify_all()
            if item is None:
                return

    def _store_batch(self, batch: list[_Message]) -> bool:
        """Everything about a batch of results that needs no engine: a message refused or
        stored before is known by its digest (one look-up for the batch); the rest is read
        as far as it can be without the engine (:func:`read_card`, bounded by its length)
        and junk refused; a card refused or stored before in other bytes is known by its
        identity (one more look-up), or by its content as the card stored
        (:func:`stored_before`, a database kept before identities were); the rest is put in
        its board's queue, each card once. Nothing known before is counted again (it is
        remembered in its new bytes). All in one transaction, written through to the disk
        when it holds a result (refusals alone are not: see :mod:`pegboard.club.refusals`).
        Whether anything was written (not when every message was known by its digest)."""
        with self._db_lock:
            db = self._database()
            assert self.refusals is not None and self._waiting is not None
            assert self._passed is not None
            digests = [digest(message.topic, message.payload) for message in batch]
            refused_before = self.refusals.known(digests)
            passed_before = self._passed.known(digests)
            refused: list[tuple[str, bytes | None, str]] = []
            reads: list[tuple[Read, bytes | None, _Message, bytes]] = []
            over = 0
            for message, one in zip(batch, digests, strict=True):
                if one in refused_before:
                    continue  # refused before (retained, delivered again): counted once
                if one in passed_before:
                    self.known += 1  # read and stored before: neither read nor counted
                    continue
                if not self.rate.allow(board_key(message.topic)):
                    over += 1  # unread, unremembered: the broker keeps it retained
                    continue
                try:
                    read = read_card(message.topic, message.payload)
                except ClubError as error:
                    refused.append((message.topic, one, str(error)))
                    refused_before.add(one)  # the same message twice in a batch: once
                    continue
                reads.append((read, identity(read.card), message, one))
            cards = [card for _, card, _, _ in reads if card is not None]
            refused_cards = self.refusals.known(cards)
            passed_cards = self._passed.known(cards)
            queued: list[tuple[Read, _Message, bytes | None]] = []
            known_refused: list[bytes] = []
            known: list[bytes] = []
            for read, card, message, one in reads:
                if card is not None and card in refused_cards:
                    known_refused.append(one)  # a refused card in other bytes: not read
                elif card is not None and card in passed_cards:
                    self.known += 1
                    known.append(one)
                elif stored_before(db, read.card):
                    self.known += 1
                    known.extend([one] if card is None else [one, card])
                    if card is not None:
                        passed_cards.add(card)
                else:
                    queued.append((read, message, card))
            db.execute(f"PRAGMA synchronous={'FULL' if queued or known else 'NORMAL'}")
            try:
                with transaction(db):
                    for read, message, card in queued:
                        self._waiting.put(read.board, message.topic, message.payload, card)
                    self.refusals.record(refused)
                    self.refusals.remember(known_refused)
                    self._passed.remember(known)
            finally:
                db.execute("PRAGMA synchronous=FULL")
        if over:
            self.rate.report()
            self._wake.set()  # the turns' thread asks the broker for them again in time
        if refused:
            log.warning("refused: %s%s", refused[0][2], f" (and {len(refused) - 1} more in "
                        "the same moment: /api/refused)" if len(refused) > 1 else "")
        if known_refused:
            log.info("%d card(s) refused before, sent again in other bytes: not read again",
                     len(known_refused))
        for read, _, _ in queued:
            log.debug("result %s queued", read.name)
        return bool(refused or queued or known or known_refused)

    def _judge(self, seq: int, read: Read, topic: str, payload: bytes,
               card_id: bytes | None) -> None:
        """The engine's read of the waiting card ``seq`` (outside the database's lock),
        then the result stored or the card refused (remembered by its digest and its
        identity ``card_id``), and the card no longer waiting, in one transaction."""
        try:
            card = follows(read)
        except ClubError as error:
            self._refuse(seq, topic, payload, error, card_id)
            return

        def bookkeeping(db: sqlite3.Connection) -> None:
            assert self._passed is not None and self._waiting is not None
            self._passed.passed(topic, payload, card_id)
            self._waiting.done(seq)

        with self._db_lock:
            db = self._database()
            stored = store_result(db, card, points=self.points, seating=self.tonight.rounds,
                                  bye=self.bye, then=bookkeeping,
                                  seating_night=self.tonight.night, bound=self._bound,
                                  misplaced=read.misplaced)
            if stored.changes:
                self.publish_night(db)  # the next round may have come
        log.info("result %s from %s:%s: %s", card["id"], card["board"], card["game"], stored)
        if stored.shown:  # the standings changed, or the director's queue did
            self.changed({"stored": stored.value, "id": card["id"], "club": card["club"],
                          "night": card["night"], "round": card["round"],
                          "table": card["table"]})
        else:
            self.written()

    def _bound(self, night: int) -> None:
        """Tonight's seating, loaded with no night number, is ``night``'s: its first game
        was counted (kept with it in the database, so a restart takes it up)."""
        if self.tonight.bind(night):
            log.info("tonight's seating is night %d's: its first game is counted", night)

    def _refuse(self, seq: int, topic: str, payload: bytes, error: ClubError,
                card_id: bytes | None = None) -> None:
        """Refuse the waiting card ``seq`` (remembered by its digest and its identity
        ``card_id``, so never read again in any bytes) and take it out of its board's
        queue, in one transaction."""
        log.warning("refused: %s", error)
        with self._db_lock:
            db = self._database()
            assert self.refusals is not None and self._waiting is not None
            db.execute("PRAGMA synchronous=NORMAL")
            try:
                with transaction(db):
                    self.refusals.record([(topic, digest(topic, payload), str(error))])
                    if card_id is not None:
                        self.refusals.remember([card_id])
                    self._waiting.done(seq)
            finally:
                db.execute("PRAGMA synchronous=FULL")
        self.written()

    def _settle(self, seq: int, topic: str, payload: bytes, card_id: bytes | None) -> bool:
        """Take the waiting card ``seq`` out of its queue unread if it is known already
        (stored or refused since it was queued, in these bytes or others: a service's queue
        from before cards were known by identity, or a twin queued meanwhile), counting
        nothing; whether it was (under ``_db_lock``)."""
        assert self.refusals is not None and self._waiting is not None
        assert self._passed is not None
        one = digest(topic, payload)
        asked = [one] if card_id is None else [one, card_id]
        if self._passed.known(asked):
            remember = self._passed.remember
            self.known += 1
        elif self.refusals.known(asked):
            remember = self.refusals.remember
        else:
            return False
        with transaction(self._database()):
            remember([one])
            self._waiting.done(seq)
        return True

    def _take_turns(self) -> None:
        """The turns' thread: the boards' queues in turn (round robin, by name), each
        board's oldest card first, as its budget allows; so one board's backlog delays
        another board's card by one engine read at most."""
        while not self._stopping:
            self._wake.clear()
            try:
                wait = self._one_turn()
            except (sqlite3.Error, ClubError) as error:
                if self._healed(error):
                    continue  # the card comes again from the broker
                log.error("a waiting result was not stored: %s", error)
                self.failed(error)
                return
            asked = self._ask_again()
            if wait is None:
                continue  # one was read: look again at once
            wait = min(wait, asked)
            with self.rested:
                self.rests += 1
                self.rested.notify_all()
            self._wake.wait(wait)

    def _ask_again(self) -> float:
        """Ask the broker again for the results of each board whose results went over its
        rate and whose bucket is whole again (its subscription made again on its link:
        the broker sends its retained results again); the seconds until the next board may
        be asked."""
        boards, soonest = self.rate.due()
        for key in boards:
            if self.links.ask_again(key):
                log.info("asking the broker again for the results of board %s", key)
        return soonest

    def _one_turn(self) -> float | None:
        """Read the oldest waiting card of the next board in turn whose budget allows it
        (None), else the seconds until one may be read (an hour when none waits)."""
        soonest = 3600.0
        with self._db_lock:
            self._database()
            assert self._waiting is not None and self._passed is not None
            boards = self._waiting.boards()
            after = [board for board in boards if board > self._last_board]
            for board in after + boards[:len(boards) - len(after)]:
                oldest = self._waiting.oldest(board)
                if oldest is None:
                    continue
                seq, topic, payload, card_id = oldest
                if self._settle(seq, topic, payload, card_id):
                    self._last_board = board
                    self.written()
                    return None
                wait = self.budget.wait(board)
                if wait > 0:
                    soonest = min(soonest, wait)
                    continue
                self.budget.take(board)
                self._last_board = board
                break
            else:
                return soonest
        try:
            read = read_card(topic, payload)
        except ClubError as error:
            self._refuse(seq, topic, payload, error, card_id)
        else:
            self._judge(seq, read, topic, payload, card_id)
        return None
