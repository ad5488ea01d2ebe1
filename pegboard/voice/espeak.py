"""The speech engine: espeak-ng, run as a program (no network, no downloaded model).

``espeak-ng --stdout`` writes a WAV stream (16-bit mono, 22,050 Hz) as it speaks, so the
first samples come out before the sentence is done; a player (``aplay`` from alsa-utils, or
sox's ``sox ... -t alsa``) sends them to the sound device. Text goes to espeak-ng on its
standard input, never as an argument, so no announcement can be read as an option.

:func:`voice_problem` says, once at start, what keeps the voice from working (espeak-ng or
a player missing, an unknown voice, no sound device); the caller shows it and carries on
without a voice.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import threading
from pathlib import Path

from pegboard.config import VoiceConfig

SOUND_CARDS = Path("/proc/asound/cards")


def espeak_command(config: VoiceConfig, *, wav: Path | None = None) -> list[str]:
    """The espeak-ng command line for ``config``: to standard output, or into ``wav``."""
    out = ["-w", str(wav)] if wav is not None else ["--stdout"]
    return ["espeak-ng", *out, "-v", config.voice, "-s", str(config.rate),
            "-a", str(config.volume)]


def player_command(device: str) -> list[str] | None:
    """The command that plays a WAV stream from standard input on ``device`` ("" = the
    default output): aplay when installed, else sox; None when neither is."""
    if shutil.which("aplay"):
        return ["aplay", "-q", *(["-D", device] if device else []), "-"]
    if shutil.which("sox"):
        return ["sox", "-q", "-t", "wav", "-", "-t", "alsa", device or "default"]
    return None


def installed_voices() -> set[str]:
    """The voice names espeak-ng knows (its ``--voices`` list: languages and voice files)."""
    listing = subprocess.run(["espeak-ng", "--voices"], capture_output=True, text=True,
                             check=False, timeout=10).stdout
    names: set[str] = set()
    for line in listing.splitlines()[1:]:
        fields = line.split()
        if len(fields) >= 5:
            names.update((fields[1], fields[3], fields[4].rsplit("/", 1)[-1]))
    return names


def voice_problem(config: VoiceConfig, *, cards: Path = SOUND_CARDS,
                  playing: bool = True) -> str | None:
    """What keeps the voice from working, as a message for the player; None when nothing.

    ``playing=False`` checks only what writing WAV files needs (espeak-ng and the voice).
    """
    if shutil.which("espeak-ng") is None:
        return ("voice: espeak-ng is not installed (sudo apt install espeak-ng); "
                "the game goes on without a voice")
    if config.voice not in installed_voices():
        return (f"voice: espeak-ng has no voice {config.voice!r} (espeak-ng --voices lists "
                "them); the game goes on without a voice")
    if not playing:
        return None
    if player_command(config.device) is None:
        return ("voice: no program to play sound (sudo apt install alsa-utils); "
                "the game goes on without a voice")
    try:
        listed = cards.read_text(encoding="utf-8", errors="replace")
    except OSError:
        listed = ""
    if not listed.strip() or "no soundcards" in listed:
        return ("voice: no sound device found (a speaker on the I2S amplifier, the audio "
                "jack or USB: see hardware/audio.md); the game goes on without a voice")
    card = re.search(r"CARD=([^,]+)", config.device)
    if card is not None and f"[{card.group(1)}" not in listed.replace(" ", "") and (
            card.group(1) not in listed):
        return (f"voice: no sound card named {card.group(1)!r} (voice.device = "
                f"{config.device!r}; the cards are listed in /proc/asound/cards); the game "
                "goes on without a voice")
    return None


def synthesize(text: str, config: VoiceConfig) -> bytes:
    """``text`` spoken into WAV bytes."""
    done = subprocess.run(espeak_command(config), input=text.encode("utf-8"),
                          capture_output=True, check=False, timeout=60)
    if done.returncode != 0:
        raise OSError(f"espeak-ng failed: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout


def write_wav(text: str, path: Path, config: VoiceConfig) -> None:
    """``text`` spoken into the WAV file ``path``."""
    done = subprocess.run(espeak_command(config, wav=path), input=text.encode("utf-8"),
                          capture_output=True, check=False, timeout=60)
    if done.returncode != 0:
        raise OSError(f"espeak-ng failed: {done.stderr.decode(errors='replace').strip()}")


class EspeakVoice:
    """Speaks through espeak-ng into a player, one announcement at a time."""

    def __init__(self, config: VoiceConfig) -> None:
        self.config = config
        player = player_command(config.device)
        if player is None:
            raise OSError("no program to play sound (aplay or sox)")
        self.player = player
        self._running: list[subprocess.Popen[bytes]] = []
        self._lock = threading.Lock()

    def speak(self, text: str) -> None:
        """Say ``text`` and return when it has been played (or stopped)."""
        speech = subprocess.Popen(espeak_command(self.config), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        play = subprocess.Popen(self.player, stdin=speech.stdout, stderr=subprocess.DEVNULL)
        assert speech.stdin is not None and speech.stdout is not None
        speech.stdout.close()  # the player holds it now
        with self._lock:
            self._running = [speech, play]
        try:
            speech.stdin.write(text.encode("utf-8"))
            speech.stdin.close()
        except BrokenPipeError:
            pass
        play.wait()
        speech.wait()
        with self._lock:
            self._running = []

    def stop(self) -> None:
        """Cut short what is being said."""
        with self._lock:
            running = list(self._running)
        for process in running:
            if process.poll() is None:
                process.terminate()


class WavFolder:
    """A voice that writes each announcement as a numbered WAV with its words beside it
    (``0001.wav`` and ``0001.txt``): ``pegboard sim --speech DIR``."""

    def __init__(self, folder: Path, config: VoiceConfig) -> None:
        self.folder = folder
        self.config = config
        self.written = 0

    def speak(self, text: str) -> None:
        """Write the next numbered WAV and text file."""
        self.written += 1
        stem = self.folder / f"{self.written:04d}"
        stem.with_suffix(".txt").write_text(text + "\n", encoding="utf-8")
        write_wav(text, stem.with_suffix(".wav"), self.config)

    def stop(self) -> None:
        """Files are written whole: nothing to stop."""
