"""Durable event latency: how long ``Store.append`` takes to put one event safely on disk.

Each append writes one checksummed line and waits for ``fdatasync``; this is the delay between
a player's entry and the screen acknowledging it. Also the time to reopen a store holding a
long game (start-up after a power cut) and to read a history of finished games.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

from pegboard.store import Store, StoreReader

EVENTS = 1000
HEADER = {"type": "game", "players": ["Ann", "Ben"], "rules": {"target": 121}}
EVENT = {"type": "play", "player": 1, "card": "5C"}


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    """Print append latency (median, 99th percentile), reopen and history times."""
    with tempfile.TemporaryDirectory(prefix="pegboard-bench-", dir=Path.home()) as folder:
        path = Path(folder) / "store"
        latencies: list[float] = []
        with Store(path, owner="bench") as store:
            for _ in range(49):
                store.new_game(HEADER)
                for _ in range(150):
                    store.append(EVENT)
                store.finish({"scores": [121, 100], "winner": 0})
            store.new_game(HEADER)
            for _ in range(EVENTS):
                start = time.perf_counter()
                store.append(EVENT)
                latencies.append(time.perf_counter() - start)
        start = time.perf_counter()
        with Store(path, owner="bench") as store:
            game = store.current()
        reopen = time.perf_counter() - start
        start = time.perf_counter()
        history = StoreReader(path).history()
        read_history = time.perf_counter() - start
    assert game is not None and len(history) == 49
    median = statistics.median(latencies) * 1000
    p99 = _percentile(latencies, 0.99) * 1000
    print(
        f"durable append ({EVENTS} events, fdatasync each, {os.cpu_count()} cores): "
        f"median {median:.2f} ms, p99 {p99:.2f} ms, max {max(latencies) * 1000:.2f} ms"
    )
    print(f"reopen a store whose game has {game.events} events: {reopen * 1000:.1f} ms")
    print(f"read a history of {len(history)} games of 150 events: {read_history * 1000:.1f} ms")


if __name__ == "__main__":
    main()
