"""The one connection policy of both HTTP servers, the LAN scoreboard (``pegboard web``) and
the club's standings (``pegboard club serve``), held as docs/security.md states it: keep-alive
connections that pipeline requests and never read their answers cannot shut out a newcomer
(the busiest address gives way), a connection is closed after its share of answers, and the
standings' event streams are capped per address and in all while the page and the API keep
answering. Every wait is on a socket, bounded (:data:`LIVENESS_S`), never a sleep."""

from __future__ import annotations

import contextlib
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pegboard.web.server_conn import Limits
from tests.support.club import Standings
from tests.support.hostile import (
    Board,
    ask,
    get,
    half_sent_closed_at,
    has_security_headers,
    scoreboard_store,
    stream_from,
)
from tests.support.ports import free_port
from tests.support.stores import rot_table
from tests.test_club_heal import kept_night, members_file

LIVENESS_S = 60.0
"""How long an answer may take before the server counts as shutting the client out: far
above what it takes, so a machine busy with other work does not fail it."""

LIMITS = Limits()
PIPELINED = 50
"""Requests sent at once on each attacking connection (2 KiB: under the 8 KiB a request may
take before it is whole); their answers, never read, stall the connection while answering
(50 pages are many times what a 4 KiB receive buffer and the server's send buffer hold)."""


@pytest.fixture(params=["lan", "club"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[int, str]]:
    """Either server on loopback, as its port and the small API answer to ask it for."""
    if request.param == "lan":
        board = Board(scoreboard_store(tmp_path), tmp_path / "web.log")
        try:
            yield board.port, "/api/game"
        finally:
            board.stop()
    else:
        # No broker listens: the page and the API answer from the database all the same.
        service = Standings(tmp_path / "r.db", f"127.0.0.1:{free_port()}")
        try:
            yield int(service.url.rstrip("/").rsplit(":", 1)[1]), "/api/status"
        finally:
            service.stop()


def connect(port: int, source: str, *, small: bool = False) -> socket.socket:
    """A connection from ``source``; ``small``: a receive buffer of 4 KiB (a client that reads
    nothing stalls the server's answers at once)."""
    conn = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if small:
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    conn.settimeout(LIVENESS_S)
    conn.bind((source, 0))
    conn.connect(("127.0.0.1", port))
    return conn


def answers(conn: socket.socket) -> Iterator[tuple[int, bytes]]:
    """Each answer on ``conn`` (status, head) until the server closes it."""
    data = b""
    while True:
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(65536)
            if not chunk:
                return
            data += chunk
        head, _, data = data.partition(b"\r\n\r\n")
        length = int(re.search(rb"(?i)\r\ncontent-length: *([0-9]+)", head).group(1))  # type: ignore[union-attr]
        while len(data) < length:
            chunk = conn.recv(65536)
            assert chunk, "closed in the middle of an answer"
            data += chunk
        data = data[length:]
        yield int(head.split(b" ", 2)[1]), head


def request(path: str, *, close: bool = False) -> bytes:
    return (f"GET {path} HTTP/1.1\r\nHost: localhost\r\n"
            + ("Connection: close\r\n" if close else "") + "\r\n").encode()


def test_pipelining_keep_alive_connections_cannot_shut_out_a_newcomer(
        server: tuple[int, str]) -> None:
    """16 addresses hold every connection there is (32 each, 512), each connection with 50
    requests for the page pipelined and none of the answers read, so that every one is busy
    answering; 30 newcomers from 30 more addresses are each answered."""
    port, api = server
    held: list[socket.socket] = []
    try:
        for a in range(1, 17):
            for _ in range(LIMITS.per_client):
                conn = connect(port, f"127.0.7.{a}", small=True)
                with contextlib.suppress(OSError):  # dropped for a newcomer: as it may be
                    conn.sendall(request("/") * PIPELINED)
                held.append(conn)
        for conn in held:  # every one is answering (its answer begun) before a newcomer
            with contextlib.suppress(OSError):
                conn.recv(1, socket.MSG_PEEK)
        for n in range(1, 31):
            with connect(port, f"127.0.8.{n}") as newcomer:
                newcomer.sendall(request(api, close=True))
                got = next(answers(newcomer), None)
                assert got is not None, f"newcomer {n} was shut out"
                assert got[0] == 200 and has_security_headers(got[1]), got
    finally:
        for conn in held:
            conn.close()


def test_a_keep_alive_connection_is_closed_after_its_share_of_answers(
        server: tuple[int, str]) -> None:
    port, api = server
    with connect(port, "127.0.9.1") as conn:
        conn.sendall(request(api) * (LIMITS.requests_per_connection + 5))
        statuses = [status for status, _ in answers(conn)]
    assert statuses == [200] * LIMITS.requests_per_connection


def test_the_standings_event_streams_are_capped_per_address_and_in_all(tmp_path: Path
                                                                      ) -> None:
    """The issue's attack: streams from 16 addresses, as many as they like; each gets 8 and
    is told to come back for the rest; with 256 open from 32 addresses a newcomer's stream
    is told to come back too, and the page and ``/api/standings`` answer meanwhile."""
    service = Standings(tmp_path / "r.db", f"127.0.0.1:{free_port()}")
    port = int(service.url.rstrip("/").rsplit(":", 1)[1])
    held: list[socket.socket] = []
    try:
        for a in range(1, 33):
            for _ in range(LIMITS.streams_per_client):
                conn, seen = stream_from(port, f"127.0.10.{a}")
                assert b"retry: 1000" in seen, seen
                held.append(conn)
            if a <= 16:  # more from the same address: told to come back
                conn, seen = stream_from(port, f"127.0.10.{a}")
                assert b"retry: 5000" in seen and b": busy" in seen, seen
                conn.close()
        conn, seen = stream_from(port, "127.0.11.1")  # a newcomer, all 256 in use
        assert b"retry: 5000" in seen, seen
        conn.close()
        for path in ("/", "/api/standings"):
            with connect(port, "127.0.11.2") as newcomer:
                newcomer.sendall(request(path, close=True))
                got = next(answers(newcomer), None)
                assert got is not None and got[0] == 200 and has_security_headers(got[1]), got
        held.pop().close()  # one phone leaves: its place is free again once it is seen
        until = time.monotonic() + LIVENESS_S  # each try is answered; the closed stream is
        while True:                            # seen soon, later on a busy machine
            conn, seen = stream_from(port, "127.0.11.1")
            if b"retry: 1000" in seen or time.monotonic() > until:
                break
            conn.close()
        held.append(conn)
        assert b"retry: 1000" in seen, seen
    finally:
        for conn in held:
            conn.close()
        service.stop()


def test_one_address_gets_its_share_of_connections_and_the_next_is_closed_at_once(
        server: tuple[int, str]) -> None:
    """32 connections from one address, none of them sending anything yet, are held; the
    33rd is closed at once (long before the 5 s the others have to send a request), and
    another address is answered meanwhile."""
    port, api = server
    held = [connect(port, "127.0.12.1") for _ in range(LIMITS.per_client)]
    try:
        for conn in held:  # each taken by the server (it answers a request on it)
            conn.setblocking(False)
        with connect(port, "127.0.12.1") as extra:
            closed = extra.recv(1)  # bounded by the socket's timeout
            assert closed == b"", closed
        # Closed for being over the share, not by the deadline for a whole request: the 32
        # made before it, whose deadlines come first, are all still open (no clock needed).
        for conn in held:
            with pytest.raises(BlockingIOError):
                conn.recv(1)
        with connect(port, "127.0.12.2") as other:
            other.sendall(request(api, close=True))
            got = next(answers(other), None)
            assert got is not None and got[0] == 200, got
    finally:
        for conn in held:
            conn.close()


def test_both_servers_refuse_the_same_requests_with_the_same_headers(
        server: tuple[int, str]) -> None:
    """A name not the server's (421), no ``Host`` or two (400), a head over 8 KiB (431), a
    method other than GET or HEAD on a read-only route (405), no such page (404): each
    refused with the security headers, on the scoreboard and the standings page alike."""
    port, api = server
    cases = [
        (f"GET {api} HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n", b"421"),
        (f"GET {api} HTTP/1.1\r\nConnection: close\r\n\r\n", b"400"),
        (f"GET {api} HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n"
         "Connection: close\r\n\r\n", b"400"),
        (f"GET {api} HTTP/1.1\r\nHost: localhost\r\nX: {'a' * 9000}\r\n\r\n", b"431"),
        (f"POST {api} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n"
         "Connection: close\r\n\r\n{{}}", b"405"),
        (f"DELETE {api} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", b"405"),
        ("GET /nowhere HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", b"404"),
    ]
    for sent, status in cases:
        answer = ask(port, sent.encode())
        assert answer.startswith(b"HTTP/1.1 " + status), (sent[:80], answer[:300])
        assert has_security_headers(answer), (sent[:80], answer[:300])
        assert b"Traceback" not in answer
    status_, answer = get(port, api)
    assert status_ == 200 and has_security_headers(answer)


def test_the_standings_closes_a_request_not_whole_within_its_deadline(tmp_path: Path
                                                                      ) -> None:
    """The standings page's 5 s for a whole request, as the scoreboard's
    (tests/test_hostile_web.py): a silent half-sent request and one dripped a byte every
    half second are both closed, neither before the deadline."""
    service = Standings(tmp_path / "r.db", f"127.0.0.1:{free_port()}")
    port = int(service.url.rstrip("/").rsplit(":", 1)[1])
    try:
        closed_at = half_sent_closed_at(port, sources=("127.0.13.1", "127.0.13.2"))
        assert len(closed_at) == 2, "a half-sent request was never closed"
        assert all(LIMITS.request_s - 0.5 <= when for when in closed_at), closed_at
    finally:
        service.stop()


def test_the_standings_over_a_damaged_database_heals_with_one_notice_and_the_headers(
        tmp_path: Path) -> None:
    """``club serve`` started on a database with bit rot in its results says so in one line
    (no traceback) and serves the night as it was; overwritten while it runs, the next
    answers are 200 again, the same standings with the notice and the security headers,
    never a 500 or a 503, the damaged files kept aside."""
    db, before = kept_night(tmp_path, members_file(tmp_path))
    rot_table(db, "result")
    service = Standings(db, f"127.0.0.1:{free_port()}")
    port = int(service.url.rstrip("/").rsplit(":", 1)[1])
    try:
        said = service.log.read_text(encoding="utf-8")
        assert said.count("was damaged") == 1 and "Traceback" not in said, said
        assert service.get("/api/standings?night=1")["players"] == before["tonight"]
        for path in tmp_path.glob("r.db*"):
            if "damaged" not in path.name:
                path.write_bytes(b"not a database " * 400)  # in place: the same files
        for asked in ("/api/standings?night=1", "/api/specials?night=2"):
            status, answer = get(port, asked)
            assert status == 200 and has_security_headers(answer), answer[:300]
            assert b"Traceback" not in answer
        shown = service.get("/api/standings?night=1")
        assert shown["players"] == before["tonight"] and "kept as r.db.damaged-" in shown[
            "notice"]
        assert len(service.get("/api/status")["healed"]) == 2
        assert len(list(tmp_path.glob("r.db.damaged-*[0-9Z]"))) == 2
        status, answer = get(port, "/")
        assert status == 200 and has_security_headers(answer)
    finally:
        service.stop()
    assert "Traceback" not in service.log.read_text(encoding="utf-8")
