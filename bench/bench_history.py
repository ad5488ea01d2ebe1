"""A long history: ``game list``, ``stats`` (wall and CPU) and ``export --id`` at 10 to 10,000
finished games, a device start's store open (flat in the history), and what a lost index costs
to make again (``python -m bench history``; also part of
``bench pi``)."""

from __future__ import annotations

import io
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench.bench_pi import SIZES, _cores, _median_run, _run
from pegboard.record import write
from pegboard.stats import replay_record, summary_json
from pegboard.store import Store
from pegboard.store.index import INDEX_NAME, GameIndex
from pegboard.store.index_rows import LAYOUT
from pegboard.store.logfile import encode_line
from tests.support.games import random_game

REBUILD_TARGET = 30.0
"""Seconds of CPU a lost index may cost to make again at 10,000 games (list, then stats)."""


def _history(store: Path, count: int) -> None:
    """A store of ``count`` finished games as the device leaves it: each a history file in
    the store's log format, its finish line keeping the result and the statistics summaries.
    Fifty distinct games are played and repeated under new ids; the index is then made as a
    reader makes it."""
    Store(store, owner="bench").close()
    history = store / "history"
    distinct = []
    for seed in range(50):
        game = random_game(seed)
        text = io.StringIO()
        write(text, game.header, game.events)
        records = [json.loads(line) for line in text.getvalue().splitlines()]
        note = {"layout": LAYOUT, "games": [summary_json(made) for made in
                                            replay_record(records)]}
        distinct.append((records, {"type": "result", "scores": list(game.scores),
                                   "winner": game.winner, "abandoned": False}, note))
    for number in range(count):
        records, result, note = distinct[number % len(distinct)]
        at = 1_790_000_000.0 + number * 3600
        game_id = f"{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime(at))}-{number:06x}"
        entries = [{"at": at, "id": game_id, "pegboard": "bench", "record": records[0]}]
        entries += [{"at": at + k, "record": record} for k, record in enumerate(records[1:], 1)]
        entries.append({"at": at + len(records), "finish": result, "summaries": note})
        path = history / f"{game_id}.log"
        path.write_bytes(b"".join(encode_line({"seq": seq, **entry})
                                  for seq, entry in enumerate(entries)))
    GameIndex(store).close()


def _cpu(argv: Sequence[str], env: dict[str, str]) -> float:
    """Seconds of CPU (user and system) one process used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env=env, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _start_cpu(store: Path) -> float:
    """Seconds of CPU a device start spends on the store before its first screen: opening it
    and reading the last game's seats (median of 5, after a first open that notes the newest
    game of a store written without the note)."""
    Store(store, owner="bench").close()
    times = []
    for _ in range(5):
        began = time.process_time()
        with Store(store, owner="bench") as opened:
            opened.last_players()
        times.append(time.process_time() - began)
    return sorted(times)[2]


def history() -> None:
    """``game list`` and ``stats`` at growing history sizes, and an index made again."""
    python = sys.executable
    _, bare_mb = _median_run([python, "-c", "pass"], runs=3)
    print(f"reference: python -c pass peaks at {bare_mb:.0f} MB on {_cores()}")
    with tempfile.TemporaryDirectory(dir=Path.home()) as scratch:
        for count in SIZES:
            store = Path(scratch) / f"store-{count}"
            made = time.perf_counter()
            _history(store, count)
            made = time.perf_counter() - made
            env = {**os.environ, "PEGBOARD_STORE": str(store)}
            runs = 3 if count >= 10_000 else 5
            listing, list_mb = _median_run([python, "-m", "pegboard", "game", "list"], env, runs)
            stats, stats_mb = _median_run([python, "-m", "pegboard", "stats"], env, runs)
            export_id = sorted(os.listdir(store / "history"))[count // 2][:-4]
            export, _ = _median_run([python, "-m", "pegboard", "game", "export", "--id",
                                     export_id], env, runs)
            (store / INDEX_NAME).unlink()
            cold, cold_mb = _run([python, "-m", "pegboard", "game", "list"], env)
            (store / INDEX_NAME).unlink()
            rebuild = (_cpu([python, "-m", "pegboard", "game", "list"], env)
                       + _cpu([python, "-m", "pegboard", "stats"], env))
            print(f"{count:>6} games (made in {made:.1f} s): game list {listing * 1000:5.0f} ms "
                  f"{list_mb:3.0f} MB | stats {stats * 1000:5.0f} ms {stats_mb:3.0f} MB | "
                  f"export --id {export * 1000:4.0f} ms | list with the index lost "
                  f"{cold * 1000:5.0f} ms {cold_mb:3.0f} MB")
            stats_cpu = _cpu([python, "-m", "pegboard", "stats"], env)
            print(f"{count:>6} games: stats {stats_cpu:.2f} s of CPU (target <= 2.6 s at "
                  f"10,000) | a start's store open and last game's seats "
                  f"{_start_cpu(store) * 1000:.2f} ms of CPU (flat in the history) on {_cores()}")
            print(f"{count:>6} games, index lost: game list then stats make it again in "
                  f"{rebuild:.1f} s of CPU (target <= {REBUILD_TARGET:.0f} s at 10,000) on "
                  f"{_cores()}")
            shutil.rmtree(store)
    print("targets at 10,000 games: game list <= 1 s and <= 60 MB; stats <= 60 MB at any "
          "size")


def main() -> None:
    """Print the history figures."""
    history()


if __name__ == "__main__":
    main()
