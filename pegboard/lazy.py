"""A package's names imported from its modules when first asked for (PEP 562), so that
importing the package loads none of those modules: the store's first frame reads its lines
before the rules engine is loaded (see :mod:`pegboard.record` and :mod:`pegboard.store`)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def exports(package: str, space: dict[str, Any],
            homes: Mapping[str, tuple[str, ...]]) -> Callable[[str], Any]:
    """The module ``__getattr__`` of ``package`` (its ``__name__``; ``space``, its globals).

    ``homes`` maps each of the package's modules to the names it gives the package. The first
    name asked of a module imports that module once and puts every one of its names in
    ``space``, so later look-ups are plain globals. No module may be named after one of the
    names, or the submodule set on the package by its import would shadow the name.
    """
    home = {name: module for module, names in homes.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = home.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        loaded = importlib.import_module(f"{package}.{module}")
        space.update({key: getattr(loaded, key) for key in homes[module]})
        return space[name]

    return __getattr__
