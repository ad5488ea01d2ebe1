"""A command's options as a table: given to argparse, and read without it when they are plain.

``pegboard run`` and ``pegboard sim`` are started far more often than any other command, and
by a service or a player rather than by someone exploring options, so their words are nearly
always a few ``--name VALUE`` options spelled out. Building argparse's parsers and importing
argparse (with gettext) costs more of a start than any of Pegboard's own modules. Such a
command declares its options here, once: :meth:`Options.add_to` gives them to argparse, and
:meth:`Options.read` reads the words directly when each is one of them, written out whole.

Anything else is argparse's to read, so every message and every help page is argparse's
own: a help flag, an unknown or abbreviated option, an option missing its value, a value
starting with ``-``, a choice not listed, a value its check refuses, a positional word, or
``--``. :meth:`Options.read` gives exactly the values argparse would give for the words it
reads (``tests/test_cli_options.py`` compares the two on generated command lines).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import argparse


class Option:
    """One option, ``--name VALUE`` (``--name=VALUE`` too), a flag (``flag``: ``--name``
    alone sets it True), or an option that may be repeated (``repeated``: each value is
    added to a list, in order).

    ``convert`` turns the word into the value (argparse's ``type``: a word it refuses is
    argparse's to report), ``choices`` are the values allowed, and ``default`` is the value
    when the option is not given, taken as it is (never a word to convert; a flag's is False,
    a repeated option's a new empty list every time).

    Not a value type: its ``dest`` and ``default`` are worked out from the declaration, and an
    option is only ever read, never compared, copied or matched."""

    __slots__ = ("choices", "convert", "default", "dest", "flag", "help", "metavar", "name",
                 "repeated")

    name: str
    help: str
    dest: str
    metavar: str | None
    choices: tuple[str, ...] | None
    convert: Callable[[str], Any] | None
    default: Any
    flag: bool
    repeated: bool

    def __init__(self, name: str, help: str, *, dest: str | None = None,
                 metavar: str | None = None, choices: tuple[str, ...] | None = None,
                 convert: Callable[[str], Any] | None = None, default: Any = None,
                 flag: bool = False, repeated: bool = False) -> None:
        self.name = name
        self.help = help
        self.dest = dest if dest is not None else name.removeprefix("--").replace("-", "_")
        self.metavar = metavar
        self.choices = choices
        self.convert = convert
        self.default = False if flag else default
        self.flag = flag
        self.repeated = repeated

    def initial(self) -> Any:
        """The value when the option is not given."""
        return [] if self.repeated else self.default


class Options:
    """A command's options (each plain: see the module's documentation) and the function
    that runs the command with the values read. Like :class:`Option`, only ever read: not a
    value type (argparse, named in its annotations, is imported only when a command needs it)."""

    __slots__ = ("func", "options")

    options: tuple[Option, ...]
    func: Callable[[argparse.Namespace], int]

    def __init__(self, options: Sequence[Option],
                 func: Callable[[argparse.Namespace], int]) -> None:
        self.options = tuple(options)
        self.func = func

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        """Give argparse the options, and the function as the parsed words' ``func``."""
        for option in self.options:
            if option.flag:
                parser.add_argument(option.name, dest=option.dest, action="store_true",
                                    help=option.help)
                continue
            given: dict[str, Any] = {"dest": option.dest, "metavar": option.metavar,
                                     "help": option.help}
            if option.convert is not None:
                given["type"] = option.convert
            if option.repeated:
                parser.add_argument(option.name, action="append", default=[], **given)
            else:
                parser.add_argument(option.name, choices=option.choices,
                                    default=option.default, **given)
        parser.set_defaults(func=self.func)

    def read(self, command: str, words: Sequence[str]) -> argparse.Namespace | None:
        """The values of ``words`` (what follows the command's name) as argparse would give
        them, with ``command`` and ``func``; None when argparse must read them (see the
        module's documentation)."""
        named = {option.name: option for option in self.options}
        values = {option.dest: option.initial() for option in self.options}
        position = 0
        while position < len(words):
            word = words[position]
            position += 1
            name, equals, given = word.partition("=")
            option = named.get(name)
            if option is None:
                return None
            if option.flag:
                if equals:
                    return None
                values[option.dest] = True
                continue
            if not equals:
                if position == len(words):
                    return None
                given = words[position]
                position += 1
            if given.startswith("-"):
                return None
            try:
                value = option.convert(given) if option.convert is not None else given
            except Exception:
                return None
            if option.choices is not None and value not in option.choices:
                return None
            if option.repeated:
                values[option.dest].append(value)
            else:
                values[option.dest] = value
        # Read as argparse's Namespace is: attributes only (argparse is not loaded for it).
        return cast("argparse.Namespace",
                    SimpleNamespace(command=command, **values, func=self.func))
