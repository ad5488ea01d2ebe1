"""Game engine speed: replaying whole recorded games, one entry, an undo, a state snapshot.

Games come from the seeded generator in :mod:`tests.support.games` (every card entered), so
the figures are repeatable. Undo steps back one node of the history, and a new game one entry
on costs one table copy, so both cost the same at any length.
"""

from __future__ import annotations

import os
import statistics
import time

from pegboard.rules.game import Game
from tests.support.games import RandomGame, random_game


def _replay(rg: RandomGame) -> Game:
    game = Game.from_header(rg.header)
    for event in rg.events:
        game.apply(event)
    return game


def main() -> None:
    """Print replay, apply, undo and snapshot times."""
    print(f"cores: {os.cpu_count()}")
    for players, options, label in (
        (2, {}, "two players"), (3, {}, "three players"), (4, {}, "four, partners"),
        (2, {"five_card": True}, "five-card 61"),
    ):
        games = [random_game(seed, players, **options) for seed in range(60)]  # type: ignore[arg-type]
        times = []
        for rg in games:
            start = time.perf_counter()
            _replay(rg)
            times.append(time.perf_counter() - start)
        entries = statistics.mean(len(rg.events) for rg in games)
        print(
            f"replay a whole game, {label}: median {statistics.median(times) * 1000:.2f} ms, "
            f"max {max(times) * 1000:.2f} ms ({entries:.0f} entries on average)"
        )
    rg = random_game(1, 2)
    game = _replay(rg)
    start = time.perf_counter()
    rounds = 2000
    for _ in range(rounds):
        event = game.undo()
        game.apply(event)
    per = (time.perf_counter() - start) / rounds
    print(f"undo + re-apply of the last entry: {per * 1e6:.0f} µs")
    event = game.pop()
    start = time.perf_counter()
    for _ in range(rounds):
        game.after(event)  # a new game and its report; `game` stays as it is
    per = (time.perf_counter() - start) / rounds
    print(f"a new game one entry on (after): {per * 1e6:.0f} µs")
    game.push(event)
    start = time.perf_counter()
    for _ in range(rounds):
        _ = game._node.table.snapshot()  # a fresh snapshot (game.state keeps the first)
    print(f"state snapshot: {(time.perf_counter() - start) / rounds * 1e6:.0f} µs")
