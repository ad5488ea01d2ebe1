"""Pegboard's value types are the classes :mod:`dataclasses` makes, untouched, or plain value
classes (:class:`pegboard.rules.value.Value`) that behave as a frozen dataclass would: their
annotations resolve (``typing.get_type_hints``), their signatures read (``inspect.signature``)
and name their fields in order, and importing every Pegboard module changes nothing in the
library, so another library's dataclass made in the same process is made as it always is."""

from __future__ import annotations

import ast
import copy
import dataclasses
import importlib
import inspect
import pickle
import pkgutil
import subprocess
import sys
import typing
from collections.abc import Callable
from pathlib import Path

import pytest
from mypy import api

import pegboard
from pegboard.app.session import Session
from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.events import Deal, Dealt, LaidAway, Undo
from pegboard.rules.show import score_hand
from pegboard.rules.speech import CountWords
from pegboard.rules.state import Award, Reason
from pegboard.rules.value import FieldsOf, FrozenInstanceError, Value, replace
from pegboard.store.games import CurrentGame, FinishedGame, _Game
from tools.mypy_values import INSTEAD


def value_types(kind: Callable[[type], bool] = dataclasses.is_dataclass) -> list[type]:
    """Every class of ``kind`` (a dataclass) defined in a Pegboard module, every module
    imported."""
    found: dict[str, type] = {}
    for info in pkgutil.walk_packages(pegboard.__path__, "pegboard."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (isinstance(value, type) and kind(value)
                    and value.__module__ == module.__name__):
                found[f"{module.__name__}.{name}"] = value
    return list(found.values())


WORKED_OUT: dict[type, set[str]] = {Card: {"pips", "index"}, Session: {"_memo"},
                                     Award: {"_sentence"}}
"""The slots a value keeps beside its fields, made by its ``__init__``."""

MADE_WHEN_READ: dict[type, set[str]] = {Award: {"sentence"}}
"""Fields made when first read (a property over the slot named ``_`` and the field), not kept
in a slot of their own name."""


def _plain(cls: type) -> bool:
    return issubclass(cls, Value) and cls is not Value


def test_every_value_type_has_its_annotations_and_signature() -> None:
    classes = value_types()
    assert classes and Card not in classes
    for cls in classes:
        hints = typing.get_type_hints(cls.__init__)  # type: ignore[misc]
        fields = [field for field in dataclasses.fields(cls) if field.init]
        fields.sort(key=lambda field: bool(field.kw_only))  # keyword-only ones come last
        parameters = inspect.signature(cls, eval_str=True).parameters
        assert list(parameters) == [field.name for field in fields], cls
        assert {name: parameter.annotation for name, parameter in parameters.items()} == {
            field.name: hints[field.name] for field in fields}, cls
        assert typing.get_type_hints(cls).keys() >= {field.name for field in fields}, cls


def test_every_plain_value_class_names_its_fields_in_its_signature_and_annotations() -> None:
    classes = value_types(_plain)
    assert len(classes) > 80 and Dealt in classes and Card in classes
    for cls in classes:
        assert issubclass(cls, Value)
        names = cls.__match_args__
        # no field without a slot; beside its fields, a value keeps only what its __init__
        # works out (a card's counting value and index, a session's memo)
        slots = {slot for kind in cls.__mro__ for slot in vars(kind).get("__slots__", ())}
        assert slots - set(names) == WORKED_OUT.get(cls, set()), cls
        made = MADE_WHEN_READ.get(cls, set())
        assert set(names) - made <= slots, cls
        assert all(f"_{name}" in slots and isinstance(vars(cls)[name], property)
                   for name in made), cls
        assert "__dict__" not in dir(cls), cls  # nor a slot of its bases' dict
        hints = typing.get_type_hints(cls.__init__)
        parameters = inspect.signature(cls, eval_str=True).parameters
        assert list(parameters) == list(names), cls
        assert all(parameter.kind is parameter.POSITIONAL_OR_KEYWORD
                   for parameter in parameters.values()), cls
        fields = typing.get_type_hints(cls)
        assert {name: parameter.annotation for name, parameter in parameters.items()} == {
            name: fields[name] for name in names} == {name: hints[name] for name in names}, cls
        assert not names or hints["return"] is type(None), cls  # (no fields: object's)


def test_a_plain_value_is_compared_hashed_shown_and_kept_as_a_frozen_dataclass_is() -> None:
    cards = (Card.parse("5H"), Card.parse("JC"))
    dealt = Dealt(0, cards)
    assert dealt == Dealt(player=0, cards=cards) and hash(dealt) == hash(Dealt(0, cards))
    assert dealt != Dealt(1, cards) and dealt != Dealt(0, cards[:1])
    assert dealt != LaidAway(0, cards)  # the same fields, another kind of entry
    assert dealt != (0, cards) and Undo() != () and Undo() == Undo()
    assert len({dealt, Dealt(0, cards), LaidAway(0, cards), Undo(), Undo()}) == 3
    assert repr(dealt) == f"Dealt(player=0, cards={cards!r})"
    assert repr(Deal()) == "Deal(dealer=None)" and Deal() == Deal(None) != Deal(1)
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'player'"):
        dealt.player = 1  # type: ignore[misc]
    with pytest.raises(AttributeError, match="cannot delete field 'cards'"):
        del dealt.cards
    assert dealt.player == 0
    for kept in (copy.copy(dealt), copy.deepcopy(dealt), pickle.loads(pickle.dumps(dealt))):
        assert kept == dealt and type(kept) is Dealt
    moved = replace(dealt, player=1)
    assert moved == Dealt(1, cards) and type(moved) is Dealt and dealt.player == 0
    assert replace(dealt) == dealt and dealt.__replace__(cards=()) == Dealt(0, ())
    assert replace(Deal(), dealer=2) == Deal(2)
    with pytest.raises(TypeError, match="unexpected keyword argument 'seat'"):
        replace(dealt, seat=1)  # type: ignore[call-arg]
    ace = Card.parse("AS")
    assert (ace.pips, ace.index) == (1, 3) and pickle.loads(pickle.dumps(ace)).index == 3
    assert repr(ace) == "Card.parse('AS')" and ace == Card.parse("as") and ace < Card.parse("2C")
    match dealt:
        case Dealt(seat, held):
            assert (seat, held) == (0, cards)
        case _:
            pytest.fail("a positional pattern names the fields in order")


def test_a_counts_award_says_its_words_when_first_read_and_is_the_award_made_with_them(
) -> None:
    hand, starter = tuple(parse_cards("5H 5S JC 4D")), Card.parse("6C")
    counted = score_hand(hand, starter)
    words = CountWords("Ann", False, hand, counted, frozenset((*hand, starter)))
    text = words.text()
    assert text == ("Ann: hand 4♦ 5♥ 5♠ J♣: Fifteen 2 (5♥ J♣), fifteen 4 (5♠ J♣), fifteen 6 "
                    "(4♦ 5♥ 6♣), fifteen 8 (4♦ 5♠ 6♣), a double run is 16, and his nob is 17")
    assert CountWords("", True, hand, counted, frozenset()).text().startswith(
        "crib 4? 5? 5? J?: Fifteen 2 (5? J?), ")

    def made() -> Award:
        return Award.counted(0, 0, counted.total, Reason.HAND, words, counted.items, hand)

    said = Award(0, 0, counted.total, Reason.HAND, text, counted.items, hand)
    assert made() == said and said == made() and hash(made()) == hash(said)
    assert repr(made()) == repr(said) and made() != Award.counted(
        0, 0, counted.total, Reason.HAND, CountWords("Ben", False, hand, counted, frozenset()),
        counted.items, hand)
    award = made()
    assert award.sentence == text and award.sentence is award.sentence  # made once, kept
    for kept in (copy.copy(made()), copy.deepcopy(made()), pickle.loads(pickle.dumps(made())),
                 replace(made(), points=counted.total)):
        assert kept == said and kept.sentence == text and type(kept) is Award
    with pytest.raises(FrozenInstanceError, match="'sentence'"):
        award.sentence = "x"  # type: ignore[misc]


def test_a_value_class_makes_its_fields_getter_when_first_compared_and_each_derived_its_own(
) -> None:
    class Seat(Value):
        __slots__ = ("player",)
        __match_args__ = ("player",)
        player: int

        def __init__(self, player: int) -> None:
            object.__setattr__(self, "player", player)

    assert "_fields_of" not in vars(Seat)  # nothing made as the class was
    assert Seat(1) == Seat(1) != Seat(2) and hash(Seat(1)) == hash(Seat(1))
    assert "_fields_of" in vars(Seat)  # made once, then kept on the class
    derived = [cls for cls in value_types(_plain)
               if any(_plain(base) for base in cls.__mro__[1:])]
    assert CurrentGame in derived and FinishedGame in derived
    # each value class derived from another has its own: the one made for its base first
    # would otherwise be the one it finds, and compare it by its base's fields
    assert all(isinstance(vars(cls).get("_fields_of"), FieldsOf | staticmethod)
               for cls in derived)
    path, record = Path("g.log"), ({"type": "game"},)
    base = _Game("g", path, record, (0.0,))
    assert base == _Game("g", path, record, (0.0,))  # the base's getter made first
    assert CurrentGame("g", path, record, (0.0,), seats=(0,)) != CurrentGame(
        "g", path, record, (0.0,), seats=(1,))


CHECK = """
import dataclasses, importlib, pkgutil, sys
before = dict(vars(dataclasses)); finders = list(sys.meta_path)
import pegboard
from pegboard.app.session import Session
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
from pathlib import Path
print(typing.get_type_hints(Other.__init__))
"""


def test_importing_pegboard_changes_nothing_in_dataclasses() -> None:
    done = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True,
                          check=True, timeout=120)
    assert done.stdout.splitlines() == [
        "[] True", "{'size': <class 'int'>, 'return': <class 'NoneType'>}"]


CHANGED = """
import dataclasses
from typing import Generic, TypeVar

from pegboard.rules.events import Dealt
from pegboard.rules.value import Value, replace

dealt = Dealt(0, ())
kept: Dealt = replace(dealt, player=1)
replace(dealt, player="1")
replace(dealt, seat=1)
dealt.player = 1
dataclasses.replace(dealt, player=1)
dataclasses.asdict(dealt)
V = TypeVar("V", bound=Dealt)
def moved(value: V) -> V:
    return dataclasses.replace(value)
dataclasses.fields(Dealt)

@dataclasses.dataclass(frozen=True)
class Other:
    size: int

replace(Other(1), size=2)

T = TypeVar("T")

class Box(Value, Generic[T]):
    __slots__ = ("item", "count")
    __match_args__ = ("item", "count")
    item: T
    count: int

    def __init__(self, item: T, count: int) -> None:
        object.__setattr__(self, "item", item)
        object.__setattr__(self, "count", count)

class Tray(Value):
    __slots__ = ("count", "item")
    __match_args__ = ("count", "item")
    count: int
    item: str

    def __init__(self, count: int, item: str) -> None:
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "item", item)

boxed: Box[str] = replace(Box("a", 1), item="b")
replace(Box("a", 1), item=2)
def either(value: Box[bytes] | Tray) -> Box[bytes] | Tray:
    replace(value, item="c")
    return replace(value, count=2)
def bounded(value: V) -> V:
    return replace(value, player="2")
"""


def test_the_type_checker_checks_each_change_of_a_value_field_by_field(tmp_path: Path) -> None:
    changed = tmp_path / "changed.py"
    changed.write_text(CHANGED, encoding="utf-8")
    out, _, status = api.run(["--strict", "--no-error-summary", "--hide-error-context",
                              "--cache-dir", str(tmp_path / "cache"), str(changed)])
    assert status == 1
    assert [line.split(": error: ")[1] for line in out.splitlines() if ": error: " in line] == [
        'Argument "player" to "replace" of "Dealt" has incompatible type "str"; expected '
        '"int"  [arg-type]',
        'Unexpected keyword argument "seat" for "replace" of "Dealt"  [call-arg]',
        'Property "player" defined in "Dealt" is read-only  [misc]',
        *(f'dataclasses.{function} raises TypeError on "Dealt": a Pegboard value is not a '
          f'dataclass at run time ({instead})  [value-not-dataclass]'
          for function, instead in [("replace", REPLACE), ("asdict", FIELDS),
                                    ("replace", REPLACE), ("fields", FIELDS)]),
        'pegboard.rules.value.replace changes a Pegboard value, not changed.Other (a '
        'dataclass: dataclasses.replace)  [value-not-dataclass]',
        # a generic value's fields with its type arguments
        'Argument "item" to "replace" of "Box[str]" has incompatible type "int"; expected "str"  '
        '[arg-type]',
        # a union: only a field of every class, of one type in all
        'Unexpected keyword argument "item" for "replace" of "Box[bytes] | Tray"  [call-arg]',
        # a type variable: its bound's fields
        'Argument "player" to "replace" of "V" has incompatible type "str"; expected "int"  '
        '[arg-type]']


def test_the_type_checker_plugin_uses_only_the_plugin_interface() -> None:
    """The plugin reads a value's fields itself through the hooks' public context, not
    through mypy's own dataclasses plugin, whose internals change between releases."""
    tree = ast.parse(Path("tools/mypy_values.py").read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                 for alias in node.names}
    assert {name for name in imported if name and name.startswith("mypy.plugins")} == set()


REPLACE = "change it with pegboard.rules.value.replace"
FIELDS = "its fields are named in __match_args__"


def test_each_function_of_dataclasses_the_type_checker_refuses_on_a_value_fails_on_one() -> None:
    dealt = Dealt(0, ())
    assert set(INSTEAD) == {"dataclasses.replace", "dataclasses.asdict",
                            "dataclasses.astuple", "dataclasses.fields"}
    for name in INSTEAD:
        with pytest.raises(TypeError, match="dataclass"):
            getattr(dataclasses, name.removeprefix("dataclasses."))(dealt)
    # copy.replace (Python 3.13) is the value's own __replace__, which works
    assert dealt.__replace__(player=1) == Dealt(1, ())
