"""Golden LED frames, the power limiter and the animations, all computed by the firmware's code.

The firmware modules run unchanged on CPython, so most checks import them directly; one test
runs every golden case under the MicroPython unix port and requires the very same bytes.

Regenerate the golden files after an intended change with::

    PEGBOARD_REGEN_GOLDEN=1 .venv/bin/pytest tests/test_firmware_render.py

and review the diff: each file lists the lit LEDs with their side and hole.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from pegboard.link.fwsim import FIRMWARE_DIR, tool
from pegboard.link.layout import LedConfig, layout_table
from tests.support.firmware import load_firmware

GOLDEN = Path(__file__).parent / "golden_leds"
REGEN = os.environ.get("PEGBOARD_REGEN_GOLDEN") == "1"
DRIVER = FIRMWARE_DIR / "tests" / "render_cases.py"


render = load_firmware("pb_render")
driver = load_firmware("render_cases", DRIVER)


def wire(cfg: LedConfig) -> dict[str, Any]:
    return {"n": cfg.led_count, "tracks": cfg.tracks, "order": cfg.order,
            "serp": cfg.serpentine, "end": cfg.hole1_end, "skip": cfg.skip,
            "cap": cfg.brightness, "ma": cfg.budget_ma, "hb": cfg.heartbeat_ms}


COLOURS = [[255, 0, 0], [0, 64, 255], [0, 255, 64]]


def state(front: list[int], back: list[int], *, last: int | None = None,
          win: int | None = None, target: int = 121) -> dict[str, Any]:
    return {"sides": len(front), "target": target, "front": front, "back": back,
            "colours": COLOURS[: len(front)], "last": last, "win": win}


TWO = LedConfig()
TWO_STRAIGHT = LedConfig(serpentine=False, hole1_end="right")
THREE = LedConfig(tracks=3)
THREE_STRAIGHT = LedConfig(tracks=3, serpentine=False, order="track", skip=1)

CASES: list[dict[str, Any]] = [
    {"name": "two_sides_serpentine", "cfg": TWO,
     "states": [[0, state([17, 9], [12, 0])]], "at": 5000},
    {"name": "two_sides_straight", "cfg": TWO_STRAIGHT,
     "states": [[0, state([95, 62], [88, 60])]], "at": 5000},
    {"name": "three_sides_serpentine", "cfg": THREE,
     "states": [[0, state([121, 88, 59], [115, 80, 59])]], "at": 5000},
    {"name": "three_sides_straight_61", "cfg": THREE_STRAIGHT,
     "states": [[0, state([45, 30, 31], [40, 24, 27], target=61)]], "at": 5000},
    {"name": "travel_halfway", "cfg": TWO,
     "states": [[0, state([10, 4], [10, 0])], [1000, state([30, 4], [10, 0], last=0)]],
     "at": 1300},
    {"name": "winner_celebrates", "cfg": TWO,
     "states": [[0, state([121, 77], [117, 70], last=0, win=0)]], "at": 700},
    {"name": "link_lost", "cfg": TWO,
     "states": [[0, state([50, 33], [44, 30])]], "at": 5000, "lost": True},
    {"name": "test_pattern_over_budget", "cfg": TWO, "states": [], "test": True, "at": 0},
]


def plain(case: dict[str, Any]) -> dict[str, Any]:
    return {**case, "cfg": wire(case["cfg"])}


def describe(case: dict[str, Any], ma: int, frame: bytes) -> str:
    cfg: LedConfig = case["cfg"]
    where: dict[int, str] = {}
    for side, row in enumerate(layout_table(cfg)):
        for hole, led in enumerate(row):
            if led is not None:
                where[led] = "game" if hole == 121 else f"{side:>4} {hole:>4}"
    lines = [
        f"# {case['name']}: LED frame computed by firmware/pb_render.py",
        f"# config: {json.dumps(wire(cfg), sort_keys=True)}",
        f"# states: {json.dumps(case['states'], sort_keys=True)}",
        f"# shown at {case['at']} ms, lost={case.get('lost', False)}, "
        f"test={case.get('test', False)}; estimated current {ma} mA",
        "# led side hole colour",
    ]
    for led in range(len(frame) // 3):
        rgb = frame[led * 3 : led * 3 + 3]
        if any(rgb):
            lines.append(f"{led:>5} {where.get(led, '   - skip'):>9} {rgb.hex().upper()}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden_frame(case: dict[str, Any]) -> None:
    ma, frame = driver.render_case(plain(case))
    text = describe(case, ma, bytes(frame))
    path = GOLDEN / f"{case['name']}.txt"
    if REGEN:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text)
    assert path.exists(), f"missing {path}: run with PEGBOARD_REGEN_GOLDEN=1 once and review it"
    assert text == path.read_text()


def test_micropython_renders_the_same_bytes(tmp_path: Path) -> None:
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps([plain(c) for c in CASES]))
    result = subprocess.run([tool("micropython"), str(DRIVER), str(cases)],
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == len(CASES)
    for case, line in zip(CASES, lines, strict=True):
        name, ma, hexed = line.split(" ")
        expected_ma, expected = driver.render_case(plain(case))
        assert (name, int(ma), bytes.fromhex(hexed)) == (case["name"], expected_ma, bytes(expected))


def test_golden_boards_light_the_right_holes() -> None:
    """Independent of the golden files: pegs where the layout table says, in side colours."""
    _, frame = driver.render_case(plain(CASES[0]))
    table = layout_table(TWO)
    cap = TWO.brightness

    def at(side: int, hole: int) -> tuple[int, ...]:
        led = table[side][hole]
        assert led is not None
        return tuple(frame[led * 3 : led * 3 + 3])

    assert at(0, 17) == (255 * cap // 255, 0, 0)
    assert at(0, 12) == (255 // 4 * cap // 255, 0, 0)  # back peg, dimmer
    assert at(1, 9) == (0, 64 * cap // 255, 255 * cap // 255)
    assert at(0, 61) == at(1, 91) == (12 * cap // 255,) * 3  # skunk markers, faint
    lit = sum(1 for i in range(0, len(frame), 3) if any(frame[i : i + 3]))
    assert lit == 2 + 1 + 4  # side 0 front and back, side 1 front (its back is the start)


def test_limiter_scales_a_frame_over_budget_and_leaves_others() -> None:
    frame = bytearray([255] * 300)  # 100 LEDs full white: 6000 mA estimated
    ma = render.limit(frame, 255, 500)
    assert 490 <= ma <= 500 and len(set(frame)) == 1 and 0 < frame[0] < 255
    small = bytearray([200, 0, 0] * 10)
    assert render.limit(small, 255, 500) == 10 * 200 * 20 // 255
    assert small == bytearray([200, 0, 0] * 10)
    capped = bytearray([255, 128, 0])
    render.limit(capped, 128, 500)
    assert capped == bytearray([128, 64, 0])


def test_travel_moves_from_back_to_front_then_stays() -> None:
    cfg = wire(TWO)
    scene = render.Scene(cfg)
    table = layout_table(TWO)
    scene.set_state(state([10, 0], [10, 0]), 0)
    scene.set_state(state([30, 0], [10, 0], last=0), 1000)
    duration = render.travel_ms(20)
    seen = []
    for t in range(1000, 1000 + duration + 100, 50):
        frame = scene.frame(t, False)
        reds = [h for h in range(1, 122) if frame[table[0][h] * 3] == 255]  # type: ignore[operator]
        seen.append(reds)
    heads = [r[0] for r in seen]
    assert heads[0] == 10 and heads[-1] == 30
    assert heads == sorted(heads) and len(set(heads)) > 5
    # Resending the same board does not start the journey again.
    scene.set_state(state([30, 0], [10, 0], last=0), 5000)
    frame = scene.frame(5001, False)
    assert frame[table[0][30] * 3] == 255  # type: ignore[operator]


def test_firmware_app_heartbeat_and_lost_detection() -> None:
    app_module = load_firmware("pb_app")
    proto = load_firmware("pb_proto")
    app = app_module.App(0)
    assert app.take_output().startswith(b"0 HELLO v=1 fw=")
    assert app.lost(0)  # nobody has spoken yet
    app.feed(proto.encode(1, "HELLO", [("v", "1")]), 10)
    assert b"HELLO v=1" in app.take_output() and not app.lost(10)
    app.tick(999)
    assert app.take_output() == b""
    app.tick(1000)
    assert b" HB up=1000 bad=0 err=0 st=- old=0 loop=0 frame=0 mem=0 drop=0*" in app.take_output()
    assert not app.lost(3010) and app.lost(3011)  # three silent heartbeats


def test_firmware_renders_on_change_or_at_the_frame_rate() -> None:
    app_module = load_firmware("pb_app")
    proto = load_firmware("pb_proto")
    app = app_module.App(0)
    app.feed(proto.encode(1, "HELLO", [("v", "1")]), 0)
    assert app.tick(0) is not None  # first frame
    line = proto.encode(2, "STATE", [("sides", "2"), ("t", "121"), ("f", "5,0"), ("b", "0,0"),
                                     ("c", "FF0000,0040FF"), ("last", "-"), ("win", "-")])
    app.feed(line, 5)
    frame = app.tick(5)
    assert frame is not None and frame[led(5) * 3] > 0  # shown at once, not at the next slot
    assert app.tick(6) is None  # nothing new to draw
    app.feed(line, 7)  # the same board again: no new frame
    assert app.tick(7) is None and app.tick(40) is None
    assert b"ACK a=2" in app.take_output()


def led(hole: int) -> int:
    index = layout_table(TWO)[0][hole]
    assert index is not None
    return index


STATE_FIELDS = [("sides", "2"), ("t", "121"), ("b", "0,0"), ("c", "FF0000,0040FF"),
                ("last", "-"), ("win", "-")]


def state_line(proto: ModuleType, seq: int, front: str) -> bytes:
    line: bytes = proto.encode(seq, "STATE", [("f", front), *STATE_FIELDS])
    return line


def greeted_app() -> tuple[Any, ModuleType]:
    """A firmware app (its modules loaded afresh) greeted by the host (seq 1) and shown a
    board at 5 to 0 (seq 2), with its protocol module."""
    app_module = load_firmware("pb_app")
    proto = load_firmware("pb_proto")
    app = app_module.App(0)
    app.feed(proto.encode(1, "HELLO", [("v", "1")]), 0)
    app.feed(state_line(proto, 2, "5,0"), 0)
    return app, proto


def test_an_old_frame_replayed_is_refused_and_the_newer_board_stays() -> None:
    app_module = load_firmware("pb_app")
    proto = load_firmware("pb_proto")
    app = app_module.App(0)
    app.feed(proto.encode(1, "HELLO", [("v", "1")]), 0)
    old = state_line(proto, 2, "5,0")
    app.feed(old, 1)
    app.feed(state_line(proto, 3, "9,0"), 2)
    app.take_output()
    app.feed(old, 3)  # the seq-2 line again, after seq 3
    assert b"NAK a=2 e=old" in app.take_output()
    frame = app.tick(4)
    assert frame is not None and frame[led(9) * 3] == 128 and frame[led(5) * 3] == 0
    assert app.stale == 1 and app.shown_seq == 3
    # Sequence numbers wrap: 65535 then 0 is newer; a new HELLO starts a new session.
    assert app_module.newer(0, 65535) and not app_module.newer(65535, 0)
    app.feed(proto.encode(0, "HELLO", [("v", "1")]), 5)
    app.feed(state_line(proto, 1, "7,0"), 6)
    assert app.shown_seq == 1 and b"ACK a=1" in app.take_output()


def test_a_still_board_is_not_redrawn_but_animations_and_the_blink_are() -> None:
    app, proto = greeted_app()
    frames = [t for t in range(0, 900, 5) if app.tick(t) is not None or app.feed(
        proto.encode(3 + t, "HB"), t)]
    assert frames == [0]  # one frame, then nothing while the host keeps talking
    app.feed(proto.encode(2000, "STATE", [("f", "20,0"), ("sides", "2"), ("t", "121"),
                                          ("b", "5,0"), ("c", "FF0000,0040FF"),
                                          ("last", "0"), ("win", "-")]), 1000)
    moving = [t for t in range(1000, 2000, 5) if app.tick(t) is not None]
    # The travel lasts 450 ms at 30 ms a hole: a frame every 20 ms of it, then stillness.
    assert 15 <= len(moving) <= 25 and moving[-1] < 1000 + 450 + 20
    quiet = [t for t in range(5000, 7000, 5) if app.tick(t) is not None]
    assert 3 <= len(quiet) <= 5  # link lost: one frame per blink (500 ms), not 50 a second


def test_goodbye_darkens_the_board_and_never_shows_link_lost() -> None:
    app, proto = greeted_app()
    assert app.tick(0) is not None
    app.feed(proto.encode(3, "BYE"), 10)
    assert b"ACK a=3" in app.take_output()
    dark = app.tick(10)
    assert dark is not None and not any(dark)
    later = [app.tick(t) for t in range(20, 20_000, 50)]
    assert not app.lost(20_000) and all(f is None for f in later)
    app.feed(state_line(proto, 4, "6,0"), 20_001)  # the host is back: the board with it
    back = app.tick(20_001)
    assert back is not None and back[led(6) * 3] > 0


@pytest.mark.parametrize(("stream", "stops"), [
    ([b"\x03", b"\x03", b"\x03"], True),      # three Ctrl-C, one at a time
    ([b"12 HB*1\r\x03", b"\r\x01"], True),     # mpremote: Ctrl-C, CR, Ctrl-A
    ([b"\x03\x04\x03 garbage \x03\x03"], False),
    ([b"\x03\x03", b"x\x03"], False),
])
def test_escape_to_the_repl_needs_the_whole_sequence(stream: list[bytes], stops: bool) -> None:
    app_module = load_firmware("pb_app")
    escape = app_module.Escape()
    assert any([escape.feed(chunk) for chunk in stream]) is stops
