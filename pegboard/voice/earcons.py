"""Audio mode's short sounds, made here as WAV (16-bit mono, 22,050 Hz, as espeak-ng's): no
files to ship, the same bytes every time.

* a **click** for each detent or move: 15 ms of a 2 kHz tone, falling away at once;
* the tone of a **key taken**: 60 ms at 880 Hz;
* the tone of a **key refused**: 150 ms at 220 Hz, low and longer, unlike either.

Each starts and ends at zero (a short fade), so the speaker does not pop.
"""

from __future__ import annotations

import io
import math
import struct
import wave
from functools import cache

from pegboard.app.sounds import Sound

RATE = 22_050
"""Samples a second (espeak-ng's own rate, so one player takes both)."""

_SHAPES = {Sound.CLICK: (2000.0, 0.015), Sound.OK: (880.0, 0.06),
           Sound.REFUSED: (220.0, 0.15)}
"""Each sound's pitch (Hz) and length (s)."""


@cache
def earcon_wav(sound: Sound, volume: float = 0.5) -> bytes:
    """``sound`` as the bytes of a WAV file."""
    pitch, length = _SHAPES[sound]
    count = int(RATE * length)
    fade = max(1, int(RATE * 0.004))
    frames = bytearray()
    for i in range(count):
        envelope = min(1.0, i / fade, (count - 1 - i) / fade)
        if sound is Sound.CLICK:
            envelope *= math.exp(-i / (count / 4))
        value = volume * envelope * math.sin(2 * math.pi * pitch * i / RATE)
        frames += struct.pack("<h", int(value * 32767))
    out = io.BytesIO()
    with wave.open(out, "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(RATE)
        wav.writeframes(bytes(frames))
    return out.getvalue()
