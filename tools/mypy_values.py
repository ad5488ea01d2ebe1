"""The type checker's rules for Pegboard's value classes (``pegboard.rules.value.Value``).

A value class is marked :func:`typing.dataclass_transform`, so mypy reads its annotated fields
as a frozen dataclass's. At run time it is not a dataclass: :func:`dataclasses.replace`,
:func:`~dataclasses.asdict`, :func:`~dataclasses.astuple` and :func:`~dataclasses.fields`
raise ``TypeError`` on it, though mypy alone accepts each call. This plugin (``[tool.mypy]
plugins`` in ``pyproject.toml``) makes such a call a type error, naming what to use instead,
and checks :func:`pegboard.rules.value.replace` field by field as mypy checks
:func:`dataclasses.replace` (each keyword a field of the value's class, each value of its type).
It reads the fields itself, from the value class's ``__init__`` as the checker knows it, through
the hooks' context: mypy's own dataclasses plugin is mypy's internals, not an interface.

:func:`copy.replace` (Python 3.13) is left alone: it calls the value's ``__replace__``, which
a value has, and mypy reads the project as Python 3.11, where the function does not exist.
"""

from __future__ import annotations

from collections.abc import Callable

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

# isort: split
# mypy.types first: it and mypy.expandtype import each other, and only that order loads.
from mypy.errorcodes import ErrorCode
from mypy.expandtype import expand_type_by_instance
from mypy.maptype import map_instance_to_supertype
from mypy.nodes import ARG_NAMED, ARG_NAMED_OPT, ARG_OPT, ARG_POS, FuncBase
from mypy.plugin import FunctionContext, FunctionSigContext, Plugin

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


Changes = dict[str, Type]
"""The keywords :func:`~pegboard.rules.value.replace` takes for a value, each with its type."""


def _changes(typ: ProperType) -> list[Changes] | None:
    """What ``replace`` may change in a value of type ``typ``: one set of keywords per value
    class it may be, or None when that is not known (``Any``, the base :class:`Value` itself,
    something not a value: the default signature stands and the function hook judges it).

    ``replace`` makes the copy through the class's ``__init__`` (``__replace__``), so its
    keywords are that ``__init__``'s parameters, each of its type (a value's ``__init__``
    takes its fields in order, and only them: ``tests/test_value_types.py``); a generic
    value's are read with its type arguments."""
    if isinstance(typ, TypeVarType):
        return _changes(get_proper_type(typ.upper_bound))
    if isinstance(typ, UnionType):
        found: list[Changes] = []
        for item in typ.relevant_items():
            each = _changes(get_proper_type(item))
            if each is None:
                return None
            found += each
        return found
    if not (isinstance(typ, Instance) and typ.type.has_base(VALUE)
            and typ.type.fullname != VALUE):
        return None
    owner = next((base for base in typ.type.mro if "__init__" in base.names), None)
    init = owner.names["__init__"].node if owner is not None else None
    if owner is None or not isinstance(init, FuncBase):
        return None
    signature = get_proper_type(init.type)
    if not isinstance(signature, CallableType):
        return None
    signature = get_proper_type(
        expand_type_by_instance(signature, map_instance_to_supertype(typ, owner)))
    assert isinstance(signature, CallableType)
    parameters = list(zip(signature.arg_names, signature.arg_kinds, signature.arg_types,
                          strict=True))[1:]
    if any(name is None or kind not in (ARG_POS, ARG_OPT, ARG_NAMED, ARG_NAMED_OPT)
           for name, kind, _ in parameters):
        return None  # *args or **kwargs: not a value's own __init__
    return [{name: typ for name, _, typ in parameters if name is not None}]


def _replace_signature(ctx: FunctionSigContext) -> CallableType:
    """:func:`pegboard.rules.value.replace`'s signature for the value it is given: that value
    first, then each field it may change as an optional keyword of the field's type, and the
    value's own type returned.

    For a value that may be of several classes (a union), a keyword is a field of every one
    of them, of the same type in each; a field of only some, or of different types, is left
    out, so naming it is an error (naming the call's ``replace`` of the union)."""
    default = ctx.default_signature
    if len(ctx.args) != 2 or len(ctx.args[0]) != 1:
        return default  # the checker's own errors say what is wrong with the call
    value = get_proper_type(ctx.api.get_expression_type(ctx.args[0][0]))
    each = _changes(value)
    if each is None and not isinstance(value, AnyType) and not _value_classes(value):
        # Not a value at all: the function hook says so, in one error naming what to use.
        return default.copy_modified(arg_types=[value, *default.arg_types[1:]],
                                     ret_type=value)
    if not each:
        return default
    shared = {name: typ for name, typ in each[0].items()
              if all(name in other and other[name] == typ for other in each[1:])}
    return default.copy_modified(
        arg_names=[None, *shared],
        arg_kinds=[ARG_POS, *[ARG_NAMED_OPT] * len(shared)],
        arg_types=[value, *shared.values()],
        ret_type=value,
        name=f"{default.name} of {_shown(value)}",
    )


def _shown(typ: ProperType) -> str:
    """A type as the checker's messages name it: a class by its bare name."""
    if isinstance(typ, Instance):
        arguments = ", ".join(_shown(get_proper_type(item)) for item in typ.args)
        return f"{typ.type.name}[{arguments}]" if arguments else typ.type.name
    if isinstance(typ, UnionType):
        return " | ".join(_shown(get_proper_type(item)) for item in typ.items)
    if isinstance(typ, TypeVarType):
        return typ.name
    return str(typ)


class ValuePlugin(Plugin):
    """Pegboard's value classes, as the type checker reads them."""

    def get_function_signature_hook(
        self, fullname: str,
    ) -> Callable[[FunctionSigContext], CallableType] | None:
        return _replace_signature if fullname == REPLACE else None

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        if fullname == REPLACE:
            return _values_only
        return _refused(fullname) if fullname in INSTEAD else None


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point: the plugin, whatever mypy's version (the tests hold it to it)."""
    return ValuePlugin
