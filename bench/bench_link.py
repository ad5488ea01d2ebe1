"""LED link speed: wire format throughput on both implementations, and the round trip of a full
board to the real firmware (MicroPython unix port) over a pseudo-terminal."""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
from functools import partial
from pathlib import Path

from pegboard.link.board import BoardState
from pegboard.link.fwsim import FIRMWARE_DIR, FirmwareProcess, pump, tool
from pegboard.link.layout import LedConfig
from pegboard.link.protocol import Decoder, encode_message
from pegboard.link.serial_link import SerialLink

BOARD = BoardState.from_scores([87, 64, 101], previous=[80, 60, 99], last=0)

FIRMWARE_BENCH = """
import sys, time
sys.path.insert(0, sys.argv[1])
import pb_proto, pb_render, pb_layout
line = sys.argv[2].encode()
n = 2000
start = time.ticks_us()
for _ in range(n):
    seq, mtype, fields = pb_proto.decode_line(line)
    pb_proto.parse_state(fields)
took = time.ticks_diff(time.ticks_us(), start)
print("decode", n * 1000000 // took)
scene = pb_render.Scene(dict(pb_layout.DEFAULT_CFG, n=361, tracks=3))
state = pb_proto.parse_state(pb_proto.decode_line(line)[2])
scene.set_state(state, 0)
start = time.ticks_us()
for t in range(200):
    frame = scene.frame(t * 20, False)
    pb_render.limit(frame, 128, 500)
took = time.ticks_diff(time.ticks_us(), start)
print("render", 200 * 1000000 // took)
"""


def shows(link: SerialLink, board: BoardState) -> bool:
    """The board acknowledged ``board``."""
    return link.shown == board


def main() -> None:
    """Print the figures."""
    cores = os.cpu_count()
    n = 20_000
    start = time.perf_counter()
    lines = [encode_message(i & 0xFFFF, BOARD) for i in range(n)]
    encode_s = time.perf_counter() - start
    stream = b"".join(lines)
    start = time.perf_counter()
    frames = Decoder().feed(stream)
    decode_s = time.perf_counter() - start
    assert len(frames) == n
    print(f"host encode STATE: {n / encode_s:,.0f} msg/s; decode: {n / decode_s:,.0f} msg/s "
          f"({len(lines[0])} bytes each) on {cores} cores")

    result = subprocess.run(
        [tool("micropython"), "-c", FIRMWARE_BENCH, str(FIRMWARE_DIR), lines[0][:-1].decode()],
        capture_output=True, text=True, timeout=120, check=True,
    )
    figures = dict(line.split() for line in result.stdout.splitlines())
    print(f"firmware (MicroPython unix port) decode+parse STATE: {int(figures['decode']):,} "
          f"msg/s; render+limit 361 LEDs: {int(figures['render']):,} frames/s on {cores} cores")

    with tempfile.TemporaryDirectory() as directory, \
            FirmwareProcess(Path(directory), record=False) as firmware:
        link = SerialLink(str(firmware.port), config=LedConfig(tracks=3))
        assert pump(link, lambda: link.in_sync)
        rounds = []
        for i in range(300):
            board = BoardState.from_scores([i % 122, (i * 7) % 122, 5], last=0)
            start = time.perf_counter()
            link.show(board)
            assert pump(link, partial(shows, link, board))
            rounds.append(time.perf_counter() - start)
        rounds.sort()
        print(f"full-state round trip host -> firmware -> ACK over a pty: median "
              f"{statistics.median(rounds) * 1000:.2f} ms, p99 {rounds[296] * 1000:.2f} ms "
              f"(300 boards) on {cores} cores")
        resync = []
        for _ in range(10):
            firmware.unplug()
            pump(link, lambda: not link.is_up, timeout=5)
            firmware.plug()
            start = time.perf_counter()
            assert pump(link, lambda: link.in_sync)
            resync.append(time.perf_counter() - start)
        print(f"replug to board resent: median {statistics.median(resync) * 1000:.0f} ms, "
              f"worst {max(resync) * 1000:.0f} ms (10 replugs, target < 1 s) on {cores} cores")
