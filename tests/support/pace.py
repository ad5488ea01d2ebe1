"""The speech queue at table pace: the real :class:`~pegboard.voice.speaker.SpeechQueue` on a
simulated clock, each announcement said for as long as its WAV lasts, and a player pressing
keys at a pace of their own (docs/voice.md, "At table pace").

:class:`TablePace` is a voice sink (what the loop's :class:`~pegboard.voice.hook.VoiceHook`
talks to) that speaks the way the device's :class:`~pegboard.voice.speaker.Speaker` thread
does, without a thread: one announcement at a time, taken from the queue as the last one
ends, a wheel word cut short by the next one and an entry taken back cut short by the undo,
by the speaker's own rules (:func:`~pegboard.voice.speaker.cuts_short`,
:func:`~pegboard.voice.speaker.taken_back`). Time moves only when the player lets it pass
(:meth:`TablePace.wait`, :meth:`TablePace.until_quiet`), so a whole game takes milliseconds.

Each announcement lasts what espeak-ng makes of it at the default voice settings: its WAV's
length, measured once and kept in ``tests/data/speech_seconds.json``
(``PEGBOARD_REGEN_GOLDEN=1`` writes the words not yet there); a sound lasts what
:mod:`pegboard.voice.earcons` makes of it.
"""

from __future__ import annotations

import json
import os
import wave
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path

from pegboard.config import VoiceConfig
from pegboard.sim.fakes import FakeClock
from pegboard.voice.acts import DEAL, Announcement, Importance
from pegboard.voice.audio import sound_of
from pegboard.voice.earcons import earcon_wav
from pegboard.voice.espeak import synthesize
from pegboard.voice.hook import Sink
from pegboard.voice.speaker import SpeechQueue, cuts_short, taken_back

SECONDS = Path(__file__).parent.parent / "data" / "speech_seconds.json"
"""Each announcement's words and how long espeak-ng takes to say them (seconds)."""

KEPT = frozenset(i for i in Importance if i >= Importance.TEACHING and i is not
                 Importance.ASKED)
"""The importances the queue must never leave unsaid: the game's facts and the teaching
voice (a wheel word, a screen's name and a sound may give way to newer ones)."""


def _wav_seconds(data: bytes) -> float:
    """A WAV's length; espeak-ng's ``--stdout`` header does not know its own length, so the
    samples are counted from the bytes (16-bit mono after a 44-byte header)."""
    with wave.open(BytesIO(data)) as wav:
        rate: int = wav.getframerate()
        width: int = wav.getsampwidth()
    return (len(data) - 44) / (rate * width)


class Durations:
    """How long each announcement takes to say (see the module)."""

    def __init__(self, path: Path = SECONDS) -> None:
        self.path = path
        self.known: dict[str, float] = (
            json.loads(path.read_text(encoding="utf-8")) if path.exists() else {})
        self.measured = 0

    def __call__(self, said: Announcement) -> float:
        sound = sound_of(said)
        if sound is not None:
            return _wav_seconds(earcon_wav(sound))
        seconds = self.known.get(said.text)
        if seconds is None:
            seconds = round(_wav_seconds(synthesize(said.text, VoiceConfig())), 3)
            self.known[said.text] = seconds
            self.measured += 1
        return seconds

    def save(self) -> None:
        """Write the table again when asked to (``PEGBOARD_REGEN_GOLDEN``) and it grew."""
        if self.measured and os.environ.get("PEGBOARD_REGEN_GOLDEN"):
            self.path.write_text(json.dumps(dict(sorted(self.known.items())), indent=0,
                                            ensure_ascii=False) + "\n", encoding="utf-8")


DURATIONS = Durations()


@dataclass(frozen=True, slots=True)
class Call:
    """One call the loop made on its sink: say, cancel (after an undo) or again."""

    what: str
    said: tuple[Announcement, ...] = ()
    entries: int = 0


@dataclass
class TablePace:
    """A voice sink speaking from the real queue on a simulated clock (see the module)."""

    seconds: Callable[[Announcement], float] = DURATIONS
    clock: FakeClock = field(default_factory=FakeClock)
    queue: SpeechQueue = field(init=False)
    made: list[Announcement] = field(default_factory=list)
    """Every announcement put on the queue, in order."""
    said: list[Announcement] = field(default_factory=list)
    """Every announcement begun, in the order said (cut short or not)."""
    cut: list[Announcement] = field(default_factory=list)
    """Announcements begun and cut short (the next wheel word, an undo)."""
    cancelled: list[Announcement] = field(default_factory=list)
    """Announcements an undo took back before they were said."""
    calls: list[Call] = field(default_factory=list)
    """The loop's calls, in order, with :attr:`keys` marking the key steps between them."""
    keys: list[tuple[int, str]] = field(default_factory=list)
    """Each key pressed: how many calls came before it, and its name ("ok", "right")."""
    waited: dict[int, float] = field(default_factory=dict)
    """For each announcement begun (by its id), how long it waited to be begun."""
    _at: dict[int, float] = field(default_factory=dict)
    pressed: list[float] = field(default_factory=list)
    """When each key was pressed (the clock's time)."""
    speaking: Announcement | None = None
    ends: float = 0.0
    talking: float = 0.0
    """Seconds spent speaking."""

    merge: bool = True
    """The queue merges what newer facts make obsolete (False: as it did before)."""
    short: bool = True
    """The queue says a count the table dealt past in its short form (False: whole)."""

    def __post_init__(self) -> None:
        self.queue = SpeechQueue(self.clock, merge=self.merge, short=self.short)
        self.began = self.clock.now()

    def elapsed(self, at: float | None = None) -> float:
        """Seconds from the table's start to ``at`` (None: now)."""
        return (self.clock.now() if at is None else at) - self.began

    # the sink
    def say(self, announcements: Sequence[Announcement]) -> None:
        if not announcements:
            return
        self.calls.append(Call("say", tuple(announcements)))
        self.made.extend(announcements)
        self._at.update((id(a), self.clock.now()) for a in announcements)
        self.queue.put(*announcements)
        if cuts_short(self.speaking, announcements):
            self._stop()
        self._next()

    def cancel(self, entries: int) -> None:
        self.calls.append(Call("cancel", entries=entries))
        before = {id(q.said) for q in self.queue.pending}
        self.queue.cancel(entries)
        after = {id(q.said) for q in self.queue.pending}
        self.cancelled.extend(a for a in self.made if id(a) in before - after)
        if taken_back(self.speaking, entries):
            self._stop()
        self._next()

    def again(self) -> None:
        self.calls.append(Call("again"))
        self.queue.again()
        self._next()

    def close(self) -> None:
        pass

    # time
    def key(self, name: str) -> None:
        """The key ``name`` is pressed now (what the loop says for it comes next)."""
        self.keys.append((len(self.calls), name))
        self.pressed.append(self.clock.now())

    def wait(self, seconds: float) -> None:
        """Let ``seconds`` pass, speaking meanwhile."""
        until = self.clock.now() + seconds
        while self.speaking is not None and self.ends <= until:
            self.clock.advance(self.ends - self.clock.now())
            self.talking += self.seconds(self.speaking)
            self.speaking = None
            self._next()
        self.clock.advance(until - self.clock.now())

    def until_quiet(self) -> float:
        """Let time pass until nothing is said or waiting; how long that took."""
        start = self.clock.now()
        while self.speaking is not None:
            self.wait(self.ends - self.clock.now())
        return self.clock.now() - start

    def _next(self) -> None:
        if self.speaking is None:
            taken = self.queue.take()
            if taken is not None:
                self.speaking = taken
                self.said.append(taken)
                for said in (taken, *taken.merged):
                    made = self._at.get(id(said), self.clock.now())  # a repeat asked: now
                    self.waited[id(said)] = self.clock.now() - made
                self.ends = self.clock.now() + self.seconds(taken)

    def _stop(self) -> None:
        assert self.speaking is not None
        self.cut.append(self.speaking)
        self.talking += self.seconds(self.speaking) - (self.ends - self.clock.now())
        self.speaking = None

    # what was lost
    def waited_for(self, said: Announcement) -> float:
        """How long ``said`` waited before it was begun (it must have been)."""
        return self.waited[id(said)]

    def longest_wait(self, importances: frozenset[Importance] = KEPT) -> float:
        """The longest an announcement of ``importances`` waited before it was begun."""
        return max((self.waited[id(a)] for a in self.said
                    if a.importance in importances), default=0.0)

    def unsaid(self, importances: frozenset[Importance] = KEPT) -> list[Announcement]:
        """The announcements of ``importances`` made and never begun, but for those an undo
        took back."""
        begun = {id(a) for a in self.heard()} | {id(a) for a in self.cancelled}
        return [a for a in self.made if a.importance in importances and id(a) not in begun]

    def heard(self) -> list[Announcement]:
        """Every announcement made and begun, in the order said: one the queue merged with
        others (the voice behind the table) as each of those it says."""
        return [part for said in self.said for part in (said.merged or (said,))]


Pace = Callable[[TablePace, str], None]
"""A player: lets time pass on the table before pressing the key named."""


def patient(table: TablePace, key: str) -> None:
    """Waits until the voice has said everything, then takes half a second to press."""
    table.until_quiet()
    table.wait(0.5)


def brisk(table: TablePace, key: str) -> None:
    """Never waits for the voice: a quarter of a second a detent, a second for any other
    key (a player who knows the game and keeps the table moving)."""
    table.wait(0.25 if key in ("right", "left") else 1.0)


def replay(table: TablePace, pace: Pace,
           seconds: Callable[[Announcement], float] = DURATIONS, *,
           merge: bool = True, short: bool = True, keys: int | None = None) -> TablePace:
    """The calls ``table`` took, made again on a new table by a player of ``pace`` (the table
    then speaks on to the end; with ``merge`` False, from a queue that merges nothing; with
    ``keys``, only the calls of that many first keys, the voice left where it is; with
    ``short`` False, every count said whole)."""
    out = TablePace(seconds, merge=merge, short=short)
    calls = table.calls
    starts = [start for start, _ in table.keys]
    _make(out, calls[:starts[0] if starts else len(calls)])  # before any key
    for at, (start, name) in enumerate(table.keys[:keys]):
        pace(out, name)
        out.key(name)
        _make(out, calls[start:starts[at + 1] if at + 1 < len(starts) else len(calls)])
    if keys is not None:
        return out
    out.until_quiet()
    DURATIONS.save()
    return out


def _make(table: TablePace, calls: Sequence[Call]) -> None:
    for call in calls:
        if call.what == "say":
            table.say(call.said)
        elif call.what == "cancel":
            table.cancel(call.entries)
        else:
            table.again()


class Both:
    """A sink telling two sinks the same: a transcript of every announcement made, and a
    table saying them at its pace."""

    def __init__(self, transcript: Sink, table: TablePace) -> None:
        self.transcript, self.table = transcript, table

    def say(self, announcements: Sequence[Announcement]) -> None:
        self.transcript.say(announcements)
        self.table.say(announcements)

    def cancel(self, entries: int) -> None:
        self.transcript.cancel(entries)
        self.table.cancel(entries)

    def again(self) -> None:
        self.transcript.again()
        self.table.again()

    def close(self) -> None:
        pass


@dataclass(frozen=True, slots=True)
class Measure:
    """One game at table pace, for a patient player and a brisk one (docs/voice.md, "At
    table pace"): the figures the docs and ``python -m bench voice`` give."""

    deals: int
    facts: float
    """Seconds of the game's own announcements a deal (wheel words, screens and sounds left
    out)."""
    speech: float
    """Seconds of everything the patient player heard a deal."""
    patient: float
    """Seconds a deal takes the patient player."""
    brisk: float
    """Seconds a deal takes the brisk player to enter (to the game's last key)."""
    lags: tuple[float, ...]
    """How far behind the table the brisk player's voice is at the end of each deal: how long
    the next deal's announcement (the result, after the last deal) waited to be begun."""
    lost: int
    """The game's announcements the brisk player never heard (the queue's rule: 0)."""
    gave_way: int
    """Words for where the brisk player was (wheel words, screens, sounds) never said."""
    heard: float
    """Seconds of everything the brisk player heard a deal."""


def measure(table: TablePace, deals: int, *, merge: bool = True, short: bool = True,
            ) -> Measure:
    """The figures of ``table`` (a patient player's game of ``deals`` deals) and of the same
    keys pressed by a brisk player (``merge``: whether the brisk player's queue merges what
    newer facts make obsolete; ``short``: whether it says a count the table dealt past in
    its short form)."""
    fast = replay(table, brisk, merge=merge, short=short)
    ends = [a for a in fast.made if a.kind == DEAL][1:] + [
        a for a in fast.made if a.kind == "result"]
    return Measure(
        deals=deals,
        facts=sum(DURATIONS(a) for a in table.made if a.importance in KEPT) / deals,
        speech=table.talking / deals,
        patient=table.elapsed() / deals,
        brisk=fast.elapsed(fast.pressed[-1] if fast.pressed else None) / deals,
        lags=tuple(fast.waited_for(a) for a in ends),
        lost=len(fast.unsaid()),
        gave_way=len(fast.unsaid(frozenset(Importance))),
        heard=fast.talking / deals,
    )
