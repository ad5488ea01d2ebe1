"""The device the pretend table plays on: the real simulator (gpiozero mock pins, the input
kit, the loop, the app, the durable store) on one store directory, stopped and started again
like a box whose plug is pulled.

Keys go through the pins exactly as :class:`~pegboard.sim.session.Simulator` presses them, with
one addition: an encoder spin of several detents is driven at once, so the loop receives them
together and merges them into one turn, as it does for a player's quick flick of the knob.

One device plays many games in a row, like a box at a club: each finished game goes into the
store's history and the next starts from the home screen.

One cost of the desktop stand-ins is cut without changing what happens: the view (a pure
function of the immutable state) is computed once per state, not on every turn of the loop.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PIL import Image

from pegboard.app import machine
from pegboard.app.view import View
from pegboard.config import Config
from pegboard.device.build import encoder_pins
from pegboard.device.loop import App
from pegboard.record import parse_object
from pegboard.rules.events import Event, GameHeader
from pegboard.sim.fakes import FakeClock, turn_encoder
from pegboard.sim.keys import KeyStep
from pegboard.sim.session import Simulator
from pegboard.store import Store, StoreReader

GAP_S = 0.05
"""Seconds left after a spin before the next key (the simulator's gap between keys)."""


class LastFrame:
    """A display that keeps only the frame on screen (the harness reads views, not pixels)."""

    def __init__(self) -> None:
        self.frame: Image.Image | None = None
        self.shown = 0

    def show(self, image: Image.Image) -> None:
        """Keep ``image`` as the frame on screen."""
        self.frame = image
        self.shown += 1

    def set_contrast(self, level: int) -> None:
        """Contrast is not checked here."""

    def set_power(self, on: bool) -> None:
        """Blanking is not checked here."""

    def close(self, final: Image.Image | None = None) -> None:
        """Keep the frame left at shutdown."""
        if final is not None:
            self.frame = final


def memo_view() -> Any:
    """The app's view, computed once per state.

    The loop asks for the view on every turn, and the keypad kit is scanned a hundred times
    a second; the view is a pure function of the (immutable) state, so the same state gives
    the same view and only a new state needs computing."""
    last: list[Any] = [None, None]

    def view(state: machine.AppState) -> View:
        if last[0] is not state:
            last[0], last[1] = state, machine.view(state)
        result: View = last[1]
        return result

    return view


class Device:
    """The simulator on a store directory; :meth:`restart` pulls the plug and powers up."""

    def __init__(self, config: Config, directory: Path, clock: FakeClock) -> None:
        self.config = config
        self.directory = directory
        self.clock = clock
        self.keys = 0
        self.sim: Simulator
        self.store: Store
        self._boot()

    def _boot(self) -> None:
        self.store = Store(self.directory, owner="conformance")
        self.display = LastFrame()
        self.sim = Simulator(self.config, self.store, self.display, clock=self.clock)
        self.sim.loop.app = App(machine.step, memo_view())
        self.sim.start()

    @property
    def view(self) -> View:
        """What the screen shows now."""
        shown = self.sim.loop.shown
        assert shown is not None
        return shown

    @property
    def running(self) -> bool:
        """False once the device has shut itself down."""
        return self.sim.loop.running

    def press(self, step: KeyStep) -> None:
        """One key step on the pins; turns of the knob as one quick spin."""
        if step.key in ("right", "left"):
            self.spin(step.count if step.key == "right" else -step.count)
            return
        self.sim.press(step)
        self.keys += step.count

    def spin(self, detents: int) -> None:
        """Turn the encoder ``detents`` (negative: anticlockwise) in one quick movement."""
        if detents == 0:
            return
        pins = encoder_pins(self.config.input)
        turn_encoder(self.sim.factory, pins.a, pins.b, detents)
        self.sim.hands.wait(GAP_S)
        self.keys += abs(detents)

    def records(self) -> tuple[dict[str, Any], ...]:
        """The unfinished game's record lines as written (header first, undo lines kept)."""
        current = self.store.current()
        return current.records if current is not None else ()

    def restart(self, *, power_cut: bool) -> None:
        """Stop (a power cut stops dead; otherwise the device shuts down cleanly, leaving
        "Game saved"), let go of the store, and power up again on the same directory."""
        if power_cut:
            self.sim.power_cut()
        else:
            self.sim.close()
        self.store.close()
        self._boot()

    def close(self) -> None:
        """Shut down and let go of the store."""
        try:
            self.sim.close()
        finally:
            self.store.close()


def read_back(directory: Path) -> tuple[str, dict[str, Any] | None]:
    """The last game of the store at ``directory`` as written on disk, and its result: the
    finished game from the history, else the unfinished one (result None)."""
    reader = StoreReader(directory)
    current = reader.current()
    if current is not None:
        return current.record, None
    history = reader.history()
    if not history:
        return "", None
    return history[-1].record, history[-1].result


def parse_record(record: dict[str, Any]) -> Event | GameHeader:
    """One stored record line as the engine's value (read as the store decoded it)."""
    return parse_object(record)
