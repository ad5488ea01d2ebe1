"""Immutable values as plain classes: the engine's entries, facts and states.

A value class lists its fields once in ``__match_args__`` (the order of its ``__init__``'s
parameters, and of positional patterns in ``match``), keeps them in ``__slots__``, annotates
them, and writes its ``__init__`` setting each through :func:`object.__setattr__`::

    class Dealt(Value):
        __slots__ = ("player", "cards")
        __match_args__ = ("player", "cards")
        player: int
        cards: tuple[Card, ...]

        def __init__(self, player: int, cards: tuple[Card, ...]) -> None:
            setter = object.__setattr__
            setter(self, "player", player)
            setter(self, "cards", cards)

:class:`Value` gives it what a frozen dataclass has: equality and a hash by its fields (only
with a value of the same class), a ``repr`` naming them, no assignment or deletion
(:class:`dataclasses.FrozenInstanceError`), and copying and pickling through ``__init__``.

Why not :func:`dataclasses.dataclass`: on Python 3.11 it compiles each method of each class
with ``exec`` as the class is made, about a millisecond a class here and fifteen on a Pi,
which a start that loads a hundred of them pays before the first screen. A value the code
changes with :func:`dataclasses.replace`, or reads through :func:`dataclasses.fields`, stays a
dataclass, which the type checker follows field by field.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from operator import attrgetter
from typing import Any, ClassVar


def _nothing(value: object) -> tuple[()]:
    return ()


class Value:
    """The base of a value class (see the module's documentation)."""

    __slots__ = ()
    __match_args__: ClassVar[tuple[str, ...]] = ()
    _fields_of: ClassVar[Any] = staticmethod(_nothing)
    """The value's fields, as one object to compare and hash (made once per class)."""

    def __init_subclass__(cls, **options: Any) -> None:
        super().__init_subclass__(**options)
        names = cls.__match_args__
        # attrgetter of several names gives a tuple, of one the value itself: either compares
        # and hashes by the fields alone.
        cls._fields_of = staticmethod(attrgetter(*names) if names else _nothing)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return bool(self._fields_of(self) == self._fields_of(other))

    def __hash__(self) -> int:
        return hash(self._fields_of(self))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"{self.__class__.__qualname__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type[Value], tuple[object, ...]]:
        return self.__class__, tuple(getattr(self, name) for name in self.__match_args__)
