"""Real espeak-ng speaking into WAV files, read back with the standard ``wave`` module; the
start-up checks that keep a missing voice from stopping a game; ``--say`` and ``--wav``."""

from __future__ import annotations

import array
import math
import os
import shutil
import wave
from pathlib import Path

import pytest

from pegboard.cli import main
from pegboard.config import VoiceConfig
from pegboard.sim.fakes import FakeClock
from pegboard.voice.espeak import EspeakVoice, synthesize, voice_problem, write_wav
from pegboard.voice.setup import open_voice

needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                  reason="espeak-ng is installed by `make test-tools`")


def samples(path: Path) -> tuple[array.array[int], float]:
    """The 16-bit samples of a mono WAV file and its length in seconds."""
    with wave.open(str(path), "rb") as wav:
        assert (wav.getnchannels(), wav.getsampwidth()) == (1, 2)
        frames = wav.readframes(wav.getnframes())
        seconds = wav.getnframes() / wav.getframerate()
    data = array.array("h")
    data.frombytes(frames)
    return data, seconds


def loudness(data: array.array[int]) -> float:
    """Root mean square of the samples, 0 for silence, 32767 for full scale."""
    return math.sqrt(sum(s * s for s in data) / len(data)) if data else 0.0


@needs_espeak
@pytest.mark.parametrize("text", [
    "Ann: fifteen two, fifteen four, and a pair is six",
    "Ben: twenty-four for three, a run",
    "Ann wins, one hundred and twenty-one to eighty-five. A skunk: three game points.",
])
def test_espeak_speaks_an_announcement_into_a_wav_of_plausible_length(
        tmp_path: Path, text: str) -> None:
    path = tmp_path / "said.wav"
    write_wav(text, path, VoiceConfig())
    data, seconds = samples(path)
    words = len(text.replace("-", " ").split())
    # 160 words a minute is 0.375 s a word; pauses at commas and long words stretch it
    assert 0.2 * words <= seconds <= 0.9 * words, (seconds, words)
    assert loudness(data) > 500  # speech, not silence
    assert max(abs(s) for s in data) > 5000


@needs_espeak
def test_rate_and_volume_change_the_sound(tmp_path: Path) -> None:
    text = "fifteen two, fifteen four"
    write_wav(text, tmp_path / "slow.wav", VoiceConfig(rate=100))
    write_wav(text, tmp_path / "fast.wav", VoiceConfig(rate=300))
    write_wav(text, tmp_path / "quiet.wav", VoiceConfig(volume=20))
    slow, slow_s = samples(tmp_path / "slow.wav")
    _, fast_s = samples(tmp_path / "fast.wav")
    quiet, _ = samples(tmp_path / "quiet.wav")
    assert slow_s > 2 * fast_s
    assert loudness(quiet) < loudness(slow) / 2


@needs_espeak
def test_the_stream_is_a_wav_as_it_is_spoken() -> None:
    data = synthesize("his heels for two", VoiceConfig())
    assert data[:4] == b"RIFF" and data[8:12] == b"WAVE"
    assert len(data) > 44 + 22050 // 2  # at least a quarter of a second of 16-bit samples


@needs_espeak
def test_the_speaking_voice_pipes_espeak_into_its_player(tmp_path: Path) -> None:
    # sox stands in for the sound device: the same pipe, ending in a file instead of ALSA
    out = tmp_path / "played.wav"
    voice = EspeakVoice(VoiceConfig())
    voice.player = ["sox", "-q", "-t", "wav", "-", str(out)]
    voice.speak("thirty-one for two")
    data, seconds = samples(out)
    assert seconds > 0.5 and loudness(data) > 500


def test_a_missing_espeak_is_a_clear_message_and_no_voice(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    problem = voice_problem(VoiceConfig(enabled=True))
    assert problem == ("voice: espeak-ng is not installed (sudo apt install espeak-ng); "
                       "the game goes on without a voice")
    told: list[str] = []
    assert open_voice(VoiceConfig(enabled=True), FakeClock(), told.append) is None
    assert told == [problem]


@needs_espeak
def test_no_sound_device_is_a_clear_message(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    cards.write_text("--- no soundcards ---\n", encoding="utf-8")
    problem = voice_problem(VoiceConfig(enabled=True), cards=cards)
    assert problem is not None and problem.startswith("voice: no sound device found")
    assert voice_problem(VoiceConfig(enabled=True), cards=cards, playing=False) is None


@needs_espeak
def test_a_named_card_that_is_not_there_is_named(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    cards.write_text(" 0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0\n", encoding="utf-8")
    config = VoiceConfig(enabled=True, device="plughw:CARD=MAX98357A,DEV=0")
    problem = voice_problem(config, cards=cards)
    assert problem is not None and "no sound card named 'MAX98357A'" in problem
    cards.write_text(" 1 [MAX98357A      ]: RPi-simple - MAX98357A\n", encoding="utf-8")
    assert voice_problem(config, cards=cards) is None


@needs_espeak
def test_an_unknown_voice_is_named() -> None:
    problem = voice_problem(VoiceConfig(voice="xx-nowhere"))
    assert problem is not None and "no voice 'xx-nowhere'" in problem


def test_the_voice_off_makes_no_voice() -> None:
    told: list[str] = []
    assert open_voice(VoiceConfig(enabled=False), FakeClock(), told.append) is None
    assert told == []


@needs_espeak
def test_score_wav_writes_the_spoken_count(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "29.wav"
    assert main(["score", "5C", "5D", "5H", "JS", "--starter", "5S", "--wav", str(out)]) == 0
    assert "Total: 29" in capsys.readouterr().out
    data, seconds = samples(out)
    assert 8 < seconds < 20 and loudness(data) > 500


@needs_espeak
def test_peg_wav_writes_each_card_said(tmp_path: Path) -> None:
    out = tmp_path / "peg.wav"
    assert main(["peg", "9C", "7D", "8H", "--wav", str(out)]) == 0
    _, seconds = samples(out)
    assert 1.5 < seconds < 6


def test_say_without_a_sound_device_says_why(monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no espeak-ng at all
    assert main(["score", "5C", "5D", "5H", "JS", "--starter", "5S", "--say"]) == 1
    captured = capsys.readouterr()
    assert "Total: 29" in captured.out
    assert "espeak-ng is not installed" in captured.err


@pytest.mark.parametrize("argv", [
    ["score", "5C", "5D", "5H", "JS", "--starter", "5S", "--say", "--wav", "x.wav"],
    ["peg", "5C", "--wav", "/no/such/folder/x.wav"],
    ["peg", "5C", "--wav"],
])
def test_bad_voice_arguments_exit_2_with_a_message(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "--wav" in err
    assert not os.path.exists("x.wav")
