"""The standings page at scale: open pages, a result every 30 s, entries at 2 a second.

A real mosquitto on loopback and ``pegboard club serve`` as a process; the boards are one
MQTT client publishing 10 boards' live states in turn (an entry at a board: 2 a second in
all) and a genuine result every 30 s. Each open page is what the page's script does, from an
address of its own: its event stream open, one ``/api/page`` fetched (on a new connection,
as a browser after the 5 s keep-alive) for each ``standings`` note, one at a time; a
``tables`` note read from the stream alone. Measured:

- the service's CPU over the run (utime + stime of its process, as % of one core);
- the service's CPU a page update: its CPU over the run by the ``/api/page`` answers it
  gave (what a Pi's budget is worked out from);
- result → page redrawn: from the result's publish to each page's ``/api/page`` answer
  read whole with it (every page, every result): the median page and the last page;
- a keep-alive request's round trip (``/api/status`` 50 times on one connection, and
  ``/api/game`` on the board's scoreboard, ``pegboard web``): the 44 ms of Nagle's algorithm
  against the client's delayed acknowledgement, gone.

Goal (issue 34): median page ≤ 1 s after the result, the service ≤ 10 % of a core, with
200 pages; 20 pages for a Pi's budget.

    python -m bench pages           # 200 pages for 65 s, 20 pages for 35 s (about 2 min)
    python -m bench pages --long    # each for 10 minutes (20 results)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from pegboard.club.topics import result_topic, topic
from tests.support.club import Standings
from tests.support.hostile import Board, scoreboard_store
from tests.support.mosquitto import Broker
from tests.test_club_broker import card

RESULT_EVERY_S = 30.0
ENTRIES_PER_S = 2.0
BOARDS = 10
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime


class Pages:
    """``count`` open pages on the service at ``port`` (see the module)."""

    def __init__(self, port: int, count: int) -> None:
        self.port = port
        self.count = count
        self.done: dict[str, list[float]] = {}  # result id -> when each page had it drawn
        self.fetches = 0
        self.failures = 0
        self.ready = 0

    async def fetch(self, source: str) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port,
                                                       local_addr=(source, 0))
        try:
            writer.write(b"GET /api/page HTTP/1.1\r\nHost: localhost\r\n"
                         b"Connection: close\r\n\r\n")
            head = await reader.readuntil(b"\r\n\r\n")
            length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))  # type: ignore[union-attr]
            await reader.readexactly(length)
            self.fetches += 1
        finally:
            writer.close()

    async def page(self, n: int) -> None:
        source = f"127.0.{20 + n // 250}.{1 + n % 250}"
        wanted = asyncio.Event()
        news: list[str] = []

        async def draw() -> None:
            while True:
                await wanted.wait()
                wanted.clear()
                ids, news[:] = list(news), []
                try:
                    await self.fetch(source)
                except (OSError, asyncio.IncompleteReadError):
                    self.failures += 1
                    continue
                now = time.perf_counter()
                for result in ids:
                    self.done.setdefault(result, []).append(now)

        drawer = asyncio.create_task(draw())
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port,
                                                           local_addr=(source, 0))
            writer.write(b"GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
            await reader.readuntil(b"\r\n\r\n")
            self.ready += 1
            kind = b""
            while line := await reader.readline():
                if line.startswith(b"event: "):
                    kind = line[7:].strip()
                elif line.startswith(b"data: ") and kind == b"standings":
                    said = json.loads(line[6:])
                    news.append(str(said.get("id", "")))
                    wanted.set()
                elif line.startswith(b"data: "):
                    json.loads(line[6:])  # a tables note: drawn from the note itself
            self.failures += 1  # the stream ended
        finally:
            drawer.cancel()

    def run(self, stop: threading.Event) -> None:
        async def main() -> None:
            tasks = [asyncio.create_task(self.page(n)) for n in range(self.count)]
            while not stop.is_set():
                await asyncio.sleep(0.2)  # the benchmark's own pace, not a synchronisation
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        asyncio.run(main())


def keep_alive_ms(port: int, path: str = "/api/status") -> float:
    """The median round trip of a keep-alive request for ``path``, in ms."""
    took = []
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        data = b""
        for _ in range(50):
            start = time.perf_counter()
            conn.sendall(f"GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
            while b"\r\n\r\n" not in data:
                data += conn.recv(65536)
            head, _, data = data.partition(b"\r\n\r\n")
            length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))  # type: ignore[union-attr]
            while len(data) < length:
                data += conn.recv(65536)
            data = data[length:]
            took.append((time.perf_counter() - start) * 1000)
    return statistics.median(took)


def one_run(home: Path, pages: int, seconds: float, first_seed: int) -> None:
    with Broker(home / f"broker-{pages}") as broker:
        service = Standings(home / f"r{pages}.db", broker.address, club="c1")
        port = int(service.url.rstrip("/").rsplit(":", 1)[1])
        boards = mqtt.Client(CallbackAPIVersion.VERSION2)
        boards.connect("127.0.0.1", broker.port)
        boards.loop_start()
        stop = threading.Event()
        crowd = Pages(port, pages)
        thread = threading.Thread(target=crowd.run, args=(stop,), daemon=True)
        sent: dict[str, float] = {}
        try:
            thread.start()
            while crowd.ready < pages:  # every page open before the clock starts
                time.sleep(0.1)
            time.sleep(2.0)  # the first draws done
            cpu0, start = cpu_seconds(service.process.pid), time.perf_counter()
            fetched0 = crowd.fetches  # the pages' first loads are not the run's
            entries = 0
            next_result = start + 5.0
            seed = first_seed
            while (now := time.perf_counter()) < start + seconds:
                if now >= next_result:
                    made = card(seed, "board-1")
                    sent[str(made["id"])] = time.perf_counter()
                    boards.publish(result_topic("c1", "board-1", f"g{seed}"),
                                   json.dumps(made), qos=1, retain=True)
                    seed += 1
                    next_result += RESULT_EVERY_S
                board = f"board-{1 + entries % BOARDS}"
                boards.publish(topic("c1", board, "state"), json.dumps(
                    {"club": "c1", "board": board, "game": "g", "scores": [entries % 121, 0],
                     "shown": [entries % 121, 0], "phase": "play"}), qos=0, retain=True)
                entries += 1
                time.sleep(1.0 / ENTRIES_PER_S)
            used = cpu_seconds(service.process.pid) - cpu0
            elapsed = time.perf_counter() - start
            ms = keep_alive_ms(port)
        finally:
            stop.set()
            thread.join(30)
            boards.loop_stop()
            boards.disconnect()
            service.stop()
    waits = [t - sent[r] for r, times in crowd.done.items() if r in sent for t in times]
    lasts = [max(times) - sent[r] for r, times in crowd.done.items() if r in sent]
    drawn = min((len(crowd.done.get(r, [])) for r in sent), default=0)
    print(f"  {pages} pages, {elapsed:.0f} s, {len(sent)} results, {entries} entries: "
          f"service CPU {100 * used / elapsed:.1f} % of a core (goal ≤ 10 %)")
    updates = crowd.fetches - fetched0
    if updates:
        print(f"    service CPU a page update (all the service's CPU over the run, entries and "
              f"results included, by the {updates} /api/page answered in it): "
              f"{1000 * used / updates:.2f} ms")
    if waits:
        print(f"    result → page redrawn: median {statistics.median(waits):.2f} s, "
              f"last page {max(lasts):.2f} s (goal: median ≤ 1 s); every result drawn by "
              f"{drawn} of {pages} pages; {crowd.fetches} fetches, "
              f"{crowd.failures} failed")
    print(f"    keep-alive round trip: median {ms:.2f} ms")


def main() -> None:
    long = "--long" in sys.argv
    plan = [(200, 600.0), (20, 600.0)] if long else [(200, 65.0), (20, 35.0)]
    with tempfile.TemporaryDirectory(prefix="pegboard-bench-pages-") as folder:
        for n, (pages, seconds) in enumerate(plan):
            with contextlib.suppress(KeyboardInterrupt):
                one_run(Path(folder), pages, seconds, 100 * (n + 1))
        board = Board(scoreboard_store(Path(folder)), Path(folder) / "web.log")
        try:
            print(f"  the board's scoreboard (pegboard web): keep-alive round trip median "
                  f"{keep_alive_ms(board.port, '/api/game'):.2f} ms")
        finally:
            board.stop()
    load = os.getloadavg()
    print(f"  {os.cpu_count()} cores; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
