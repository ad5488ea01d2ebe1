"""What a Raspberry Pi player feels: start-up, shell commands, a long history, each key.

Every figure is printed with a reference measured in the same run, on the same interpreter,
so the ratio holds on a slower machine (a Pi Zero 2 W runs Python about 15 times slower than
one core of a current desktop; the ratios carry over, the milliseconds do not):

* Process time of ``pegboard score``, ``peg``, ``advise`` and ``replay``, against a bare
  ``python -c pass`` (target for ``score``: at most 4 times).
* Start to first frame of the simulator: ``pegboard sim`` on a real pseudo-terminal,
  restoring a game in progress, from starting the process to the first frame drawn on it
  (the splash with the restored scores; target: 120 ms on this machine).
* ``pegboard game list`` and ``pegboard stats`` on stores of 10, 1,000 and 10,000 finished
  games: time and peak memory of the process (targets at 10,000: ``list`` within 1 s and
  60 MB; ``stats`` within 60 MB, the same at every size). The stores are made as the device
  makes them (each game indexed as it is finished); the first read after the index is lost,
  which reads every file, is shown too.
* Itemised scoring (``score_hand``) against a plain brute-force count written here (target:
  at least as fast).
* CPU per key, from the key's pin change to its finished frame, over a whole scripted game
  on the simulator (target: median 0.5 ms or less).
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path

from pegboard.config import Config
from pegboard.record import write
from pegboard.rules.cards import DECK, Card
from pegboard.rules.show import score_hand
from pegboard.sim.autoplay import full_game_script
from pegboard.sim.fakes import FakeClock, RecordingDisplay
from pegboard.sim.keys import expand, parse_script
from pegboard.sim.script import run_script
from pegboard.sim.session import Simulator
from pegboard.store import Store
from tests.support.games import random_game
from tests.support.terminal import Terminal

RUNS = 7
SIZES = (10, 1_000, 10_000)
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "two-player.jsonl"
GUIDE = Path(__file__).resolve().parent.parent / "docs" / "guide.keys"


def _cores() -> str:
    return f"{os.cpu_count()} cores"


# --- processes ----------------------------------------------------------------------------


_TIMER = """
import os, resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
took = time.perf_counter() - start
print(done.returncode, took, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""
"""Runs a command from a small process and reports its wall time and peak memory: started
from this (large) process, a child's peak would count this one's pages before its exec."""


def _run(argv: Sequence[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall seconds and peak resident MB of one process (its output thrown away)."""
    done = subprocess.run([sys.executable, "-c", _TIMER, *argv], env=env, check=True,
                          capture_output=True, text=True)
    status, took, peak_kb = done.stdout.split()
    if status != "0":
        raise RuntimeError(f"{' '.join(argv)} exited {status}")
    return float(took), int(peak_kb) / 1024


def _median_run(argv: Sequence[str], env: dict[str, str] | None = None,
                runs: int = RUNS) -> tuple[float, float]:
    results = [_run(argv, env) for _ in range(runs)]
    return (statistics.median(t for t, _ in results), max(m for _, m in results))


def commands() -> None:
    """Process time of the shell commands against a bare interpreter."""
    python = sys.executable
    bare, bare_mb = _median_run([python, "-c", "pass"])
    print(f"reference: python -c pass  {bare * 1000:.0f} ms, {bare_mb:.0f} MB "
          f"(median of {RUNS}) on {_cores()}")
    with tempfile.TemporaryDirectory() as scratch:
        record = Path(scratch) / "game.jsonl"
        if EXAMPLE.exists():
            shutil.copy(EXAMPLE, record)
        else:
            game = random_game(1)
            with record.open("w", encoding="utf-8") as out:
                write(out, game.header, game.events)
        cases = {
            "score": ["score", "5H", "5S", "5C", "JD", "--starter", "5D"],
            "peg": ["peg", "7H", "8S", "7D", "AC", "2S"],
            "advise": ["advise", "--dealer", "5H", "5S", "6C", "JD", "4H", "KS"],
            "replay": ["replay", str(record)],
        }
        for name, args in cases.items():
            took, peak = _median_run([python, "-m", "pegboard", *args])
            target = " (target <= 4x)" if name == "score" else ""
            print(f"pegboard {name:<7} {took * 1000:6.0f} ms = {took / bare:4.1f}x bare{target}, "
                  f"{peak:.0f} MB = {peak / bare_mb:.1f}x bare")


# --- start to first frame -----------------------------------------------------------------


def _first_frame(store: Path) -> float:
    """Seconds from starting ``pegboard sim`` on a pseudo-terminal to its first frame."""
    start = time.perf_counter()
    sim = Terminal(["-m", "pegboard", "sim", "--store", str(store)], term="xterm-256color")
    seen = b""
    try:
        while True:
            chunk = sim.more(30, seen)
            if not chunk:
                raise RuntimeError(f"the simulator ended before its first frame: {seen!r}")
            seen += chunk
            if "⠀".encode() in seen or "⣿".encode() in seen or b"\xe2\xa0" in seen:
                return time.perf_counter() - start  # braille cells: the OLED's pixels
    finally:
        os.kill(sim.pid, 9)
        os.waitpid(sim.pid, 0)
        os.close(sim.fd)


def first_frame() -> None:
    """Start-up of the simulator, restoring a game in progress, against a bare interpreter."""
    bare, _ = _median_run([sys.executable, "-c", "pass"])
    with tempfile.TemporaryDirectory() as scratch:
        store = Path(scratch) / "store"
        guide = GUIDE.read_text(encoding="utf-8").splitlines()[:20]
        with Store(store, owner="bench") as opened:
            run_script(parse_script("\n".join(guide)), Config(), opened)
        times = [_first_frame(store) for _ in range(RUNS)]
    took = statistics.median(times)
    print(f"pegboard sim: start -> first frame {took * 1000:.0f} ms (median of {RUNS}; "
          f"target <= 120 ms) = {took / bare:.1f}x python -c pass ({bare * 1000:.0f} ms) "
          f"on {_cores()}")


# --- itemised scoring ---------------------------------------------------------------------


def brute_force_total(hand: Sequence[Card], starter: Card, crib: bool = False) -> int:
    """A plain count of a show hand: every subset for fifteens, every pair, every subset
    for runs (longest first), flush and nobs. The reference the itemised scorer is held to.
    """
    cards = [*hand, starter]
    ranks = [int(card.rank) for card in cards]
    pips = [min(rank, 10) for rank in ranks]
    total = 0
    for size in range(2, 6):
        for combo in combinations(range(5), size):
            if sum(pips[i] for i in combo) == 15:
                total += 2
    for a, b in combinations(range(5), 2):
        if ranks[a] == ranks[b]:
            total += 2
    for size in (5, 4, 3):
        found = 0
        for combo in combinations(range(5), size):
            chosen = sorted(ranks[i] for i in combo)
            if all(chosen[k + 1] - chosen[k] == 1 for k in range(size - 1)):
                found += 1
        if found:
            total += found * size
            break
    suits = {card.suit for card in hand}
    if len(suits) == 1:
        if starter.suit in suits:
            total += 5
        elif not crib:
            total += 4
    total += sum(1 for card in hand if int(card.rank) == 11 and card.suit == starter.suit)
    return total


def scoring() -> None:
    """Itemised scoring against the brute-force count, on the same random deals."""
    rnd = random.Random(7)
    deals = [rnd.sample(DECK, 5) for _ in range(20_000)]
    assert all(score_hand(d[:4], d[4]).total == brute_force_total(d[:4], d[4])
               for d in deals[:2_000])

    def rate(count: object) -> float:
        best = 0.0
        for _ in range(3):
            start = time.perf_counter()
            for deal in deals:
                count(deal[:4], deal[4])  # type: ignore[operator]
            best = max(best, len(deals) / (time.perf_counter() - start))
        return best

    brute, itemised = rate(brute_force_total), rate(score_hand)
    print(f"itemised score_hand {itemised:,.0f} hands/s vs brute-force total "
          f"{brute:,.0f} hands/s: {itemised / brute:.2f}x (target >= 1x; best of 3) on "
          f"{_cores()}")


# --- per key ------------------------------------------------------------------------------


def _per_key_cpu(script: str) -> list[float]:
    """This thread's CPU time for each key of ``script``, pin change to finished frame."""
    cpu: list[float] = []
    with tempfile.TemporaryDirectory() as scratch:
        store = Store(Path(scratch), owner="bench")
        sim = Simulator(Config(), store, RecordingDisplay(), clock=FakeClock())
        try:
            sim.start()
            for step in expand(parse_script(script)):
                if step.key == "wait" or step.hold:
                    sim.press(step)
                    continue
                start = time.thread_time()
                sim.press(step)
                cpu.append(time.thread_time() - start)
        finally:
            sim.close()
            store.close()
    return sorted(cpu)


def per_key() -> None:
    """CPU per key over a whole scripted game: the run with the lowest median of three (the
    others were slowed by something else on the machine, as timeit takes its best)."""
    script, _ = full_game_script(seed=1)
    runs = [_per_key_cpu(script) for _ in range(3)]
    medians = [statistics.median(cpu) * 1000 for cpu in runs]
    cpu = runs[medians.index(min(medians))]
    print(f"CPU per key, pin change -> finished frame ({len(cpu)} keys of a whole game): "
          f"median {min(medians):.2f} ms (runs: {', '.join(f'{m:.2f}' for m in medians)}), "
          f"p90 {cpu[int(len(cpu) * 0.9)] * 1000:.2f} ms (target median <= 0.5 ms) on "
          f"{_cores()}")


def _compile() -> None:
    """Compile the package's bytecode, as pip does when it installs Pegboard on a Pi (a
    checkout run with PYTHONDONTWRITEBYTECODE would otherwise compile every module on every
    start, which no installed device does)."""
    import compileall

    package = Path(__file__).resolve().parent.parent / "pegboard"
    compileall.compile_dir(str(package), quiet=1)
    print("bytecode compiled first, as pip does on install")


def main() -> None:
    """Print every figure with its reference."""
    _compile()
    commands()
    first_frame()
    scoring()
    per_key()
    from bench.bench_history import history  # beside the rest: python -m bench history

    history()


if __name__ == "__main__":
    main()
