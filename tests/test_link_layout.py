"""The layout table: every hole has its own LED, and the firmware's table is the host's."""

from __future__ import annotations

import itertools
import json
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

from pegboard.errors import ConfigError
from pegboard.link.fwsim import FIRMWARE_DIR, tool
from pegboard.link.layout import (
    End,
    LedConfig,
    Order,
    hole_position,
    layout_table,
    led_index,
)
from tests.support.firmware import load_firmware

ORDERS: tuple[Order, ...] = ("street", "track")
ENDS: tuple[End, ...] = ("left", "right")
ALL_CONFIGS = [
    LedConfig(tracks=t, order=o, serpentine=s, hole1_end=e, skip=k)
    for t, o, s, e, k in itertools.product((2, 3), ORDERS, (True, False), ENDS, (0, 1))
]


def firmware_module(name: str) -> ModuleType:
    """Load a firmware module in CPython (they are written to run on both)."""
    return load_firmware(name)


def wire(cfg: LedConfig) -> dict[str, object]:
    return {"n": cfg.led_count, "tracks": cfg.tracks, "order": cfg.order,
            "serp": cfg.serpentine, "end": cfg.hole1_end, "skip": cfg.skip,
            "cap": cfg.brightness, "ma": cfg.budget_ma, "hb": cfg.heartbeat_ms}


@pytest.mark.parametrize("cfg", ALL_CONFIGS)
def test_every_hole_has_its_own_led(cfg: LedConfig) -> None:
    table = layout_table(cfg)
    leds = [led for row in table for led in row[1:121]]
    assert len(set(leds)) == cfg.tracks * 120
    assert set(leds) == set(range(cfg.skip, cfg.skip + cfg.tracks * 120))
    assert all(row[0] is None for row in table)  # the start hole has no LED
    assert {row[121] for row in table} == {cfg.skip + cfg.tracks * 120}  # one game hole


@pytest.mark.parametrize("cfg", ALL_CONFIGS)
def test_neighbouring_holes_are_neighbours_on_the_board(cfg: LedConfig) -> None:
    for side in range(cfg.tracks):
        for hole in range(1, 120):
            (r1, c1), (r2, c2) = hole_position(cfg, side, hole), hole_position(cfg, side, hole + 1)
            if hole % 30:
                assert r1 == r2 and abs(c1 - c2) == 1
            else:  # a new street turns back at the same end
                assert c1 == c2 and r2 == r1 + cfg.tracks


def test_serpentine_chain_never_jumps_across_the_board() -> None:
    cfg = LedConfig(serpentine=True, order="street")
    position = {led_index(cfg, s, h): hole_position(cfg, s, h)
                for s in range(2) for h in range(1, 121)}
    for led in range(239):
        (r1, c1), (r2, c2) = position[led], position[led + 1]
        assert (r1 == r2 and abs(c1 - c2) == 1) or (c1 == c2 and r2 == r1 + 1)


@pytest.mark.parametrize("cfg", ALL_CONFIGS)
def test_firmware_table_is_the_host_table(cfg: LedConfig) -> None:
    layout = firmware_module("pb_layout")
    host = [[-1 if led is None else led for led in row] for row in layout_table(cfg)]
    assert layout.table(wire(cfg)) == host


def test_firmware_table_under_micropython(tmp_path: Path) -> None:
    configs = ALL_CONFIGS[::5]
    script = (
        "import sys, json\nsys.path.insert(0, sys.argv[1])\nimport pb_layout\n"
        "for cfg in json.load(open(sys.argv[2])):\n    print(json.dumps(pb_layout.table(cfg)))\n"
    )
    argument = tmp_path / "configs.json"  # a file: the unix port crashes on very long argv
    argument.write_text(json.dumps([wire(c) for c in configs]))
    result = subprocess.run(
        [tool("micropython"), "-c", script, str(FIRMWARE_DIR), str(argument)],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert result.returncode == 0, result.stderr
    tables = [json.loads(line) for line in result.stdout.splitlines()]
    assert tables == [[[-1 if x is None else x for x in row] for row in layout_table(c)]
                      for c in configs]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"tracks": 4}, "leds.tracks = 4: the board has 2 or 3 tracks"),
        ({"count": 200}, "leds.count = 200: this layout needs 241 LEDs"),
        ({"order": "zigzag"}, "leds.order = 'zigzag'"),
        ({"brightness": 0}, "leds.brightness = 0: use 1..255"),
        ({"budget_ma": 10}, "leds.budget_ma = 10: use 50..20000"),
    ],
)
def test_bad_settings_are_named(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        LedConfig(**kwargs)  # type: ignore[arg-type]
    assert message in str(caught.value)
