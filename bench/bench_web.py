"""The live scoreboard: entry written → page updated in a real browser, and the server's memory
with 20 event-stream clients (targets: median and p99 ≤ 250 ms; ≤ 60 MB).

``pegboard web`` runs as its own process on 127.0.0.1 with its default poll period, exactly as
the service starts it. A whole game (examples/two-player.jsonl, 144 entries) is written into
its store through the store's own ``append`` (one synced line per entry, as the device
writes). The latency of each entry runs from ``append`` returning to the moment the page in
Chromium (Debian's, driven by Playwright) has drawn it (the page stamps ``Date.now()`` on
``<body>`` after each update; both clocks are this machine's wall clock).

Memory: the server's resident set (VmRSS) with 20 clients holding ``/events`` open (HTTP
clients reading the stream as a browser's EventSource does), sampled after each of 20 more
entries, each of which every client receives.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import threading
import time
from pathlib import Path

import httpx2

from tests.support.web import CHROMIUM_ARGS, EXAMPLES, ScriptedGame, WebServer, chromium

LATENCY_TARGET_MS = 250.0
MEMORY_TARGET_MB = 60.0
CLIENTS = 20


def _lines() -> list[str]:
    return (EXAMPLES / "two-player.jsonl").read_text(encoding="utf-8").splitlines()


def latency() -> list[float]:
    """Milliseconds from each entry's append to the browser showing it."""
    from playwright.sync_api import sync_playwright

    path = chromium()
    if path is None:
        print("chromium is not installed (make test-tools): latency not measured")
        return []
    delays: list[float] = []
    with tempfile.TemporaryDirectory() as scratch:
        store = Path(scratch) / "store"
        game = ScriptedGame(store, _lines())
        with WebServer(store) as server, sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto(server.url)
            page.wait_for_selector('body[data-lines="1"]', state="attached")
            while not game.done:
                line = game.step()
                written = time.time()
                shown = page.wait_for_selector(f'body[data-lines="{line}"]', state="attached")
                assert shown is not None
                stamp = shown.get_attribute("data-updated-at")
                assert stamp is not None
                delays.append(int(stamp) - written * 1000)
            browser.close()
        game.close()
    return delays


def memory() -> tuple[float, float, int]:
    """(RSS idle MB, peak RSS MB with the clients, events each client got)."""
    with tempfile.TemporaryDirectory() as scratch:
        store = Path(scratch) / "store"
        game = ScriptedGame(store, _lines())
        game.play_to(40)
        received = [0] * CLIENTS
        stop = threading.Event()
        connected = threading.Barrier(CLIENTS + 1)
        with WebServer(store) as server:
            idle = server.rss_kib() / 1024

            def listen(index: int) -> None:
                with httpx2.Client(timeout=30) as client, client.stream(
                        "GET", server.url + "events") as stream:
                    lines = stream.iter_lines()
                    next(lines)  # the retry line: the stream is open
                    connected.wait()
                    for line in lines:
                        if line.startswith("event: game"):
                            received[index] += 1
                        if stop.is_set():
                            return

            threads = [threading.Thread(target=listen, args=(i,), daemon=True)
                       for i in range(CLIENTS)]
            for thread in threads:
                thread.start()
            connected.wait()
            peak = server.rss_kib() / 1024
            for _ in range(20):
                game.step()
                time.sleep(0.1)  # let every client read the event before the next sample
                peak = max(peak, server.rss_kib() / 1024)
            stop.set()
            game.step()  # one more event wakes every reader to see the stop
            for thread in threads:
                thread.join(timeout=5)
        game.close()
    return idle, peak, min(received)


def main() -> None:
    """Print the update latency and the server's memory, with the targets."""
    cores = os.cpu_count()
    delays = latency()
    if delays:
        ordered = sorted(delays)
        p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
        print(f"entry appended -> page updated in Chromium, {len(delays)} entries: "
              f"median {statistics.median(delays):.0f} ms, p99 {p99:.0f} ms, "
              f"max {ordered[-1]:.0f} ms (target <= {LATENCY_TARGET_MS:.0f} ms) "
              f"on {cores} cores")
    idle, peak, got = memory()
    print(f"pegboard web RSS: {idle:.1f} MB idle, {peak:.1f} MB peak with {CLIENTS} event-stream "
          f"clients over 20 entries (each client got >= {got} game events; target <= "
          f"{MEMORY_TARGET_MB:.0f} MB) on {cores} cores")


if __name__ == "__main__":
    main()
