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

A value is changed by making another: :func:`replace` (a copy with the fields named changed,
through ``__init__``). The type checker checks each call field by field: :class:`Value` is
marked :func:`typing.dataclass_transform`, so mypy reads a value class's annotated fields as
a frozen dataclass's, and the project's mypy plugin (``tools/mypy_values.py``) checks
:func:`replace` as mypy checks :func:`dataclasses.replace` (each name a field, each value of
its type). A value is not a dataclass at run time: the functions of :mod:`dataclasses` raise
``TypeError`` on one, and the plugin makes calling them on a value a type error.

:class:`Value` gives it what a frozen dataclass has: equality and a hash by its fields (only
with a value of the same class), a ``repr`` naming them, no assignment or deletion
(:class:`FrozenInstanceError`, an :class:`AttributeError` as the library's is), copying and
pickling through ``__init__``, and ``__replace__`` (what :func:`copy.replace` calls on Python
3.13).

Why not :func:`dataclasses.dataclass`: on Python 3.11 it compiles each method of each class
with ``exec`` as the class is made, about a millisecond a class here and fifteen on a Pi,
which a start that loads a hundred of them pays before the first screen; and importing
:mod:`dataclasses` alone (with :mod:`inspect`) costs as much as a dozen classes. Nothing the
device's start loads imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, ClassVar, TypeVar, dataclass_transform

V = TypeVar("V", bound="Value")


class FrozenInstanceError(AttributeError):
    """A field of a value assigned or deleted: a value never changes (make another with
    :func:`replace`)."""


def _nothing(value: object) -> tuple[()]:
    return ()


class FieldsOf:
    """``_fields_of`` of a value class: the getter of the fields its equality and hash read,
    made when a value of the class is first compared or hashed, and then kept on the class.

    Made lazily because most value classes a start loads are never compared before the first
    screen, and a hook run as each class is made would cost every one of them (a start makes
    about two hundred). A value class another value class derives from gives each its own
    (``__init_subclass__`` setting ``_fields_of = FieldsOf()``): the getter kept on it would
    otherwise be the one its derived classes find (``tests/test_value_types.py`` checks every
    value class of the package).
    """

    __slots__ = ()

    def __get__(self, instance: object, owner: type[Value]) -> Callable[[object], Any]:
        names = owner.__match_args__ if owner._compared is None else owner._compared
        # attrgetter of several names gives a tuple, of one the value itself: either compares
        # and hashes by the fields alone.
        fields: Callable[[object], Any] = attrgetter(*names) if names else _nothing
        type.__setattr__(owner, "_fields_of", staticmethod(fields))
        return fields


@dataclass_transform(eq_default=True, frozen_default=True)
class Value:
    """The base of a value class (see the module's documentation)."""

    __slots__ = ()
    __match_args__: ClassVar[tuple[str, ...]] = ()
    _fields_of: ClassVar[Any] = FieldsOf()
    """The value's fields, as one object to compare and hash: made for a class the first time
    one of its values is compared or hashed, then kept on the class (:class:`FieldsOf`)."""

    _compared: ClassVar[tuple[str, ...] | None] = None
    """The fields equality and the hash read, when not every field (None): a field left out
    is carried along without being part of what the value is."""

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

    def __replace__(self: V, **changes: Any) -> V:
        """This value with the fields named in ``changes`` changed (a TypeError names an
        unknown one, as ``__init__`` does)."""
        return self.__class__(**{**{name: getattr(self, name) for name in self.__match_args__},
                                 **changes})


def replace(value: V, /, **changes: Any) -> V:
    """``value`` with the fields named in ``changes`` changed (its ``__replace__``).

    The type checker checks each call field by field, as it checks
    :func:`dataclasses.replace` (the project's mypy plugin, ``tools/mypy_values.py``, which
    also makes a call of :func:`dataclasses.replace` on a value a type error: it raises
    ``TypeError`` at run time)."""
    return value.__replace__(**changes)
