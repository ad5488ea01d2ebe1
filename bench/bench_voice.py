"""The voice: how soon an award is heard, and what speaking costs the loop.

* **Award to first sample**: an announcement handed to the :class:`Speaker` (as the loop does
  after a step) until espeak-ng's first audio samples come out of its pipe, through the
  speaker's thread and a fresh espeak-ng process each time — the real path, with the player
  replaced by a reader that notes the first sample. Median and 90th percentile of the
  announcements of a whole game (target: median at most 150 ms).
* **Per key with the voice on**: the guide's whole game (``docs/guide.keys``) through the
  simulator, with the voice off and on (espeak-ng speaking every announcement into sox's null
  output beside the loop). The loop's own added cost is the time spent in the voice hook's
  calls per key, measured inside the loop (target: at most 0.2 ms); the wall time per key of
  both runs is printed too (it also carries whatever the speech processes take from the two
  cores).
"""

from __future__ import annotations

import io
import os
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from pegboard.app.effects import Changes, Effect
from pegboard.app.sounds import Sound
from pegboard.app.state import AppState
from pegboard.app.view import View
from pegboard.config import Config, VoiceConfig
from pegboard.device.build import open_store
from pegboard.hw.clock import MonotonicClock
from pegboard.rules.value import replace
from pegboard.sim.fakes import FakeClock
from pegboard.sim.keys import parse_script
from pegboard.sim.script import run_script
from pegboard.voice.acts import Announcement, Importance
from pegboard.voice.espeak import EspeakVoice, espeak_command
from pegboard.voice.hook import VoiceHook
from pegboard.voice.samples import guide_announcements
from pegboard.voice.speaker import Speaker
from tests.support import listening, pace

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "guide.keys"
WAV_HEADER = 44


class FirstSample:
    """A voice that runs espeak-ng as the speaking voice does and notes when its first
    samples arrive (then reads the rest, as a player would)."""

    def __init__(self, config: VoiceConfig) -> None:
        self.config = config
        self.first: list[float] = []
        self.done = threading.Semaphore(0)

    def speak(self, text: str) -> None:
        process = subprocess.Popen(espeak_command(self.config), stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(text.encode("utf-8"))
        process.stdin.close()
        stdout = process.stdout
        assert isinstance(stdout, io.BufferedReader)
        got = b""
        while len(got) <= WAV_HEADER:
            chunk = stdout.read1(4096)
            if not chunk:
                break
            got += chunk
        self.first.append(time.perf_counter())
        process.stdout.read()
        process.wait()
        self.done.release()

    def play(self, sound: Sound) -> None:
        raise AssertionError(f"the bench's announcements are words, not sounds ({sound})")

    def stop(self) -> None:
        pass


def _announcements() -> list[str]:
    """The words of every announcement of the guide's game."""
    return guide_announcements(owner="bench")


def award_to_first_sample() -> None:
    texts = _announcements()
    voice = FirstSample(VoiceConfig())
    speaker = Speaker(voice, MonotonicClock())
    delays = []
    try:
        for number, text in enumerate(texts, start=1):
            start = time.perf_counter()
            speaker.say([Announcement(text, "bench", Importance.SHOW, number)])
            voice.done.acquire()
            delays.append((voice.first[-1] - start) * 1000)
    finally:
        speaker.close()
    delays.sort()
    p90 = delays[int(len(delays) * 0.9)]
    print(f"award -> first audio sample: median {statistics.median(delays):.1f} ms, "
          f"90% {p90:.1f} ms, max {delays[-1]:.1f} ms over {len(delays)} announcements "
          "(target: median <= 150 ms)")


class TimedHook(VoiceHook):
    """The voice hook, with the time the loop spends in it added up."""

    spent = 0.0
    calls = 0

    def heard(self, state: AppState, view: View, asked: Sequence[Effect],
              changes: Changes | None = None, *, first: bool = False) -> None:
        # what the loop calls after each batch (the voice's observer)
        start = time.perf_counter()
        super().heard(state, view, asked, changes, first=first)
        self.spent += time.perf_counter() - start
        self.calls += 1

    def stepped(self, state: AppState, changes: Changes | None = None) -> None:
        start = time.perf_counter()
        super().stepped(state, changes)
        self.spent += time.perf_counter() - start
        self.calls += 1


def _game(speech: VoiceHook | None) -> tuple[float, int]:
    steps = parse_script(GUIDE.read_text(encoding="utf-8"))
    config = Config()
    if speech is not None:
        config = replace(config, voice=replace(config.voice, enabled=True))
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(Path(folder) / "store", owner="bench")
        try:
            start = time.perf_counter()
            result = run_script(steps, config, store, clock=FakeClock(), speech=speech)
            return time.perf_counter() - start, result.steps_done
        finally:
            store.close()


def per_key_cost() -> None:
    off = []
    for _ in range(3):
        seconds, keys = _game(None)
        off.append(seconds / keys * 1000)
    on = []
    hook_ms = []
    for _ in range(3):
        voice = EspeakVoice(VoiceConfig())
        voice.player = ["sox", "-q", "-t", "wav", "-", "-n"]  # speak, into sox's null output
        hook = TimedHook(Speaker(voice, MonotonicClock()))
        seconds, keys = _game(hook)
        on.append(seconds / keys * 1000)
        hook_ms.append(hook.spent / keys * 1000)
        hook.close()
    print(f"per key, the guide's game ({keys} key steps): voice off {min(off):.2f} ms, "
          f"voice on {min(on):.2f} ms (wall time, best of 3)")
    print(f"added to the loop per key by the voice hook: {min(hook_ms) * 1000:.1f} us "
          f"(median of 3 runs {statistics.median(hook_ms) * 1000:.1f} us; target <= 0.2 ms)")


PACE_GAMES = ((1, "keypad"), (25, "keypad"), (1, "encoder"), (12, "encoder"))
"""The seeded games docs/voice.md's figures at table pace are of (10-12 deals each)."""


def at_table_pace() -> None:
    """Each game played by ear at a patient pace through the real queue on a simulated clock
    (each announcement as long as its espeak-ng WAV), then its keys pressed again by a brisk
    player, in both styles (tests/support/pace.py): seconds of speech a deal, how long a deal
    takes each player, and how far behind the table the brisk player's voice is at the end of
    a deal."""
    print("at table pace (simulated clock; seconds a deal; lag: how long after the key the "
          "voice begins the next deal, at the end of the 1st, 5th and last deal)")
    for seed, kit in PACE_GAMES:
        for style in ("full", "terse"):
            listener, table, _ = listening.at_table_pace(seed, kit, style)
            deals = listening.deals_of(listener)
            m = pace.measure(table, deals)
            was = pace.measure(table, deals, merge=False)
            whole = pace.measure(table, deals, short=False)
            print(f"  seed {seed:2} {kit:7} {style:5}: {deals} deals; facts {m.facts:.1f} s, "
                  f"all speech {m.speech:.1f} s patient, {m.heard:.1f} s brisk "
                  f"({whole.heard:.1f} s with every count whole); a deal takes "
                  f"{m.patient:.1f} s patient, {m.brisk:.1f} s brisk; brisk lag {_lags(m)} "
                  f"(every count whole: {_lags(whole)}; a queue that merges nothing: "
                  f"{_lags(was)}); brisk lost {m.lost} facts ({whole.lost} with every count "
                  f"whole) and {m.gave_way} words for where they were")


def _lags(m: pace.Measure) -> str:
    return f"{m.lags[0]:.0f} / {m.lags[4]:.0f} / {m.lags[-1]:.0f} s"


def main() -> None:
    print(f"{os.cpu_count()} cores")
    at_table_pace()
    award_to_first_sample()
    per_key_cost()


if __name__ == "__main__":
    main()
