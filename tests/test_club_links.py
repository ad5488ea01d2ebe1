"""Each board's results on a connection of their own, on the broker as ``club setup`` makes
it (TLS on loopback, the passwords, the ACL): one board's retained flood, still undelivered,
never stands in front of another board's result; each board's session persists (a result
sent while the service is down is delivered when it is back, on that board's connection);
and the boards past the most with a connection of their own share one.

Every wait is on the subscriber's own signals or the database's counters, bounded."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

import pegboard.club.links as links_module
from pegboard.club.connection import TOKEN_HEX, client_id, client_token
from pegboard.club.links import Link
from pegboard.club.publisher import Publisher
from pegboard.club.rate import RESULTS_BURST
from pegboard.club.setup import MOST_BOARDS
from pegboard.club.topics import result_topic, topic
from tests.test_club_broker import card
from tests.test_club_fair import WAIT_S, Club, running

FLOOD = 400


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Club]:
    with running(Club(tmp_path)) as made:
        yield made


def test_a_boards_result_is_counted_while_another_boards_retained_flood_waits(
        club: Club) -> None:
    """Board 1 leaves 400 junk results retained on the broker; board 2 (which said it is
    online, as every board does when it connects) leaves a genuine one. The service starts;
    board 2's result is taken only once board 1's first message has reached the service,
    and that message is held on its connection's thread until board 2's result is counted
    (conditions, bounded): board 2's result is counted while 399 of board 1's are still not
    taken by the service. On one connection for every board, either would wait for the
    other and board 2's result would never be counted. Once let go, board 1's flood is
    taken as before: its burst refused, the rest dropped over its rate."""
    bad, good = club.board(1), club.board(2)
    try:
        sent = [bad.client.publish(result_topic("c1", "board-1", f"junk{n}"), b"junk %d" % n,
                                   qos=1, retain=True) for n in range(FLOOD)]
        for info in sent:
            info.wait_for_publish(WAIT_S)
        good.send(topic("c1", "board-2", "online"), b"online")
        result = card(12, "board-2")
        good.send(result_topic("c1", "board-2", "g12"), json.dumps(result).encode())
    finally:
        bad.close()
        good.close()
    counted = threading.Event()
    flood_began = threading.Event()
    seen: list[str] = []
    at_count: list[int] = []
    seen_lock = threading.Lock()
    subscriber = club.subscriber()
    take = subscriber._on_message

    def held(link: Link, message: mqtt.MQTTMessage) -> None:
        if "/board-1/" in message.topic:
            with seen_lock:
                seen.append(message.topic)
                first = len(seen) == 1
            if first:  # bounded: the assertion below says what it waited for
                flood_began.set()
                counted.wait(WAIT_S)
        elif "/board-2/" in message.topic:
            assert flood_began.wait(WAIT_S), "board 1's flood never reached the service"
        take(link, message)

    subscriber._on_message = held  # type: ignore[method-assign]
    real_changed = subscriber.changed

    def changed(what: dict[str, object]) -> None:
        real_changed(what)
        with seen_lock:  # board 1's connection is held until counted is set: exact
            at_count.append(len(seen))
        counted.set()

    subscriber.changed = changed
    subscriber.start()
    try:
        assert counted.wait(WAIT_S), (
            f"board 2's result was not counted within {WAIT_S:.0f} s while board 1's first "
            "message was held: it waits behind board 1's")
        assert at_count == [1], f"{at_count} of board 1's messages taken before board 2's"
        assert club.counters()["results"] == 1
        club.wait_until("board 1's burst refused", {"refused": RESULTS_BURST})
        with subscriber.took:
            assert subscriber.took.wait_for(
                lambda: subscriber.rate.over >= FLOOD - RESULTS_BURST, WAIT_S), (
                f"board 1's flood over its rate: {subscriber.rate.over} dropped")
        now = club.counters()
        assert (now["results"], now["refused"]) == (1, RESULTS_BURST)
        assert subscriber.links.boards() == ["c1/board-1", "c1/board-2"]
    finally:
        subscriber.stop()


def test_a_result_sent_while_the_service_is_down_comes_on_its_boards_session(
        club: Club) -> None:
    """Board 2's result is counted, the service stops, board 2 sends a result that is not
    retained (so only its connection's persistent session on the broker keeps it), and a
    new service with the same name counts it: the session is the board's own, kept across
    the restart."""
    subscriber = club.subscriber()
    subscriber.start()
    board = club.board(2)
    try:
        board.send(result_topic("c1", "board-2", "g12"), json.dumps(card(12, "board-2")).encode())
        club.wait_until("board 2's first result", {"results": 1, "waiting": 0})
        link = subscriber.links.link("c1/board-2")
        token = client_token("standings", club.secret["standings"])
        assert link is not None
        assert link.client._client_id == f"pegboard-standings.{token}.c1.board-2".encode()
        subscriber.stop()
        board.client.publish(result_topic("c1", "board-2", "g13"),
                             json.dumps(card(13, "board-2")).encode(),
                             qos=1).wait_for_publish(WAIT_S)
        subscriber = club.subscriber()
        subscriber.start()
        now = club.wait_until("the result sent while the service was down",
                              {"results": 2, "waiting": 0})
        assert (now["duplicates"], now["refused"]) == (0, 0)
    finally:
        board.close()
        subscriber.stop()


def test_boards_past_the_most_share_one_connection(club: Club,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """With one connection of their own at most, the first board known gets its own and
    the second shares the one for the rest (a clean session, its boards subscribed on it):
    both boards' results are counted, each once."""
    assert links_module.MOST_LINKS == MOST_BOARDS  # a connection each for a club's boards
    monkeypatch.setattr(links_module, "MOST_LINKS", 1)
    subscriber = club.subscriber()
    subscriber.start()
    one, two = club.board(1), club.board(2)
    try:
        one.send(result_topic("c1", "board-1", "g11"), json.dumps(card(11, "board-1")).encode())
        club.wait_until("board 1's result", {"results": 1, "waiting": 0})
        two.send(result_topic("c1", "board-2", "g12"), json.dumps(card(12, "board-2")).encode())
        club.wait_until("board 2's result", {"results": 2, "waiting": 0})
        first, second = subscriber.links.link("c1/board-1"), subscriber.links.link("c1/board-2")
        assert first is not None and second is not None and first is not second
        assert first.boards == ["c1/board-1"] and second.boards == ["c1/board-2"]
        token = client_token("standings", club.secret["standings"])
        assert second.client._client_id == f"pegboard-standings.{token}.more".encode()
        assert (club.counters()["duplicates"], club.counters()["refused"]) == (0, 0)
    finally:
        one.close()
        two.close()
        subscriber.stop()


class _Session(mqtt.Client):
    """A client that noted whether the broker had a session for its id when it connected."""

    session_present = False


def _client_of(club: Club, client_id: str, user: str) -> _Session:
    """``user``, with its own password, connected with ``client_id`` (a persistent
    session), once the broker has let it in (bounded)."""
    client = _Session(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=False)
    client.tls_set(ca_certs=str(club.ca))
    client.username_pw_set(user, club.secret[user])
    answered = threading.Event()
    let_in: list[bool] = []

    def connected(client: mqtt.Client, userdata: object, flags: mqtt.ConnectFlags,
                  reason: ReasonCode, properties: object) -> None:
        let_in.append(not reason.is_failure)
        assert isinstance(client, _Session)
        client.session_present = flags.session_present
        answered.set()

    client.on_connect = connected
    client.connect("127.0.0.1", club.port)
    client.loop_start()
    assert answered.wait(WAIT_S) and let_in == [True], f"{client_id} not let in: {let_in}"
    return client


def _connected_as(club: Club, client_id: str) -> mqtt.Client:
    """Board 1, with its own password, connected with ``client_id``."""
    return _client_of(club, client_id, "board-1")


def test_a_board_cannot_take_the_services_connection_for_another_boards_results(
        club: Club) -> None:
    """mosquitto hands a client id's connection to whoever connects with it next. Board 1,
    with its own password, connects with every client id it could guess for the service's
    connections (the service's name, the census, board 2's results: with and without a
    club): none is the service's, whose ids carry a token made from its password (64 bits,
    another password another token), so board 2's connection is never taken (connected
    once) and its result is counted."""
    password = club.secret["standings"]
    token = client_token("standings", password)
    assert len(token) == TOKEN_HEX and int(token, 16) >= 0
    assert client_token("standings", password + "x") != token
    assert client_token("league", password) != token and client_token("standings", None) == ""
    subscriber = club.subscriber()
    subscriber.start()
    good = club.board(2)
    thieves: list[mqtt.Client] = []
    try:
        good.send(topic("c1", "board-2", "online"), b"online")
        good.send(result_topic("c1", "board-2", "g12"), json.dumps(card(12, "board-2")).encode())
        club.wait_until("board 2's first result", {"results": 1, "waiting": 0})
        link = subscriber.links.link("c1/board-2")
        assert link is not None and link.session == 1
        assert subscriber.client._client_id == f"pegboard-standings.{token}".encode()
        for guess in ("pegboard-standings", "pegboard-standings.census",
                      "pegboard-standings.c1.board-2", "pegboard-standings.board-2",
                      "pegboard-standings.more"):
            thieves.append(_connected_as(club, guess))
        good.send(result_topic("c1", "board-2", "g13"), json.dumps(card(13, "board-2")).encode())
        club.wait_until("board 2's next result", {"results": 2, "waiting": 0})
        assert link.session == 1, "the service's connection for board 2 was taken over"
        assert subscriber.connected.is_set(), "the service's own connection was taken over"
    finally:
        for thief_client in thieves:
            thief_client.disconnect()
            thief_client.loop_stop()
        good.close()
        subscriber.stop()


def test_an_older_services_session_on_its_own_id_is_cleared(club: Club) -> None:
    """A service from before the boards' own connections kept a persistent session on
    ``pegboard-standings`` subscribed to every result, which the broker would go on
    filling. The service's own connection takes that id with a clean session: once it has
    connected, the id has no session on the broker (a client taking it finds none)."""
    old = _client_of(club, "pegboard-standings", "standings")
    assert old.subscribe("pegboard/c1/board/+/result/+", 1)[0] == mqtt.MQTT_ERR_SUCCESS
    old.disconnect()
    old.loop_stop()
    again = _client_of(club, "pegboard-standings", "standings")
    assert again.session_present, "the older service's session was not kept to begin with"
    again.disconnect()
    again.loop_stop()
    subscriber = club.subscriber()
    subscriber.start()
    try:
        assert subscriber.swept.wait(WAIT_S), "the service never cleared the older id"
        assert subscriber.connected.wait(WAIT_S), "the service never connected"
    finally:
        subscriber.stop()
    after = _client_of(club, "pegboard-standings", "standings")
    try:
        assert not after.session_present, "the older service's session is still there"
    finally:
        after.disconnect()
        after.loop_stop()


def test_a_board_cannot_take_another_boards_connection(club: Club, tmp_path: Path) -> None:
    """Board 2's publisher connects with an id carrying a token made from board 2's
    password. Board 1, with its own password, connects with the ids it could guess for
    board 2 (``pegboard-c1-board-2``, with and without a token made from no password):
    board 2 is still on its first connection when a message it sends next is acknowledged.
    The id with the token, which only board 2's password makes, does take it (the broker
    closes the older connection and the board connects again), so the test would see a
    guessed id taking the connection."""
    publisher = Publisher(tmp_path / "board-2", ("127.0.0.1", club.port), club="c1",
                          board="board-2", acked=tmp_path / "board-2.acked",
                          username="board-2", password=club.secret["board-2"], ca_file=club.ca)
    own = client_id("c1-board-2", club.secret["board-2"])
    assert own.startswith("pegboard-c1-board-2.") and len(own.split(".")[-1]) == TOKEN_HEX
    assert publisher.client._client_id == own.encode()
    thieves: list[mqtt.Client] = []

    def connections_reach(count: int, what: str) -> None:
        for _ in range(int(WAIT_S * 10)):
            if publisher.connections >= count:
                return
            publisher.news.wait(0.1)  # set by paho's thread at each connection
            publisher.news.clear()
        raise AssertionError(f"waited {WAIT_S:.0f} s for {what}: "
                             f"{publisher.connections} connections")

    def acknowledged() -> None:
        sent = publisher.client.publish(topic("c1", "board-2", "online"), b"online", qos=1,
                                        retain=True)
        sent.wait_for_publish(WAIT_S)
        assert sent.is_published(), "board 2's message was never acknowledged"

    publisher.start()
    try:
        connections_reach(1, "board 2's publisher to connect")
        for guess in ("pegboard-c1-board-2", client_id("c1-board-2", None),
                      "pegboard-c1-board-2.0000000000000000"):
            thieves.append(_connected_as(club, guess))
        acknowledged()
        assert publisher.connections == 1, "a guessed id took board 2's connection"
        thieves.append(_connected_as(club, own))
        connections_reach(2, "the broker to hand board 2's id to whoever has its token")
    finally:
        for thief_client in thieves:
            thief_client.disconnect()
            thief_client.loop_stop()
        publisher.stop()
