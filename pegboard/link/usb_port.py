"""The serial port the LED link talks through: what the link needs of it, how it is opened
(pyserial, exclusive, never blocking) and how a Pico is found on USB."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from pegboard import lazy
from pegboard.errors import LinkError

if TYPE_CHECKING:
    import serial
    from serial.tools import list_ports
else:
    serial = lazy.module("serial")
    list_ports = lazy.module("serial.tools.list_ports")

#: USB vendor id of the Raspberry Pi Pico (RP2040) running MicroPython.
PICO_VID = 0x2E8A


class Port(Protocol):
    """The part of :class:`serial.Serial` the link uses."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def close(self) -> None: ...


Opener = Callable[[str], Port]
"""Opens a device path as a :class:`Port` (raising LinkError or OSError)."""


def open_serial(path: str, baudrate: int = 115200) -> Port:
    """Open ``path`` with pyserial: exclusive, non-blocking reads and writes.

    The Pico's USB serial runs at USB speed whatever ``baudrate`` says; it matters only for a
    board behind a USB-to-UART adapter.
    """
    try:
        port: Port = serial.Serial(path, baudrate=baudrate, timeout=0, write_timeout=0,
                                   exclusive=True)
    except (serial.SerialException, OSError) as error:
        raise LinkError(f"cannot open {path}: {error}") from error
    return port


def find_board(serial_number: str | None = None) -> str | None:
    """The device path of a connected Pico (matching ``serial_number`` when given), or None."""
    for info in sorted(list_ports.comports(), key=lambda p: p.device):
        if serial_number:
            if info.serial_number == serial_number:
                return str(info.device)
        elif info.vid == PICO_VID:
            return str(info.device)
    return None
