"""The voice as the loop sees it: after each step, after an undo, on "Say it again" and when
a player holds GO to hear the screen.

:class:`VoiceHook` joins the pure :class:`~pegboard.voice.announce.Announcer` to a sink: the
:class:`~pegboard.voice.speaker.Speaker` thread on the device and in ``pegboard sim --voice``,
or a :class:`Transcript` that keeps every announcement in order (scripted runs, tests).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Protocol

from pegboard.app.effects import (
    AudioMode,
    Changes,
    Earcon,
    Effect,
    FactsEntered,
    SayScore,
)
from pegboard.app.sounds import Sound
from pegboard.app.state import AppState, Reading
from pegboard.app.suit_facts import entered_words
from pegboard.app.view import View
from pegboard.config import VoiceConfig
from pegboard.rules.facts import Counted
from pegboard.voice.acts import DEAL, SCORE, Announcement, Importance, deal_words
from pegboard.voice.announce import Announcer
from pegboard.voice.audio import EARCON, AudioScreen, earcon, score_words, sound_of
from pegboard.voice.espeak import WavFolder
from pegboard.voice.phrases import read_view, speakable


class Sink(Protocol):
    """Where announcements go."""

    def say(self, announcements: Sequence[Announcement]) -> None:
        """Say these (without waiting for them to be said)."""

    def cancel(self, entries: int) -> None:
        """Drop what belongs to entries past the first ``entries``."""

    def again(self) -> None:
        """Say the last announcement again."""

    def close(self) -> None:
        """Finish: release the engine."""


class VoiceHook:
    """Announcements out of app states, into a sink."""

    def __init__(self, sink: Sink, *, language: str = "en") -> None:
        self.sink = sink
        self.announcer = Announcer(language)
        self.screen = AudioScreen()

    def begin(self, state: AppState) -> None:
        """What ``state`` already shows counts as said (power-on, a resumed game)."""
        self.announcer.begin(state)

    def heard(self, state: AppState, view: View, asked: Sequence[Effect],
              changes: Changes | None = None, *, first: bool = False) -> None:
        """One batch of keys (``changes``: the reports it added and withdrew), with audio
        mode's part: the keys' sounds, the facts, then the screen's words
        (:mod:`pegboard.voice.audio`);
        audio mode turned on or off is said, and "say the score" answered. Without audio
        mode this is :meth:`stepped` and the pegging coach's line as the play screen shows
        it (a long one is said from its page)."""
        self.announcer.audio = state.audio
        self.announcer.terse = self.screen.terse = state.terse
        if first:
            self.begin(state)
            self.screen.begin(view)
            if state.audio:
                self.sink.say((self.screen.screen(view),))
            return
        out = [earcon(effect.sound) for effect in asked if isinstance(effect, Earcon)]
        heard = self.announcer.heard(state, changes)
        if heard.undone is not None:
            self.sink.cancel(heard.undone)
        out.extend(heard.said)
        if state.audio:  # a card a held key entered at once: its suit facts, in words
            out.extend(Announcement(speakable(entered_words(effect.card, effect.facts)),
                                    "entered", Importance.SCREEN, self._entries(state))
                       for effect in asked if isinstance(effect, FactsEntered))
        turned = next((effect for effect in asked if isinstance(effect, AudioMode)), None)
        if turned is not None:
            out.append(Announcement(f"Audio {'on' if turned.on else 'off'}", "audio",
                                    Importance.ASKED))
            if turned.on:
                out.append(self.screen.screen(view))
        elif state.audio:
            sounds = [effect.sound for effect in asked if isinstance(effect, Earcon)]
            saved = changes is not None and bool(changes.added)
            undone = changes is not None and bool(changes.withdrawn) and not changes.added
            redone = saved and changes is not None and bool(changes.withdrawn)
            deal = next((said for said in heard.said if said.kind == DEAL), None)
            dealt = deal is not None
            screen = self.screen.heard(view, sounds, facts=bool(heard.said), saved=saved,
                                       entry=self._entries(state),
                                       voiced=self.announcer.voiced, undone=undone,
                                       redone=redone, dealt=dealt,
                                       counted=_counted(state, heard.said))
            if deal is not None and any(said.kind == DEAL for said in screen):
                # the cut's page says who deals and why: the deal's own announcement, its
                # number first ("Deal 1. The cut. ... P1 deals: low card"), each said once
                out = [said for said in out if said.kind != DEAL]
                number = deal.about[0]
                assert isinstance(number, int)
                screen = [replace(said, text=f"{deal_words(number)}. {said.text}")
                          if said.kind == DEAL
                          else said for said in screen]
            out.extend(screen)
        else:  # the voice without audio mode: the coach's line the screen shows, said once
            out.extend(self.screen.coach(view, self._entries(state), paged=True))
        self.screen.begin(view)
        if any(isinstance(effect, SayScore) for effect in asked):
            out.append(Announcement(score_words(state), SCORE, Importance.ASKED))
        if out:
            self.sink.say(out)

    @staticmethod
    def _entries(state: AppState) -> int:
        return 0 if state.session is None else len(state.session.events)

    def stepped(self, state: AppState, changes: Changes | None = None) -> None:
        """A batch made ``state``, adding and withdrawing the reports of ``changes``: say what
        it brought, or drop what an undo took back."""
        self.announcer.terse = state.terse
        heard = self.announcer.heard(state, changes)
        if heard.undone is not None:
            self.sink.cancel(heard.undone)
        if heard.said:
            self.sink.say(heard.said)

    def read(self, view: View) -> None:
        """Read the screen aloud (holding GO)."""
        self.sink.say((Announcement(read_view(view), "screen", Importance.ASKED),))

    def again(self) -> None:
        """MENU, "Say it again"."""
        self.sink.again()

    @property
    def problem(self) -> str | None:
        """What keeps the voice from being heard now (None: nothing known), for a screen to
        show; the speaker has already said it once through its notice."""
        problem = getattr(self.sink, "problem", None)
        return problem if isinstance(problem, str) else None

    def close(self) -> None:
        """Release the sink (its children ended)."""
        self.sink.close()


def _counted(state: AppState, said: Sequence[Announcement]) -> bool:
    """Whether the last of ``said`` counts the hand or crib of the page on screen (its owner
    and what it is, as the engine's facts name them): the page then needs no name. After
    anything else (the result), the page says what it is."""
    screen = state.screen
    count = screen.pages[0].count if isinstance(screen, Reading) and screen.pages else None
    if count is None or not said:
        return False
    kind = Counted.CRIB.value if count.crib else Counted.HAND.value
    return said[-1].kind == kind and said[-1].about[:1] == (count.player,)


class Transcript:
    """Keeps every announcement in the order made; with ``voice`` set, each is also said
    through it at once (a WAV folder writes its numbered files as they come)."""

    def __init__(self, voice: _Speaks | None = None) -> None:
        self.said: list[Announcement] = []
        self.causes: list[str] = []
        """For each announcement, the key step that brought it (:attr:`cause` then)."""
        self.cause = "start"
        """What is being done now: the simulator names each key step before pressing it."""
        self.voice = voice
        self._standing: list[Announcement] = []  # what "say it again" may repeat

    def say(self, announcements: Sequence[Announcement]) -> None:
        for said in announcements:
            self.said.append(said)
            self.causes.append(self.cause)
            if said.importance is not Importance.ASKED and said.kind != EARCON:
                self._standing.append(said)
            if self.voice is None:
                continue
            sound = sound_of(said)
            if sound is None:
                self.voice.speak(said.text)
            else:
                self.voice.play(sound)

    def cancel(self, entries: int) -> None:
        # Said is said: the transcript keeps it, but it is no longer the one to repeat.
        self._standing = [said for said in self._standing if said.entry <= entries]

    def again(self) -> None:
        if self._standing:
            last = self._standing[-1]
            self.say((Announcement(last.text, last.kind, Importance.ASKED, last.entry),))

    def close(self) -> None:
        pass

    def texts(self) -> list[str]:
        """The words of every announcement, in order."""
        return [said.text for said in self.said]

    def lines(self) -> list[str]:
        """``transcript.txt``: one announcement a line, after the key step that caused it."""
        return [f"{cause}\t{said.text}" for cause, said in zip(self.causes, self.said,
                                                                strict=True)]


class _Speaks(Protocol):
    def speak(self, text: str) -> None: ...

    def play(self, sound: Sound) -> None: ...


def wav_transcript(folder: Path, config: VoiceConfig) -> Transcript:
    """A transcript writing ``folder/0001.wav`` and ``0001.txt`` onwards."""
    return Transcript(WavFolder(folder, config))
