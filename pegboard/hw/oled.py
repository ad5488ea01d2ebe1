"""The 128x64 OLED through luma: SSD1306 or SH1106 on I2C, or luma's virtual devices.

The screen is driven only through :class:`OledDisplay`, which takes finished images from
:func:`pegboard.ui.render` and hands them to a luma device (``device.display(image)``). Dimming
uses the controller's contrast, blanking its display-off command (``hide``/``show``), which is
what saves the panel from burn-in while the game sits idle.

luma switches the panel off and clears it when the program exits; :meth:`OledDisplay.close`
sets luma's ``persist`` flag first, so the "game saved" frame stays lit after a clean shutdown.
luma is imported lazily: nothing here needs an I2C bus until a real device is opened.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from PIL import Image

from pegboard import lazy
from pegboard.errors import PegboardError

if TYPE_CHECKING:
    from luma.core import device as luma_device
    from luma.core.interface import serial as luma_serial
    from luma.emulator import device as luma_emulator
    from luma.oled import device as luma_oled
else:
    luma_device = lazy.module("luma.core.device")
    luma_emulator = lazy.module("luma.emulator.device")
    luma_oled = lazy.module("luma.oled.device")
    luma_serial = lazy.module("luma.core.interface.serial")

WIDTH, HEIGHT = 128, 64
MODELS = ("ssd1306", "sh1106")


# Protocols only the type checker reads (no isinstance on them): not made at run time.
if TYPE_CHECKING:
    class Display(Protocol):
        """Where frames go: the OLED, a terminal, a recording for tests."""

        def show(self, image: Image.Image) -> None:
            """Put ``image`` (128x64, mode "1") on the screen."""
            ...

        def set_contrast(self, level: int) -> None:
            """Brightness 0-255 (used to dim when idle)."""
            ...

        def set_power(self, on: bool) -> None:
            """Blank the panel (``False``) or light it again (``True``)."""
            ...

        def close(self, final: Image.Image | None = None) -> None:
            """Leave ``final`` on the screen (if given) and release the device."""
            ...


class OledDisplay:
    """A luma device behind the :class:`Display` protocol."""

    def __init__(self, device: Any) -> None:
        if tuple(device.size) != (WIDTH, HEIGHT):
            raise PegboardError(
                f"display is {device.size[0]}x{device.size[1]}; Pegboard needs {WIDTH}x{HEIGHT}"
            )
        self.device = device
        self._on = True

    def show(self, image: Image.Image) -> None:
        """Push ``image`` to the panel."""
        self.device.display(image.convert(self.device.mode))

    def set_contrast(self, level: int) -> None:
        """Set the panel's contrast (0-255)."""
        self.device.contrast(max(0, min(255, level)))

    def set_power(self, on: bool) -> None:
        """Switch the panel on or off; the image in its memory is kept."""
        if on != self._on:
            if on:
                self.device.show()
            else:
                self.device.hide()
            self._on = on

    def close(self, final: Image.Image | None = None) -> None:
        """Show ``final`` lit and keep it there after exit (luma's ``persist``)."""
        if final is not None:
            self.set_power(True)
            self.show(final)
            self.device.persist = True
        self.device.cleanup()


def open_oled(model: str, *, port: int = 1, address: int = 0x3C, rotate: int = 0) -> Any:
    """Open the real panel on I2C (``model`` is "ssd1306" or "sh1106")."""
    if model not in MODELS:
        raise PegboardError(f"display model {model!r} is not supported; use one of {MODELS}")
    try:
        serial = luma_serial.i2c(port=port, address=address)
    except Exception as error:  # luma raises its own DeviceNotFoundError/PermissionError
        raise PegboardError(
            f"cannot open the OLED on I2C bus {port} at address {address:#04x}: {error} "
            "(is I2C enabled, and the display wired to SDA GPIO2 / SCL GPIO3?)"
        ) from error
    return getattr(luma_oled, model)(serial, width=WIDTH, height=HEIGHT, rotate=rotate)


def open_dummy(rotate: int = 0) -> Any:
    """luma's ``dummy`` device: keeps the last image, used by the tests and the simulator."""
    return luma_device.dummy(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1")


def open_emulator(scale: int = 4) -> Any | None:
    """A luma.emulator pygame window if that package and a display are available, else None."""
    try:
        emulator = luma_emulator.pygame  # an optional package: imported here, if installed
    except ImportError:
        return None
    try:
        return emulator(width=WIDTH, height=HEIGHT, mode="1", scale=scale)
    except Exception:  # no window system: the terminal view still works
        return None
