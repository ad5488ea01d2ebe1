"""The sample recordings in ``docs/audio/``: ``python -m pegboard.voice.samples [DIR]``.

* ``hand-29.wav``: the show count of a 29 hand (5♣ 5♦ 5♥ J♠ with the 5♠ turned), as the
  device says it when Ann shows it;
* ``skunk.wav``: the end of the guide's game (``docs/guide.keys``), played through the
  simulator: the last counts and Ann winning with a skunk.

Each comes with its words in a ``.txt`` beside it. The WAVs are made small for the
repository: espeak-ng's 22,050 Hz resampled by sox to 8,000 Hz, 16-bit mono.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from pegboard.config import Config, VoiceConfig
from pegboard.device.build import open_store
from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.show import score_hand
from pegboard.sim.keys import parse_script
from pegboard.sim.script import run_script
from pegboard.voice.espeak import write_wav
from pegboard.voice.hook import Transcript, VoiceHook
from pegboard.voice.phrases import show_phrase

ROOT = Path(__file__).resolve().parent.parent.parent
GUIDE = ROOT / "docs" / "guide.keys"


def guide_announcements(owner: str = "pegboard samples") -> list[str]:
    """The words of every announcement of the guide's game (docs/guide.keys), in order, played
    in a store of its own that ``owner`` holds while it lasts."""
    transcript = Transcript()
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(Path(folder) / "store", owner=owner)
        try:
            run_script(parse_script(GUIDE.read_text(encoding="utf-8")), Config(), store,
                       speech=VoiceHook(transcript))
        finally:
            store.close()
    return transcript.texts()


def sample_texts() -> dict[str, str]:
    """The words of each sample, by file stem."""
    hand = score_hand(parse_cards("5C 5D 5H JS"), Card.parse("5S"))
    return {"hand-29": show_phrase(hand.items, "Ann"),
            "skunk": " ".join(f"{text.rstrip('.')}." for text in guide_announcements()[-3:])}


def write_samples(folder: Path, config: VoiceConfig | None = None) -> list[Path]:
    """Write every sample into ``folder``; returns the WAV paths."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for stem, text in sample_texts().items():
        wav = folder / f"{stem}.wav"
        with tempfile.TemporaryDirectory() as scratch:
            full = Path(scratch) / "full.wav"
            write_wav(text, full, config or VoiceConfig())
            subprocess.run(["sox", "-q", str(full), "-r", "8000", "-b", "16", str(wav)],
                           check=True)
        wav.with_suffix(".txt").write_text(text + "\n", encoding="utf-8")
        written.append(wav)
    return written


def main(argv: list[str] | None = None) -> int:
    """Write the samples into the folder named (default: docs/audio)."""
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0]) if args else ROOT / "docs" / "audio"
    for path in write_samples(folder):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
