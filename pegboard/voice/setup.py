"""The voice chosen by the config, made once at start (the device, ``pegboard sim --voice``).

A voice that cannot work (no espeak-ng, no player, an unknown voice, no sound device) is a
notice at start and then silence; one that fails later (the player cannot start or reports an
error, for example a sound device the service may not open) is a notice the first time. The
game never waits on it and never fails because of it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pegboard import lazy
from pegboard.rules.value import replace

if TYPE_CHECKING:
    from pegboard.voice import espeak, hook, speaker
else:
    espeak = lazy.module("pegboard.voice.espeak")
    hook = lazy.module("pegboard.voice.hook")
    speaker = lazy.module("pegboard.voice.speaker")

if TYPE_CHECKING:
    from pegboard.app.effects import Changes, Effect
    from pegboard.app.state import AppState
    from pegboard.app.view import View
    from pegboard.config import VoiceConfig
    from pegboard.hw.clock import Clock
    from pegboard.voice.hook import Transcript, VoiceHook

# The voice itself is imported when it is turned on: a silent device does not load it.


def open_voice(config: VoiceConfig, clock: Clock,
               notice: Callable[[str], None] | None = None) -> hook.VoiceHook | None:
    """The speaking voice for ``config`` (None when it is off or cannot work: ``notice`` is
    told why). Audio mode (``audio``) speaks whether or not ``enabled`` is set."""
    if not (config.enabled or config.audio):
        return None
    problem = espeak.voice_problem(config)
    if problem is not None:
        if notice is not None:
            notice(problem)
        return None
    try:
        voice = espeak.EspeakVoice(config)
    except OSError as error:
        if notice is not None:
            notice(f"voice: {error}; the game goes on without a voice")
        return None
    return hook.VoiceHook(speaker.Speaker(voice, clock, notice=notice), language=config.language)


def speech_folder(folder: Path, config: VoiceConfig) -> tuple[VoiceHook, Transcript]:
    """A voice that writes every announcement, in order, as ``folder/0001.wav`` with
    ``0001.txt`` beside it (the folder is made if missing)."""
    folder.mkdir(parents=True, exist_ok=True)
    transcript = hook.wav_transcript(folder, config)
    return hook.VoiceHook(transcript, language=config.language), transcript


class OnDemand:
    """The voice of a device started with it off: nothing of the voice is loaded until a
    player turns audio mode on (GO held first, or the setup row); then the voice is opened
    (by ``opener``: :func:`open_voice`) and speaks from there on, saying that audio mode
    is on and the screen."""

    def __init__(self, opener: Callable[[], VoiceHook | None]) -> None:
        self.opener = opener
        self.hook: VoiceHook | None = None
        self._tried = False
        self._last: AppState | None = None

    def begin(self, state: AppState) -> None:
        self._last = state

    def stepped(self, state: AppState, changes: Changes | None = None) -> None:
        self._last = state

    def heard(self, state: AppState, view: View, asked: Sequence[Effect],
              changes: Changes | None = None, *, first: bool = False) -> None:
        """Forward to the voice once there is one; open it when audio mode comes on."""
        if self.hook is None and state.audio and not self._tried:
            self._tried = True  # a voice that cannot work is said once, not every key
            self.hook = self.opener()
            if self.hook is not None and self._last is not None:
                self.hook.begin(self._last)
        if self.hook is not None:
            self.hook.heard(state, view, asked, changes, first=first)
        else:
            self._last = state

    def read(self, view: View) -> None:
        if self.hook is not None:
            self.hook.read(view)

    def again(self) -> None:
        if self.hook is not None:
            self.hook.again()

    @property
    def problem(self) -> str | None:
        return self.hook.problem if self.hook is not None else None

    def close(self) -> None:
        if self.hook is not None:
            self.hook.close()


def voice_for(config: VoiceConfig, clock: Clock,
              notice: Callable[[str], None] | None = None) -> VoiceHook | OnDemand:
    """The device's voice: open now when ``[voice]`` turns it (or audio mode) on, else one
    that opens when a player turns audio mode on."""
    if config.enabled or config.audio:
        hook = open_voice(config, clock, notice)
        if hook is not None:
            return hook
        return OnDemand(lambda: None)
    return OnDemand(lambda: open_voice(replace(config, audio=True), clock, notice))
