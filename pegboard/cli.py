"""The ``pegboard`` command: one subcommand per module in :mod:`pegboard.commands`.

The words are read by argparse (:mod:`pegboard.commands.parsers`), except a command whose
options are a table of plain ones (:mod:`pegboard.commands.options`: ``run`` and ``sim``)
given only those, written out whole: its module reads them without argparse, which is then
never loaded. Either way the values, every message and every help page are argparse's.
Errors the project raises on purpose are printed as one clear line and give exit status 2,
like argparse's own usage errors.

Only the module of the command being run is imported: ``pegboard score`` never loads the
device, the store or the simulator, and ``pegboard --help`` lists the summaries from the table
without importing any command.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from pegboard import lazy
from pegboard.commands import COMMANDS, collector
from pegboard.errors import PegboardError

if TYPE_CHECKING:
    import argparse

    from pegboard.commands import parsers
    from pegboard.commands.options import Options
else:
    parsers = lazy.module("pegboard.commands.parsers")


def _command_named(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` asks for, if it names one: the first word not an option.

    The top-level parser has only flags that take no value (``-h``, ``--version``), so the
    first other word is the command argparse itself will pick. A help flag before it asks
    for the list of every command, which the summary parser (``None``) gives.
    """
    for word in argv:
        if word in ("-h", "--help"):
            return None
        if not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def _read_plainly(name: str | None, words: Sequence[str]) -> argparse.Namespace | None:
    """The words read by the command's own table of options, when it has one and the words
    are the command's name then only those options (None: argparse reads them)."""
    if name is None or not words or words[0] != name:
        return None
    # A command with a table of options has it as OPTIONS (pegboard.commands.options, loaded
    # by the commands that use it only).
    options: Options | None = getattr(importlib.import_module(f"pegboard.commands.{name}"),
                                      "OPTIONS", None)
    return options.read(name, words[1:]) if options is not None else None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status."""
    words = sys.argv[1:] if argv is None else list(argv)
    name = _command_named(words)
    # Reading the words imports the command's module, whose objects last as long as the
    # process: the collector is paused meanwhile (pegboard.commands.collector).
    with collector.Paused():
        args = _read_plainly(name, words)
        if args is None:
            parser = parsers.command_parser(name)
            args = parser.parse_args(words)
            if getattr(args, "func", None) is None:
                parser.print_help()
                return 2
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except PegboardError as error:
        print(f"pegboard {args.command}: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `pegboard replay x | head`
        return 0


if __name__ == "__main__":
    sys.exit(main())
