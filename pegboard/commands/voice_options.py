"""``--say``, ``--wav FILE`` and ``--config PATH`` for the commands that count (``pegboard
score``, ``peg``): the arguments here, the speaking in :mod:`pegboard.voice.cli`."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from pegboard.commands import paths
from pegboard.voice import cli as voice_cli


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
    """Say ``words()`` or write them as the arguments ask (:func:`~pegboard.voice.cli.deliver`)."""
    return voice_cli.deliver(words, say=bool(args.say), wav=args.wav, config=args.config)


_wav_file = paths.argument_type(paths.output_file)
_config_file = paths.argument_type(paths.path_name)
