"""Pegboard's value types are the classes :mod:`dataclasses` makes, untouched: their
annotations resolve (``typing.get_type_hints``), their signatures read (``inspect.signature``),
and importing every Pegboard module changes nothing in the library, so another library's
dataclass made in the same process is made as it always is."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import subprocess
import sys
import typing

import pegboard
from pegboard.rules.cards import Card


def value_types() -> list[type]:
    """Every dataclass defined in a Pegboard module, every module imported."""
    found: dict[str, type] = {}
    for info in pkgutil.walk_packages(pegboard.__path__, "pegboard."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (isinstance(value, type) and dataclasses.is_dataclass(value)
                    and value.__module__ == module.__name__):
                found[f"{module.__name__}.{name}"] = value
    return list(found.values())


def test_every_value_type_has_its_annotations_and_signature() -> None:
    classes = value_types()
    assert len(classes) > 150 and Card in classes
    for cls in classes:
        hints = typing.get_type_hints(cls.__init__)  # type: ignore[misc]
        fields = [field for field in dataclasses.fields(cls) if field.init]
        fields.sort(key=lambda field: bool(field.kw_only))  # keyword-only ones come last
        parameters = inspect.signature(cls, eval_str=True).parameters
        assert list(parameters) == [field.name for field in fields], cls
        assert {name: parameter.annotation for name, parameter in parameters.items()} == {
            field.name: hints[field.name] for field in fields}, cls
        assert typing.get_type_hints(cls).keys() >= {field.name for field in fields}, cls
    assert typing.get_type_hints(Card.__init__)["return"] is type(None)


CHECK = """
import dataclasses, importlib, pkgutil, sys
before = dict(vars(dataclasses)); finders = list(sys.meta_path)
import pegboard
for info in pkgutil.walk_packages(pegboard.__path__, "pegboard."):
    if not info.name.endswith("__main__"):
        importlib.import_module(info.name)
changed = sorted(k for k in set(before) | set(vars(dataclasses))
                 if vars(dataclasses).get(k, before) is not before.get(k, finders))
print(changed, sys.meta_path == finders)

@dataclasses.dataclass(frozen=True)
class Other:
    size: "int"
import typing
print(typing.get_type_hints(Other.__init__))
"""


def test_importing_pegboard_changes_nothing_in_dataclasses() -> None:
    done = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True,
                          check=True, timeout=120)
    assert done.stdout.splitlines() == [
        "[] True", "{'size': <class 'int'>, 'return': <class 'NoneType'>}"]
