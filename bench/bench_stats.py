"""Statistics speed: replaying a history of whole games through the engine.

A household that plays every evening collects a few hundred games a year; ``pegboard stats``
replays all of them. This prints the time per game (card-by-card two- and four-player games)
and for a 500-game history.
"""

from __future__ import annotations

import io
import os
import time

from pegboard.record import write
from pegboard.stats import compute
from tests.support.games import random_game


def _records(count: int, players: int) -> list[tuple[str, str]]:
    out = []
    for seed in range(count):
        game = random_game(seed, players, mode="cards")
        text = io.StringIO()
        write(text, game.header, game.events)
        out.append((f"seed {seed}", text.getvalue()))
    return out


def main() -> None:
    """Print replay times for 2- and 4-player histories."""
    print(f"cores: {os.cpu_count()}")
    for players in (2, 4):
        records = _records(100, players)
        start = time.perf_counter()
        stats = compute(records)
        elapsed = time.perf_counter() - start
        per_game = elapsed / len(stats.games)
        print(
            f"{players} players: {len(stats.games)} games replayed in {elapsed:.2f} s "
            f"({per_game * 1000:.1f} ms a game; a 500-game history about "
            f"{per_game * 500:.1f} s)"
        )


if __name__ == "__main__":
    main()
