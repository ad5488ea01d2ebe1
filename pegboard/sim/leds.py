"""The LED pegboard in the simulator: the real firmware under MicroPython on a pty.

``pegboard sim --leds`` starts the board's firmware with the MicroPython unix port
(:class:`~pegboard.link.fwsim.FirmwareProcess`) and connects the real serial link to it, so the
pegs the game sends travel the same way as to a Pico on USB. The terminal shows the link's
state and how many LEDs the firmware lit.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from pegboard.link.fwsim import FirmwareProcess, RecordedFrame
from pegboard.link.layout import LedConfig
from pegboard.link.led_board import SerialLedBoard
from pegboard.link.serial_link import SerialLink

NAMED = 4
"""The most LEDs the status names as the brightest."""


def lit_line(frame: RecordedFrame | None) -> str:
    """The LEDs a frame lit, its current and the brightest LEDs by their place in the chain,
    when some are brighter than the rest and at most :data:`NAMED` share the top: the pegs,
    or the LED walk's one LED (the skunk markers are always lit faintly).

    >>> lit_line(RecordedFrame(0, 15, bytes([0, 0, 0, 128, 0, 0, 6, 6, 6])))
    'LEDs lit: 2, 15 mA; brightest: LED 1'
    """
    lit = frame.lit() if frame is not None else {}
    line = f"LEDs lit: {len(lit)}" + (f", {frame.ma} mA" if frame is not None else "")
    top = max((sum(rgb) for rgb in lit.values()), default=0)
    brightest = [index for index, rgb in lit.items() if sum(rgb) == top]
    if len(brightest) < len(lit) and len(brightest) <= NAMED:  # none brighter: no pegs
        line += "; brightest: LED " + ", ".join(map(str, brightest))
    return line


class SimulatedBoard:
    """A firmware process, the link to it, and the loop's view of both."""

    def __init__(self, *, tracks: int = 2) -> None:
        self._scratch = tempfile.TemporaryDirectory(prefix="pegboard-leds-")
        self.firmware = FirmwareProcess(Path(self._scratch.name))
        self.firmware.plug()
        self.link = SerialLink(str(self.firmware.port), config=LedConfig(tracks=tracks))
        self.board = SerialLedBoard(self.link)

    def status(self) -> list[str]:
        """Lines for the terminal: the link's state and what the strip shows
        (:func:`lit_line`)."""
        return [self.link.status, lit_line(self.firmware.last_frame())]

    def close(self) -> None:
        """Close the link and stop the firmware."""
        self.board.close()
        self.firmware.close()
        self._scratch.cleanup()
