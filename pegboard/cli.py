"""The ``pegboard`` command: one subcommand per module in :mod:`pegboard.commands`.

Each command module defines ``register(subparsers)``, which adds its parser and sets
``func`` to a callable taking the parsed arguments and returning an exit status. Errors the
project raises on purpose are printed as one clear line and give exit status 2, like argparse's
own usage errors.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from pegboard import __version__
from pegboard.errors import PegboardError

# One line per command module under pegboard/commands/.
COMMANDS = (
    "demo",
    "score",
    "peg",
    "rules",
    "stats",
    "advise",
    "sim",
    "run",
    "replay",
    "game",
    "leds",
)


class _Parser(argparse.ArgumentParser):
    """argparse's parser with usage errors on one line, like every other error here.

    Subcommand parsers are made with the class of the parser they hang from, so this one
    setting covers every command.
    """

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every subcommand registered."""
    parser = _Parser(
        prog="pegboard",
        description="Pegboard: an electronic cribbage scorekeeper.",
    )
    parser.add_argument("--version", action="version", version=f"pegboard {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"pegboard.commands.{name}")
        module.register(subparsers)
    return parser


@functools.cache
def _parser() -> argparse.ArgumentParser:
    # Building every subcommand's parser costs more than most commands (argparse looks up its
    # message translations for each argument); main() is called many times in one process by
    # the tests and the input fuzz, and parse_args never changes the parser.
    return build_parser()


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], int] | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return func(args)
    except PegboardError as error:
        print(f"pegboard {args.command}: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `pegboard replay x | head`
        return 0


if __name__ == "__main__":
    sys.exit(main())
