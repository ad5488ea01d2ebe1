"""The sample recordings in docs/audio are the program's own words (``python -m
pegboard.voice.samples`` writes them)."""

from __future__ import annotations

import functools
import wave
from pathlib import Path

from pegboard.voice import samples

AUDIO = Path(__file__).resolve().parent.parent / "docs" / "audio"


@functools.cache
def sample_texts() -> dict[str, str]:
    """The samples' words, worked out once (a whole game through the simulator)."""
    return samples.sample_texts()


def test_each_sample_is_what_the_device_says_now() -> None:
    texts = sample_texts()
    assert set(texts) == {"hand-29", "skunk"}
    for stem, text in texts.items():
        assert (AUDIO / f"{stem}.txt").read_text(encoding="utf-8") == text + "\n"
    assert texts["hand-29"].endswith("and his nob is twenty-nine")
    assert "A skunk: three game points." in texts["skunk"]


def test_each_sample_wav_is_small_and_as_long_as_its_words() -> None:
    for stem, text in sample_texts().items():
        path = AUDIO / f"{stem}.wav"
        with wave.open(str(path), "rb") as wav:
            seconds = wav.getnframes() / wav.getframerate()
            assert (wav.getnchannels(), wav.getframerate()) == (1, 8000)
        words = len(text.replace("-", " ").split())
        assert 0.2 * words <= seconds <= 0.9 * words
        assert path.stat().st_size < 300_000
