"""A host that holds the port open but stops reading cannot stall the firmware loop.

The real firmware runs under MicroPython on a pty. After the normal handshake the host stops
reading and keeps sending newer boards, far more than the pty can buffer in the firmware's
direction once each is acknowledged. A firmware that waited for the host to read would stop
reading too, and the host's own writes would back up; this one queues at most ``MAX_PENDING``
bytes and drops the oldest, so it keeps reading, ends on the newest board and says in its
heartbeat how much it dropped and how long its longest loop pass took.

Every wait is on I/O (select) with a deadline: a stall is a failure, not a hang.
"""

from __future__ import annotations

import os
import select
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from pegboard.link.board import BoardState
from pegboard.link.fwsim import FIRMWARE_DIR, FirmwareProcess
from pegboard.link.layout import LedConfig
from pegboard.link.protocol import (
    Ack,
    Decoder,
    FrameError,
    Heartbeat,
    decode_message,
    encode_message,
)
from pegboard.link.serial_link import SerialLink
from tests.support.firmware import pump
from tests.support.waiting import LIVENESS_S

CONFIG = LedConfig(heartbeat_ms=100)
#: Boards sent while the host is not reading. Each is acknowledged (about 20 bytes), so the
#: acks alone are well over the 20 KiB a Linux pty holds, plus the firmware's 1 KiB queue.
FRAMES = 2000
#: Longest the host waits for the firmware to take more input before calling it a stall, when
#: the firmware must not stall: a bound on a busy machine, not a speed.
STALL_S = LIVENESS_S
#: The same wait for the firmware whose writes block, which stalls for ever once the pty is
#: full: the test of the harness itself waits this long, not a minute, to see it.
BLOCKED_STALL_S = 2.0
#: Longest loop pass the firmware may report while the host is not reading: a pass that waited
#: for the host would last as long as the host waits before calling it a stall. (A pass of the
#: unix port is under a millisecond of work, but a busy machine can hold it for hundreds.)
LOOP_LIMIT_US = int(BLOCKED_STALL_S * 1_000_000)


@dataclass
class Stall:
    """What the host saw while it was not reading."""

    sent: int = 0  # bytes written
    frames: int = 0  # boards fully written
    longest_wait: float = 0.0  # longest wait for the firmware to take more input, seconds
    stalled: bool = False


@dataclass
class Heard:
    """What the host read after it started reading again."""

    beats: list[Heartbeat] = field(default_factory=list)
    acks: set[int] = field(default_factory=set)


def board(i: int) -> BoardState:
    """The i-th board of the stream: every one differs from the one before, none animates."""
    return BoardState.from_scores([1 + i % 120, 1 + (i // 120) % 120])


def send_without_reading(fd: int, lines: list[bytes], stall_s: float) -> Stall:
    """Write ``lines`` to ``fd`` (non-blocking), never reading; stop at a stall: no byte
    taken for ``stall_s`` seconds."""
    stall = Stall()
    data = b"".join(lines)
    progress = time.monotonic()
    while stall.sent < len(data):
        try:
            taken = os.write(fd, data[stall.sent : stall.sent + 4096])
        except BlockingIOError:
            taken = 0
        now = time.monotonic()
        if taken:
            stall.sent += taken
            stall.longest_wait = max(stall.longest_wait, now - progress)
            progress = now
        elif now - progress > stall_s:
            stall.stalled = True
            break
        else:
            # Wait for room, but not only on select: a pty does not always wake a writer
            # when the other side reads, so look again every 10 ms.
            select.select([], [fd], [], 0.01)
    stall.frames = 0
    end = 0
    for line in lines:
        end += len(line)
        if end > stall.sent:
            break
        stall.frames += 1
    return stall


def read_until(fd: int, heard: Heard, newest: int, timeout: float = LIVENESS_S) -> bool:
    """Read and decode the firmware's output until a heartbeat says it shows ``newest``."""
    decoder = Decoder()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        readable, _, _ = select.select([fd], [], [], deadline - time.monotonic())
        if not readable:
            break
        try:
            data = os.read(fd, 65536)
        except BlockingIOError:
            continue
        for item in decoder.feed(data):
            if isinstance(item, FrameError):
                continue  # a line cut where the firmware dropped output
            try:
                message = decode_message(item)
            except FrameError:
                continue
            if isinstance(message, Heartbeat):
                heard.beats.append(message)
                if message.shown == newest:
                    return True
            elif isinstance(message, Ack):
                heard.acks.add(message.seq)
    return False


def stop_reading(firmware: FirmwareProcess, stall_s: float = STALL_S,
                 ) -> tuple[Stall, Heard, int, bool]:
    """Handshake, then send :data:`FRAMES` newer boards without reading (a stall: no byte
    taken for ``stall_s``), then read again until a heartbeat shows the newest; returns what
    happened, the newest seq and whether a heartbeat showed it."""
    link = SerialLink(str(firmware.port), config=CONFIG, min_silence=1.0)
    link.show(board(0))
    assert pump(link, lambda: link.in_sync), link.status + firmware.log()
    fd, acked = link.fileno(), link.shown_seq
    assert fd is not None and acked is not None
    # The link has sent a few heartbeats since its last STATE: start well past their numbers.
    first = acked + 100
    lines = [encode_message((first + i) & 0xFFFF, board(i + 1)) for i in range(FRAMES)]
    newest = (first + FRAMES - 1) & 0xFFFF
    stall = send_without_reading(fd, lines, stall_s)
    heard = Heard()
    found = not stall.stalled and read_until(fd, heard, newest)
    return stall, heard, newest, found


def test_a_host_that_stops_reading_cannot_stall_the_board(tmp_path: Path) -> None:
    with FirmwareProcess(tmp_path, record=False) as firmware:
        stall, heard, newest, found = stop_reading(firmware)
        assert not stall.stalled, (
            f"the firmware stopped reading after {stall.frames} of {FRAMES} boards "
            f"({stall.sent} bytes): its writes wait for a host that does not read"
        )
        assert firmware.running, firmware.log()
        beat = heard.beats[-1] if heard.beats else None
        # (a) It kept reading: the board ends on the host's newest frame, acknowledged.
        assert found, f"no heartbeat shows the newest board (seq {newest}); last: {beat}"
        assert beat is not None and newest in heard.acks
        # (b) Output was dropped, not waited for.
        dropped = beat.dropped or 0
        assert dropped > 0, f"nothing dropped although the host read nothing: {beat}"
        # (c) Heartbeats sent while output was being dropped report the longest pass since
        # the one before: the loop never waited on the host.
        full = [b for b in heard.beats if b.dropped]
        loop_us = max(b.loop_us or 0 for b in full)
        print(f"\nbackpressure (unix port, 2 cores): {stall.frames} boards ({stall.sent} bytes) "
              f"sent while not reading, longest wait for the firmware to read "
              f"{stall.longest_wait * 1000:.0f} ms; firmware dropped {dropped} bytes; longest "
              f"loop pass {loop_us / 1000:.1f} ms over {len(full)} heartbeats sent while "
              f"dropping")
        assert 0 < loop_us < LOOP_LIMIT_US, (
            f"longest loop pass {loop_us / 1000:.1f} ms while the host was not reading "
            f"(limit {LOOP_LIMIT_US / 1000:.0f} ms)"
        )
        assert beat.errors == 0, beat


def test_a_firmware_whose_writes_block_would_stall(tmp_path: Path) -> None:
    # The same firmware with a writer that waits for the host: it stops reading once the pty
    # is full, and the scenario above catches it as a stall rather than hanging.
    firmware_dir = tmp_path / "fw"
    shutil.copytree(FIRMWARE_DIR, firmware_dir)
    hw = firmware_dir / "pb_hw.py"
    source = hw.read_text()
    blocking = source.replace(
        "    def flush(self):\n",
        "    def flush(self):\n        self.stdout.write(self.pending)\n"
        "        self.pending = b\"\"\n        return\n",
    )
    assert blocking != source
    hw.write_text(blocking)
    with FirmwareProcess(tmp_path, firmware_dir=firmware_dir, record=False) as firmware:
        stall, _, _, _ = stop_reading(firmware, BLOCKED_STALL_S)
    print(f"\nblocking writer: stalled after {stall.frames} of {FRAMES} boards "
          f"({stall.sent} bytes)")
    assert stall.stalled and stall.frames < FRAMES
