"""``pegboard web`` as a real process on loopback, and raw HTTP against it: what the
hostile-network tests share (``tests/test_hostile_web*.py``)."""

from __future__ import annotations

import contextlib
import re
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path

from tests.support.waiting import LIVENESS_S, line_from
from tests.support.web import EXAMPLES, ScriptedGame

LINES = (EXAMPLES / "two-player.jsonl").read_text(encoding="utf-8").splitlines()
def crafted(text: str) -> bytes:
    """A store log line carrying ``text`` with the right checksum (as no Pegboard writes it:
    the store refuses such content; only a reader's defences are tested with it)."""
    data = text.encode("utf-8", "surrogatepass")
    return b"%08x %s\n" % (zlib.crc32(data), data)


REQUEST_S = 5.0
"""The deadline for a whole request (``pegboard.web.server_conn.Limits.request_s``)."""

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
        line = line_from(self.process.stdout, "pegboard web's address", process=self.process)
        assert "http://" in line, line + log.read_text()
        self.url = line.split()[3]
        self.port = int(self.url.rsplit(":", 1)[1].strip("/"))

    def stop(self, sig: int = signal.SIGTERM) -> tuple[int, str]:
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return self.process.returncode, self.log.read_text(errors="replace")


def ask(port: int, request: bytes, *, source: str = "127.0.0.1", to: str = "127.0.0.1",
        ) -> bytes:
    """Send ``request`` and read the whole answer (the server closes or keep-alive ends)."""
    with socket.create_connection((to, port), timeout=LIVENESS_S,
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


def stream_from(port: int, source: str) -> tuple[socket.socket, bytes]:
    """Open ``/events`` from ``source`` and read until its first ``retry:`` line."""
    conn = socket.create_connection(("127.0.0.1", port), timeout=LIVENESS_S,
                                    source_address=(source, 0))
    conn.sendall(b"GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
    seen = b""
    while b"retry: " not in seen or not re.search(rb"retry: [0-9]+\n", seen):
        chunk = conn.recv(4096)
        assert chunk, seen
        seen += chunk
    return conn, seen


def attack(port: int, sources: list[tuple[str, int]]) -> list[socket.socket]:
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
        until = time.monotonic() + LIVENESS_S
        while waiting and time.monotonic() < until:
            for key, _ in watch.select(timeout=1):
                ready = key.fileobj
                assert isinstance(ready, socket.socket)
                watch.unregister(ready)
                waiting -= 1
                with contextlib.suppress(OSError):  # refused at once: as it should be
                    ready.send(b"GET / HTTP/1.1\r\nHost: localhost\r\nUser-Agent: half")
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


def scoreboard_store(tmp_path: Path) -> Path:
    """A store (``tmp_path/store``) holding the example two-player game three entries in,
    closed: the game the hostile tests' scoreboard follows."""
    folder = tmp_path / "store"
    game = ScriptedGame(folder, LINES)
    game.play_to(3)
    game.close()
    return folder


def half_sent_closed_at(port: int, *, sources: tuple[str, str] = ("127.0.0.1", "127.0.0.1")
                        ) -> list[float]:
    """Two half-sent requests to ``port``, one silent after its first lines and one dripping a
    header byte every half second: the seconds after the first was made at which the server
    closed each, in the order they were made (a list shorter than 2: one was never closed
    within the 120 s that only bound the wait).

    The clock starts before either connection is made: the server's deadline for each starts
    later (when it takes the connection), so however long a busy machine takes to make the
    second, neither can be seen closed before its deadline."""
    started = time.monotonic()
    silent = socket.create_connection(("127.0.0.1", port), timeout=LIVENESS_S,
                                      source_address=(sources[0], 0))
    silent.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n")
    drip = socket.create_connection(("127.0.0.1", port), timeout=LIVENESS_S,
                                    source_address=(sources[1], 0))
    made = [silent, drip]
    open_ = set(made)
    closed_at: dict[socket.socket, float] = {}
    header = iter(b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + b"a" * 200)
    with selectors.DefaultSelector() as watch:
        for conn in made:
            watch.register(conn, selectors.EVENT_READ)
        # 120 s only bounds the wait: how soon after its deadline a busy machine closes is the
        # benchmarks' business; that neither is closed before it, nor left open, is the rule.
        while open_ and time.monotonic() - started < 120:
            for key, _ in watch.select(timeout=0.5):  # a byte every half second
                assert isinstance(key.fileobj, socket.socket)
                conn = key.fileobj
                try:
                    data = conn.recv(100)
                except ConnectionResetError:
                    data = b""
                assert data == b"", data  # closed, never answered
                closed_at[conn] = time.monotonic() - started
                watch.unregister(conn)
                open_.discard(conn)
            if drip in open_:
                with contextlib.suppress(OSError):  # closed meanwhile: seen on the next turn
                    drip.send(bytes([next(header)]))
    for conn in made:
        conn.close()
    return [closed_at[conn] for conn in made if conn in closed_at]
