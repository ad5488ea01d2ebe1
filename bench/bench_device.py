"""The device's responsiveness: input event to finished frame, start-up, memory.

* Event to frame: keys are pressed on the simulator's mock pins (gpiozero callbacks, the
  queue, the gesture rules, ``step``, the store's fsync, ``render``) and the wall-clock time
  from the pin change to the new frame is taken for every key that changed the screen.
  Targets: median 5 ms or less.
* Start-up: ``pegboard sim --demo --print`` in a fresh process, to its first frame on stdout.
  Target: 1 s or less.
* Memory: the peak resident set of a simulator process playing a whole scripted game.
  Target: 80 MB or less.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image

from pegboard.app.view import View
from pegboard.config import Config
from pegboard.sim.autoplay import full_game_script
from pegboard.sim.fakes import FakeClock, RecordingDisplay
from pegboard.sim.keys import KeyStep, expand
from pegboard.sim.session import Simulator
from pegboard.store import Store


def event_to_frame(steps: list[KeyStep]) -> list[float]:
    """Seconds from each key's first pin change to its frame (keys that drew one)."""
    latencies: list[float] = []
    started = 0.0
    drawn = False

    def frame(view: View, image: Image.Image) -> None:
        nonlocal drawn
        if not drawn:
            latencies.append(time.perf_counter() - started)
            drawn = True

    with tempfile.TemporaryDirectory() as scratch:
        store = Store(Path(scratch), owner="bench")
        sim = Simulator(Config(), store, RecordingDisplay(), clock=FakeClock(), on_frame=frame)
        try:
            sim.start()
            for step in expand(steps):
                if step.key == "wait" or step.hold:
                    sim.press(step)  # not a single event: not timed
                    continue
                drawn = False
                started = time.perf_counter()
                sim.press(step)
        finally:
            sim.close()
            store.close()
    return latencies


def start_to_first_frame(runs: int = 3) -> list[float]:
    """Seconds from starting ``pegboard sim --demo --print`` to its first frame."""
    times: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "pegboard", "sim", "--demo", "--print"],
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("-- frame 1"):
                times.append(time.perf_counter() - start)
                break
        proc.stdout.read()
        proc.wait()
    return times


def peak_memory_mb(script: str) -> float:
    """Peak RSS (MB) of a simulator process playing ``script`` headless."""
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "game.txt"
        path.write_text(script, encoding="utf-8")
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        subprocess.run([sys.executable, "-m", "pegboard", "sim", "--script", str(path)],
                       check=True, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(before, after) / 1024  # ru_maxrss is in kB on Linux


def main() -> None:
    """Print the figures with the machine's core count."""
    cores = os.cpu_count()
    script, _ = full_game_script(seed=1)
    steps = script_steps(script)
    latencies = sorted(event_to_frame(steps))
    median = statistics.median(latencies) * 1000
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
    print(f"input event -> finished frame ({len(latencies)} frames of a scripted game): "
          f"median {median:.2f} ms, p99 {p99:.2f} ms (target median <= 5 ms) on {cores} cores")
    starts = start_to_first_frame()
    print(f"process start -> first frame: median {statistics.median(starts):.3f} s "
          f"(of {len(starts)}; target <= 1 s) on {cores} cores")
    rss = peak_memory_mb(script)
    print(f"peak memory of the simulator playing a whole game: {rss:.1f} MB "
          f"(target <= 80 MB) on {cores} cores")


def script_steps(script: str) -> list[KeyStep]:
    """The key steps of a script."""
    from pegboard.sim.keys import parse_script

    return parse_script(script)


if __name__ == "__main__":
    main()
