"""The ``pegboard`` command's argparse parsers: one subcommand per module in
:mod:`pegboard.commands`.

Each command's words (its summary and description) are its row of
:data:`pegboard.commands.COMMANDS`; its module's ``register(parser)`` adds the arguments to the
parser made from that row and sets ``func`` to a callable taking the parsed arguments and
returning an exit status. Usage errors are one line with exit status 2, like every other error
the command line reports.

Only the module of the command being run is imported, and argparse itself only when the words
need it (:mod:`pegboard.cli`): ``pegboard --help`` lists the summaries from the table without
importing any command.
"""

from __future__ import annotations

import argparse
import functools
import importlib
from typing import NoReturn

from pegboard import __version__
from pegboard.commands import COMMANDS


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

    A command's parser holds that command alone: the words before it name it, so no other
    command can be chosen, and each parser argparse makes costs start-up time (a Pi pays
    milliseconds for the twenty). Cached because a process that calls :func:`main` many
    times (the tests, the input fuzz) would otherwise rebuild it each time; ``parse_args``
    never changes a parser.
    """
    parser, subparsers = _top()
    if name is not None:
        _register(subparsers, name)
        return parser
    for command, words in COMMANDS.items():
        subparsers.add_parser(command, help=words.summary)
    return parser


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every subcommand registered (imports every command)."""
    parser, subparsers = _top()
    for name in COMMANDS:
        _register(subparsers, name)
    return parser


def _register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], name: str,
              ) -> None:
    """Command ``name``'s parser, made from its row of :data:`COMMANDS`, with the arguments
    its module's ``register`` adds (the module is imported here)."""
    words = COMMANDS[name]
    parser = subparsers.add_parser(name, help=words.summary, description=words.description)
    importlib.import_module(f"pegboard.commands.{name}").register(parser)
