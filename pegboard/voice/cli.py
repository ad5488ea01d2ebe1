"""``--say`` and ``--wav FILE`` for the commands that count (``pegboard score``, ``peg``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from pegboard.commands import paths

# The config, espeak-ng and the phrases are imported only when --say or --wav is given: a
# plain `pegboard score` must not pay for them.


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--say``, ``--wav FILE`` and ``--config PATH`` (whose ``[voice]`` is used)."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--say", action="store_true",
                       help="also say the count aloud (espeak-ng, the default sound output or "
                            "the config's voice.device)")
    group.add_argument("--wav", metavar="FILE", type=_wav_file,
                       help="write the count, spoken, into this WAV file instead")
    parser.add_argument("--config", metavar="PATH", type=_config_file,
                        help="config file whose [voice] section sets the voice, rate, volume "
                             "and device (default: /etc/pegboard/config.toml if present)")


def deliver(words: Callable[[], str], args: argparse.Namespace) -> int:
    """Say ``words()`` or write them as ``--wav`` asks; 0 when done (or not asked), else 1
    with the reason on standard error (the count itself was printed already)."""
    if not args.say and not args.wav:
        return 0
    from pegboard.config import load_config
    from pegboard.voice.espeak import EspeakVoice, voice_problem, write_wav

    text = words()
    config = load_config(args.config)
    problem = voice_problem(config.voice, playing=bool(args.say))
    if problem is not None:
        print(problem.replace("; the game goes on without a voice", ""), file=sys.stderr)
        return 1
    try:
        if args.wav:
            write_wav(text, Path(args.wav), config.voice)
        else:
            EspeakVoice(config.voice).speak(text)
    except OSError as error:
        print(f"voice: {error}", file=sys.stderr)
        return 1
    return 0


def _wav_file(text: str) -> str:
    try:
        return paths.output_file(text)
    except paths.ArgumentError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _config_file(text: str) -> str:
    try:
        return paths.path_name(text)
    except paths.ArgumentError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
