"""``[voice]``: whether the device says awards and counts aloud, and how (espeak-ng, ALSA)."""

from __future__ import annotations

from typing import Any, ClassVar

from pegboard.config.values import boolean, int_in, matching, meta, one_of
from pegboard.rules.value import Value

_voice_name = matching(r"[A-Za-z0-9_+-]{1,40}")
_alsa_name = matching(r"[A-Za-z0-9_:,=.-]{1,64}")


def _alsa_device(value: Any) -> str:
    """``""`` (the default output) or an ALSA device name."""
    return "" if value == "" else _alsa_name(value)


class VoiceConfig(Value):
    """Speech: whether the device says awards and counts aloud, and how (espeak-ng)."""

    __slots__ = (
        "audio",
        "device",
        "enabled",
        "i2s_amp",
        "language",
        "rate",
        "style",
        "voice",
        "volume",
    )
    __match_args__ = ("enabled", "voice", "language", "rate", "volume", "device", "i2s_amp",
                      "audio", "style")

    enabled: bool
    voice: str
    language: str
    rate: int
    volume: int
    device: str
    i2s_amp: bool
    audio: bool
    """Audio mode at power-on, for a player who cannot see the screen (docs/accessibility.md):
    every card laid, turn, score with the standing, wheel move, menu row and page is said.
    It speaks whether or not ``enabled`` is set; holding GO as the first key after power-on
    turns it on without the config, the setup row "Audio" on or off."""
    style: str
    """How much is said: "full" says each count phrase by phrase as players count aloud;
    "terse" the same facts in the fewest words (a count by its total), as a screen reader's
    terse mode does; the setup row "Speech" (in audio mode) changes it."""

    KEYS: ClassVar[dict[str, dict[str, Any]]] = {
        "enabled": meta(boolean, "true or false"),
        "voice": meta(
            _voice_name, 'an espeak-ng voice name such as "en-gb" or "en-us" (espeak-ng --voices '
            "lists them)"),
        "language": meta(
            one_of("en"), '"en" (the languages whose phrases are written)'),
        "rate": meta(int_in(80, 450),
                     "words a minute, a whole number 80-450"),
        "volume": meta(int_in(0, 200), "a whole number 0-200"),
        "device": meta(
            _alsa_device, '"" (the default sound output) or an ALSA device name such as '
            '"plughw:CARD=MAX98357A,DEV=0" or "hw:1,0"'),
        "i2s_amp": meta(boolean, "true or false"),
        "audio": meta(boolean, "true or false"),
        "style": meta(
            one_of("full", "terse"), '"full" or "terse" (a count said by its total alone)'),
    }
    """Each key's check and what it allows (:func:`pegboard.config.values.meta`), in
    the order of the fields."""

    def __init__(
        self,
        enabled: bool = False,
        voice: str = "en-gb",
        language: str = "en",
        rate: int = 160,
        volume: int = 100,
        device: str = "",
        i2s_amp: bool = False,
        audio: bool = False,
        style: str = "full",
    ) -> None:
        setter = object.__setattr__
        setter(self, "enabled", enabled)
        setter(self, "voice", voice)
        setter(self, "language", language)
        setter(self, "rate", rate)
        setter(self, "volume", volume)
        setter(self, "device", device)
        setter(self, "i2s_amp", i2s_amp)
        setter(self, "audio", audio)
        setter(self, "style", style)
