"""The type checker's rules for Pegboard's value classes (``pegboard.rules.value.Value``).

A value class is marked :func:`typing.dataclass_transform`, so mypy reads its annotated fields
as a frozen dataclass's. At run time it is not a dataclass: :func:`dataclasses.replace`,
:func:`~dataclasses.asdict`, :func:`~dataclasses.astuple` and :func:`~dataclasses.fields`
raise ``TypeError`` on it, though mypy alone accepts each call. This plugin (``[tool.mypy]
plugins`` in ``pyproject.toml``) makes such a call a type error, naming what to use instead,
and checks :func:`pegboard.rules.value.replace` field by field as mypy checks
:func:`dataclasses.replace` (each keyword a field of the value's class, each value of its type).

:func:`copy.replace` (Python 3.13) is left alone: it calls the value's ``__replace__``, which
a value has, and mypy reads the project as Python 3.11, where the function does not exist.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.errorcodes import ErrorCode
from mypy.plugin import FunctionContext, FunctionSigContext, Plugin
from mypy.plugins.dataclasses import replace_function_sig_callback
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    ProperType,
    Type,
    TypeType,
    TypeVarType,
    UnionType,
    get_proper_type,
)

VALUE = "pegboard.rules.value.Value"
"""The base of every value class."""

REPLACE = "pegboard.rules.value.replace"
"""The one way to change a value: checked as mypy checks :func:`dataclasses.replace`."""

INSTEAD = {
    "dataclasses.replace": "change it with pegboard.rules.value.replace",
    "dataclasses.asdict": "its fields are named in __match_args__",
    "dataclasses.astuple": "its fields are named in __match_args__",
    "dataclasses.fields": "its fields are named in __match_args__",
}
"""The functions of :mod:`dataclasses` that refuse a value at run time, and what to use."""

NOT_A_DATACLASS = ErrorCode(
    "value-not-dataclass", "A Pegboard value given to a function of dataclasses", "General")


def _value_classes(typ: Type) -> list[str]:
    """The value classes ``typ`` may be (an instance, the class itself, a type variable bound
    to one, or a union of them)."""
    proper: ProperType = get_proper_type(typ)
    if isinstance(proper, TypeVarType):
        proper = get_proper_type(proper.upper_bound)
    if isinstance(proper, UnionType):
        return [name for item in proper.items for name in _value_classes(item)]
    if isinstance(proper, TypeType):
        proper = get_proper_type(proper.item)
    if isinstance(proper, CallableType) and proper.is_type_obj():
        proper = get_proper_type(proper.ret_type)
    if isinstance(proper, Instance) and proper.type.has_base(VALUE):
        return [proper.type.name]
    return []


def _refused(function: str) -> Callable[[FunctionContext], Type]:
    def check(ctx: FunctionContext) -> Type:
        given = [name for types in ctx.arg_types[:1] for typ in types
                 for name in _value_classes(typ)]
        if given:
            ctx.api.fail(
                f'{function} raises TypeError on "{given[0]}": a Pegboard value is not a '
                f"dataclass at run time ({INSTEAD[function]})", ctx.context,
                code=NOT_A_DATACLASS)
        return ctx.default_return_type

    return check


def _values_only(ctx: FunctionContext) -> Type:
    """:func:`pegboard.rules.value.replace` of something not a value: it calls the value's
    ``__replace__``, which a dataclass has only from Python 3.13."""
    for typ in (typ for types in ctx.arg_types[:1] for typ in types):
        if not isinstance(get_proper_type(typ), AnyType) and not _value_classes(typ):
            ctx.api.fail(f"{REPLACE} changes a Pegboard value, not {typ} (a dataclass: "
                         "dataclasses.replace)", ctx.context, code=NOT_A_DATACLASS)
    return ctx.default_return_type


class ValuePlugin(Plugin):
    """Pegboard's value classes, as the type checker reads them."""

    def get_function_signature_hook(
        self, fullname: str,
    ) -> Callable[[FunctionSigContext], CallableType] | None:
        return replace_function_sig_callback if fullname == REPLACE else None

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        if fullname == REPLACE:
            return _values_only
        return _refused(fullname) if fullname in INSTEAD else None


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point: the plugin, whatever mypy's version (the tests hold it to it)."""
    return ValuePlugin
