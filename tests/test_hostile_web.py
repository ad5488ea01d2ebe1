"""``pegboard web`` under a hostile local network, as a real process on loopback.

Half-sent requests (1,100 of them, from 41 loopback addresses, against a process allowed
1,024 open files) while Debian's Chromium loads the page; a request dripped byte by byte;
foreign ``Host`` names (DNS rebinding); bodies and heads h11 refuses; query parameters of
thousands of digits; Ctrl-C; the store-following task failing; running out of descriptors
under asyncio. Waiting is on sockets and pipes (with time-outs), never a sleep.
"""

from __future__ import annotations

import contextlib
import re
import resource
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from tests.support.web import EXAMPLES, ScriptedGame, chromium

ROOT = Path(__file__).resolve().parent.parent
REQUEST_S = 5.0
"""The deadline for a whole request (``pegboard.web.server_conn.Limits.request_s``)."""
LINES = (EXAMPLES / "two-player.jsonl").read_text(encoding="utf-8").splitlines()
LIMIT_FILES = """
import os, resource, sys
files = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))
os.execv(sys.executable, [sys.executable, "-m", "pegboard", *sys.argv[2:]])
"""


class Board:
    """``pegboard web`` on 127.0.0.1 (a port of its own), its standard error in a file."""

    def __init__(self, store: Path, log: Path, *extra: str, files: int = 1024,
                 host: str = "127.0.0.1") -> None:
        self.log = log
        with log.open("w") as err:
            self.process = subprocess.Popen(
                [sys.executable, "-c", LIMIT_FILES, str(files), "web", "--store", str(store),
                 "--host", host, "--port", "0", "--poll", "0.02", *extra],
                stdout=subprocess.PIPE, stderr=err, text=True)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert "http://" in line, line + log.read_text()
        self.url = line.split()[3]
        self.port = int(self.url.rsplit(":", 1)[1].strip("/"))

    def stop(self, sig: int = signal.SIGTERM) -> tuple[int, str]:
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return self.process.returncode, self.log.read_text(errors="replace")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "store"
    game = ScriptedGame(folder, LINES)
    game.play_to(3)
    game.close()
    yield folder


@pytest.fixture
def board(store: Path, tmp_path: Path) -> Iterator[Board]:
    server = Board(store, tmp_path / "web.log")
    yield server
    server.stop()


def ask(port: int, request: bytes, *, source: str = "127.0.0.1", to: str = "127.0.0.1",
        ) -> bytes:
    """Send ``request`` and read the whole answer (the server closes or keep-alive ends)."""
    with socket.create_connection((to, port), timeout=10,
                                  source_address=(source, 0)) as conn:
        conn.sendall(request)
        answer = b""
        while b"\r\n\r\n" not in answer or not _complete(answer):
            chunk = conn.recv(65536)
            if not chunk:
                break
            answer += chunk
        return answer


def _complete(answer: bytes) -> bool:
    head, _, body = answer.partition(b"\r\n\r\n")
    length = re.search(rb"(?i)\r\ncontent-length: *([0-9]+)", head)
    return length is not None and len(body) >= int(length.group(1))


def get(port: int, path: str, host: str = "localhost", extra: str = "") -> tuple[int, bytes]:
    answer = ask(port, f"GET {path} HTTP/1.1\r\nHost: {host}\r\n{extra}"
                       "Connection: close\r\n\r\n".encode())
    status = int(answer.split(b" ", 2)[1])
    return status, answer


def has_security_headers(answer: bytes) -> bool:
    head = answer.partition(b"\r\n\r\n")[0].lower()
    return all(name in head for name in (b"content-security-policy: default-src 'none'",
                                         b"x-content-type-options: nosniff",
                                         b"x-frame-options: deny", b"referrer-policy"))


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
                          timeout=30)
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
    ]
    for path, status, words in cases:
        got, answer = get(board.port, path)
        assert got == status, (path[:60], answer[:400])
        assert words in answer, (path[:60], answer[:400])
        assert has_security_headers(answer), path[:60]
    got, answer = get(board.port, "/api/games?limit=2")
    assert got == 200 and has_security_headers(answer)
    answer = ask(board.port, b"POST /api/game HTTP/1.1\r\nHost: localhost\r\n"
                             b"Content-Length: 3\r\nConnection: close\r\n\r\nabc")
    assert answer.startswith(b"HTTP/1.1 405") and has_security_headers(answer)
    for garbage, status in (
            (b"NOT HTTP AT ALL\r\n\r\n", b"400"),
            (b"GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: zz\r\n\r\n", b"400"),
            (b"GET / HTTP/1.1\r\nHost: localhost\r\nX: " + b"a" * 9000 + b"\r\n\r\n", b"431"),
            (b"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 20000\r\n\r\n"
             + b"a" * 20000, b"431")):
        answer = ask(board.port, garbage)
        assert answer.startswith(b"HTTP/1.1 " + status), answer[:200]
        assert has_security_headers(answer)
    status, log = board.stop()
    assert "Traceback" not in log
    assert len(log.splitlines()) <= 3, log  # uvicorn's "Invalid HTTP request" said once


# -- half-sent requests -------------------------------------------------------------------

def test_a_request_not_whole_within_the_deadline_is_closed(board: Board) -> None:
    silent = socket.create_connection(("127.0.0.1", board.port))
    silent.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n")
    drip = socket.create_connection(("127.0.0.1", board.port))
    started = time.monotonic()
    open_ = {silent, drip}
    closed_at: dict[socket.socket, float] = {}
    with selectors.DefaultSelector() as watch:
        for conn in open_:
            watch.register(conn, selectors.EVENT_READ)
        header = iter(b"GET / HTTP/1.1\r\nHost: localhost\r\n" + b"X-Slow: " + b"a" * 100)
        while open_ and time.monotonic() - started < 15:
            ready = watch.select(timeout=0.5)  # a byte every half second
            for key, _ in ready:
                conn = key.fileobj
                assert isinstance(conn, socket.socket)
                try:
                    data = conn.recv(100)
                except ConnectionResetError:
                    data = b""
                assert data == b"", data
                closed_at[conn] = time.monotonic() - started
                watch.unregister(conn)
                open_.discard(conn)
            if drip in open_:
                with contextlib.suppress(OSError):  # closed meanwhile: seen on the next turn
                    drip.send(bytes([next(header)]))
    silent.close()
    drip.close()
    deadline = REQUEST_S
    assert set(closed_at) == {silent, drip}, "a half-sent request was never closed"
    for when in closed_at.values():
        assert deadline - 0.5 <= when <= deadline + 2, when


def _attack(port: int, sources: list[tuple[str, int]]) -> list[socket.socket]:
    """Open the connections (without waiting for each) and send half a request on each."""
    opened: list[socket.socket] = []
    for source, count in sources:
        for _ in range(count):
            conn = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            conn.bind((source, 0))
            conn.setblocking(False)
            conn.connect_ex(("127.0.0.1", port))
            opened.append(conn)
    with selectors.DefaultSelector() as watch:
        for conn in opened:
            watch.register(conn, selectors.EVENT_WRITE)
        waiting = len(opened)
        until = time.monotonic() + 10
        while waiting and time.monotonic() < until:
            for key, _ in watch.select(timeout=1):
                conn = key.fileobj
                assert isinstance(conn, socket.socket)
                watch.unregister(conn)
                waiting -= 1
                with contextlib.suppress(OSError):  # refused at once: as it should be
                    conn.send(b"GET / HTTP/1.1\r\nHost: localhost\r\nUser-Agent: half")
    return opened


class Churn:
    """While it runs, every attacking connection the server closes is opened again from the
    same address with half a request: the attack keeps its 1,100 going."""

    def __init__(self, port: int, opened: list[socket.socket]) -> None:
        self.port = port
        self.watch = selectors.DefaultSelector()
        self.sources = {}
        for conn in opened:
            self.sources[conn] = conn.getsockname()[0]
            self.watch.register(conn, selectors.EVENT_READ)
        self.reopened = 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.done.is_set():
            for key, _ in self.watch.select(timeout=0.05):
                conn = key.fileobj
                assert isinstance(conn, socket.socket)
                source = self.sources.pop(conn)
                self.watch.unregister(conn)
                conn.close()
                new = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                new.bind((source, 0))
                new.settimeout(1)
                with contextlib.suppress(OSError):
                    new.connect(("127.0.0.1", self.port))
                    new.send(b"GET / HTTP/1.1\r\nHost: localhost\r\nUser-Agent: again")
                self.sources[new] = source
                self.watch.register(new, selectors.EVENT_READ)
                self.reopened += 1

    def stop(self) -> None:
        self.done.set()
        self.thread.join(timeout=10)
        for conn in self.sources:
            conn.close()
        self.watch.close()


@pytest.mark.skipif(chromium() is None, reason="needs chromium (`make test` installs it)")
def test_1100_half_sent_connections_leave_the_page_to_a_browser(store: Path,
                                                               tmp_path: Path) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
    board = Board(store, tmp_path / "web.log", files=1024)
    attack: list[socket.socket] = []
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=chromium())
            page = browser.new_page()
            # One host with 100, forty more with 25 each: 1,100 half-sent requests.
            sources = [("127.0.0.2", 100), *((f"127.0.1.{n}", 25) for n in range(1, 41))]
            attack = _attack(board.port, sources)
            assert len(attack) == 1100
            churn = Churn(board.port, attack)
            try:
                started = time.monotonic()
                page.goto(board.url, timeout=2000)
                page.wait_for_selector('body[data-lines="3"]', state="attached",
                                       timeout=2000)
                took = time.monotonic() - started
                assert page.text_content("#score0") == "0"
            finally:
                churn.stop()
            browser.close()
        assert took < 2.0, took
        print(f"page under 1,100 half-sent connections: {took:.2f} s "
              f"({churn.reopened} reopened meanwhile)")
        assert board.process.poll() is None
    finally:
        status, log = board.stop()
    assert status == -signal.SIGTERM
    assert "Traceback" not in log
    assert len(log.encode()) < 2000 and len(log.splitlines()) <= 6, log


def _stream_from(port: int, source: str) -> tuple[socket.socket, bytes]:
    """Open ``/events`` from ``source`` and read until its first ``retry:`` line."""
    conn = socket.create_connection(("127.0.0.1", port), timeout=10,
                                    source_address=(source, 0))
    conn.sendall(b"GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
    seen = b""
    while b"retry: " not in seen or not re.search(rb"retry: [0-9]+\n", seen):
        chunk = conn.recv(4096)
        assert chunk, seen
        seen += chunk
    return conn, seen


def test_event_streams_are_capped_per_address_and_in_all(board: Board) -> None:
    held: list[socket.socket] = []
    try:
        for n in range(32):  # 8 from each of 32 addresses: 256, every stream there is
            for _ in range(8):
                conn, seen = _stream_from(board.port, f"127.0.2.{n + 1}")
                assert b"retry: 1000" in seen, seen
                held.append(conn)
            if n == 0:
                conn, seen = _stream_from(board.port, "127.0.2.1")  # a ninth from one
                assert b"retry: 5000" in seen and b": busy" in seen, seen
                conn.close()
        conn, seen = _stream_from(board.port, "127.0.3.1")  # a newcomer, all 256 in use
        assert b"retry: 5000" in seen, seen
        conn.close()
        status, answer = get(board.port, "/api/game")  # the page and the API still answer
        assert status == 200 and has_security_headers(answer)
        held.pop().close()  # one browser leaves: its place is free again once it is seen
        until = time.monotonic() + 5
        while True:
            conn, seen = _stream_from(board.port, "127.0.3.1")
            if b"retry: 1000" in seen or time.monotonic() > until:
                break
            conn.close()
        held.append(conn)
        assert b"retry: 1000" in seen, seen
    finally:
        for conn in held:
            conn.close()


# -- stopping -----------------------------------------------------------------------------

def test_ctrl_c_stops_quietly(board: Board) -> None:
    assert get(board.port, "/api/game")[0] == 200
    stream, _ = _stream_from(board.port, "127.0.0.1")  # a browser following the game
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
                          capture_output=True, text=True, timeout=15)
    assert done.returncode == 1, done.stderr
    assert "the scoreboard stopped following the store: RuntimeError: the follower broke" in (
        done.stderr)
    assert "systemd starts it again" in done.stderr
    assert "Traceback" not in done.stderr


# -- out of descriptors -------------------------------------------------------------------

NO_FILES_LEFT = """
import asyncio, logging, resource, socket, sys
from pegboard.web.server import quiet_logs
logging.basicConfig(stream=sys.stderr, format="%(name)s: %(message)s")
resource.setrlimit(resource.RLIMIT_NOFILE, (48, 48))
quiet_logs()

class Hold(asyncio.Protocol):
    pass

async def main():
    loop = asyncio.get_running_loop()
    server = await loop.create_server(Hold, "127.0.0.1", 0, backlog=128)
    print(server.sockets[0].getsockname()[1], flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)

asyncio.run(main())
"""


def test_running_out_of_descriptors_is_one_line_not_a_flood() -> None:
    process = subprocess.Popen([sys.executable, "-c", NO_FILES_LEFT], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stdin is not None
    port = int(process.stdout.readline())
    held = [socket.create_connection(("127.0.0.1", port)) for _ in range(100)]
    # Wait until the loop has met the limit at least twice (its retry is one second).
    t0 = time.monotonic()
    with socket.create_connection(("127.0.0.1", port)) as probe:
        probe.settimeout(2.5)
        with pytest.raises(TimeoutError):
            probe.recv(1)  # the server never answers: this is only a bounded wait
    assert time.monotonic() - t0 >= 2.4
    _, err = process.communicate("\n", timeout=20)
    for conn in held:
        conn.close()
    lines = err.splitlines()
    assert len(lines) == 1, err[:2000]
    assert "cannot accept connections: Too many open files" in lines[0]


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


def test_each_warning_is_written_once_a_minute_with_the_count_held_back() -> None:
    import logging

    from pegboard.web.server import OncePerMinute

    now = [0.0]
    once = OncePerMinute(lambda: now[0])
    logger = logging.getLogger("pegboard.web.test-once")
    logger.propagate = False
    seen: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    logger.addHandler(Keep())
    logger.addFilter(once)
    try:
        for n in range(1000):
            now[0] = n * 0.059  # 1,000 in 59 s
            logger.warning("refusing connections (%d so far)", n + 1)
        try:
            raise OSError(24, "Too many open files")
        except OSError:
            logger.exception("socket.accept() out of system resource")
            logger.exception("socket.accept() out of system resource")
        now[0] = 60.0
        logger.warning("refusing connections (%d so far)", 1001)
    finally:
        logger.removeFilter(once)
    assert seen == [
        "refusing connections (1 so far)",
        "cannot accept connections: Too many open files (the process's open files are "
        "used up)",
        "refusing connections (1001 so far) (999 more like it in the last minute)",
    ]


def test_every_pegboard_logger_in_the_server_is_held_to_once_a_minute(
        capsys: pytest.CaptureFixture[str]) -> None:
    import logging

    from pegboard.web.server import quiet_logs

    ours = logging.getLogger("pegboard")
    before = (list(ours.handlers), ours.propagate, ours.level)
    now = [0.0]
    try:
        quiet_logs(lambda: now[0])
        quiet_logs(lambda: now[0])  # twice: still one handler
        for n in range(100):
            now[0] = n * 0.1
            logging.getLogger("pegboard.store.index").warning("the index is damaged (%d)", n)
            logging.getLogger("pegboard.web").warning("dropping a connection")
    finally:
        ours.handlers[:] = before[0]
        ours.propagate, ours.level = before[1], before[2]
    assert capsys.readouterr().err.splitlines() == [
        "pegboard web: the index is damaged (0)", "pegboard web: dropping a connection"]


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
