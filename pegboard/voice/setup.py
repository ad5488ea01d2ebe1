"""The voice chosen by the config, opened at start when it is on (the device, ``pegboard sim
--voice``), or when a player turns audio mode on (:func:`pegboard.device.build.voice_for`).

A voice that cannot work (no espeak-ng, no player, an unknown voice, no sound device) is a
notice at start and then silence; one that fails later (the player cannot start or reports an
error, for example a sound device the service may not open) is a notice the first time. The
game never waits on it and never fails because of it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pegboard import lazy

if TYPE_CHECKING:
    from pegboard.voice import espeak, hook, speaker
else:
    espeak = lazy.module("pegboard.voice.espeak")
    hook = lazy.module("pegboard.voice.hook")
    speaker = lazy.module("pegboard.voice.speaker")

if TYPE_CHECKING:
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
