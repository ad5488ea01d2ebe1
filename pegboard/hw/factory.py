"""gpiozero's pin factory, made by its class rather than found through entry points.

gpiozero picks a pin factory when the first device is made. With ``GPIOZERO_PIN_FACTORY``
set, it looks the name up among the entry points of every installed distribution
(``importlib.metadata``), which reads the metadata of each one on the path: tens of
milliseconds on a Pi, whose system site-packages holds hundreds, before the first screen
takes a key. gpiozero's own factories are named here with their classes, so a name among
them is made directly and set as ``Device.pin_factory``, as gpiozero's documentation sets a
factory in code; any other name (a third party's factory) is left to gpiozero, and so is
the choice when the variable is not set (gpiozero then imports its own factories in turn,
without the lookup).
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING

from pegboard import lazy

if TYPE_CHECKING:
    import gpiozero
else:
    gpiozero = lazy.module("gpiozero")

ENVIRONMENT = "GPIOZERO_PIN_FACTORY"

GPIOZERO_FACTORIES = {
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory"),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
    "pigpio": ("gpiozero.pins.pigpio", "PiGPIOFactory"),
    "native": ("gpiozero.pins.native", "NativeFactory"),
    "mock": ("gpiozero.pins.mock", "MockFactory"),
}
"""gpiozero's own factories by the names its entry points give them (``gpiozero_pin_factories``
in its distribution's metadata), each with the module and class the entry point loads."""


def ensure_pin_factory() -> None:
    """Set ``gpiozero.Device.pin_factory`` as gpiozero would on the first device, if it is unset.

    gpiozero matches the variable's value as given, then lower-cased; its own names are all
    lower case, so a value naming one of them in any case is that factory. A factory that
    cannot be made raises what gpiozero's lookup would have raised: the class's own error.
    """
    if gpiozero.Device.pin_factory is not None:
        return
    name = os.environ.get(ENVIRONMENT)
    known = GPIOZERO_FACTORIES.get(name.lower()) if name else None
    if known is None:
        gpiozero.Device.ensure_pin_factory()
        return
    module, cls = known
    gpiozero.Device.pin_factory = getattr(importlib.import_module(module), cls)()
