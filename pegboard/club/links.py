"""The standings service's connections for results: one a board, so no board's backlog on
the broker stands in front of another board's results.

mosquitto sends a client its messages on its one connection, in order, and a QoS 1 message
waits for those in flight before it (``max_inflight_messages``) to be acknowledged: behind a
board's thousands of retained junk messages, delivered when the service subscribes, another
board's result waited for every one of them. So each board's results come on a connection
of their own (:class:`Link`), with its own subscription to that board's results only
(``pegboard/<club>/board/<board>/result/+``, QoS 1), its own persistent session (client id
``pegboard-<name>.<token>.<club>.<board>``, ``clean_session`` off: results arriving while
the service is down are queued for it) and its own paho network thread. The broker delivers
each connection's messages independently, so one board's backlog is that board's alone.

mosquitto lets any user connect with any client id, closing the connection that had it
(and handing over its session): a board that knew the id of the service's connection for
another board's results could keep that connection dropping, and the other board's results
waiting. So the ids carry a token only the service can make
(:func:`pegboard.club.connection.client_id`: a keyed digest of the service's name under its
password, the same at every start, so each board's session is found again).

A board is known (:meth:`Links.know`) by any message under its topics: its availability and
live state (retained, one each, on the service's connection for live states, so every board
that ever connected is known at once when the service starts) and its results' topics, which
a census connection (client id ``pegboard-<name>.<token>.census``, a clean session) subscribes to at
QoS 0 only to learn the boards' names, never to take a result. A board that never sent its
availability (boards always do, as they connect) is known when the census reaches its
results, which may be behind another board's retained backlog.

At most :data:`MOST_LINKS` boards get a connection of their own; any more share one (client
id ``pegboard-<name>.<token>.more``, a clean session: the boards on it differ from run to run), so a
broker that lets clients make up board names (a league's, whose clubs' bridges publish any
board under their club) cannot make the service open connections without end.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import paho.mqtt.client as mqtt

from pegboard.club.connection import Client
from pegboard.club.topics import board_results_filter

MOST_LINKS = 200
"""The most boards with a connection of their own (as many as ``club setup`` makes:
:data:`pegboard.club.setup.MOST_BOARDS`)."""


class Link:
    """One connection for the results of its boards (one board, or the boards past
    :data:`MOST_LINKS`): its client, the boards' keys (``club/board``) and how many times
    it has connected (a message is acknowledged on the connection it came on only)."""

    def __init__(self, client: Client, boards: list[str]) -> None:
        self.client = client
        self.boards = boards
        self.session = 0
        self.lock = threading.Lock()  # boards added on a network thread, read on another

    def filters(self) -> list[str]:
        """The subscriptions to its boards' results."""
        with self.lock:
            return [board_results_filter(*key.split("/", 1)) for key in self.boards]


class Links:
    """Every board's :class:`Link`, made as boards become known: ``make`` makes a link's
    client (its client id, whether its session is clean), ``wire`` sets a new link's
    callbacks, and the ``start`` given to :meth:`start` connects it."""

    def __init__(self, prefix: str, make: Callable[[str, bool], Client],
                 wire: Callable[[Link], None]) -> None:
        """``prefix``: the start of every link's client id
        (:func:`pegboard.club.connection.client_id`)."""
        self.prefix = prefix
        self.make = make
        self.wire = wire
        self._links: dict[str, Link] = {}
        self._more: Link | None = None
        self._lock = threading.Lock()
        self._started = False
        self._stopped = False
        self._start: Callable[[Link], None] = lambda link: None

    def start(self, start: Callable[[Link], None]) -> None:
        """Connect every link made so far, and each made from now on, with ``start``."""
        with self._lock:
            self._started = True
            self._start = start
            links = self._all()
        for link in links:
            start(link)

    def _all(self) -> list[Link]:
        unique = {id(link): link for link in self._links.values()}
        return list(unique.values())

    def know(self, key: str) -> bool:
        """Make sure the board ``key`` (``club/board``, both checked ids) has its results
        subscribed on a link; whether it was new."""
        with self._lock:
            if key in self._links or self._stopped:
                return False
            own = sum(1 for link in self._links.values() if link is not self._more)
            if own < MOST_LINKS:
                club, board = key.split("/", 1)
                link = Link(self.make(f"{self.prefix}.{club}.{board}", False), [key])
                self.wire(link)
                self._links[key] = link
                start = self._start if self._started else None
            else:
                fresh = self._more is None
                if self._more is None:
                    self._more = Link(self.make(f"{self.prefix}.more", True), [])
                    self.wire(self._more)
                link = self._more
                with link.lock:
                    link.boards.append(key)
                self._links[key] = link
                start = self._start if self._started and fresh else None
                if not fresh:  # connected (or connecting: its on_connect subscribes all)
                    link.client.subscribe(board_results_filter(*key.split("/", 1)), 1)
        if start is not None:
            start(link)
        return True

    def link(self, key: str) -> Link | None:
        """The link of the board ``key``, if it is known."""
        with self._lock:
            return self._links.get(key)

    def boards(self) -> list[str]:
        """Every board known, by key."""
        with self._lock:
            return sorted(self._links)

    def ask_again(self, key: str) -> bool:
        """Subscribe to the board's results again on its link (the broker sends its
        retained results again); whether the request was sent."""
        link = self.link(key)
        if link is None:
            return False
        result, _ = link.client.subscribe(board_results_filter(*key.split("/", 1)), 1)
        return bool(result == mqtt.MQTT_ERR_SUCCESS)

    def stop(self) -> list[Link]:
        """Make no more links; every link made (to disconnect)."""
        with self._lock:
            self._stopped = True
            return self._all()
