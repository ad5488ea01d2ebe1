"""Random boards with random faults through the real link to the real firmware.

The normal suite runs a short version; ``pytest -m soak -s`` runs 10,000 frames and prints the
figures: crashes (must be zero) and the worst time from a replug to the board showing the
current state again (target under 1 s).
"""

from __future__ import annotations

import random
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import pytest

from pegboard.link.board import BoardState
from pegboard.link.fwsim import FirmwareProcess
from pegboard.link.layout import LedConfig
from pegboard.link.protocol import Heartbeat, encode_message
from pegboard.link.serial_link import Port, SerialLink, open_serial
from tests.support.firmware import pump

CONFIG = LedConfig(tracks=3, heartbeat_ms=100)
"""The board's settings: heartbeats as often as the protocol allows (100 ms), as every frame
waits for the heartbeat that names it. The host still counts the board as gone only after a
second of silence (the link's ``min_silence``), so a stall or a busy machine is no less a
test than with slower heartbeats."""


@dataclass
class SoakReport:
    frames: int = 0
    faults: dict[str, int] = field(default_factory=dict)
    recovered: dict[str, int] = field(default_factory=dict)
    resync: list[float] = field(default_factory=list)
    crashes: int = 0

    def line(self) -> str:
        worst = max(self.resync, default=0.0)
        injected = sum(self.faults.values())
        back = sum(self.recovered.values())
        kinds = ", ".join(f"{k} {self.recovered.get(k, 0)}/{n}"
                          for k, n in sorted(self.faults.items()))
        return (f"{self.frames} frames, {injected} faults injected, {back} recovered "
                f"({kinds}), crashes {self.crashes}, "
                f"replug resync worst {worst * 1000:.0f} ms over {len(self.resync)} replugs")


def random_board(rnd: random.Random) -> BoardState:
    sides = rnd.choice((2, 2, 3))
    front = [rnd.randint(0, 121) for _ in range(sides)]
    back = [max(0, f - rnd.randint(0, 29)) for f in front]
    side = rnd.randrange(sides)
    return BoardState.from_scores(front, back, last=side,
                                  winner=side if front[side] == 121 else None,
                                  target=rnd.choice((61, 121, 121)))


def teeing(sent: list[bytes]) -> Callable[[str], Port]:
    """A pyserial opener whose port also keeps every STATE line written to it."""

    def opener(path: str) -> Port:
        port = open_serial(path)
        write = port.write

        def tee(data: bytes, /) -> int | None:
            sent.extend(line + b"\n" for line in data.split(b"\n") if b" STATE " in line)
            return write(data)

        port.write = tee  # type: ignore[method-assign]
        return port

    return opener


def showing(link: SerialLink) -> bool:
    """The board's latest heartbeat names the STATE the link last had acknowledged."""
    beat = link.heartbeat
    return beat is not None and beat.shown is not None and beat.shown == link.shown_seq


def stale_count(link: SerialLink) -> int | None:
    """Old frames the board refused this session, as its latest heartbeat counts them."""
    return None if link.heartbeat is None else link.heartbeat.stale


def fresh_heartbeat(link: SerialLink) -> Heartbeat:
    """The next heartbeat the board sends: one sent after now, whatever came before it."""
    before = link.heartbeat
    assert pump(link, lambda: link.heartbeat is not None and link.heartbeat is not before), (
        f"no heartbeat from the board: {link.status}")
    assert link.heartbeat is not None
    return link.heartbeat


def in_sync_on(link: SerialLink, board: BoardState) -> bool:
    """The board acknowledged ``board``, the newest state the link sent."""
    return link.in_sync and link.shown == board


def showing_now(link: SerialLink, board: BoardState) -> bool:
    """The board acknowledged ``board`` and its heartbeat says it shows that very frame."""
    return in_sync_on(link, board) and showing(link)


def refused_again(link: SerialLink, refused: int) -> bool:
    """The board's count of lines refused as old went up by one from ``refused``."""
    return stale_count(link) == refused + 1


def soak(directory: Path, frames: int, seed: int) -> SoakReport:
    rnd = random.Random(seed)
    report = SoakReport()
    sent: list[bytes] = []  # STATE lines the host wrote, to replay later
    with FirmwareProcess(directory, record=False) as firmware:
        link = SerialLink(str(firmware.port), config=CONFIG,
                          ack_timeout=0.2, min_silence=1.0, opener=teeing(sent))
        assert pump(link, lambda: link.in_sync)
        for _ in range(frames):
            board = random_board(rnd)
            link.show(board)
            fault = rnd.random()
            kind = None
            port = link.port
            if fault < 0.01 and port is not None:
                kind = "ctrl-c"  # a stray 0x03: on a Pico with Ctrl-C on, KeyboardInterrupt
                port.write(b"\x03")
            elif fault < 0.015 and port is not None:
                kind = "ctrl-d"
                port.write(rnd.choice((b"\x04", b"\x03\x04", b"\r\x04\x03")))
            elif fault < 0.02 and port is not None:
                kind = "garbage"
                port.write(bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 300))))
            elif fault < 0.04 and port is not None:
                kind = "corrupt"
                line = bytearray(encode_message(rnd.randrange(65536), random_board(rnd)))
                line[rnd.randrange(len(line) - 1)] ^= 1 << rnd.randrange(7)
                port.write(bytes(line))
            elif fault < 0.045:
                kind = "reset"
                firmware.reset()
            elif fault < 0.05:
                kind = "replug"
                firmware.unplug()
                pump(link, lambda: not link.is_up, timeout=5)
                firmware.plug()
                started = time.monotonic()
                assert pump(link, partial(in_sync_on, link, board)), link.status
                report.resync.append(time.monotonic() - started)
            elif fault < 0.052 and firmware.process is not None:
                kind = "stall"
                firmware.process.send_signal(signal.SIGSTOP)
                pump(link, lambda: False, timeout=rnd.uniform(0.05, 0.3))
                firmware.process.send_signal(signal.SIGCONT)
            elif fault < 0.07 and port is not None and len(sent) > 3:
                kind = "replay"  # an old STATE line arrives again after the newest
                assert pump(link, partial(in_sync_on, link, board))
                refused = fresh_heartbeat(link).stale or 0
                port.write(rnd.choice(sent[:-1]))
                # The board refuses it as old: the link would resend a board the heartbeat
                # says is not shown, so recovering alone would not tell a refusal from a slip.
                assert pump(link, partial(refused_again, link, refused)), (
                    f"the replayed line was not refused as old: {link.heartbeat}")
            if kind:
                report.faults[kind] = report.faults.get(kind, 0) + 1
            # Recovered: the board acknowledges the newest state and its heartbeat says it
            # shows that very frame (not an older one replayed to it).
            assert pump(link, partial(showing_now, link, board)), (
                f"stuck after {report.frames} frames: {link.status}\n{firmware.log()}"
            )
            report.frames += 1
            errors = link.heartbeat.errors if link.heartbeat else 0
            if not firmware.running or "Traceback" in firmware.log() or errors:
                report.crashes += 1
            elif kind:
                report.recovered[kind] = report.recovered.get(kind, 0) + 1
    return report


def test_short_soak(tmp_path: Path) -> None:
    report = soak(tmp_path, 150, seed=5)
    print("\nlink soak:", report.line())
    assert report.crashes == 0, report.line()
    assert report.frames == 150
    assert report.faults.get("ctrl-c") and report.faults.get("replay"), report.line()
    assert report.recovered == report.faults, report.line()


@pytest.mark.soak
def test_soak_10000_frames(tmp_path: Path) -> None:
    report = soak(tmp_path, 10_000, seed=11)
    print("\nlink soak:", report.line())
    assert report.crashes == 0, report.line()
    assert report.recovered == report.faults, report.line()
    assert report.resync and max(report.resync) < 1.0, report.line()
