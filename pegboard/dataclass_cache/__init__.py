"""The methods :mod:`dataclasses` writes for each value type, kept compiled between runs.

Pegboard's facts, events, screens and settings are frozen dataclasses: about two hundred
classes, each given ``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__`` and
``__delattr__``. The standard library writes each method as source text and compiles it with
``exec`` every time the class is made; on Python 3.11 that compiling is most of what making a
class costs (about 0.3 ms a class here, some 40 ms of every start, seconds on a Pi Zero).

:func:`install` gives :mod:`dataclasses` an ``exec`` that looks the source up in a table of
code objects compiled earlier, and compiles only what is new, the way Python keeps ``.pyc``
files beside the sources. The table is a file in the package's ``__pycache__``, named for the
interpreter (marshal's format is the interpreter's), holding for each source text the
marshalled code. A code object compiled from the same text is the same code, so a class made
from the table is the class the library would make; a source never seen is compiled as before.

The file is written, all at once by a rename so no reader sees half of it, when a process
that compiled something new exits normally or calls :func:`save`; ``python -m
pegboard.dataclass_cache`` fills it for every module at install time. It is not written where
Python would not write bytecode (``PYTHONDONTWRITEBYTECODE``) or cannot (a read-only
install): there each start compiles as the library always did. A file that cannot be read,
or was written by another interpreter, is ignored.
"""

from __future__ import annotations

import atexit
import contextlib
import marshal
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec, PathFinder, SourceFileLoader
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

LIMIT = 4096
"""Sources kept at most (Pegboard makes about 1,100): past this (classes changed many times
in a working tree) the file keeps only what this process used, so a start never reads a
table grown without bound."""


def table_path() -> Path:
    """Where the compiled methods are kept: beside this package's bytecode."""
    tag = sys.implementation.cache_tag or "python"
    return Path(__file__).resolve().parent.parent / "__pycache__" / f"dataclass-methods.{tag}.bin"


class MethodTable:
    """Compiled code by source text, loaded from a file and added to as sources are met."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stored: dict[str, bytes] | None = None
        self.used: dict[str, bytes] = {}
        self.added = 0

    @property
    def stored(self) -> dict[str, bytes]:
        """Every source in the table, read from the file when first needed."""
        if self._stored is None:
            self._stored = _read(self.path)
        return self._stored

    @stored.setter
    def stored(self, table: dict[str, bytes]) -> None:
        self._stored = table

    def code(self, source: str) -> CodeType:
        """The code of ``source``: unmarshalled from the table, or compiled and added."""
        data = self.stored.get(source)
        if data is not None:
            try:
                code = marshal.loads(data)
            except (EOFError, ValueError, TypeError):
                code = None
            if isinstance(code, CodeType):
                self.used[source] = data
                return code
        code = compile(source, "<string>", "exec")
        data = marshal.dumps(code)
        self.stored[source] = self.used[source] = data
        self.added += 1
        return code

    def exec(self, source: str | bytes | CodeType, globals: dict[str, Any] | None = None,
             locals: dict[str, Any] | None = None) -> None:
        """``exec`` for :mod:`dataclasses`: source text runs from the table; anything else
        (code objects) runs as given."""
        exec(self.code(source) if isinstance(source, str) else source, globals, locals)

    def save(self, *, force: bool = False) -> bool:
        """Write the table if this process compiled anything new; True when it did. Only
        ``force`` (the install step) writes where Python is told not to write bytecode."""
        if not self.added or (sys.dont_write_bytecode and not force):
            return False
        kept = self.stored if len(self.stored) <= LIMIT else self.used
        scratch = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(exist_ok=True)
            with open(scratch, "wb") as out:
                marshal.dump(kept, out)
            os.replace(scratch, self.path)
        except OSError:  # a read-only install: compile each start, as before
            with contextlib.suppress(OSError):
                scratch.unlink()
            return False
        self.added = 0
        return True


def _read(path: Path) -> dict[str, bytes]:
    """The table in ``path``; empty when there is none or it is not one."""
    try:
        with open(path, "rb") as stored:
            table = marshal.load(stored)
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not isinstance(table, dict):
        return {}
    return {k: v for k, v in table.items() if isinstance(k, str) and isinstance(v, bytes)}


_installed: MethodTable | None = None


def install(path: Path | None = None) -> MethodTable:
    """Have :mod:`dataclasses` take its methods' code from the table (once per process):
    at once if it is loaded, else as it is imported, so a program that never makes a value
    type (the simulator's splash) neither imports the library nor reads the table."""
    global _installed
    if _installed is None:
        _installed = MethodTable(path or table_path())
        atexit.register(_installed.save)
        if "dataclasses" in sys.modules:
            _patch(sys.modules["dataclasses"], _installed)
        else:
            sys.meta_path.insert(0, _WhenImported(_installed))
    return _installed


def _patch(module: ModuleType, table: MethodTable) -> None:
    # dataclasses calls ``exec`` by its module-global name: the one place it compiles
    module.exec = table.exec  # type: ignore[attr-defined]


class _WhenImported:
    """An import finder (``sys.meta_path``): finds :mod:`dataclasses` as the path finder
    would, and patches it once it has run."""

    def __init__(self, table: MethodTable) -> None:
        self.table = table

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if name != "dataclasses":
            return None
        sys.meta_path.remove(self)  # once: later imports find the module loaded
        spec = PathFinder.find_spec(name, path)
        if spec is not None and isinstance(spec.loader, SourceFileLoader):
            spec.loader = _Patching(spec.loader.name, spec.loader.path, self.table)
        return spec


class _Patching(SourceFileLoader):
    """The library's own loader, then the patch."""

    def __init__(self, fullname: str, path: str, table: MethodTable) -> None:
        super().__init__(fullname, path)
        self.table = table

    def exec_module(self, module: ModuleType) -> None:
        super().exec_module(module)
        _patch(module, self.table)


def save() -> bool:
    """Write the installed table now (True when something new was written)."""
    return _installed.save() if _installed is not None else False
