"""The speech engine: espeak-ng, run as a program (no network, no downloaded model).

``espeak-ng --stdout`` writes a WAV stream (16-bit mono, 22,050 Hz) as it speaks, so the
first samples come out before the sentence is done; a player (``aplay`` from alsa-utils, or
sox's ``sox ... -t alsa``) sends them to the sound device. Text goes to espeak-ng on its
standard input, never as an argument, so no announcement can be read as an option.

No child outlives its announcement: on every path (said, stopped, a player that cannot
start, fails, hangs or ignores SIGTERM, shutdown) both espeak-ng and the player are waited
for, a child still running after SIGTERM is killed after :data:`GRACE_S`, and a player
running longer than ``limit_s`` is stopped. A player that cannot start or exits with an
error raises :class:`PlayerError` naming it, its exit status and the last line it printed.

:func:`voice_problem` says, once at start, what keeps the voice from working (espeak-ng or
a player missing, an unknown voice, no sound device); the caller shows it and carries on
without a voice.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pegboard import lazy
from pegboard.app.sounds import Sound
from pegboard.config import VoiceConfig

if TYPE_CHECKING:
    from pegboard.voice import earcons
else:
    earcons = lazy.module("pegboard.voice.earcons")

SOUND_CARDS = Path("/proc/asound/cards")

GRACE_S = 0.3
"""How long a child has to end after SIGTERM before it is killed."""

ESPEAK_LIMIT_S = 60.0
"""The longest espeak-ng may take to write an announcement into a file or memory."""

PLAY_LIMIT_S = 60.0
"""The longest an announcement may play (the longest, a three-handed result, takes 15 s)."""


class PlayerError(OSError):
    """The player could not start, failed or hung; the message names it and why."""


def end(process: subprocess.Popen[bytes], grace: float = GRACE_S) -> int:
    """Make sure ``process`` has ended and been waited for: SIGTERM, then SIGKILL after
    ``grace`` seconds; its exit status."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            process.kill()
    return process.wait()


def _kill_if_running(processes: Sequence[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        if process.poll() is None:
            process.kill()


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
    try:
        voices = installed_voices()
    except subprocess.TimeoutExpired:
        return ("voice: espeak-ng did not list its voices within 10 s; the game goes on "
                "without a voice")
    if config.voice not in voices:
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


def _run_espeak(command: list[str], text: str) -> bytes:
    """Run espeak-ng on ``text``; its standard output. OSError when it fails or takes more
    than :data:`ESPEAK_LIMIT_S` (subprocess kills and waits for it then)."""
    try:
        done = subprocess.run(command, input=text.encode("utf-8"), capture_output=True,
                              check=False, timeout=ESPEAK_LIMIT_S)
    except subprocess.TimeoutExpired:
        raise OSError(f"espeak-ng took more than {ESPEAK_LIMIT_S:g} s and was stopped"
                      ) from None
    if done.returncode != 0:
        raise OSError(f"espeak-ng failed: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout


def synthesize(text: str, config: VoiceConfig) -> bytes:
    """``text`` spoken into WAV bytes."""
    return _run_espeak(espeak_command(config), text)


def write_wav(text: str, path: Path, config: VoiceConfig) -> None:
    """``text`` spoken into the WAV file ``path``."""
    _run_espeak(espeak_command(config, wav=path), text)


class EspeakVoice:
    """Speaks through espeak-ng into a player, one announcement at a time (see the module
    doc for how its children are ended)."""

    def __init__(self, config: VoiceConfig, *, player: Sequence[str] | None = None,
                 limit_s: float = PLAY_LIMIT_S, grace_s: float = GRACE_S) -> None:
        self.config = config
        found = list(player) if player is not None else player_command(config.device)
        if found is None:
            raise OSError("no program to play sound (aplay or sox)")
        self.player = found
        self.limit_s = limit_s
        self.grace_s = grace_s
        self._running: list[subprocess.Popen[bytes]] = []
        self._stopped = False
        self._lock = threading.Lock()

    def speak(self, text: str) -> None:
        """Say ``text`` and return when it has been played (or stopped); PlayerError when
        the player cannot start or fails, OSError when espeak-ng does."""
        name = Path(self.player[0]).name
        with self._lock:
            self._stopped = False
        speech = subprocess.Popen(espeak_command(self.config), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        running = [speech]
        assert speech.stdin is not None and speech.stdout is not None
        try:
            with tempfile.TemporaryFile() as said:
                try:
                    play = subprocess.Popen(self.player, stdin=speech.stdout,
                                            stdout=subprocess.DEVNULL, stderr=said)
                except OSError as error:
                    raise PlayerError(f"the player {name} cannot start: "
                                      f"{error.strerror or error}") from None
                running.insert(0, play)  # ended first: espeak-ng then sees its pipe close
                speech.stdout.close()  # the player holds it now
                with self._lock:
                    self._running = list(running)
                    stopped = self._stopped
                if stopped:  # stopped while starting: end both now (below)
                    return
                self._say(speech, text)
                self._wait(play, name)
                status = play.returncode
                with self._lock:
                    stopped = self._stopped
                if status != 0 and not stopped:
                    said.seek(0)
                    lines = said.read(2000).decode("utf-8", "replace").strip().splitlines()
                    why = f": {lines[-1][:200]}" if lines else ""
                    raise PlayerError(f"the player {name} failed (exit status {status}){why}")
        finally:
            for process in running:
                end(process, self.grace_s)
            speech.stdin.close()
            speech.stdout.close()
            with self._lock:
                self._running = []

    def play(self, sound: Sound) -> None:
        """Play one of audio mode's short sounds (:mod:`pegboard.voice.earcons`) through the
        player, returning when it has been played; PlayerError when the player fails."""
        name = Path(self.player[0]).name
        with self._lock:
            self._stopped = False
        try:
            play = subprocess.Popen(self.player, stdin=subprocess.PIPE,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except OSError as error:
            raise PlayerError(f"the player {name} cannot start: {error.strerror or error}"
                              ) from None
        with self._lock:
            self._running = [play]
        try:
            assert play.stdin is not None
            try:
                play.stdin.write(earcons.earcon_wav(sound))
                play.stdin.close()
            except BrokenPipeError:
                pass  # stopped, or failed: its status says which
            self._wait(play, name)
        finally:
            end(play, self.grace_s)
            with self._lock:
                self._running = []

    def _say(self, speech: subprocess.Popen[bytes], text: str) -> None:
        assert speech.stdin is not None
        try:
            speech.stdin.write(text.encode("utf-8"))
            speech.stdin.close()
        except BrokenPipeError:
            pass  # espeak-ng already ended (stopped); its status is not the player's

    def _wait(self, play: subprocess.Popen[bytes], name: str) -> None:
        try:
            play.wait(self.limit_s)
        except subprocess.TimeoutExpired:
            end(play, self.grace_s)
            raise PlayerError(f"the player {name} was still playing after {self.limit_s:g} s "
                              "and was stopped") from None

    def stop(self) -> None:
        """Cut short what is being said (from another thread; returns at once): SIGTERM
        now, SIGKILL after the grace for a child that ignores it."""
        with self._lock:
            running = list(self._running)
            self._stopped = True
        for process in running:
            if process.poll() is None:
                process.terminate()
        if running:
            timer = threading.Timer(self.grace_s, _kill_if_running, (running,))
            timer.daemon = True
            timer.start()


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

    def play(self, sound: Sound) -> None:
        """Write the next numbered WAV as the sound, its name in the text file."""
        self.written += 1
        stem = self.folder / f"{self.written:04d}"
        stem.with_suffix(".txt").write_text(f"[{sound.value}]\n", encoding="utf-8")
        stem.with_suffix(".wav").write_bytes(earcons.earcon_wav(sound))

    def stop(self) -> None:
        """Files are written whole: nothing to stop."""
