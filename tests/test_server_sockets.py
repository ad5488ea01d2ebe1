"""Both HTTP servers' connections, read at the socket: every connection the LAN scoreboard
(``pegboard web``) and the club's standings (``pegboard club serve``) accept has Nagle's
algorithm off (``TCP_NODELAY``), so a keep-alive answer is never held back waiting for the
client's delayed acknowledgement (docs/security.md).

Each server runs here as its command runs it: the listening socket from the commands'
``bind``, uvicorn under :func:`pegboard.web.server.guarded_config` with the server's own
application, on a thread of the test's process so the accepted sockets can be read."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn

from pegboard.club.page import Notes
from pegboard.club.page import create_app as club_app
from pegboard.club.results import connect
from pegboard.commands.web import bind
from pegboard.web.app import create_app as board_app
from pegboard.web.server import guarded_config
from pegboard.web.server_conn import GuardedH11, Limits
from tests.support.hostile import scoreboard_store

WAIT_S = 60.0
"""How long the server may take to start or stop: far above what it takes."""


@pytest.fixture(params=["lan", "club"])
def running(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[int, type[
        GuardedH11]]]:
    """One server listening on loopback: its port and its protocol class (with its guard)."""
    if request.param == "lan":
        app = board_app(scoreboard_store(tmp_path), hosts=None)
    else:
        connect(tmp_path / "r.db").close()
        app = club_app(tmp_path / "r.db", Notes(), hosts=None, start=lambda: None,
                       stop=lambda: None)
    sock = bind("127.0.0.1", 0)
    config = guarded_config(app, Limits())
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        yield sock.getsockname()[1], config.http  # type: ignore[misc]
    finally:
        server.should_exit = True
        thread.join(WAIT_S)
        sock.close()
        assert not thread.is_alive(), "the server did not stop"


def test_every_accepted_connection_has_nagle_off(running: tuple[int, type[GuardedH11]]
                                                 ) -> None:
    port, protocol = running
    clients = []
    try:
        for _ in range(3):
            client = socket.create_connection(("127.0.0.1", port), timeout=WAIT_S)
            client.sendall(b"GET /static/nothing HTTP/1.1\r\nHost: localhost\r\n\r\n")
            assert client.recv(12).startswith(b"HTTP/1.1 "), "no answer"  # it was accepted
            clients.append(client)
        held = list(protocol.guard.held)
        assert len(held) == 3
        for connection in held:
            sock = connection.transport.get_extra_info("socket")
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
    finally:
        for client in clients:
            client.close()


def test_the_listening_socket_is_tcp_by_name() -> None:
    """asyncio turns Nagle off on its own only for a socket made with ``IPPROTO_TCP``."""
    sock = bind("127.0.0.1", 0)
    try:
        assert sock.proto == socket.IPPROTO_TCP
    finally:
        sock.close()
