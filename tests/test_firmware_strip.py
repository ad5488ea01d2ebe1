"""PicoStrip, the firmware's real strip driver, run by the firmware's own loop under the
MicroPython unix port on stand-in ``rp2``/``machine`` modules (``firmware/tests/standins``)
that keep the rp2 semantics: ``asm_pio`` swaps the module's globals while it builds the
program, ``StateMachine.put`` takes one FIFO word per element, a DMA channel stays active for
the transfer's wire time and must not see its buffer change. The figures are the firmware's
own heartbeat report (``loop``, ``frame`` in µs, ``mem`` free bytes).
"""

from __future__ import annotations

import subprocess

import adafruit_pioasm  # type: ignore[import-untyped]
import pytest

from pegboard.link.fwsim import FIRMWARE_DIR, tool
from pegboard.link.protocol import Frame, Heartbeat, decode_message
from tests.test_firmware_ws2812 import PROGRAM, SETTINGS

DRIVER = FIRMWARE_DIR / "tests" / "strip_cost.py"


def run(leds: int, mode: str, *, frames: int, heartbeats: int) -> dict[str, list[str]]:
    """What the driver printed after the strip sent ``frames`` frames and the firmware wrote
    ``heartbeats`` heartbeats (one every 200 ms)."""
    result = subprocess.run([tool("micropython"), str(DRIVER), str(leds), str(frames),
                             str(heartbeats), mode],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    out: dict[str, list[str]] = {}
    for line in result.stdout.splitlines():
        key, _, rest = line.partition(" ")
        out.setdefault(key, []).append(rest)
    return out


def beats(out: dict[str, list[str]]) -> list[Heartbeat]:
    found = []
    for text in out.get("HB", []):
        fields = tuple(tuple(pair.split("=", 1)) for pair in text.split(" "))
        message = decode_message(Frame(0, "HB", fields))  # type: ignore[arg-type]
        assert isinstance(message, Heartbeat)
        found.append(message)
    return found


@pytest.mark.parametrize("mode", ["DMA", "PUT"])
def test_the_strip_gets_the_program_and_whole_grb_frames(mode: str) -> None:
    out = run(241, mode, frames=20, heartbeats=2)
    # The program asm_pio built is the one the waveform test checks, instruction for instruction.
    built = ".program ws2812\n.side_set 1\n" + out["PROGRAM"][0].replace("|", "\n")
    assert adafruit_pioasm.assemble(built) == adafruit_pioasm.assemble(PROGRAM)
    count, gap = (int(x) for x in out["SENT"][0].split())
    assert count >= 10  # the winner's animation: a frame every 20 ms
    assert gap >= SETTINGS["RESET_US"]  # every frame latched before the next starts
    assert out["TAMPERED"] == ["0"]  # never a buffer changed under a running DMA
    last = bytes.fromhex(out["LAST"][0])
    assert len(last) == 241 * 3
    pixels = [tuple(last[i:i + 3]) for i in range(0, len(last), 3)]
    # Side 0 is red (FF0000): in G, R, B order its pegs have only the middle byte lit.
    assert any(g == 0 and r > 0 and b == 0 for g, r, b in pixels)
    assert not any(g > 0 and r == 0 and b == 0 for g, r, b in pixels)


def test_frame_cost_and_memory_from_the_firmware_report() -> None:
    report = []
    for leds in (241, 361, 1000):
        found = beats(run(leds, "DMA", frames=10, heartbeats=3))
        assert len(found) >= 3
        frame = max(b.frame_us or 0 for b in found)
        loop = max(b.loop_us or 0 for b in found[1:])  # after the start-up pass
        mem = min(b.mem_free or 0 for b in found)
        assert frame > 0 and loop > 0 and mem > 0
        assert all(b.errors == 0 and b.shown == 3 for b in found)
        report.append(f"{leds} LEDs: frame {frame / 1000:.2f} ms, loop {loop / 1000:.2f} ms, "
                      f"free {mem // 1024} KiB")
    print("\nfirmware report (unix port, 2 cores):", "; ".join(report))
