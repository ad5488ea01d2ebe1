"""The firmware's WS2812B PIO program, assembled and run cycle by cycle, against the datasheet.

``firmware/pb_hw.py`` holds the program text (``PROGRAM``) and its clock settings; the firmware
builds it with ``rp2.asm_pio``. Here the same text is assembled by ``adafruit_pioasm`` and run in
``pioemu`` (an RP2040 PIO emulator) with the firmware's autopull and shift settings, and the data
pin's waveform for a known frame is measured at 125 MHz with the firmware's clock divider.

WS2812B datasheet (Worldsemi, rev. 1.0; WS2812B-V5 for the reset): T0H 0.40 µs ± 150 ns, T1H
0.80 µs ± 150 ns, T0L 0.85 µs ± 150 ns, T1L 0.45 µs ± 150 ns, bit period 1.25 µs ± 600 ns,
reset (latch) low ≥ 50 µs (≥ 280 µs for the V5 part).
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator
from typing import Any

import adafruit_pioasm  # type: ignore[import-untyped]
from pioemu import State, emulate  # type: ignore[import-untyped]

from pegboard.link.fwsim import FIRMWARE_DIR

SOURCE = (FIRMWARE_DIR / "pb_hw.py").read_text()
SETTINGS: dict[str, Any] = {
    node.targets[0].id: ast.literal_eval(node.value)
    for node in ast.parse(SOURCE).body
    if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
    and node.targets[0].id in {"PROGRAM", "SYS_FREQ", "PIO_FREQ", "PULL_THRESH", "PUT_SHIFT",
                               "RESET_US", "CYCLES_PER_BIT"}
}
PROGRAM: str = SETTINGS["PROGRAM"]
CLOCK_HZ = 125_000_000

#: (low, high) limits in ns from the datasheet.
LIMITS = {"T0H": (250, 550), "T1H": (650, 950), "T0L": (700, 1000), "T1L": (300, 600),
          "period": (650, 1850)}


def divider() -> float:
    return CLOCK_HZ / int(SETTINGS["PIO_FREQ"])


def waveform(data: bytes, idle_cycles: int) -> list[tuple[int, int]]:
    """(level, PIO cycles) runs on the data pin while the program sends ``data``, bytes put
    the way the firmware puts them (one per FIFO word, shifted to the top), then idles."""
    program = adafruit_pioasm.Program(PROGRAM)
    words = deque(byte << SETTINGS["PUT_SHIFT"] for byte in data)
    total = len(data) * 8 * SETTINGS["CYCLES_PER_BIT"] + idle_cycles
    runs: list[list[int]] = []
    steps: Iterator[tuple[State, State]] = emulate(
        list(program.assembled),
        stop_when=lambda _op, state: state.clock >= total,
        initial_state=State(transmit_fifo=words),
        auto_pull=True, pull_threshold=SETTINGS["PULL_THRESH"], shift_osr_right=False,
        side_set_base=0, side_set_count=program.pio_kwargs["sideset_pin_count"],
        wrap_target=program.pio_kwargs["wrap_target"], wrap_top=program.pio_kwargs["wrap"],
    )
    for before, after in steps:
        level = after.pin_values & 1
        cycles = after.clock - before.clock
        if runs and runs[-1][0] == level:
            runs[-1][1] += cycles
        else:
            runs.append([level, cycles])
    return [(level, cycles) for level, cycles in runs]


def bits(data: bytes) -> list[int]:
    return [(byte >> (7 - i)) & 1 for byte in data for i in range(8)]


def test_the_clock_divider_is_exact_at_125_mhz() -> None:
    assert SETTINGS["SYS_FREQ"] == CLOCK_HZ
    assert divider() == 16.0  # an integer divider: no fractional-divider jitter


def test_a_known_frame_meets_the_ws2812b_timing() -> None:
    frame = bytes([0x80, 0xFF, 0x00, 0x5A, 0xC3, 0x01])  # G, R, B of two pixels
    ns_per_cycle = 1e9 / CLOCK_HZ * divider()
    idle = int(SETTINGS["RESET_US"] * 1000 / ns_per_cycle)
    runs = waveform(frame, idle)
    # The line idles low until the first word, then one high and one low run per bit.
    assert runs[0][0] == 0
    pulses = runs[1:]
    sent = bits(frame)
    assert len(pulses) == 2 * len(sent)
    measured: dict[str, list[float]] = {key: [] for key in LIMITS}
    for i, bit in enumerate(sent):
        (high_level, high), (low_level, low) = pulses[2 * i], pulses[2 * i + 1]
        assert (high_level, low_level) == (1, 0)
        last = i == len(sent) - 1
        measured["T1H" if bit else "T0H"].append(high * ns_per_cycle)
        if not last:
            measured["T1L" if bit else "T0L"].append(low * ns_per_cycle)
            measured["period"].append((high + low) * ns_per_cycle)
    # Decoding the waveform gives the frame back: a long high is a 1.
    assert [1 if pulses[2 * i][1] * ns_per_cycle > 600 else 0 for i in range(len(sent))] == sent
    report = []
    for key, (low, high) in LIMITS.items():
        values = measured[key]
        assert values, key
        assert low <= min(values) and max(values) <= high, (key, values)
        report.append(f"{key} {min(values):.0f}-{max(values):.0f} ns (limit {low}-{high})")
    # After the last bit the line stays low: the latch.
    reset_ns = pulses[-1][1] * ns_per_cycle
    assert pulses[-1][0] == 0 and reset_ns >= 280_000
    report.append(f"reset {reset_ns / 1000:.0f} us (limit >= 280)")
    print(f"\nWS2812B waveform at 125 MHz / {divider():g}:", "; ".join(report))


def test_a_broken_timing_would_be_caught() -> None:
    # The same check on a program with the high time of a 0 one cycle too long must fail.
    global PROGRAM
    kept = PROGRAM
    PROGRAM = kept.replace("jmp !x do_zero side 1 [2]", "jmp !x do_zero side 1 [4]")
    try:
        runs = waveform(bytes([0x00]), 10)
    finally:
        PROGRAM = kept
    ns = runs[1][1] * 1e9 / CLOCK_HZ * divider()
    assert runs[1][0] == 1 and ns > LIMITS["T0H"][1]
