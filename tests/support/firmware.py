"""Loading the LED board's firmware modules in CPython (they are written to run on both), and
waiting on the link to the real firmware."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from pegboard.link import fwsim
from pegboard.link.fwsim import FIRMWARE_DIR
from pegboard.link.serial_link import SerialLink
from tests.support.waiting import LIVENESS_S


def pump(link: SerialLink, until: Callable[[], bool], *, timeout: float = LIVENESS_S) -> bool:
    """:func:`pegboard.link.fwsim.pump` with the tests' bound: :data:`LIVENESS_S` unless
    ``timeout`` says otherwise (fwsim's 10 s is the simulator's, and a busy machine can take
    longer to start MicroPython and answer)."""
    return fwsim.pump(link, until, timeout=timeout)


def load_firmware(name: str, path: Path | None = None) -> ModuleType:
    """The firmware module ``name`` (from ``path``, else ``firmware/<name>.py``), loaded afresh
    with the firmware folder on the path for its own imports."""
    sys.path.insert(0, str(FIRMWARE_DIR))
    try:
        spec = importlib.util.spec_from_file_location(name, path or FIRMWARE_DIR / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(FIRMWARE_DIR))
