"""``pegboard sim`` and ``pegboard run`` reach the first screen that takes a key without
loading what that screen does not use (each module costs start-up CPU, seconds on a Pi).

The processes are the real commands, restoring a game in progress; their loop, instead of
waiting for the first key, writes the modules loaded so far and ends (``bench/bench_start.py``
times the same start-up)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pegboard.config import Config
from pegboard.sim.keys import parse_script
from pegboard.sim.script import run_script
from pegboard.store import Store
from tests.support.terminal import Terminal

ROOT = Path(__file__).resolve().parent.parent
GUIDE = (ROOT / "docs" / "guide.keys").read_text(encoding="utf-8")

NOT_BEFORE_A_KEY = (
    "pegboard.link",  # no LED board in the config
    "pegboard.voice",  # voice off: opened if a player turns audio mode on
    "pegboard.app.sounds",  # audio mode's sounds
    "pegboard.device.leds",  # the LED board's observer, with the board
    "pegboard.device.ports", "pegboard.device.bench",  # Test the box, from the home menu
    "pegboard.device.pairing", "pegboard.device.phones",  # phones off: their observer, server
    "pegboard.device.club_status",  # the club publisher's status: only on a club board
    "pegboard.stats", "pegboard.ui.race",  # the race picture of a game's end
    "pegboard.ui.large",  # large print is off
    "pegboard.coach.advice", "pegboard.coach.hints", "pegboard.coach.rulehelp",
    "pegboard.coach.help_topics", "pegboard.coach.teaching",  # asked for from the menu
    "pegboard.coach.review", "pegboard.coach.lessons", "pegboard.app.review_pages",  # game over
    "pegboard.coach.lookahead", "pegboard.coach.drills", "pegboard.coach.help_basics",
    "pegboard.club",  # not a club night's board
    "pegboard.web", "pegboard.store.index", "pegboard.store.replay_text",
    "serial", "sqlite3",
    "difflib",  # a mistake in the config file (the closest valid name)
    "argparse", "gettext",  # the plain options are read by the command's own table
    "encodings.ascii",  # the glyph file is decoded by bytes.decode's own ASCII
    "pegboard.service.power",  # asked of logind when a player powers off
    "pegboard.rules.fast",  # the totals-only scorer: advice and statistics
    # a screen's module with that screen: a restored game's first is a page over the table
    "pegboard.app.start", "pegboard.app.club_setup",  # home, setup, dealer, cut
    "pegboard.app.menus", "pegboard.app.help", "pegboard.app.game_over",
    "pegboard.app.own_count", "pegboard.app.pegging",
    "pegboard.app.pairing", "pegboard.app.seat_entry",  # phones
    "pegboard.app.club_notice",  # a club night's board
    # the table's wheel and what it needs come after the restored game's page is read
    "pegboard.app.table", "pegboard.app.wheels", "pegboard.app.calls",
    "pegboard.app.resuit", "pegboard.app.private",
    "pegboard.app.teach", "pegboard.app.open_hands",  # with the first entry, or teaching
    "pegboard.app.coach",
    "pegboard.app.pages", "pegboard.app.held_counts",  # an entry's pages: with the first step
    "pegboard.app.picker",  # the wheel's choices: with the wheel
    "pegboard.app.suit_facts",  # what a suit does to a count: with the wheel
    "pegboard.rules.fold",  # the race, folded at a game's end
)
"""Modules (and their submodules) neither command loads before its first screen takes a key."""

PINS = ("gpiozero", "pegboard.hw.inputs", "pegboard.hw.gestures", "pegboard.sim.hands")
"""The input kit on gpiozero: ``pegboard run`` has its buttons before it is ready (a key
pressed on the board is never lost); the simulator, whose keys come from the terminal, makes
its mock pins on the first key."""

NOT_IN_THE_SIMULATOR = (
    *PINS, "tomllib", "pegboard.config.toml_guard",  # its defaults: no config file to parse
    "dataclasses", "inspect",  # Pegboard's values are plain classes (pegboard run: gpiozero's)
    "socket",  # no phones (pegboard run: systemd's notify socket)
)

SERVE = """
import json, sys
from pegboard.device.loop import DeviceLoop

def serve(loop):  # the first screen is drawn: write what is loaded instead of serving keys
    with open({out!r}, "w") as out:
        json.dump(sorted(sys.modules), out)
    # the protocols Pegboard made so far that no isinstance asks about (typing only)
    made = [f"{{name}}.{{key}}" for name, module in sorted(sys.modules.items())
            if name.startswith("pegboard") for key, value in vars(module).items()
            if isinstance(value, type) and value.__module__ == name
            and getattr(value, "_is_protocol", False)
            and not getattr(value, "_is_runtime_protocol", False)]
    with open({out!r} + ".protocols", "w") as out:
        json.dump(made, out)

DeviceLoop.run = serve
from pegboard.cli import main
sys.exit(main({argv!r}))
"""


SPLASH = """
import json, os, sys
from pegboard.sim import splash

def drawn(out, store):  # the first frame: write what is loaded before it instead, and end
    with open({out!r}, "w") as written:
        json.dump(sorted(sys.modules), written)
    os._exit(0)

splash.draw_splash = drawn
from pegboard.cli import main
sys.exit(main({argv!r}))
"""

BEFORE_THE_SPLASH = ("pegboard.config", "pegboard.rules.cards", "pegboard.rules.scoring",
                     "pegboard.app", "pegboard.device", "dataclasses", "socket")
"""What the simulator's first frame (the splash) is drawn without: its arguments are read
without the configuration and the sockets (``--phones``), a value's base without the engine's
scorers."""


def _game_in_progress(store: Path) -> None:
    with Store(store, owner="test") as opened:
        run_script(parse_script("\n".join(GUIDE.splitlines()[:20])), Config(), opened)


EXAMPLE = ROOT / "systemd" / "config.example.toml"
"""The config a box is installed with (systemd/install.sh): every feature it leaves off stays
unloaded as with no config at all."""


def _run_loads(store: Path, out: Path, config: Path | None = None) -> set[str]:
    argv = ["run", "--display", "dummy", "--store", str(store),
            *(["--config", str(config)] if config is not None else [])]
    code = SERVE.format(out=str(out), argv=argv)
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True,
                   env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"})
    return set(json.loads(out.read_text(encoding="utf-8")))


def _installed_run_loads(store: Path, out: Path) -> set[str]:
    return _run_loads(store, out, EXAMPLE)


def _sim_loads(store: Path, out: Path) -> set[str]:
    """The interactive simulator on a pseudo-terminal (it draws its frames only there)."""
    code = SERVE.format(out=str(out), argv=["sim", "--store", str(store)])
    with Terminal(["-c", code]) as sim:
        seen = sim.read_to_end(60)  # until the simulator ends and its terminal closes with it
    assert sim.status == 0, seen[-400:]
    assert b"Keys:" in seen  # the simulator's own frame, after the splash
    return set(json.loads(out.read_text(encoding="utf-8")))


@pytest.mark.parametrize("command", ["sim", "run", "run installed"])
def test_the_first_screen_that_takes_a_key_loads_only_what_it_uses(
    command: str, tmp_path: Path,
) -> None:
    store = tmp_path / "store"
    _game_in_progress(store)
    loads = {"sim": _sim_loads, "run": _run_loads, "run installed": _installed_run_loads}[command]
    loaded = loads(store, tmp_path / "modules.json")
    assert {"pegboard.app.machine", "pegboard.rules.game", "pegboard.ui.render"} <= loaded
    lazy = NOT_BEFORE_A_KEY + NOT_IN_THE_SIMULATOR if command == "sim" else NOT_BEFORE_A_KEY
    assert sorted(name for name in loaded for heavy in lazy
                  if name == heavy or name.startswith(heavy + ".")) == []
    if command != "sim":
        assert set(PINS[:3]) <= loaded
    if command == "run installed":
        assert "tomllib" in loaded  # the installed config file was read
    commands = {name for name in loaded if name.startswith("pegboard.commands.")}
    helpers = {"pegboard.commands.paths", "pegboard.commands.phone_seats",
               "pegboard.commands.options", "pegboard.commands.collector"}
    assert commands - helpers == {f"pegboard.commands.{command.split()[0]}"}
    # A protocol only the type checker reads is not made at run time (each costs a class).
    made = Path(f"{tmp_path / 'modules.json'}.protocols").read_text(encoding="utf-8")
    assert json.loads(made) == []


def test_the_simulators_first_frame_comes_before_its_config_and_its_engine(
    tmp_path: Path,
) -> None:
    store, out = tmp_path / "store", tmp_path / "modules.json"
    _game_in_progress(store)
    code = SPLASH.format(out=str(out), argv=["sim", "--store", str(store)])
    with Terminal(["-c", code]) as sim:
        seen = sim.read_to_end(60)
    assert sim.status == 0, seen[-400:]
    loaded = set(json.loads(out.read_text(encoding="utf-8")))
    assert {"pegboard.commands.sim", "pegboard.commands.phone_seats", "pegboard.sim.splash",
            "pegboard.rules.value"} <= loaded
    assert sorted(name for name in loaded for heavy in BEFORE_THE_SPLASH
                  if name == heavy or name.startswith(heavy + ".")) == []
