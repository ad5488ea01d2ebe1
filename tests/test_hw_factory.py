"""The pin factory ``pegboard run`` makes: gpiozero's own, by class, without the entry-point
lookup (which reads every installed distribution's metadata before the first screen)."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from importlib.metadata import distribution
from typing import Any

import gpiozero.devices
import pytest
from gpiozero import BadPinFactory, Device
from gpiozero.pins.mock import MockFactory

from pegboard.config import InputConfig
from pegboard.device.build import make_kit
from pegboard.hw.factory import ENVIRONMENT, GPIOZERO_FACTORIES, ensure_pin_factory
from pegboard.sim.fakes import FakeClock


@pytest.fixture
def no_factory(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """No pin factory set yet; each entry-point lookup gpiozero makes is listed."""
    looked_up: list[str] = []
    real = gpiozero.devices.entry_points

    def entry_points(**selection: Any) -> Any:
        looked_up.append(selection.get("group", ""))
        return real(**selection)

    monkeypatch.setattr(gpiozero.devices, "entry_points", entry_points)
    saved = Device.pin_factory
    Device.pin_factory = None
    try:
        yield looked_up
    finally:
        if Device.pin_factory is not None:
            Device.pin_factory.close()
        Device.pin_factory = saved


def test_the_table_is_gpiozeros_own_entry_points() -> None:
    points = distribution("gpiozero").entry_points.select(group="gpiozero_pin_factories")
    assert {point.name: tuple(point.value.split(":")) for point in points} == GPIOZERO_FACTORIES


@pytest.mark.parametrize("name", ["mock", "MOCK"])
def test_the_kit_is_made_on_the_named_factory_without_the_lookup(
    name: str, no_factory: list[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(ENVIRONMENT, name)
    inbox: queue.Queue[Any] = queue.Queue()
    kit = make_kit(InputConfig(), inbox.put, FakeClock())
    try:
        assert isinstance(Device.pin_factory, MockFactory)
        assert "GPIO17" in {pin.info.name for pin in Device.pin_factory.pins.values()}  # A
    finally:
        kit.close()
    assert no_factory == []


def test_a_name_gpiozero_does_not_ship_is_left_to_gpiozero(
    no_factory: list[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(ENVIRONMENT, "no-such-factory")
    with pytest.raises(BadPinFactory, match="no-such-factory"):
        ensure_pin_factory()
    assert no_factory == ["gpiozero_pin_factories"]


def test_a_factory_already_set_is_kept(no_factory: list[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENVIRONMENT, "native")
    Device.pin_factory = chosen = MockFactory()
    ensure_pin_factory()
    assert Device.pin_factory is chosen and no_factory == []
