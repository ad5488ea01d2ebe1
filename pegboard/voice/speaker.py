"""Speech beside the loop: a queue with its rules, and a thread that speaks from it.

The loop must never wait for a voice, so it only puts announcements on a
:class:`SpeechQueue` (a lock and a list: microseconds) and a :class:`Speaker` thread says them
one after another. The queue's rules:

* **kept**: an announcement of the game (a card laid, a go, a score, a count, a penalty, the
  result, the teaching voice's words) is said, every one, in the order made, however long it
  waits and whatever comes after it;
* **replace**: only the words for where the player is may give way: an unsaid wheel word
  (:attr:`~Importance.WHEEL`) to anything newer but a sound or words asked for, and an
  unsaid screen's name (:attr:`~Importance.SCREEN`) to a newer screen's, brought by a later
  step (what one step brings is said whole); the next wheel word also cuts short the one
  being said (the knob's words never queue up behind each other); a sound is never replaced;
* **cancel**: an entry taken back drops what is queued for it and for any later entry, and
  stops it if it is being said;
* **merge**: when the table is ahead of the voice (a later key's facts wait behind
  those about to be said), the play's facts waiting one after another (cards laid, goes,
  whose turn it is, a card's points, a go's or the last card's point; the stale words and
  sounds for where the player was between them skipped) are said as one sentence, without
  what the newer ones make obsolete: a card's count once a later card is said, whose turn
  it was once a later card or turn is, a standing once a later one of the same deal
  waits (each deal's last standing is said), a go the same player's one for the go says,
  and in a game of two the name of a card's player right after the other player's card
  (:func:`~pegboard.voice.acts.merged`). Every
  card, go, point, count and result is still said, in order; what one key brought is never
  merged (a player who waits for the voice hears each announcement as made). An undo stops
  a merged sentence only when it takes back the first entry it says;
* **short**: when the table has dealt again while a show count of the deal before still
  waits (the next deal's announcement waits behind it), the count is said in its short form,
  the total and the names of what made it ("Ben: twelve, fifteens and a double run"), with
  its standing; every count is still said, and a player who waits for the voice hears each
  whole;
* **next**: the answer to "say the score" is said as soon as the announcement being said
  ends, ahead of everything waiting (a player who asks for the score wants it now, not after
  the facts the table is ahead of); every one of those is still said after it, and a newer
  answer replaces an unsaid older one;
* "Say it again" repeats the last announcement made that still stands (an undo takes
  back what its entries brought, so the one before is repeated); words asked for again
  while still waiting (a storm of "say it again" or "say the score") wait once;
* **bounded**: at most :data:`MOST_WAITING` sounds, words for where the player is and words
  asked for wait; past it the oldest of the least importance of them is dropped (the game's
  own announcements are as many as its entries: they are never dropped so).

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
from typing import TYPE_CHECKING, Protocol

from pegboard.app.sounds import Sound
from pegboard.voice.acts import (
    DEAL,
    PLAY_KINDS,
    SCORE,
    Announcement,
    Importance,
    briefly,
    merged,
)
from pegboard.voice.audio import sound_of

if TYPE_CHECKING:
    from pegboard.hw.clock import Clock

log = logging.getLogger(__name__)

KEPT = 16
"""How many announcements are remembered for "Say it again" after undos."""

MOST_WAITING = 64
"""The most sounds, wheel words, screen names and words asked for waiting at once: past it,
the oldest of the least importance goes (a storm of keys cannot grow the queue)."""

REPLACEABLE = frozenset({Importance.WHEEL, Importance.SCREEN})
"""The words that give way to newer ones of their kind: where the player is, not what
happened."""

_WHERE = frozenset({Importance.CUE, Importance.WHEEL, Importance.SCREEN})
"""Words and sounds for where the player was: the play's facts waiting after them are merged
past them."""

_BOUNDED = frozenset({Importance.CUE, Importance.WHEEL, Importance.SCREEN, Importance.ASKED})
"""What the bound may drop: many keys bring them, and none is a fact of the game."""


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

    def __init__(self, clock: Clock, *, merge: bool = True, short: bool = True) -> None:
        self.clock = clock
        self.merge = merge
        """Merge what newer facts make obsolete (False: every announcement said as made,
        the queue before merging, kept to measure against)."""
        self.short = short
        """Say a count the table dealt past in its short form (False: whole, as before; kept
        to measure against)."""
        self.pending: list[Queued] = []
        self._made: list[Announcement] = []  # the latest few, for "say it again"
        self._steps = 0

    @property
    def last(self) -> Announcement | None:
        """The last announcement made that still stands (None: nothing to repeat)."""
        return self._made[-1] if self._made else None

    def put(self, *announcements: Announcement) -> None:
        """Queue what one step brought, in order, dropping the unsaid words for where the
        player was that it replaces (see the module)."""
        self._steps += 1
        for said in announcements:
            self._put(said, self._steps)

    def _put(self, said: Announcement, step: int) -> None:
        if said.importance is Importance.ASKED:  # the same words asked again: said once
            self.pending = [q for q in self.pending if q.said.importance is not Importance.ASKED
                            or q.said.text != said.text]
        elif said.importance is not Importance.CUE:
            # a screen reached replaces the screen before it; anything that happens, the
            # wheel words before it
            gone = REPLACEABLE if said.importance is Importance.SCREEN else {Importance.WHEEL}
            self.pending = [q for q in self.pending
                            if q.step == step or q.said.importance not in gone]
        queued = Queued(said, self.clock.now(), step)
        if said.kind == SCORE and said.importance is Importance.ASKED:
            # asked for now: next, after the sounds of the key that asked (an older answer
            # not yet said is out of date)
            sounds = [q for q in self.pending
                      if q.step == step and q.said.importance is Importance.CUE]
            rest = [q for q in self.pending if q.said.kind != SCORE
                    and not any(q is sound for sound in sounds)]
            self.pending = [*sounds, queued, *rest]
        else:
            self.pending.append(queued)
        bounded = [q for q in self.pending if q.said.importance in _BOUNDED]
        if len(bounded) > MOST_WAITING:
            least = min(q.said.importance for q in bounded)
            self.pending.remove(next(q for q in bounded if q.said.importance == least))
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
        """The next announcement to say now: when the table is ahead of the voice, the
        play's facts waiting one after another said as one, without what a newer one makes
        obsolete (see the module)."""
        if not self.pending:
            return None
        first = self.pending.pop(0)
        if not self.merge:
            return first.said
        if self.short and first.said.short and any(q.said.kind == DEAL
                                                   for q in self.pending):
            # the table has dealt again: a count of the deal before in its short form
            first = Queued(briefly(first.said), first.at, first.step)
        if first.said.parts is None:
            return first.said
        run = [first]
        if first.said.kind in PLAY_KINDS:
            found: list[int] = []
            for at, waiting in enumerate(q.said for q in self.pending):
                if waiting.importance in _WHERE:  # stale words for where the player was
                    continue
                if waiting.parts is None or waiting.kind not in PLAY_KINDS:
                    break
                found.append(at)
            # merged only past what one key brought, which is said whole
            if any(self.pending[at].step != first.step for at in found):
                run += [self.pending[at] for at in found]
                self.pending = [q for at, q in enumerate(self.pending) if at not in found]
        # a standing gives way to a newer one of the same deal: the deal's last is said
        deal = next((at for at, q in enumerate(self.pending) if q.said.kind == DEAL),
                    len(self.pending))
        boards = [q.step for q in self.pending[:deal] if q.said.parts is not None
                  and q.said.parts.board]
        return merged([q.said for q in run], [q.step for q in run],
                      max(boards) if boards else None)

    def texts(self) -> list[str]:
        """The words waiting, in order (for tests and the simulator's status)."""
        return [q.said.text for q in self.pending]


def cuts_short(current: Announcement | None, newer: Sequence[Announcement]) -> bool:
    """Whether ``newer`` stops ``current`` while it is being said: a wheel word is cut short
    by the next wheel word (the knob's words never queue up behind each other)."""
    return current is not None and current.importance is Importance.WHEEL and any(
        said.importance is Importance.WHEEL for said in newer)


def taken_back(current: Announcement | None, entries: int) -> bool:
    """Whether an undo leaving ``entries`` in force stops ``current`` while it is said: it
    belongs to an entry taken back (words a player asked for are said out)."""
    return current is not None and current.entry > entries and (
        current.importance is not Importance.ASKED)


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

    def __init__(self, voice: Voice, clock: Clock, *,
                 notice: Callable[[str], None] | None = None) -> None:
        self.voice = voice
        self.queue = SpeechQueue(clock)
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
        if cuts_short(current, announcements):
            self.voice.stop()  # the next detent's word cuts this one short

    def cancel(self, entries: int) -> None:
        """Entries past the first ``entries`` were taken back (stops them mid-word too)."""
        with self._lock:
            self.queue.cancel(entries)
            current = self._current
        if taken_back(current, entries):
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
