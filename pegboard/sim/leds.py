"""The LED pegboard in the simulator: the real firmware under MicroPython on a pty.

``pegboard sim --leds`` starts the board's firmware with the MicroPython unix port
(:class:`~pegboard.link.fwsim.FirmwareProcess`) and connects the real serial link to it, so the
pegs the game sends travel the same way as to a Pico on USB. The terminal shows the link's
state and how many LEDs the firmware lit.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from pegboard.link.fwsim import FirmwareProcess
from pegboard.link.layout import LedConfig
from pegboard.link.led_board import SerialLedBoard
from pegboard.link.serial_link import SerialLink


class SimulatedBoard:
    """A firmware process, the link to it, and the loop's view of both."""

    def __init__(self, *, tracks: int = 2) -> None:
        self._scratch = tempfile.TemporaryDirectory(prefix="pegboard-leds-")
        self.firmware = FirmwareProcess(Path(self._scratch.name))
        self.firmware.plug()
        self.link = SerialLink(str(self.firmware.port), config=LedConfig(tracks=tracks))
        self.board = SerialLedBoard(self.link)

    def status(self) -> list[str]:
        """Lines for the terminal: the link's state and the LEDs lit."""
        frame = self.firmware.last_frame()
        lit = len(frame.lit()) if frame is not None else 0
        return [self.link.status, f"LEDs lit: {lit}" + (f", {frame.ma} mA" if frame else "")]

    def close(self) -> None:
        """Close the link and stop the firmware."""
        self.board.close()
        self.firmware.close()
        self._scratch.cleanup()
