"""The voice chosen by the config, made once at start (the device, ``pegboard sim --voice``).

A voice that cannot work (no espeak-ng, no player, an unknown voice, no sound device) is a
notice at start and then silence; one that fails later (the player cannot start or reports an
error, for example a sound device the service may not open) is a notice the first time. The
game never waits on it and never fails because of it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pegboard.config import VoiceConfig
    from pegboard.hw.clock import Clock
    from pegboard.voice.hook import Transcript, VoiceHook

# The voice itself is imported when it is turned on: a silent device does not load it.


def open_voice(config: VoiceConfig, clock: Clock,
               notice: Callable[[str], None] | None = None) -> VoiceHook | None:
    """The speaking voice for ``config`` (None when it is off or cannot work: ``notice`` is
    told why)."""
    if not config.enabled:
        return None
    from pegboard.voice.espeak import EspeakVoice, voice_problem
    from pegboard.voice.hook import VoiceHook
    from pegboard.voice.speaker import Speaker

    problem = voice_problem(config)
    if problem is not None:
        if notice is not None:
            notice(problem)
        return None
    try:
        voice = EspeakVoice(config)
    except OSError as error:
        if notice is not None:
            notice(f"voice: {error}; the game goes on without a voice")
        return None
    return VoiceHook(Speaker(voice, clock, notice=notice), language=config.language)


def speech_folder(folder: Path, config: VoiceConfig) -> tuple[VoiceHook, Transcript]:
    """A voice that writes every announcement, in order, as ``folder/0001.wav`` with
    ``0001.txt`` beside it (the folder is made if missing)."""
    from pegboard.voice.hook import VoiceHook, wav_transcript

    folder.mkdir(parents=True, exist_ok=True)
    transcript = wav_transcript(folder, config)
    return VoiceHook(transcript, language=config.language), transcript
