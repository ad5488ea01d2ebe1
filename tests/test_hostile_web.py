"""``pegboard web`` under a hostile local network, as a real process on loopback.

A half-sent request and one dripped byte by byte; foreign ``Host`` names (DNS rebinding);
bodies and heads h11 refuses; query parameters of thousands of digits; event streams by the
hundred; Ctrl-C; the store-following task failing; a failure inside. The load tests (1,100
connections, running out of descriptors, the log) are in ``test_hostile_web_load.py``.
Waiting is on sockets and pipes (with time-outs), never a sleep.
"""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.hostile import (
    LINES,
    REQUEST_S,
    Board,
    ask,
    crafted,
    get,
    half_sent_closed_at,
    has_security_headers,
    scoreboard_store,
    stream_from,
)
from tests.support.waiting import LIVENESS_S
from tests.support.web import chromium, system_chromium

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return scoreboard_store(tmp_path)


@pytest.fixture
def board(store: Path, tmp_path: Path) -> Iterator[Board]:
    server = Board(store, tmp_path / "web.log")
    yield server
    server.stop()


# -- Host names (DNS rebinding) -----------------------------------------------------------

def test_only_the_boards_own_names_are_answered(board: Board, store: Path,
                                                tmp_path: Path) -> None:
    me = socket.gethostname().lower()
    for host in ("localhost", f"127.0.0.1:{board.port}", f"localhost:{board.port}", me,
                 f"{me.split('.')[0]}.local:{board.port}", f"[::1]:{board.port}"):
        status, answer = get(board.port, "/api/game", host)
        assert status == 200, (host, answer[:300])
    assert get(board.port, "/api/game", "scoreboard.lan")[0] == 421
    named = Board(store, tmp_path / "named.log", "--allow-host", "Scoreboard.LAN")
    for host in ("scoreboard.lan", "SCOREBOARD.LAN.", "localhost"):
        assert get(named.port, "/api/game", host)[0] == 200, host
    assert get(named.port, "/api/game", "evil.example")[0] == 421
    assert named.stop()[0] == -signal.SIGTERM
    # Listening on every address (IPv4 visitors arrive as ::ffff:a.b.c.d): the address a
    # request came in on is still the board's own.
    both = Board(store, tmp_path / "both.log", host="::")
    for to in ("127.0.0.2", "127.0.0.1"):
        answer = ask(both.port, f"GET /api/game HTTP/1.1\r\nHost: {to}:{both.port}\r\n"
                                "Connection: close\r\n\r\n".encode(), to=to)
        assert answer.startswith(b"HTTP/1.1 200"), (to, answer[:300])
    answer = ask(both.port, b"GET / HTTP/1.1\r\nHost: 127.0.0.3\r\n\r\n", to="127.0.0.2")
    assert answer.startswith(b"HTTP/1.1 421")
    assert both.stop()[0] == -signal.SIGTERM
    for host in ("evil.example", "evil.example:8121", "127.0.0.1.evil.example",
                 f"{me}.evil.example", "scoreboard.lan.evil.example"):
        status, answer = get(board.port, "/", host)
        assert status == 421, (host, answer[:300])
        assert has_security_headers(answer)
        assert b"evil" not in answer.partition(b"\r\n\r\n")[2]
    for host in ("", "a b", "evil.example:99999999", "[zz::1]", "ex\xe4mple"):
        status, answer = get(board.port, "/", host)
        assert status == 400, (host, answer[:300])
        assert has_security_headers(answer)
    status, answer = get(board.port, "/", "localhost", "Host: evil.example\r\n")
    assert status == 400 and has_security_headers(answer)
    answer = ask(board.port, b"GET / HTTP/1.0\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 400") and has_security_headers(answer)


def test_an_extra_name_must_be_a_host_name(store: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "pegboard", "web", "--store", str(store),
                           "--allow-host", "evil example/"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    assert "'evil example/' is not a host name" in done.stderr
    assert "Traceback" not in done.stderr


# -- error answers and query parameters ---------------------------------------------------

def test_every_refusal_is_clean_and_carries_the_security_headers(board: Board) -> None:
    cases = [
        ("/api/games?limit=" + "9" * 5000, 400, b"the query is longer than 512 bytes"),
        ("/api/games?limit=" + "9" * 400, 400, b"(400 characters)"),
        ("/api/games?limit=%C2%B2", 400, "not '²'".encode()),
        ("/api/games?limit=201", 400, b"not '201'"),
        ("/api/games?limit=-1", 400, b"not '-1'"),
        ("/api/games?limit=%2B5", 400, b"not '+5'"),
        ("/?tv=" + "1" * 1000, 400, b"the query is longer than 512 bytes"),
        ("/board/" + "2" * 5000 + "-121.svg", 404, b"a board has 2 or 3 sides"),
        ("/board/2-" + "1" * 30 + ".svg", 404, b"a board has 2 or 3 sides"),
        ("/nowhere", 404, b"Not found"),
        ("/review/" + "a" * 5000, 404, b"there is no game with that id"),
        ("/review/..%2F..%2Fetc%2Fpasswd", 404, b"Not found"),
        ("/review/%2E%2E", 404, b"there is no game with that id"),
        ("/review/caf%C3%A9", 404, b"there is no game with that id"),
        ("/review/a%00b", 404, b"there is no game with that id"),
        ("/review?" + "x=1&" * 200, 400, b"the query is longer than 512 bytes"),
    ]
    for path, status, words in cases:
        got, answer = get(board.port, path)
        assert got == status, (path[:60], answer[:400])
        assert words in answer, (path[:60], answer[:400])
        assert has_security_headers(answer), path[:60]
    got, answer = get(board.port, "/api/games?limit=2")
    assert got == 200 and has_security_headers(answer)
    for route in (b"/api/game", b"/review"):
        answer = ask(board.port, b"POST " + route + b" HTTP/1.1\r\nHost: localhost\r\n"
                                 b"Content-Length: 3\r\nConnection: close\r\n\r\nabc")
        assert answer.startswith(b"HTTP/1.1 405") and has_security_headers(answer)
    for garbage, refused in (
            (b"NOT HTTP AT ALL\r\n\r\n", b"400"),
            (b"GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: zz\r\n\r\n", b"400"),
            (b"GET / HTTP/1.1\r\nHost: localhost\r\nX: " + b"a" * 9000 + b"\r\n\r\n", b"431"),
            (b"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 20000\r\n\r\n"
             + b"a" * 20000, b"431")):
        answer = ask(board.port, garbage)
        assert answer.startswith(b"HTTP/1.1 " + refused), answer[:200]
        assert has_security_headers(answer)
    status, log = board.stop()
    assert "Traceback" not in log
    assert len(log.splitlines()) <= 3, log  # uvicorn's "Invalid HTTP request" said once


# -- half-sent requests -------------------------------------------------------------------

def test_a_request_not_whole_within_the_deadline_is_closed(board: Board) -> None:
    closed_at = half_sent_closed_at(board.port)
    assert len(closed_at) == 2, "a half-sent request was never closed"
    for when in closed_at:
        assert when >= REQUEST_S - 0.5, when


def test_event_streams_are_capped_per_address_and_in_all(board: Board) -> None:
    held: list[socket.socket] = []
    try:
        for n in range(32):  # 8 from each of 32 addresses: 256, every stream there is
            for _ in range(8):
                conn, seen = stream_from(board.port, f"127.0.2.{n + 1}")
                assert b"retry: 1000" in seen, seen
                held.append(conn)
            if n == 0:
                conn, seen = stream_from(board.port, "127.0.2.1")  # a ninth from one
                assert b"retry: 5000" in seen and b": busy" in seen, seen
                conn.close()
        conn, seen = stream_from(board.port, "127.0.3.1")  # a newcomer, all 256 in use
        assert b"retry: 5000" in seen, seen
        conn.close()
        status, answer = get(board.port, "/api/game")  # the page and the API still answer
        assert status == 200 and has_security_headers(answer)
        held.pop().close()  # one browser leaves: its place is free again once it is seen
        until = time.monotonic() + LIVENESS_S  # a bound on a busy machine, not a speed
        while True:
            conn, seen = stream_from(board.port, "127.0.3.1")
            if b"retry: 1000" in seen or time.monotonic() > until:
                break
            conn.close()
        held.append(conn)
        assert b"retry: 1000" in seen, seen
    finally:
        for conn in held:
            conn.close()


@pytest.mark.skipif(chromium() is None, reason="needs chromium (`make test` installs it)")
def test_a_line_no_reader_can_use_is_a_problem_on_the_page_and_the_game_goes_on(
        board: Board, store: Path) -> None:
    with system_chromium() as browser:
        page = browser.new_page()
        page.goto(board.url)
        page.wait_for_selector('body[data-lines="3"]', state="attached",
                               timeout=LIVENESS_S * 1000)
        with open(store / "current.log", "ab") as log:  # after the three lines written
            log.write(crafted('{"seq": 3, "at": 1e400, "record": {"type": "undo"}}'))
            log.write(crafted(json.dumps({"seq": 4, "at": 2.0,
                                          "record": json.loads(LINES[3])})))
        page.wait_for_selector('body[data-lines="4"]', state="attached",
                               timeout=LIVENESS_S * 1000)
        page.wait_for_selector("#game-problem:not([hidden])", timeout=LIVENESS_S * 1000)
        shown = page.text_content("#game-problem")
    assert shown is not None and "line 4" in shown
    status, answer = get(board.port, "/api/game")
    game = json.loads(answer.partition(b"\r\n\r\n")[2])["game"]
    assert status == 200 and game["lines"] == 4
    assert "line 4" in game["problem"]
    assert board.process.poll() is None


# -- stopping -----------------------------------------------------------------------------

def test_ctrl_c_stops_quietly(board: Board) -> None:
    assert get(board.port, "/api/game")[0] == 200
    stream, _ = stream_from(board.port, "127.0.0.1")  # a browser following the game
    status, log = board.stop(signal.SIGINT)
    stream.close()
    assert status == 130
    assert log == ""


FAILING_HUB = """
import sys
from pegboard.web.hub import Hub
async def broken(self):
    raise RuntimeError("the follower broke")
Hub.run = broken
from pegboard.cli import main
sys.exit(main(["web", "--store", sys.argv[1], "--port", "0"]))
"""


def test_a_failed_polling_task_stops_the_process_with_status_1(store: Path) -> None:
    done = subprocess.run([sys.executable, "-c", FAILING_HUB, str(store)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr
    assert "the scoreboard stopped following the store: RuntimeError: the follower broke" in (
        done.stderr)
    assert "systemd starts it again" in done.stderr
    assert "Traceback" not in done.stderr


# -- out of descriptors -------------------------------------------------------------------

def test_a_failure_inside_is_a_500_with_the_security_headers(
        store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from starlette.testclient import TestClient

    from pegboard.web.app import create_app
    from pegboard.web.hub import Hub

    def broken(self: Hub, limit: int = 20) -> list[object]:
        raise RuntimeError("x" * 5000)

    monkeypatch.setattr(Hub, "finished", broken)
    with TestClient(create_app(store), raise_server_exceptions=False) as client:
        answer = client.get("/api/games")
    assert answer.status_code == 500
    assert answer.json() == {"error": "Something went wrong showing this page; the game "
                                      "itself is not affected."}
    assert answer.headers["content-security-policy"].startswith("default-src 'none'")
    assert answer.headers["x-frame-options"] == "DENY"


# -- the unit -----------------------------------------------------------------------------

def test_the_unit_sets_the_open_files_limit_above_the_connection_cap() -> None:
    from pegboard.web.server_conn import Limits

    assert Limits().request_s == REQUEST_S
    unit = (ROOT / "systemd" / "pegboard-web.service").read_text(encoding="utf-8")
    found = re.findall(r"(?m)^LimitNOFILE=([0-9]+)$", unit)
    assert len(found) == 1, "LimitNOFILE is set once, deliberately"
    files = int(found[0])
    limits = Limits().fitted(files)
    assert limits.connections == Limits().connections  # the whole cap fits
    assert files >= Limits().connections + Limits().reserve
