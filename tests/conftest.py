"""Fixtures shared by the test modules."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    """gpiozero's mock pins as the default pin factory for one test, reset afterwards."""
    saved = Device.pin_factory
    Device.pin_factory = factory = MockFactory()
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved
