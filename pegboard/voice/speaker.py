"""Speech beside the loop: a queue with its rules, and a thread that speaks from it.

The loop must never wait for a voice, so it only puts announcements on a
:class:`SpeechQueue` (a lock and a list: microseconds) and a :class:`Speaker` thread says them
one after another. The queue's rules:

* **replace**: a newer announcement drops every unsaid one of lower importance that an earlier
  step brought (the hand's count goes before a pegging award nobody had time to hear); what
  one step brings is said whole (the last card's point and the counts the same entry made),
  audio mode's sounds are never dropped so, and a wheel word is dropped only by the next
  wheel word, which also cuts it short if it is being said (the knob's words never queue up
  behind it);
* **cancel**: an entry taken back drops what is queued for it and for any later entry, and
  stops it if it is being said;
* **stale**: an announcement still unsaid ``stale_s`` seconds after it was made is dropped
  (a long queue after a fast spell of entries would otherwise talk about the past);
* "Say it again" repeats the last announcement made that still stands (an undo takes
  back what its entries brought, so the one before is repeated); words asked for again
  while still waiting (a storm of "say it again" or "say the score") wait once;
* **bounded**: at most :data:`MOST_WAITING` wait; past it the oldest of the least importance
  is dropped.

Time comes from an injected clock, so the rules are tested without sleeping.

A voice that fails (a player that cannot start, no sound device) is said once: one call of
``notice`` (else one line in the log) per different problem, however many announcements fail
the same way, and the game goes on (:attr:`Speaker.problem` keeps the latest for a screen).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from pegboard.app.effects import Sound
from pegboard.hw.clock import Clock
from pegboard.voice.acts import Announcement, Importance
from pegboard.voice.audio import sound_of

log = logging.getLogger(__name__)

STALE_S = 12.0
"""How long an announcement may wait to be said before it is of no use."""


KEPT = 16
"""How many announcements are remembered for "Say it again" after undos."""

MOST_WAITING = 64
"""The most announcements waiting at once: past it, the oldest of the least importance goes
(a storm of keys cannot grow the queue, whatever the rules above keep)."""


@dataclass(frozen=True, slots=True)
class Queued:
    """An announcement, when it was made and the step (the call of :meth:`SpeechQueue.put`)
    that brought it."""

    said: Announcement
    at: float
    step: int = 0


class SpeechQueue:
    """The announcements waiting to be said, under the rules in the module doc (not locked:
    :class:`Speaker` holds the lock)."""

    def __init__(self, clock: Clock, *, stale_s: float = STALE_S) -> None:
        self.clock = clock
        self.stale_s = stale_s
        self.pending: list[Queued] = []
        self._made: list[Announcement] = []  # the latest few, for "say it again"
        self._steps = 0

    @property
    def last(self) -> Announcement | None:
        """The last announcement made that still stands (None: nothing to repeat)."""
        return self._made[-1] if self._made else None

    def put(self, *announcements: Announcement) -> None:
        """Queue what one step brought, in order, dropping unsaid announcements of lower
        importance that earlier steps brought."""
        self._steps += 1
        for said in announcements:
            self._put(said, self._steps)

    def _put(self, said: Announcement, step: int) -> None:
        if said.importance is Importance.WHEEL:
            self.pending = [q for q in self.pending if q.said.importance is not Importance.WHEEL]
        elif said.importance is Importance.ASKED:  # the same words asked again: said once
            self.pending = [q for q in self.pending if q.said.importance is not Importance.ASKED
                            or q.said.text != said.text]
        else:
            self.pending = [q for q in self.pending if q.said.importance >= said.importance
                            or q.said.importance is Importance.CUE or q.step == step]
        self.pending.append(Queued(said, self.clock.now(), step))
        if len(self.pending) > MOST_WAITING:
            least = min(q.said.importance for q in self.pending)
            self.pending.remove(next(q for q in self.pending if q.said.importance == least))
        if said.importance not in (Importance.ASKED, Importance.CUE):
            self._made = [*self._made[-(KEPT - 1):], said]

    def cancel(self, entries: int) -> None:
        """Entries past the first ``entries`` were taken back: forget what they brought."""
        self.pending = [q for q in self.pending if q.said.entry <= entries
                        or q.said.importance is Importance.ASKED]
        self._made = [made for made in self._made if made.entry <= entries]

    def again(self) -> bool:
        """Queue the last announcement once more; False when there is none."""
        if self.last is None:
            return False
        self.put(replace(self.last, importance=Importance.ASKED))
        return True

    def take(self) -> Announcement | None:
        """The next announcement to say now (stale ones are dropped on the way)."""
        now = self.clock.now()
        while self.pending:
            queued = self.pending.pop(0)
            if now - queued.at <= self.stale_s:
                return queued.said
        return None

    def texts(self) -> list[str]:
        """The words waiting, in order (for tests and the simulator's status)."""
        return [q.said.text for q in self.pending]


class Voice(Protocol):
    """What a speaker needs from a speech engine."""

    def speak(self, text: str) -> None:
        """Say ``text``, returning when it has been said (or stopped)."""

    def play(self, sound: Sound) -> None:
        """Play one of audio mode's short sounds, returning when it has been played."""

    def stop(self) -> None:
        """Cut short what is being said now (from another thread)."""


class Speaker:
    """A thread saying what a :class:`SpeechQueue` holds, through ``voice``."""

    def __init__(self, voice: Voice, clock: Clock, *, stale_s: float = STALE_S,
                 notice: Callable[[str], None] | None = None) -> None:
        self.voice = voice
        self.queue = SpeechQueue(clock, stale_s=stale_s)
        self.notice = notice
        self._lock = threading.Condition()
        self._current: Announcement | None = None
        self._closed = False
        self.spoken = 0
        self.failed = 0
        self.problem: str | None = None
        self._told: set[str] = set()
        self._thread = threading.Thread(target=self._run, name="pegboard-voice", daemon=True)
        self._thread.start()

    def say(self, announcements: Sequence[Announcement]) -> None:
        """Queue announcements (returns at once)."""
        if not announcements:
            return
        with self._lock:
            self.queue.put(*announcements)
            current = self._current
            self._lock.notify()
        if current is not None and current.importance is Importance.WHEEL and any(
                said.importance is Importance.WHEEL for said in announcements):
            self.voice.stop()  # the next detent's word cuts this one short

    def cancel(self, entries: int) -> None:
        """Entries past the first ``entries`` were taken back (stops them mid-word too)."""
        with self._lock:
            self.queue.cancel(entries)
            current = self._current
        if current is not None and current.entry > entries and (
                current.importance is not Importance.ASKED):
            self.voice.stop()

    def again(self) -> None:
        """Say the last announcement again."""
        with self._lock:
            if self.queue.again():
                self._lock.notify()

    def idle(self, timeout: float | None = None) -> bool:
        """Wait until nothing is queued or being said (True), or ``timeout`` passes."""
        with self._lock:
            return self._lock.wait_for(lambda: not self.queue.pending and self._current is None,
                                       timeout)

    def close(self) -> None:
        """Stop speaking and end the thread (the voice ends its children within its grace:
        this returns in well under a second)."""
        with self._lock:
            self._closed = True
            self.queue.pending.clear()
            self._lock.notify_all()
        self.voice.stop()
        self._thread.join(timeout=5)
        if self._thread.is_alive():
            log.warning("voice: the speaking thread did not end within 5 s")

    def _failed(self, error: OSError) -> None:
        self.failed += 1
        message = f"voice: {error}; the game goes on"
        self.problem = message
        if message in self._told:
            return
        self._told.add(message)
        if self.notice is not None:  # the device's notice writes the journal itself
            self.notice(message)
        else:
            log.warning("%s", message)

    def _run(self) -> None:
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._closed or bool(self.queue.pending))
                if self._closed:
                    return
                said = self.queue.take()
                self._current = said
            if said is not None:
                try:
                    sound = sound_of(said)
                    if sound is None:
                        self.voice.speak(said.text)
                    else:
                        self.voice.play(sound)
                    self.spoken += 1
                except OSError as error:  # no player, no sound device: said once, go on
                    self._failed(error)
            with self._lock:
                self._current = None
                self._lock.notify_all()
