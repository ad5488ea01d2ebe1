"""The ``pegboard`` command: one subcommand per module in :mod:`pegboard.commands`.

Each command module defines ``register(subparsers)``, which adds its parser and sets
``func`` to a callable taking the parsed arguments and returning an exit status. Errors the
project raises on purpose are printed as one clear line and give exit status 2, like argparse's
own usage errors.

Only the module of the command being run is imported: ``pegboard score`` never loads the
device, the store or the simulator. The one-line summaries for ``pegboard --help`` therefore
live here, in :data:`COMMANDS`, and a test holds each module's own help to the same words.
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

COMMANDS: dict[str, str] = {
    "demo": "score a sample hand and show its count",
    "score": "count a hand or crib the way players say it aloud",
    "peg": "score a count in the play card by card",
    "rules": "explain a rule players often dispute (list the topics without an argument)",
    "stats": "statistics of finished games (wins, skunks, averages, score race)",
    "advise": "rank every discard by expected hand and crib points",
    "review": "the biggest mistakes of a game record by expected points lost, and counting",
    "quiz": "practise counting, discarding and pegging on random deals",
    "sim": "play on the simulated device in this terminal",
    "run": "run the device (buttons, OLED, LED board) from the config file",
    "replay": "replay a game record (JSON Lines) and tell the game deal by deal",
    "game": "start, record, undo and inspect games in the durable store",
    "leds": "the LED pegboard: demo, flash, sim, svg",
    "web": "serve the live scoreboard to browsers on the local network (read-only)",
    "club": "publish a club night's results over MQTT and serve the standings",
}
"""Every subcommand (the module ``pegboard.commands.<name>``) and its summary."""


class _Parser(argparse.ArgumentParser):
    """argparse's parser with usage errors on one line, like every other error here.

    Subcommand parsers are made with the class of the parser they hang from, so this one
    setting covers every command.
    """

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _top() -> tuple[argparse.ArgumentParser, argparse._SubParsersAction[argparse.ArgumentParser]]:
    parser: argparse.ArgumentParser = _Parser(
        prog="pegboard",
        description="Pegboard: an electronic cribbage scorekeeper.",
    )
    parser.add_argument("--version", action="version", version=f"pegboard {__version__}")
    return parser, parser.add_subparsers(dest="command", metavar="COMMAND")


@functools.cache
def command_parser(name: str | None) -> argparse.ArgumentParser:
    """The parser for one command (its module imported and registered), or, for ``None``,
    the summary parser: every command listed with its summary and none of them imported.

    Cached because a process that calls :func:`main` many times (the tests, the input fuzz)
    would otherwise rebuild it each time; ``parse_args`` never changes a parser.
    """
    parser, subparsers = _top()
    for command, summary in COMMANDS.items():
        if command == name:
            importlib.import_module(f"pegboard.commands.{command}").register(subparsers)
        else:
            subparsers.add_parser(command, help=summary)
    return parser


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every subcommand registered (imports every command)."""
    parser, subparsers = _top()
    for name in COMMANDS:
        importlib.import_module(f"pegboard.commands.{name}").register(subparsers)
    return parser


def _command_named(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` asks for, if it names one: the first word not an option.

    The top-level parser has only flags that take no value (``-h``, ``--version``), so the
    first other word is the command argparse itself will pick.
    """
    for word in argv:
        if not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status."""
    words = sys.argv[1:] if argv is None else list(argv)
    parser = command_parser(_command_named(words))
    args = parser.parse_args(words)
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
