"""The real LED board firmware on the desktop: MicroPython's unix port on a pseudo-terminal.

:class:`FirmwareProcess` starts ``micropython firmware/main.py`` with its stdin/stdout on the
master side of a pty and offers the slave side at :attr:`FirmwareProcess.port`, a symlink that
plays the part of ``/dev/serial/by-id/...``: :class:`~pegboard.link.serial_link.SerialLink`
opens it like a real Pico. The firmware's stand-in strip appends every frame it shows to
:attr:`FirmwareProcess.frames_path`, which :meth:`FirmwareProcess.frames` reads back.

``unplug()`` kills the firmware and removes the pty (the host sees the device vanish),
``plug()`` starts it on a fresh pty, ``reset()`` restarts it on the same pty (like pressing
reset while the cable stays in). The desktop simulator and ``pegboard leds sim`` use it; so do
the tests.
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import subprocess
import sys
import time
import tty
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from pegboard.errors import LinkError
from pegboard.link.serial_link import SerialLink
from pegboard.rules.value import Value

#: The firmware sources (``main.py`` and its modules), next to the package in a checkout.
FIRMWARE_DIR = Path(__file__).resolve().parent.parent.parent / "firmware"


def tool(name: str) -> str:
    """Path of a command from the dev extra (next to this Python), else from PATH."""
    local = Path(sys.executable).parent / name
    if local.exists():
        return str(local)
    found = shutil.which(name)
    if found is None:
        raise LinkError(f"{name} is not installed: `pip install pegboard[dev]` provides it")
    return found


class RecordedFrame(Value):
    """One frame the firmware showed: its clock (ms), estimated current (mA) and RGB bytes."""

    __slots__ = ("ma", "ms", "rgb")
    __match_args__ = ("ms", "ma", "rgb")

    ms: int
    ma: int
    rgb: bytes

    def __init__(self, ms: int, ma: int, rgb: bytes) -> None:
        setter = object.__setattr__
        setter(self, "ms", ms)
        setter(self, "ma", ma)
        setter(self, "rgb", rgb)

    def pixel(self, index: int) -> tuple[int, int, int]:
        """The (r, g, b) of LED ``index``."""
        r, g, b = self.rgb[index * 3 : index * 3 + 3]
        return (r, g, b)

    def lit(self) -> dict[int, tuple[int, int, int]]:
        """Every LED that is not off, by index."""
        return {i: self.pixel(i) for i in range(len(self.rgb) // 3) if any(self.pixel(i))}


class FirmwareProcess:
    """The firmware running under MicroPython, reachable at :attr:`port`."""

    def __init__(
        self,
        directory: Path,
        *,
        firmware_dir: Path = FIRMWARE_DIR,
        record: bool = True,
        port_name: str = "pegboard-leds",
    ) -> None:
        self.directory = Path(directory)
        self.firmware_dir = firmware_dir
        self.port = self.directory / port_name
        self.frames_path: Path | None = self.directory / "frames.txt" if record else None
        self.log_path = self.directory / "firmware.log"
        self.process: subprocess.Popen[bytes] | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self._frames_read = 0
        self._frames: list[RecordedFrame] = []
        self._partial = b""

    # -- life cycle ----------------------------------------------------------------------------

    def plug(self) -> None:
        """Start the firmware on a fresh pty and point :attr:`port` at it."""
        if self._master is not None:
            raise LinkError("firmware is already plugged in")
        master, slave = os.openpty()
        tty.setraw(slave)  # a USB CDC port has no line discipline: no echo, no CR/LF games
        self._master, self._slave = master, slave
        temporary = self.port.with_name(self.port.name + ".new")
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
        temporary.symlink_to(os.ttyname(slave))
        temporary.replace(self.port)
        self._start()

    def _start(self) -> None:
        assert self._master is not None
        env = dict(os.environ)
        env.pop("PEGBOARD_LED_FRAMES", None)
        if self.frames_path is not None:
            env["PEGBOARD_LED_FRAMES"] = str(self.frames_path)
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [tool("micropython"), str(self.firmware_dir / "main.py")],
                stdin=self._master,
                stdout=self._master,
                stderr=log,
                cwd=self.firmware_dir,
                env=env,
            )

    def _stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def reset(self) -> None:
        """Restart the firmware on the same pty (the host's port stays open)."""
        self._stop()
        self._start()

    def unplug(self) -> None:
        """Kill the firmware and tear down its pty, like pulling the USB cable."""
        self._stop()
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None
        with contextlib.suppress(FileNotFoundError):
            self.port.unlink()

    def replug(self) -> None:
        """Unplug, then plug in again."""
        self.unplug()
        self.plug()

    def close(self) -> None:
        """Stop everything."""
        self.unplug()

    def __enter__(self) -> FirmwareProcess:
        self.plug()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def running(self) -> bool:
        """True while the firmware process is alive."""
        return self.process is not None and self.process.poll() is None

    # -- what the stand-in strip recorded ------------------------------------------------------

    def frames(self) -> list[RecordedFrame]:
        """Every frame shown so far (read incrementally from :attr:`frames_path`)."""
        if self.frames_path is None or not self.frames_path.exists():
            return list(self._frames)
        with self.frames_path.open("rb") as handle:
            handle.seek(self._frames_read)
            data = handle.read()
        self._frames_read += len(data)
        data = self._partial + data
        *lines, self._partial = data.split(b"\n")
        for line in lines:
            ms, ma, hexed = line.split(b" ")
            self._frames.append(RecordedFrame(int(ms), int(ma), bytes.fromhex(hexed.decode())))
        return list(self._frames)

    def last_frame(self) -> RecordedFrame | None:
        """The frame on the strip now, if any was shown."""
        frames = self.frames()
        return frames[-1] if frames else None

    def log(self) -> str:
        """What the firmware printed on stderr (tracebacks, if it ever crashed)."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


def pump(
    link: SerialLink,
    until: Callable[[], bool],
    *,
    timeout: float = 10.0,
    clock: Callable[[], float] = time.monotonic,
) -> bool:
    """Poll ``link`` until ``until()`` is true or ``timeout`` seconds pass; True if it came true.

    Between polls it waits on the port's file descriptor (at most 10 ms), so it reacts to
    bytes as they arrive instead of sleeping blindly.
    """
    deadline = clock() + timeout
    while True:
        link.poll(clock())
        if until():
            return True
        if clock() >= deadline:
            return False
        fd = link.fileno()
        if fd is not None:
            with contextlib.suppress(OSError, ValueError):
                select.select([fd], [], [], 0.01)
        else:
            select.select([], [], [], 0.01)
