"""The lazy seams: every module Pegboard imports only when it is first used, declared here,
each with its reason. Nothing else in the package imports inside a function
(``tests/test_imports.py``), so this table is the whole list of what a start does not load.

Start-up is CPU on a Pi (Python runs about 15 times slower on a Zero 2 W than on one core of a
desktop), and a module costs its bytecode, its classes and its libraries. A module goes
behind a seam when the first screen that takes a key (``pegboard run``, ``pegboard sim``)
does not use it, or when a command would otherwise load a library it uses on one path only.

A module uses a seam at its top level, the real import kept for the type checker::

    if TYPE_CHECKING:
        from pegboard.coach import advice
    else:
        advice = lazy.module("pegboard.coach.advice")

``advice`` is then a stand-in whose first attribute asked imports the module (once; later
look-ups go to the module). A package's names can also be imported from its modules when
first asked for (:func:`exports`, PEP 562), for a package whose parts do not all load
together; such a package is declared here too.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

SEAMS: Mapping[str, str] = {
    # the packages whose names load with their modules (exports)
    "pegboard.record": "the store reads its log lines (record.bounded) before the rules "
                       "engine, which the record's parser needs, is loaded",
    "pegboard.store": "the device's first frame reads the store through store.peek before "
                      "the rules engine (which engine_check needs) is loaded",
    "pegboard.service": "pegboard run sets up its logging before its first screen, and asks "
                        "logind to power off only when told to",
    # teaching and help: asked for from a menu, by a lesson, or at the end of a game
    "pegboard.coach.teaching": "what a short count missed: only once a count falls short",
    "pegboard.coach.rulehelp": "rule help: when a player asks for it, or a dispute is likely",
    "pegboard.coach.advice": "discard advice: when a player asks for it",
    "pegboard.coach.hints": "the pegging hint: when a player asks for it, or with a lesson",
    "pegboard.coach.lookahead": "the pegging coach's card: at a teaching table's play only",
    "pegboard.coach.review": "a discard reviewed by expected value: teaching, or the review",
    "pegboard.app.review_pages": "the game reviewed: from the game-over menu only",
    # drawing
    "pegboard.ui.large": "the large-print layouts: only where large print is on",
    "pegboard.ui.race": "the score-race picture: only at a game's end",
    "pegboard.stats": "the statistics (the race's values): only at a game's end, or by a "
                      "command that reports them",
    "PIL.ImageDraw": "Pillow's drawing: only to make the glyph file again",
    "PIL.ImageFont": "Pillow's font (it loads the image-file plugins): only to make the glyph "
                     "file again",
}
"""Each lazily imported module, and why it is not imported with the module that uses it."""


class Seam:
    """A module imported when its first attribute is asked for: :func:`module`."""

    __slots__ = ("_module", "_name")

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attribute: str) -> Any:
        loaded = self._module
        if loaded is None:
            loaded = self._module = importlib.import_module(self._name)
        return getattr(loaded, attribute)

    def __repr__(self) -> str:
        state = "loaded" if self._module is not None else "not loaded yet"
        return f"<lazy module {self._name!r}, {state}>"


def module(name: str) -> Any:
    """The module ``name``, imported when first used; ``name`` must be declared in
    :data:`SEAMS` (LookupError otherwise, raised as the using module is imported)."""
    if name not in SEAMS:
        raise LookupError(f"{name!r} is not a lazy seam: declare it, with its reason, in "
                          f"pegboard.lazy.SEAMS")
    return Seam(name)


def exports(package: str, space: dict[str, Any],
            homes: Mapping[str, tuple[str, ...]]) -> Callable[[str], Any]:
    """The module ``__getattr__`` of ``package`` (its ``__name__``; ``space``, its globals),
    which must be declared in :data:`SEAMS`.

    ``homes`` maps each of the package's modules to the names it gives the package. The first
    name asked of a module imports that module once and puts every one of its names in
    ``space``, so later look-ups are plain globals. No module may be named after one of the
    names, or the submodule set on the package by its import would shadow the name.
    """
    if package not in SEAMS:
        raise LookupError(f"{package!r} is not a lazy seam: declare it, with its reason, in "
                          f"pegboard.lazy.SEAMS")
    home = {name: module for module, names in homes.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = home.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        loaded = importlib.import_module(f"{package}.{module}")
        space.update({key: getattr(loaded, key) for key in homes[module]})
        return space[name]

    return __getattr__
