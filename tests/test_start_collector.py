"""The cyclic garbage collector over a start (:mod:`pegboard.commands.collector`): paused while
``pegboard run`` or the interactive ``pegboard sim`` starts (its objects last as long as the
process), running again once it waits for its first key, with what the start made left out
of later collections; and as it was found after anything else."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pegboard.cli import main
from pegboard.config import Config
from pegboard.sim.keys import parse_script
from pegboard.sim.script import run_script
from pegboard.store import Store
from tests.support.terminal import Terminal

ROOT = Path(__file__).resolve().parent.parent

WATCH = """
import gc, json, sys
from pegboard.device.loop import DeviceLoop

seen = {{}}
first_frame = DeviceLoop.start

def start(loop):  # the first frame, the last of the start's work
    seen["collecting while starting"] = gc.isenabled()
    first_frame(loop)

def serve(loop):  # ready: write what the collector does instead of serving keys
    seen["collecting when ready"] = gc.isenabled()
    seen["kept"] = gc.get_freeze_count()
    with open({out!r}, "w") as out:
        json.dump(seen, out)

DeviceLoop.start, DeviceLoop.run = start, serve
from pegboard.cli import main
sys.exit(main({argv!r}))
"""


@pytest.fixture
def collecting() -> Iterator[None]:
    """The collector on, as the test found it afterwards."""
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


@pytest.mark.parametrize("command", ["run", "sim"])
def test_a_start_is_made_without_the_collector_and_ready_with_it(
        command: str, tmp_path: Path) -> None:
    store, out = tmp_path / "store", tmp_path / "seen.json"
    with Store(store, owner="test") as opened:
        guide = (ROOT / "docs" / "guide.keys").read_text(encoding="utf-8")
        run_script(parse_script("\n".join(guide.splitlines()[:20])), Config(), opened)
    if command == "run":
        code = WATCH.format(out=str(out), argv=["run", "--display", "dummy", "--store",
                                                str(store)])
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                       text=True, env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"},
                       timeout=120)
    else:  # interactive: on a terminal
        code = WATCH.format(out=str(out), argv=["sim", "--store", str(store)])
        with Terminal(["-c", code]) as sim:
            seen = sim.read_to_end(60)
        assert sim.status == 0, seen[-400:]
    seen = json.loads(out.read_text(encoding="utf-8"))
    assert seen["collecting while starting"] is False
    assert seen["collecting when ready"] is True
    assert seen["kept"] > 10_000  # the modules, their classes, the restored game


@pytest.mark.usefixtures("collecting")
def test_a_run_that_cannot_start_leaves_the_collector_on(tmp_path: Path) -> None:
    assert main(["run", "--config", str(tmp_path / "nope.toml")]) == 2
    assert gc.isenabled()


@pytest.mark.usefixtures("collecting")
def test_any_other_command_leaves_the_collector_as_it_found_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "5H", "5S", "5C", "JD", "--starter", "5D"]) == 0
    assert gc.isenabled()
    gc.disable()
    assert main(["score", "5H", "5S", "5C", "JD", "--starter", "5D"]) == 0
    assert not gc.isenabled()
    assert "29" in capsys.readouterr().out
