"""The count said aloud or written to a WAV file, once, for a command that counts (``pegboard
score --say``, ``peg --wav FILE``). The arguments themselves belong to the command layer
(:mod:`pegboard.commands.voice_options`); this module takes plain values.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pegboard import lazy

if TYPE_CHECKING:
    from pegboard import config as pegboard_config
    from pegboard.voice import espeak
else:
    pegboard_config = lazy.module("pegboard.config")
    espeak = lazy.module("pegboard.voice.espeak")

# The config, espeak-ng and the phrases are imported only when --say or --wav is given: a
# plain `pegboard score` must not pay for them.


def deliver(words: Callable[[], str], *, say: bool, wav: str | None,
            config: str | None) -> int:
    """Say ``words()`` (``say``) or write them into ``wav``; 0 when done (or not asked),
    else 1 with the reason on standard error (the count itself was printed already). The
    player's failure (no sound device, a device the user may not open) is the reason."""
    if not say and not wav:
        return 0
    text = words()
    loaded = pegboard_config.load_config(config)
    problem = espeak.voice_problem(loaded.voice, playing=say)
    if problem is not None:
        print(problem.replace("; the game goes on without a voice", ""), file=sys.stderr)
        return 1
    try:
        if wav:
            espeak.write_wav(text, Path(wav), loaded.voice)
        else:
            espeak.EspeakVoice(loaded.voice).speak(text)
    except OSError as error:
        print(f"voice: {error}", file=sys.stderr)
        return 1
    return 0
