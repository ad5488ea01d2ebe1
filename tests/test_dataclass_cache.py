"""The compiled methods of the value types, kept between runs: a class made from the table is
the class the library would make, a damaged table is never trusted, and a warm start compiles
nothing."""

from __future__ import annotations

import dataclasses
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pegboard import dataclass_cache
from pegboard.dataclass_cache import MethodTable

SOURCE = '''
from __future__ import annotations
from dataclasses import dataclass

@dataclass(frozen=True, slots=True)
class Peg:
    """A peg."""
    player: int
    hole: int = 0
    names: tuple[str, ...] = ()
'''


def make(table: MethodTable) -> type:
    """The class of ``SOURCE`` made with ``table`` standing in for the library's ``exec``."""
    saved = dataclasses.exec  # type: ignore[attr-defined]
    dataclasses.exec = table.exec  # type: ignore[attr-defined]
    try:
        space: dict[str, object] = {"__name__": "tests.peg_values"}
        sys.modules["tests.peg_values"] = type(sys)("tests.peg_values")
        exec(SOURCE, space)
        made = space["Peg"]
        assert isinstance(made, type)
        return made
    finally:
        dataclasses.exec = saved  # type: ignore[attr-defined]
        sys.modules.pop("tests.peg_values", None)


def behaves(peg: type) -> None:
    one = peg(1, 5, ("Ann",))
    assert one == peg(1, 5, ("Ann",)) and one != peg(1, 6)
    assert hash(one) == hash(peg(1, 5, ("Ann",)))
    assert repr(peg(0)) == "Peg(player=0, hole=0, names=())"
    with pytest.raises(dataclasses.FrozenInstanceError):
        one.hole = 9
    assert dataclasses.replace(one, hole=7) == peg(1, 7, ("Ann",))
    assert [f.name for f in dataclasses.fields(peg)] == ["player", "hole", "names"]


def test_a_class_made_from_the_table_is_the_class_the_library_makes(tmp_path: Path) -> None:
    path = tmp_path / "methods.bin"
    first = MethodTable(path)
    behaves(make(first))
    assert first.added == 6  # __init__, __repr__, __eq__, __hash__, __setattr__, __delattr__
    assert first.save(force=True) and path.exists()

    again = MethodTable(path)
    behaves(make(again))
    assert again.added == 0 and len(again.used) == 6  # every method came from the file
    assert not again.save(force=True)  # nothing new: the file is left as it is


def test_a_damaged_table_is_not_trusted(tmp_path: Path) -> None:
    path = tmp_path / "methods.bin"
    path.write_bytes(b"\x00 not a table")
    table = MethodTable(path)
    assert table.stored == {}
    behaves(make(table))
    assert table.added == 6

    # an entry whose code is not code (a file cut short, another interpreter): compiled anew
    table.save(force=True)
    bent = MethodTable(path)
    bent.stored = {source: b"\xff" for source in bent.stored}
    behaves(make(bent))
    assert bent.added == 6


def test_it_writes_only_where_bytecode_may_be_written(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "cache" / "methods.bin"
    table = MethodTable(path)
    make(table)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert not table.save() and not path.exists()
    assert table.save(force=True) and path.exists()  # the install step writes all the same


def test_an_unwritable_place_is_reported_not_raised(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder would go")
    table = MethodTable(blocker / "methods.bin")
    make(table)
    assert not table.save(force=True)
    assert blocker.read_text() == "a file where the folder would go"


def test_the_package_installs_it_once() -> None:
    assert dataclass_cache.install() is dataclass_cache.install()
    assert dataclasses.exec == dataclass_cache.install().exec  # type: ignore[attr-defined]


def test_after_the_install_step_a_start_compiles_nothing() -> None:
    """``python -m pegboard.dataclass_cache`` (run by install.sh and the Makefile) leaves a
    table from which the simulator's and the device's start make every class."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    stale = MethodTable(dataclass_cache.table_path())
    stale.stored = {**stale.stored, "def gone(): pass": marshal.dumps(compile("0", "s", "eval"))}
    stale.added = 1
    assert stale.save(force=True)
    warm = subprocess.run([sys.executable, "-m", "pegboard.dataclass_cache"], env=env,
                          capture_output=True, text=True, check=True, timeout=120)
    assert "dataclass methods compiled in" in warm.stdout
    start = ("from pegboard import dataclass_cache\n"
             "import pegboard.commands.sim, pegboard.commands.run, pegboard.device.build\n"
             "import pegboard.sim.splash, pegboard.sim.terminal\n"
             "table = dataclass_cache.install()\n"
             "print(table.added, len(table.used))\n")
    done = subprocess.run([sys.executable, "-c", start], env=env, capture_output=True,
                          text=True, check=True, timeout=120)
    added, used = map(int, done.stdout.split())
    assert added == 0 and used > 500
    # the install step keeps exactly what the code makes now: a source no class makes is gone
    assert "def gone(): pass" not in MethodTable(dataclass_cache.table_path()).stored


def test_the_library_is_patched_when_it_is_first_imported_not_before() -> None:
    """Importing Pegboard neither imports dataclasses nor reads the table (the simulator's
    splash makes no value type); the library is patched as it is imported."""
    code = ("import sys\n"
            "import pegboard\n"
            "from pegboard import dataclass_cache\n"
            "table = dataclass_cache.install()\n"
            "print('dataclasses' in sys.modules, table._stored is None)\n"
            "import dataclasses, inspect\n"
            "source = inspect.getsource(dataclasses)\n"
            "print(dataclasses.exec == table.exec, 'def dataclass' in source)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=60)
    assert done.stdout.split() == ["False", "True", "True", "True"]
