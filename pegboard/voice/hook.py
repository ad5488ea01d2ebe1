"""The voice as the loop sees it: after each step, after an undo, on "Say it again" and when
a player holds GO to hear the screen.

:class:`VoiceHook` joins the pure :class:`~pegboard.voice.announce.Announcer` to a sink: the
:class:`~pegboard.voice.speaker.Speaker` thread on the device and in ``pegboard sim --voice``,
or a :class:`Transcript` that keeps every announcement in order (scripted runs, tests).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from pegboard.app.state import AppState
from pegboard.app.view import View
from pegboard.config import VoiceConfig
from pegboard.voice.announce import Announcement, Announcer, Importance
from pegboard.voice.espeak import WavFolder
from pegboard.voice.phrases import read_view


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

    def begin(self, state: AppState) -> None:
        """What ``state`` already shows counts as said (power-on, a resumed game)."""
        self.announcer.begin(state)

    def stepped(self, state: AppState) -> None:
        """A step made ``state``: say what it brought, or drop what an undo took back."""
        heard = self.announcer.heard(state)
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


class Transcript:
    """Keeps every announcement in the order made; with ``voice`` set, each is also said
    through it at once (a WAV folder writes its numbered files as they come)."""

    def __init__(self, voice: _Speaks | None = None) -> None:
        self.said: list[Announcement] = []
        self.voice = voice
        self._standing: list[Announcement] = []  # what "say it again" may repeat

    def say(self, announcements: Sequence[Announcement]) -> None:
        for said in announcements:
            self.said.append(said)
            if said.importance is not Importance.ASKED:
                self._standing.append(said)
            if self.voice is not None:
                self.voice.speak(said.text)

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


class _Speaks(Protocol):
    def speak(self, text: str) -> None: ...


def wav_transcript(folder: Path, config: VoiceConfig) -> Transcript:
    """A transcript writing ``folder/0001.wav`` and ``0001.txt`` onwards."""
    return Transcript(WavFolder(folder, config))
