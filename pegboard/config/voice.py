"""``[voice]``: whether the device says awards and counts aloud, and how (espeak-ng, ALSA)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pegboard.config.values import boolean, int_in, matching, meta, one_of

_voice_name = matching(r"[A-Za-z0-9_+-]{1,40}")
_alsa_name = matching(r"[A-Za-z0-9_:,=.-]{1,64}")


def _alsa_device(value: Any) -> str:
    """``""`` (the default output) or an ALSA device name."""
    return "" if value == "" else _alsa_name(value)


@dataclass(frozen=True)
class VoiceConfig:
    """Speech: whether the device says awards and counts aloud, and how (espeak-ng)."""

    enabled: bool = field(default=False, metadata=meta(boolean, "true or false"))
    voice: str = field(default="en-gb", metadata=meta(
        _voice_name, 'an espeak-ng voice name such as "en-gb" or "en-us" (espeak-ng --voices '
        "lists them)"))
    language: str = field(default="en", metadata=meta(
        one_of("en"), '"en" (the languages whose phrases are written)'))
    rate: int = field(default=160, metadata=meta(int_in(80, 450),
                                                  "words a minute, a whole number 80-450"))
    volume: int = field(default=100, metadata=meta(int_in(0, 200), "a whole number 0-200"))
    device: str = field(default="", metadata=meta(
        _alsa_device, '"" (the default sound output) or an ALSA device name such as '
        '"plughw:CARD=MAX98357A,DEV=0" or "hw:1,0"'))
    i2s_amp: bool = field(default=False, metadata=meta(boolean, "true or false"))
    audio: bool = field(default=False, metadata=meta(boolean, "true or false"))
    """Audio mode at power-on, for a player who cannot see the screen (docs/accessibility.md):
    every card laid, turn, score with the standing, wheel move, menu row and page is said.
    It speaks whether or not ``enabled`` is set; holding GO as the first key after power-on
    turns it on without the config, the setup row "Audio" on or off."""
    style: str = field(default="full", metadata=meta(
        one_of("full", "terse"), '"full" or "terse" (a count said by its total alone)'))
    """How much is said: "full" says each count phrase by phrase as players count aloud;
    "terse" the same facts in the fewest words (a count by its total), as a screen reader's
    terse mode does; the setup row "Speech" (in audio mode) changes it."""
